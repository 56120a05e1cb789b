"""Trajectory optimization at robot scale (issue 27): the Talos arm reaching a frame target,
built once and re-solved, with jourdain's FDDP (solver="fddp", compiled knots; the default
contenders), IPOPT and fatrop (exact and Gauss–Newton Hessians), and the MPC step of
examples/arm_mpc.py (--parts mpc; FDDP with at most 3 iterations per step by default).

Problem (crocoddyl's arm_manipulation example as far as jourdain states it): example-robot-
data's talos_left_arm.urdf (6 revolute arm joints, the gripper locked), N = 100 intervals of
dt = 0.01 s, RK4 multiple shooting (one step per interval), x(0) = crocoddyl's x0, costs as
crocoddyl's weight·½‖r‖² with running terms times dt: the gripper frame's position to the
target (weight 1; crocoddyl's placement cost also weighs the orientation, not stated here),
state and torque regularization (1e-4), terminal position (weight 1). Metric: CPU time
(time.process_time), median of --repeat solves; first build = URDF import + compile +
NLP build + solver creation; warm re-solve after moving the target 2 cm; the end-effector
position error of the re-simulated optimal inputs (CVODES) at t_f against the plan's;
peak memory (ru_maxrss). crocoddyl rows are added when crocoddyl is importable
(pip install crocoddyl==3.2.1 pin==4.0.0; its 3.2.1 wheel drops gravity with Pinocchio 4.1).

    python benchmarks/robot_ocp.py [--N 100] [--repeat 3]

Writes benchmarks/results/robot_ocp.json.
"""
from __future__ import annotations

import argparse
import json
import resource
import sys
import time
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import jourdain as jd  # noqa: E402
from jourdain.blocks import World  # noqa: E402
from jourdain.solver.exchange import UnsupportedWarning, example_robot  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"
URDF = "talos_data/robots/talos_left_arm.urdf"
FRAME = "arm.gripper_left_joint.frame_b"
# crocoddyl's q0 of talos_arm: arm_left_2 … arm_left_7, then the gripper (locked here)
Q0 = [0.173046, 1.0, -0.52366, 0.0, 0.0, 0.1]
GRIPPER_Q = -0.005
TARGET = [0.0, 0.0, 0.4]                        # [m], crocoddyl's arm_manipulation goal
FDDP_TOL = 1e-9           # crocoddyl's th_stop: the expected decrease of a full step


