"""The stepping step's per-contact code written once per kind of contact (solver/stepping/
kinds.py): the sweep's visits and the Delassus blocks of alike contacts are calls of one
Function per kind. Reference: the same step with that code unrolled per contact (the layout
before), on a small stack whose top box falls tilted and spinning onto the others."""
from __future__ import annotations

import numpy as np
import pytest

from jourdain.solver.stepping import exact, kinds
from jourdain.solver.stepping import step as step_module
from jourdain.solver.stepping.exact import TOL
from jourdain.solver.stepping.run import _specs
from jourdain.solver.stepping.step import LEDGER, build_parts
from test_stepping_stack import SIZE, tower


def _stack(boxes: int, top: dict, speeds: dict):
    """A stack of ``boxes`` (tests/test_stepping_stack.py) with its top box's coordinates
    ``top`` and speeds ``speeds`` changed: the system, its contacts, the state."""
    system, pairs, y0 = tower(boxes)
    name = f"box{boxes - 1}_j"
    y0 = {**y0, **{f"{name}.{k}": v for k, v in top.items()}}
    z0 = {f"{name}.{k}": v for k, v in speeds.items()}
    return system, _specs(system, pairs), system.state(y0, z0)


# the top box of three falling 1 mm onto the others (an impact), and sliding on the box
# below at 0.2 m/s (friction on the cone's edge); both keep the exact solve accepted at
# every step (its law met), so that the step is a smooth function of round-off. Where the
# solve is refused (the top box sliding while the middle one moves sideways), the sweeps'
# unconverged iterate amplifies round-off by 1e5 in a few steps, for either layout.
SCENES = {"impact": ({"y": 2.5 * SIZE + 1e-3}, {"vy": -0.3}),
          "sliding": ({}, {"vx": 0.2})}


def _parts(system, specs, monkeypatch, mapped_ops: int):
    monkeypatch.setattr(kinds, "MAP_OPS", mapped_ops)
    return build_parts(system, specs, 30, True)


def test_alike_contacts_share_one_function_per_kind(monkeypatch):
    """Reference: the tower's geometry. Its 24 corners are of two kinds (a box's corners
    on the ground, a box's on the box below: 6 and 12 speeds); each kind's body is one
    Function the parts call, and the sweep's unrolled code shrinks accordingly."""
    system, specs, _ = _stack(3, *SCENES["impact"])
    (kin, sweep, _), _, nc = _parts(system, specs, monkeypatch, 0)
    (_, sweep_unrolled, _), _, _ = _parts(system, specs, monkeypatch, 10**12)
    assert nc == 24
    kinds_ = [f for f in sweep.find_functions() if f.name().startswith("sweep_kind")]
    assert sorted(f.size1_in(0) for f in kinds_) == [6, 12]
    blocks = [f for f in kin.find_functions() if f.name().startswith("delassus_kind")]
    assert len(blocks) == 2
    assert not sweep_unrolled.find_functions()[1:]
    assert sweep.n_instructions() < sweep_unrolled.n_instructions() / 3


