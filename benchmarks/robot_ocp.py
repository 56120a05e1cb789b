"""Trajectory optimization at robot scale (issue 27): the Talos arm reaching a frame target,
built once and re-solved, with IPOPT and fatrop, exact and Gauss–Newton Hessians.

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


def talos_arm():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnsupportedWarning)
        arm = jd.from_urdf(example_robot(URDF), locked={"gripper_left_joint": GRIPPER_Q})
    arm.add_motors()
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


def contender(system, N: int, repeat: int, **options) -> dict:
    cpu = time.process_time()
    built = reach(system, N).build(jd.MultipleShooting(jd.Integrator.RK4, steps=1),
                                   tol=1e-8, **options)
    build = time.process_time() - cpu
    solves = [built.solve(warm=False) for _ in range(repeat)]
    sol = solves[-1]
    moved = np.array(TARGET) + np.array([0.02, 0.0, 0.0])
    warm = []
    for _ in range(repeat):
        built.solve(warm=False)
        warm.append(built.solve(params={"target": moved}))
    row = {"build_cpu_s": build, "solve_cpu_s": float(np.median(
        [s.stats["solve_cpu_time"] for s in solves])), "iterations": sol.stats["iterations"],
        "cost": sol.cost, "status": sol.stats["status"],
        "warm_resolve_cpu_s": float(np.median([s.stats["solve_cpu_time"] for s in warm])),
        "warm_iterations": warm[-1].stats["iterations"],
        "frame_error_resimulated_m": frame_error(system, sol)}
    print(options, {k: (round(v, 4) if isinstance(v, float) else v) for k, v in row.items()},
          flush=True)
    return row


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


def crocoddyl(N: int, repeat: int) -> dict:
    """benchmarks/peers/crocoddyl_arm.py in $CROCODDYL_PYTHON (an interpreter with
    crocoddyl 3.2.1 and pin 4.0.0), or in this one if it imports crocoddyl."""
    import os
    import subprocess
    python = os.environ.get("CROCODDYL_PYTHON", sys.executable)
    script = ROOT / "benchmarks" / "peers" / "crocoddyl_arm.py"
    out = subprocess.run([python, str(script), "--N", str(N), "--repeat", str(repeat)],
                         capture_output=True, text=True, env={**os.environ,
                                                              "OMP_NUM_THREADS": "1"})
    if out.returncode:
        return {"skipped": out.stderr.strip().splitlines()[-1] if out.stderr else "failed"}
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--N", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--parts", nargs="+", default=["jourdain", "crocoddyl", "c-size"],
                        help="what to run; results are merged into the JSON file")
    args = parser.parse_args()
    path = RESULTS / "robot_ocp.json"
    record = json.loads(path.read_text()) if path.exists() else {}
    record.update({"N": args.N, "repeat": args.repeat})
    cpu = time.process_time()
    arm, system = talos_arm()
    compile_s = time.process_time() - cpu
    if "jourdain" in args.parts:
        record["compile_cpu_s"] = compile_s
        rows = {}
        for label, options in (("IPOPT, exact", {}), ("fatrop, exact", {"solver": "fatrop"}),
                               ("IPOPT, Gauss-Newton", {"hessian": "gauss-newton"})):
            rows[label] = contender(system, args.N, args.repeat, **options)
            rows[label]["first_build_cpu_s"] = compile_s + rows[label]["build_cpu_s"]
        record["talos arm reach"] = rows
        record["peak_memory_MB"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if "crocoddyl" in args.parts:
        record["crocoddyl"] = crocoddyl(args.N, args.repeat)
        print("crocoddyl FDDP:", record["crocoddyl"], flush=True)
    if "c-size" in args.parts:
        record["generated_C_bytes"] = {N: c_size(system, N) for N in (10, 20, 40, 80)}
        print("generated C [bytes] by N:", record["generated_C_bytes"], flush=True)
    table(record)
    RESULTS.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=1))
    print(f"wrote {path}")


def table(record: dict) -> None:
    rows = dict(record.get("talos arm reach", {}))
    croc = record.get("crocoddyl", {})
    if "solve_cpu_s" in croc:
        rows["crocoddyl FDDP (RK4)"] = dict(croc, first_build_cpu_s=croc["build_cpu_s"])
    ref = croc.get("solve_cpu_s")
    print(f"{'contender':22s} {'build':>7s} {'solve':>8s} {'it':>4s} {'/croc':>6s} "
          f"{'warm 2cm':>9s} {'it':>3s} {'EE err':>8s} {'cost':>10s}")
    for label, r in rows.items():
        ratio = f"{r['solve_cpu_s'] / ref:6.2f}" if ref else "     -"
        print(f"{label:22s} {r['first_build_cpu_s']:7.2f} {r['solve_cpu_s']:8.3f} "
              f"{r['iterations']:4d} {ratio} {r['warm_resolve_cpu_s']:9.4f} "
              f"{r['warm_iterations']:3d} {r['frame_error_resimulated_m']:8.1e} "
              f"{r['cost']:10.6g}")
    if "peak_memory_MB" in record:
        print(f"peak memory (jourdain) {record['peak_memory_MB']:.0f} MB")


if __name__ == "__main__":
    main()