# label: (RK4 steps per knot, build options). The virtual-machine rows of the last session
# (fatrop exact 268 s; IPOPT exact unfinished in 40 min) are kept in the JSON, not re-run.
CONTENDERS = {
    "IPOPT GN, knot C, RK4x1": (1, {"codegen": "knot", "hessian": "gauss-newton"}),
    "IPOPT GN, knot C, RK4x2": (2, {"codegen": "knot", "hessian": "gauss-newton"}),
    "IPOPT GN, knot C, RK4x4": (4, {"codegen": "knot", "hessian": "gauss-newton"}),
    "fatrop exact, knot C, RK4x4": (4, {"codegen": "knot", "solver": "fatrop"}),
    "fatrop exact, VM, RK4x1": (1, {"solver": "fatrop"}),
    # FDDP stops at crocoddyl's th_stop = 1e-9 on the expected decrease of a full step
    "FDDP, knot C, RK4x1": (1, {"solver": "fddp", "codegen": True, "tol": FDDP_TOL}),
    "FDDP, knot C, RK4x2": (2, {"solver": "fddp", "codegen": True, "tol": FDDP_TOL}),
    "FDDP, knot C, RK4x4": (4, {"solver": "fddp", "codegen": True, "tol": FDDP_TOL}),
    "FDDP, VM, RK4x1": (1, {"solver": "fddp", "tol": FDDP_TOL}),
    # MPC (real-time iterations): at most 3 FDDP iterations per step from the shifted plan
    "FDDP <=3 it/step, knot C, RK4x1": (1, {"solver": "fddp", "codegen": True, "tol": 1e-4,
                                           "max_iter": 3, "raise_on_failure": False}),
    # the same with a real-time budget of 8 ms CPU per step (no iteration started that would
    # not fit; a feasible plan returned), and the budget alone deciding (up to 10 iterations)
    "FDDP <=3 it/step, budget 8 ms, knot C, RK4x1": (
        1, {"solver": "fddp", "codegen": True, "tol": 1e-4, "max_iter": 3, "budget": 8e-3,
            "raise_on_failure": False}),
    "FDDP budget 8 ms (<=10 it), knot C, RK4x1": (
        1, {"solver": "fddp", "codegen": True, "tol": 1e-4, "max_iter": 10, "budget": 8e-3,
            "raise_on_failure": False}),
    # the same steps with Newton terms (newton=True): each successful step ends by preparing
    # the second-order terms that the next step's iterations use (ddp_newton)
    "FDDP <=3 it/step, newton, knot C, RK4x1": (
        1, {"solver": "fddp", "codegen": True, "tol": 1e-4, "max_iter": 3, "newton": True,
            "raise_on_failure": False}),
    "FDDP <=3 it/step, budget 8 ms, newton, knot C, RK4x1": (
        1, {"solver": "fddp", "codegen": True, "tol": 1e-4, "max_iter": 3, "budget": 8e-3,
            "newton": True, "raise_on_failure": False}),
}
DEFAULT = ["FDDP, knot C, RK4x1", "FDDP, knot C, RK4x2", "FDDP, knot C, RK4x4"]


def talos_arm(armature: float = 0.0, joint_damping: bool = True):
    """The arm (module docstring), with ``armature`` [kg·m²] of rotor inertia on each joint
    (example-robot-data's talos_arm model has 0.1, which its URDF does not state), and the
    URDF's joint damping unless ``joint_damping=False`` (crocoddyl's dynamics have none)."""
    from jourdain.blocks import Inertia
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnsupportedWarning)
        arm = jd.from_urdf(example_robot(URDF), locked={"gripper_left_joint": GRIPPER_Q},
                           joint_damping=joint_damping)
    arm.add_motors()
    if armature:
        for name, joint in list(arm.motors.items()):
            rotor = arm.add(f"{arm.child_name(name)}_armature", Inertia(J=armature))
            arm.connect(rotor.flange_a, arm.joints[name].axis)
    return arm, jd.compile(jd.Model.on_world(World(g=arm.gravity), arm=arm))


def reach(system, N: int, dt: float = 0.01):
    """The reach problem with the target a problem parameter (module docstring)."""
    ocp = jd.TrajectoryProblem(system, N * dt, intervals=N)
    nq = len(system.y_names)
    x0 = np.concatenate([Q0[:nq], np.zeros(system.nx - nq)])
    ocp.initial(dict(zip(system.x_names, x0)))
    ocp.parameter("target", TARGET)
    ocp.parameter("x_ref", x0)
    ocp.least_squares(lambda v: np.sqrt(0.5) * (v.frame(FRAME) - v["target"]))
    ocp.least_squares(lambda v: np.sqrt(0.5e-4) * jd_vec(v, system.x_names) -
                      np.sqrt(0.5e-4) * v["x_ref"])
    ocp.least_squares(lambda v: np.sqrt(0.5e-4) * jd_vec(v, system.u_names))
    ocp.least_squares(lambda v: np.sqrt(0.5) * (v.frame(FRAME) - v["target"]), terminal=True)
    return ocp