@pytest.mark.parametrize("scene", sorted(SCENES))
def test_mapped_step_equals_the_unrolled_one(monkeypatch, scene):
    """Twenty steps of a three-box stack (SCENES: an impact, friction at the cone's edge;
    the exact solve, the position correction) and the first step's settled impulses with
    the mapped parts and with the unrolled ones, both on CasADi's virtual machine: the
    states agree to the exact solve's own tolerance (stepping.exact.TOL, 1e-9 relative;
    the visit's arithmetic is the unrolled one's on the contact's speeds, so round-off at
    most), the impulses of the settled start too, and the parts (Delassus inverses, one
    sweep) to 1e-12. The solve's law holds in both runs (complementarity below 1e-9 m/s)."""
    system, specs, x0 = _stack(3, *SCENES[scene])
    p, h, u = system.parameters(None), 1e-3, np.zeros(0)
    (kin_m, sweep_m, fin_m), compose_m, nc = _parts(system, specs, monkeypatch, 0)
    (kin_u, sweep_u, fin_u), compose_u, _ = _parts(system, specs, monkeypatch, 10**12)
    out_m = [np.array(o).ravel() for o in kin_m(0.0, x0, u, p, h)]
    out_u = [np.array(o).ravel() for o in kin_u(0.0, x0, u, p, h)]
    for a, b in zip(out_m, out_u):
        assert np.abs(a - b).max() <= 1e-12 * max(np.abs(b).max(), 1.0)
    J, B, w_n, w_t, b, z_free, _ = kin_u(0.0, x0, u, p, h)
    zl = np.concatenate([np.array(z_free).ravel(), np.linspace(0.0, 0.1, 3 * nc)])
    one_m = np.array(sweep_m(zl, J, B, w_n, w_t, b)).ravel()
    one_u = np.array(sweep_u(zl, J, B, w_n, w_t, b)).ravel()
    assert np.abs(one_m - one_u).max() <= 1e-12 * np.abs(one_u).max()
    acc = np.concatenate([[0.0], x0, np.zeros(3 * nc + len(LEDGER))])
    (step_m, settle_m), (step_u, settle_u) = compose_m(kin_m, sweep_m, fin_m), \
        compose_u(kin_u, sweep_u, fin_u)
    impulses = slice(1 + system.nx, 1 + system.nx + 3 * nc)
    a, b = acc.copy(), acc.copy()
    a[impulses] = np.array(settle_m(acc, u, p, h)).ravel()
    b[impulses] = np.array(settle_u(acc, u, p, h)).ravel()
    assert np.abs(a - b).max() <= TOL * np.abs(b[impulses]).max()
    states = slice(1, 1 + system.nx)
    for _ in range(20):
        a = np.array(step_m(a, u, p, h)).ravel()
        b = np.array(step_u(b, u, p, h)).ravel()
        assert np.abs(a[states] - b[states]).max() <= TOL * np.abs(b[states]).max()
    ledger = dict(zip(LEDGER, b[-len(LEDGER):]))
    assert ledger["complementarity"] < 1e-9 and a[-len(LEDGER) + 1] < 1e-9
    assert np.abs(b[states] - acc[states]).max() > 0.05      # the top box moved


def test_solve_in_mx_equals_the_expanded_one(monkeypatch):
    """Above EXPAND_NZ speeds the exact solve's check and passes are MX (CasADi's loops
    and sparse QR) instead of an expanded symbolic inverse (SX), and above START_MX_NNZ
    the step's start (kinematics, first sweeps) is MX: both forced on the three-box stack
    (18 speeds) with the top box's impact, twenty steps agree with the expanded solve's to its
    own tolerance (TOL, 1e-9 relative), the solve's law holding in both. (On the sliding
    scene the two differ by 5e-6 m/s in a spin the law leaves nearly free: four coplanar
    corners make W singular, and the proximal passes amplify the two QRs' round-off by
    ~1/EPS²; both meet the law there to 1e-9 m/s.)"""
    system, specs, x0 = _stack(3, *SCENES["impact"])
    p, h, u = system.parameters(None), 1e-3, np.zeros(0)
    runs = []
    for expand in (10**6, 0):
        monkeypatch.setattr(exact, "EXPAND_NZ", expand)
        monkeypatch.setattr(step_module, "START_MX_NNZ", expand)
        (kin, sweep, fin), compose, nc = build_parts(system, specs, 30, True)
        step, settle = compose(kin, sweep, fin)
        attempt = [f for f in step.find_functions() if f.name() == "exact_attempt"]
        starts = [f for f in step.find_functions() if f.name() in ("exact_check", "start")]
        assert {f.class_name() for f in attempt + starts} == \
            {"SXFunction" if expand else "MXFunction"} and len(starts) == 2
        acc = np.concatenate([[0.0], x0, np.zeros(3 * nc + len(LEDGER))])
        acc[1 + system.nx:1 + system.nx + 3 * nc] = np.array(settle(acc, u, p, h)).ravel()
        states = []
        for _ in range(20):
            acc = np.array(step(acc, u, p, h)).ravel()
            states.append(acc[1:1 + system.nx])
        runs.append((np.array(states), dict(zip(LEDGER, acc[-len(LEDGER):]))))
    (expanded, ledger_e), (mx, ledger_m) = runs
    assert np.abs(expanded - mx).max() <= TOL * np.abs(expanded).max()
    assert ledger_e["complementarity"] < 1e-9 and ledger_m["complementarity"] < 1e-9
