"""The stepping mode's step compiled in two stages (solver/stepping/staged.py): the parts
(kinematics, sweep, finish) in C files of their own, the step's glue calling them. Its
result is the step's on CasADi's virtual machine, and its library obeys the cache's
contract (reused when cached, rebuilt for a changed problem)."""
from __future__ import annotations

import numpy as np
import pytest

import jourdain as jd
from jourdain.solver.stepping.exact import TOL
from jourdain.solver.stepping.run import _specs
from jourdain.solver.stepping.staged import compiled_staged
from jourdain.solver.stepping.step import LEDGER, build_parts
from stepping_models import box_on_ground


def _step_functions(e: float):
    """The parts, the composer and a start (acc) of a box dropped tilted and spinning
    onto the ground, its contacts already closing (every branch of the step runs)."""
    system = jd.compile(box_on_ground(e=e))
    parts, compose, nc = build_parts(system, _specs(system, ()), 30, True)
    q = np.array([np.cos(0.25), np.sin(0.25), 0.0, 0.0])
    x0 = system.state({"box_j.y": 0.12, **{f"box_j.q{k}": q[k] for k in range(4)}},
                      {"box_j.vy": -1.0, "box_j.wx": 3.0})
    acc = np.concatenate([[0.0], x0, np.zeros(3 * nc + len(LEDGER))])
    return system, parts, compose, acc


def _staged(parts, compose):
    return compiled_staged(parts, compose(*parts), compose, ["step", "settle"], ("-O0",))


def test_staged_step_equals_the_virtual_machine(tmp_path, monkeypatch):
    """Reference: the same step functions evaluated by CasADi's virtual machine. Twenty
    steps of a box hitting the ground (impacts, the exact solve, the position correction)
    and the first step's settled impulses agree to the exact solve's own tolerance
    (stepping.exact.TOL, 1e-9 relative): the two evaluate the solve's SX leaves in different
    operation orders, and its speeds'-space solve amplifies round-off (1.5e-11 measured)."""
    monkeypatch.setenv("JOURDAIN_CACHE", str(tmp_path))
    system, parts, compose, acc = _step_functions(0.5)
    p, h = system.parameters(None), 1e-3
    vm = compose(*parts)
    compiled, _ = compiled_staged(parts, vm, compose, ["step", "settle"], ("-O0",))
    for fn_vm, fn_c in zip(vm, compiled):
        a, b = acc.copy(), acc.copy()
        for _ in range(20 if fn_vm.name() == "step" else 1):
            ra = np.array(fn_vm(a, np.zeros(0), p, h)).ravel()
            rb = np.array(fn_c(b, np.zeros(0), p, h)).ravel()
            scale = np.abs(ra).max()
            assert np.abs(ra - rb).max() <= TOL * scale
            if ra.size != a.size:       # settle: the impulses, once
                break
            a, b = ra, rb
        assert a[2] != acc[2] or fn_vm.name() != "step"    # the box moved


# two builds of the step (gcc, ~20 s): slow
@pytest.mark.slow
def test_staged_library_is_cached_and_rebuilt_for_a_changed_problem(tmp_path, monkeypatch):
    """Reference: the cache directory's listing. A second build of the same step loads
    the cached library (no new file, the same path); a box with another restitution is a
    different step and gets a library of its own."""
    monkeypatch.setenv("JOURDAIN_CACHE", str(tmp_path))
    _, parts, compose, _ = _step_functions(0.5)
    first = _staged(parts, compose)
    libraries = sorted(tmp_path.glob("jd_step_*.so"))
    assert first is not None and len(libraries) == 1
    inode = libraries[0].stat().st_ino     # a rebuild replaces the file (a new inode)
    _, parts, compose, _ = _step_functions(0.5)
    assert _staged(parts, compose) is not None
    assert sorted(tmp_path.glob("jd_step_*.so")) == libraries
    assert libraries[0].stat().st_ino == inode
    _, parts, compose, _ = _step_functions(0.2)
    assert _staged(parts, compose) is not None
    assert len(list(tmp_path.glob("jd_step_*.so"))) == 2