def quasi_static(system, x0) -> dict:
    """crocoddyl's initial guess (ShootingProblem.quasiStatic): every node at x0, the torques
    holding it at rest against gravity (f is affine in u: solve f's acceleration rows = 0)."""
    import casadi as ca
    from jourdain.solver.optimal.functions import dynamics
    nq, u = len(system.y_names), ca.SX.sym("u", len(system.u_names))
    acc = dynamics(system)(0.0, x0, u, system.p_default)[nq:]
    A = ca.Function("A", [u], [ca.jacobian(acc, u), acc])
    B, a0 = (np.array(m, dtype=float) for m in A(np.zeros(len(system.u_names))))
    torques = np.linalg.lstsq(B, -a0.ravel(), rcond=None)[0]
    return {**dict(zip(system.x_names, x0)), **dict(zip(system.u_names, torques))}


def jd_vec(v, names):
    import casadi as ca
    return ca.vertcat(*[v[n] for n in names])


def frame_error(system, sol) -> float:
    """|r_frame(re-simulated x(t_f)) − r_frame(planned x(t_f))| [m]."""
    from jourdain.solver.visual.traces import frame_paths
    check = sol.check()
    sim = check.simulated
    x_end = np.array([sim[n][-1] for n in system.x_names]).reshape(-1, 1)
    a = frame_paths(system, np.array([sol.t[-1]]), x_end, sol.p, [FRAME])[FRAME][0]
    b = frame_paths(system, np.array([sol.t[-1]]), sol.X[:, -1:], sol.p, [FRAME])[FRAME][0]
    return float(np.linalg.norm(a - b))


def _cpu() -> float:
    """CPU time of this process and its finished children (gcc) [s]."""
    own = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + own.ru_utime + own.ru_stime


def contender(system, N: int, repeat: int, steps: int = 1, tol: float = 1e-8,
              max_iter: int = 3000, **options) -> dict:
    cpu = _cpu()
    transcription = jd.MultipleShooting(jd.Integrator.RK4, steps=steps)
    nq = len(system.y_names)
    guess = quasi_static(system, np.concatenate([Q0[:nq], np.zeros(system.nx - nq)]))
    built = reach(system, N).build(transcription, tol=tol, guess=guess, max_iter=max_iter,
                                   raise_on_failure=False, **options)
    build = _cpu() - cpu
    row = {"build_cpu_s": build, "compiled": built.compiled, "rk4_steps_per_knot": steps,
           "tol": tol, "max_iter": max_iter}
    if options.get("codegen"):        # the second build loads the cached library
        cpu = _cpu()
        built = reach(system, N).build(transcription, tol=tol, guess=guess,
                                       max_iter=max_iter, raise_on_failure=False, **options)
        row["cached_build_cpu_s"] = _cpu() - cpu
    solves = [built.solve(warm=False) for _ in range(repeat)]
    sol = solves[-1]
    moved = np.array(TARGET) + np.array([0.02, 0.0, 0.0])
    warm = []
    for _ in range(repeat):
        built.solve(warm=False)
        warm.append(built.solve(params={"target": moved}))
    row.update({"solve_cpu_s": float(np.median([s.stats["solve_cpu_time"] for s in solves])),
                "iterations": sol.stats["iterations"], "cost": sol.cost,
                "status": sol.stats["status"],
                "warm_resolve_cpu_s": float(np.median([s.stats["solve_cpu_time"]
                                                       for s in warm])),
                "warm_iterations": warm[-1].stats["iterations"],
                "frame_error_resimulated_m": frame_error(system, sol)})
    print(options, steps, {k: (round(v, 4) if isinstance(v, float) else v)
                           for k, v in row.items()}, flush=True)
    return row


