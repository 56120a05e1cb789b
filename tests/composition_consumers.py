"""The consumers of the composition matrix (tests/composition.py): each runs one family's
model (a builder of tests/composition_models.py) as a user would and asserts its reference;
an error the consumer raises propagates (the matrix says which refusals are expected)."""
from __future__ import annotations

import numpy as np
from scipy.spatial.transform import Rotation
from test_visual import floats, payload   # the player's data, as the visual tests read it

import jourdain as jd

RTOL = 1e-9     # the integrations compared against each other


def _scale(x) -> float:
    return 1.0 + float(np.abs(np.asarray(x)).max())


def _plain(case) -> dict:
    """simulate's keywords without the controller (for System-only consumers)."""
    return {k: v for k, v in case.run.items() if k not in ("controller", "period")}


def _target(case):
    """The System a System-only consumer gets: the closed loop for controllers."""
    return case.closed() if case.closed is not None else case.system


def _residual(res) -> float:
    return max((np.abs(v).max() for k, v in res.series.items() if k.startswith("residual")),
               default=0.0)


def simulate(build, tmp_path) -> None:
    """islands=True and islands=False agree to 1e-6 relative (rtol 1e-9); constraint
    residuals stay below 1e-6."""
    case = build()
    kw = dict(case.run, rtol=RTOL, atol=RTOL, n_out=101)
    a = case.system.simulate(case.t_end, islands=True, **kw)
    b = case.system.simulate(case.t_end, islands=False, **kw)
    assert np.abs(a.x - b.x).max() <= 1e-6 * _scale(b.x)
    assert _residual(a) < 1e-6 and _residual(b) < 1e-6


def codegen(build, tmp_path) -> None:
    """Compiled f equals the virtual machine's at the start state (1e-9 relative); the
    simulation with it equals the virtual machine's (1e-6 relative)."""
    case = build()
    s = case.system
    kw = dict(case.run, rtol=RTOL, atol=RTOL, n_out=51)
    ref = s.simulate(case.t_end, **kw)
    vm = s.functions["f"]
    s.codegen(cache_dir=tmp_path)
    assert s.library is not None, "codegen kept the virtual machine"
    x, u, p = ref.x[:, 0], np.zeros(len(s.u_names)), s.p_default
    a, b = np.array(s.f(0.0, x, u, p)).ravel(), np.array(vm(0.0, x, u, p)).ravel()
    assert np.abs(a - b).max() <= 1e-9 * _scale(b)
    got = s.simulate(case.t_end, **kw)
    assert np.abs(got.x - ref.x).max() <= 1e-6 * _scale(ref.x)


def fmu(build, tmp_path) -> None:
    """The FMU run by FMPy (model exchange, its CVODE at 1e-10) equals simulate's states to
    1e-5 relative."""
    import fmpy
    case = build()
    run = _plain(case)
    target = _target(case)
    extra = {"events": run["events"]} if "events" in run else {}
    path = target.export_fmu(tmp_path / "m.fmu", y0=run.get("y0"), z0=run.get("z0"),
                             cache_dir=tmp_path, **extra)
    inputs = run.get("inputs") or {}
    signal = None
    if inputs:
        signal = np.array([(0.0, *inputs.values()), (case.t_end + 1.0, *inputs.values())],
                          dtype=[("time", float)] + [(n, float) for n in inputs])
    out = fmpy.simulate_fmu(str(path), fmi_type="ModelExchange", stop_time=case.t_end,
                            output_interval=case.t_end / 50, relative_tolerance=1e-10,
                            output=target.x_names, input=signal)
    # at a time event FMPy records the instant twice (before and after); simulate's output
    # there is the value after (right-continuous), so the last record of each time is kept
    t = out["time"]
    keep = np.r_[t[1:] > t[:-1], True]
    ref = target.simulate(case.t_end, t_out=t[keep], rtol=1e-10, atol=1e-10, **run)
    error = max(np.abs(out[n][keep] - ref[n]).max() for n in target.x_names)
    assert error <= 1e-5 * _scale(ref.x)


def linearize(build, tmp_path) -> None:
    """In the modes stated in params (hybrid elements), the speed rows of A equal central
    differences of the nonlinear f through the LinearSystem's chart (to_state), to 1e-5
    relative."""
    case = build()
    target = _target(case)
    extra = {"events": case.run["events"]} if "events" in case.run else {}
    lin = jd.linearize(target, **case.op, **extra, params=case.modes or None)
    ny, n = len(target.y_names), len(lin.state_names)
    nth = n - (target.nx - ny)
    f, p = target.numeric("f"), target.parameters(case.modes or None)
    h = 1e-6
    rows = []
    for e in np.eye(n):
        fp, fm = (f(0.0, lin.to_state(s * h * e), lin.u_op, p) for s in (1, -1))
        rows.append((np.asarray(fp) - np.asarray(fm)).ravel()[ny:] / (2 * h))
    fd = np.column_stack(rows)
    assert np.abs(lin.A[nth:] - fd).max() <= 1e-5 * _scale(lin.A)