def mpc(system, arm, steps: int, horizon: int = 20, n_steps: int = 100, **options) -> dict:
    """The MPC step of examples/arm_mpc.py (built once, warm re-solves from the measured
    state towards a circling target, 100 Hz): the distribution of the per-step solve CPU
    time over ``n_steps`` steps of the closed loop (simulated by the RK4 plan itself: each
    step's x0 is the plan's state at its first node); with ``newton=True`` also the step's
    preparation of the next step's Newton terms (``prepare_cpu_time``, after the solve: CPU
    of the same period, apart from the latency from state to input)."""
    dt = 0.01
    ocp = jd.TrajectoryProblem(system, dt * horizon, intervals=horizon)
    nq = len(system.y_names)
    x0 = np.concatenate([Q0[:nq], np.zeros(system.nx - nq)])
    ocp.initial(dict(zip(system.x_names, x0)))
    start = gripper_at(system, x0)
    ocp.parameter("target", start)
    for name, (lower, upper) in arm.bounds(system).items():      # torque limits of the URDF
        if name in system.u_names:
            ocp.bound(name, lower, upper)
    ocp.least_squares(lambda v: 10 * (v.frame(FRAME) - v["target"]))
    ocp.least_squares(lambda v: 0.1 * jd_vec(v, system.x_names[nq:]))
    ocp.least_squares(lambda v: 0.01 * jd_vec(v, system.u_names))
    ocp.least_squares(lambda v: 30 * (v.frame(FRAME) - v["target"]), terminal=True)
    cpu = _cpu()
    options = {"tol": 1e-6, **options}
    built = ocp.build(jd.MultipleShooting(jd.Integrator.RK4, steps=steps),
                      guess=quasi_static(system, x0), **options)
    build = _cpu() - cpu
    sol = built.solve()
    # FDDP starts each step from the last plan moved one knot earlier (receding horizon)
    shift = {"shift": 1} if options.get("solver") == "fddp" else {}
    x, times, iters, errors, stops = x0, [], [], [], 0
    prepares, newton, wall = [], 0, []
    for k in range(n_steps):
        t = k * dt
        goal = start + 0.05 * np.array([0.0, np.sin(np.pi * t), 1.0 - np.cos(np.pi * t)])
        began = time.perf_counter()
        sol = built.solve(x0=x, params={"target": goal}, **shift)
        wall.append(time.perf_counter() - began)
        times.append(sol.stats["solve_cpu_time"])
        prepares.append(sol.stats.get("prepare_cpu_time", 0.0))
        newton += bool(sol.stats.get("newton"))
        iters.append(sol.stats["iterations"])
        stops += bool(sol.stats.get("budget_stop"))
        x = sol.X[:, 1]
        errors.append(float(np.linalg.norm(gripper_at(system, x) - goal)))
    period = np.array(times) + np.array(prepares)
    row = {"build_cpu_s": build, "compiled": built.compiled, "rk4_steps_per_knot": steps,
           "horizon": horizon, "steps": n_steps,
           "step_cpu_ms_median": 1e3 * float(np.median(times)),
           "step_cpu_ms_p90": 1e3 * float(np.percentile(times, 90)),
           "step_cpu_ms_max": 1e3 * float(np.max(times)),
           "steps_within_10ms": int(np.sum(np.array(times) <= 0.01)), "budget_stops": stops,
           "iterations_median": float(np.median(iters)), "iterations_max": int(max(iters)),
           "iterations_total": int(sum(iters)), "newton_steps": newton,
           "prepared_steps": int(np.sum(np.array(prepares) > 0)),
           "step_with_prepare_cpu_ms_median": 1e3 * float(np.median(period)),
           "step_with_prepare_cpu_ms_p90": 1e3 * float(np.percentile(period, 90)),
           "step_with_prepare_cpu_ms_max": 1e3 * float(np.max(period)),
           "step_with_prepare_within_10ms": int(np.sum(period <= 0.01)),
           "step_wall_ms_median": 1e3 * float(np.median(wall)),
           "step_wall_ms_max": 1e3 * float(np.max(wall)),
           "tracking_error_mm_median_after_0.5s": 1e3 * float(np.median(errors[50:]))}
    print("MPC", options, {k: (round(v, 4) if isinstance(v, float) else v)
                           for k, v in row.items()}, flush=True)
    return row


def gripper_at(system, x) -> np.ndarray:
    from jourdain.solver.visual.traces import frame_paths
    return frame_paths(system, np.zeros(1), np.asarray(x).reshape(-1, 1), system.p_default,
                       [FRAME])[FRAME][0]


def c_size(system, N: int) -> int:
    """Bytes of the C that codegen=True writes for the reach problem's NLP functions (RK4
    shooting: the interval function mapped over the grid), generated without compiling."""
    import tempfile

    from jourdain.solver.optimal import backends, compiled, mapped
    from jourdain.solver.optimal.guess import make_guess
    from jourdain.solver.optimal.nlp import NLP
    import casadi as ca
    ocp = reach(system, N)
    nlp = NLP(ca.MX)
    plan = mapped.transcribe_mapped(jd.MultipleShooting(jd.Integrator.RK4, steps=1), ocp,
                                    ocp.functions(), nlp, make_guess(ocp))
    vm = compiled._vm_solver(nlp, plan, backends.options("ipopt", plan, nlp, False, 1e-8, 10,
                                                         None, False, "exact"))
    fns = [vm.oracle()] + [vm.get_function(n) for n in vm.get_function() if n[:4] == "nlp_"]
    with tempfile.TemporaryDirectory() as tmp:
        return Path(compiled._write(fns, Path(tmp))).stat().st_size


def knot_c_size(system, N: int, steps: int, second_order: bool) -> int:
    """Bytes of the C of codegen='knot' (the knot function and its Jacobian; with
    ``second_order`` also the exact Hessian's functions), generated without compiling: the
    same for every N."""
    import tempfile

    from jourdain.solver.optimal import compiled, knots
    ocp = reach(system, N)
    K = knots.knot_function(ocp, ocp.functions(), steps)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(compiled._write(knots.library_functions(K, second_order), Path(tmp)))
        return path.stat().st_size


def crocoddyl(N: int, repeat: int, *extra: str) -> dict:
    """benchmarks/peers/crocoddyl_arm.py in $CROCODDYL_PYTHON (an interpreter with
    crocoddyl 3.2.1 and pin 4.0.0), or in this one if it imports crocoddyl."""
    import os
    import subprocess
    python = os.environ.get("CROCODDYL_PYTHON", sys.executable)
    script = ROOT / "benchmarks" / "peers" / "crocoddyl_arm.py"
    out = subprocess.run([python, str(script), "--N", str(N), "--repeat", str(repeat), *extra],
                         capture_output=True, text=True, env={**os.environ,
                                                              "OMP_NUM_THREADS": "1"})
    if out.returncode:
        return {"skipped": out.stderr.strip().splitlines()[-1] if out.stderr else "failed"}
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--N", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--parts", nargs="+", default=["jourdain", "crocoddyl", "c-size",
                                                        "mpc"],
                        help="what to run; results are merged into the JSON file")
    parser.add_argument("--tol", type=float, default=1e-8, help="the solver's tolerance")
    parser.add_argument("--max-iter", type=int, default=3000, help="the solver's limit")
    parser.add_argument("--contenders", nargs="+", default=DEFAULT, choices=list(CONTENDERS))
    parser.add_argument("--mpc", nargs="+", default=["FDDP <=3 it/step, knot C, RK4x1"],
                        choices=list(CONTENDERS), help="the MPC step of examples/arm_mpc.py")
    parser.add_argument("--json", default="robot_ocp.json",
                        help="the results file in benchmarks/results/ (merged into)")
    args = parser.parse_args()
    path = RESULTS / args.json
    record = json.loads(path.read_text()) if path.exists() else {}
    record.update({"N": args.N, "repeat": args.repeat})
    cpu = time.process_time()
    arm, system = talos_arm()
    compile_s = time.process_time() - cpu
    if "jourdain" in args.parts:
        record["compile_cpu_s"] = compile_s
        rows = record.setdefault("talos arm reach", {})
        for label in args.contenders:
            steps, options = CONTENDERS[label]
            options = {"tol": args.tol, "max_iter": args.max_iter, **options}
            rows[label] = contender(system, args.N, args.repeat, steps, **options)
            rows[label]["first_build_cpu_s"] = compile_s + rows[label]["build_cpu_s"]
            path.write_text(json.dumps(record, indent=1))     # long runs: keep what is done
        record["peak_memory_MB"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if "mpc" in args.parts:
        record["mpc"] = {label: mpc(system, arm, *CONTENDERS[label][:1],
                                    **CONTENDERS[label][1])
                         for label in args.mpc}
    if "crocoddyl" in args.parts:
        record["crocoddyl"] = crocoddyl(args.N, args.repeat)
        record["crocoddyl"].pop("xs", None), record["crocoddyl"].pop("us", None)
        print("crocoddyl FDDP:", record["crocoddyl"], flush=True)
    if "c-size" in args.parts:
        record["generated_C_bytes"] = {N: c_size(system, N) for N in (10, 20, 40, 80)}
        print("generated C [bytes] by N:", record["generated_C_bytes"], flush=True)
        record["knot_C_bytes"] = {
            f"N={N}, RK4x{steps}, {'exact' if second else 'gauss-newton'}":
            knot_c_size(system, N, steps, second)
            for N, steps, second in ((20, 1, False), (100, 1, False), (100, 4, False),
                                     (100, 4, True))}
        print("knot C [bytes]:", record["knot_C_bytes"], flush=True)
    table(record)
    RESULTS.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=1))
    print(f"wrote {path}")