def trajectory(build, tmp_path, tol: float = 1e-4) -> None:
    """A short plan (20 Radau intervals of degree 3 over the first 0.1 s from the start
    state, least squared inputs; hybrid elements in the modes stated in params)
    re-simulated by CVODES: local transcription error below 1e-4 relative (``tol``)."""
    case = build()
    target = _target(case)
    extra = {"events": case.run["events"]} if "events" in case.run else {}
    ocp = jd.TrajectoryProblem(target, 0.1, intervals=20, params=case.modes or None,
                               **extra)
    start = target.simulate(1e-3, n_out=2, **_plain(case)).x[:, 0]
    ocp.initial(dict(zip(target.x_names, start)))
    for name in target.u_names:
        ocp.bound(name, -1.0, 1.0)
    if target.u_names:
        ocp.integral_cost(lambda v: sum(v[n] ** 2 for n in target.u_names))
    sol = ocp.solve(jd.Collocation(3, jd.Scheme.RADAU), progress=False)
    check = sol.check()
    assert check.max_local <= tol * _scale(check.simulated.x)


def sweep(build, tmp_path) -> None:
    """Each row of a two-point sweep of a symbolic parameter equals a direct simulate with
    that value (final states, 1e-8 relative)."""
    case = build()
    name, values = case.param
    run = dict(case.run)
    options = {k: run.pop(k) for k in ("controller", "period", "events") if k in run}
    table = jd.sweep(case.system, params={name: list(values)}, t_end=case.t_end,
                     options=dict(options, rtol=RTOL, atol=RTOL), workers=1, progress=False,
                     metrics=list(case.system.x_names), **run)
    assert list(table["status"]) == ["ok", "ok"], table.get("error")
    for value, (_, row) in zip(values, table.iterrows()):
        ref = case.system.simulate(case.t_end, params={name: value}, rtol=RTOL, atol=RTOL,
                                   **case.run)
        got = np.array([row[f"{n}.final"] for n in case.system.x_names])
        assert np.abs(got - ref.x[:, -1]).max() <= 1e-8 * _scale(ref.x)


def energy(build, tmp_path) -> None:
    """E(T) − E(0) = ∫(P_supplied − P_dissipated) dt + the jumps of E at the events of the
    log (impacts, resets), to 1e-4 of the energy scale (trapezoid on 2000 output intervals);
    each impact's jump equals the log's energy_lost to round-off."""
    case = build()
    s = case.system
    # 2000 intervals, the inner output times at their midpoints: a sample instant (a
    # multiple of dt) falls in the middle of an output interval, where the trapezoid
    # integrates a jump of a held torque exactly
    dt = case.t_end / 2000
    t_out = np.concatenate([[0.0], np.arange(0.5, 2000) * dt, [case.t_end]])
    res = s.simulate(case.t_end, t_out=t_out, rtol=1e-10, atol=1e-10, **case.run)
    E = res["energy.total"]
    P = res.series.get("power.supplied", 0 * E) - res["power.dissipated"]
    work = float(np.sum(0.5 * (P[1:] + P[:-1]) * np.diff(res.t)))
    jumps = 0.0
    for record in getattr(res, "events", None) or []:
        if record.x_before is not None and record.x_after is not None:
            p = res.p[:, min(np.searchsorted(res.t, record.t), len(res.t) - 1)]
            before, after = (sum(np.array(s.energy(x, p)).ravel()[:2])
                             for x in (record.x_before, record.x_after))
            jumps += float(after - before)
            if getattr(record, "energy_lost", None) is not None:   # an impact: T only
                assert abs(after - before + record.energy_lost) <= 1e-9 * (1 + abs(before))
    scale = np.abs(res["energy.kinetic"]).max() + np.abs(res["energy.potential"]).max() + \
        float(np.sum(np.abs(P[1:]) * np.diff(res.t)))
    assert abs(E[-1] - E[0] - work - jumps) <= 1e-4 * scale


def animation(build, tmp_path) -> None:
    """The HTML player's payload (three.js from MeshCat) holds every shape's pose equal to
    poses(x, p) of the Result, to float32 round-off."""
    from jourdain.solver.visual.motion import motion_of
    case = build()
    res = case.system.simulate(case.t_end, n_out=21, **case.run)
    run = payload(res.animate(tmp_path / "m.html"))["runs"][0]
    motion = motion_of(res)
    assert run["shapes"], "no shape drawn"
    size = max(1.0, case.system.visual.size)
    for k, shape in enumerate(run["shapes"]):
        pos = floats(shape["position"]).reshape(-1, 3)
        quat = floats(shape["quaternion"]).reshape(-1, 4)
        n = len(pos)
        assert n in (1, len(res.t)), shape["name"]
        assert np.abs(pos - motion.r[:n, k]).max() <= 1e-6 * size
        R = Rotation.from_quat(quat.astype(float)).as_matrix()
        assert np.abs(R - motion.R[:n, k]).max() <= 1e-6