def table(record: dict) -> None:
    rows = dict(record.get("talos arm reach", {}))
    croc = record.get("crocoddyl", {})
    if "solve_cpu_s" in croc:
        rows["crocoddyl FDDP (RK4x1)"] = dict(croc, first_build_cpu_s=croc["build_cpu_s"])
    ref, warm_ref = croc.get("solve_cpu_s"), croc.get("warm_resolve_cpu_s")
    print(f"{'contender':28s} {'build':>7s} {'solve':>8s} {'it':>4s} {'/croc':>6s} "
          f"{'warm 2cm':>9s} {'/croc':>6s} {'it':>3s} {'EE err':>8s} {'cost':>10s}")
    for label, r in rows.items():
        ratio = f"{r['solve_cpu_s'] / ref:6.2f}" if ref else "     -"
        warm = f"{r['warm_resolve_cpu_s'] / warm_ref:6.2f}" if warm_ref else "     -"
        print(f"{label:28s} {r['first_build_cpu_s']:7.2f} {r['solve_cpu_s']:8.3f} "
              f"{r['iterations']:4d} {ratio} {r['warm_resolve_cpu_s']:9.4f} {warm} "
              f"{r['warm_iterations']:3d} {r['frame_error_resimulated_m']:8.1e} "
              f"{r['cost']:10.6g}")
    for label, r in record.get("mpc", {}).items():
        print(f"MPC {label}: per-step CPU median {r['step_cpu_ms_median']:.1f} ms, p90 "
              f"{r['step_cpu_ms_p90']:.1f} ms, max {r['step_cpu_ms_max']:.1f} ms (target "
              f"10 ms); iterations median {r['iterations_median']:.0f}; "
              f"{r.get('steps_within_10ms', '-')} of {r['steps']} steps within 10 ms, "
              f"{r.get('budget_stops', 0)} budget stops; tracking "
              f"{r['tracking_error_mm_median_after_0.5s']:.1f} mm")
        if r.get("prepared_steps"):
            print(f"    with the Newton terms' preparation: median "
                  f"{r['step_with_prepare_cpu_ms_median']:.1f} ms, p90 "
                  f"{r['step_with_prepare_cpu_ms_p90']:.1f} ms, max "
                  f"{r['step_with_prepare_cpu_ms_max']:.1f} ms, "
                  f"{r['step_with_prepare_within_10ms']} within 10 ms; "
                  f"{r['newton_steps']} Newton steps, {r['prepared_steps']} preparations")
    if "peak_memory_MB" in record:
        print(f"peak memory (jourdain) {record['peak_memory_MB']:.0f} MB")


if __name__ == "__main__":
    main()
