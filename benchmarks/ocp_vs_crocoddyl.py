"""Trajectory optimization against crocoddyl on three problems (issue 27): the double-pendulum
swing-up with torque limits, the UR5 point-to-point move with joint and torque limits, and
the Talos arm reach (benchmarks/robot_ocp.py's functions).

Problems (benchmarks/peers/ocp_statements.py, read by both sides): the URDF of
example-robot-data with ideal torques on every joint (no joint damping, no armature), RK4
multiple shooting with one step per interval, crocoddyl's costs Σ dt·w·½‖r‖² + W·½‖r_N‖²
(state to the goal, torques; terminal state to the goal), the limits as bounds in jourdain
and as BoxFDDP's torque box (plus a quadratic barrier on the state limits for the UR5) in
crocoddyl. crocoddyl 3.2.1 runs BoxFDDP on Pinocchio 4.0.0, one thread, in its own
interpreter ($CROCODDYL_PYTHON, benchmarks/peers/crocoddyl_ocp.py; its wheel drops gravity
with Pinocchio 4.1). Metric: CPU time (time.process_time plus finished children: gcc),
median of --repeat solves; build = the NLP and the solver object from the compiled System
(URDF import and compile reported apart; a knot library's gcc on its first build only,
cached after: "cached" in the JSON); re-simulated error = max over intervals and states of |x_(k+1) re-simulated
from the planned x_k with the plan's u_k − the planned x_(k+1)| (the transcription's own
error; jourdain: CVODES at 1e-10; crocoddyl: RK4 with 100 substeps), for the Talos arm the
gripper position error at t_f re-simulated from x(0) [m]. The dynamics of both sides are
checked equal by one RK4 step of jourdain's model from each of crocoddyl's optimal nodes,
and the costs by crocoddyl's cost of jourdain's plan.

    python benchmarks/ocp_vs_crocoddyl.py [--quick] [--repeat 3] [--problems ...]

Writes benchmarks/results/ocp_vs_crocoddyl.json (--quick: ocp_vs_crocoddyl_quick.json).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import jourdain as jd  # noqa: E402
from jourdain.blocks import World  # noqa: E402
from jourdain.solver.exchange import UnsupportedWarning, example_robot  # noqa: E402

from benchmarks import robot_ocp  # noqa: E402
from benchmarks.peers.ocp_statements import PROBLEMS  # noqa: E402
from benchmarks.peers.ocp_statements import x0 as initial_state  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"
TALOS = "Talos arm reach"
TALOS_ARMATURE = 0.1          # [kg·m²] per arm joint: example-robot-data's talos_arm model
# jourdain's Talos contenders (robot_ocp.CONTENDERS): the transcription crocoddyl solves, and
# four RK4 steps per knot (the same controls, a more accurate plan)
TALOS_CONTENDERS = ["FDDP, knot C, RK4x1", "FDDP, knot C, RK4x4"]

# The contenders: label -> build options of jourdain (one line per contender; a new solver is
# one more line, and its label in DEFAULTS or --contenders). VM: CasADi's virtual machine
# (the NLP in SX, or in MX when the inlined dynamics would exceed transcription.INLINE_LIMIT:
# the UR5 at N = 50); C: codegen=True; knot C: codegen="knot"; GN: Gauss–Newton Hessian.
CONTENDERS = {
    "jourdain IPOPT, VM": {"options": {}},
    "jourdain fatrop, VM": {"options": {"solver": "fatrop"}},
    "jourdain IPOPT, C": {"options": {"codegen": True}},
    "jourdain fatrop, C": {"options": {"codegen": True, "solver": "fatrop"}},
    "jourdain IPOPT, knot C": {"options": {"codegen": "knot"}},
    "jourdain fatrop, knot C": {"options": {"codegen": "knot", "solver": "fatrop"}},
    "jourdain IPOPT GN, VM": {"options": {"hessian": "gauss-newton"}},
    "jourdain IPOPT GN, knot C": {"options": {"codegen": "knot", "hessian": "gauss-newton"}},
    # FDDP stops at BoxFDDP's th_stop = 1e-9 on the expected decrease of a full step
    "jourdain FDDP, C": {"options": {"solver": "fddp", "codegen": True, "tol": 1e-9}},
}
DEFAULTS = {
    "double pendulum": ["jourdain IPOPT, VM", "jourdain fatrop, VM", "jourdain IPOPT, C",
                        "jourdain fatrop, C", "jourdain IPOPT, knot C",
                        "jourdain fatrop, knot C", "jourdain FDDP, C"],
    "UR5 point to point": ["jourdain IPOPT, VM", "jourdain fatrop, VM", "jourdain IPOPT GN, VM",
                           "jourdain IPOPT GN, knot C"],
}


def robot(spec: dict):
    """The robot of ``spec`` from its URDF, a motor on every listed joint, compiled; and the
    CPU time of import + compile [s]."""
    cpu = time.process_time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnsupportedWarning)
        arm = jd.from_urdf(example_robot(spec["urdf"]), joint_damping=False)
    arm.add_motors(spec["joints"])
    system = jd.compile(jd.Model.on_world(World(g=arm.gravity), arm=arm))
    return arm, system, time.process_time() - cpu


def names(arm, spec: dict) -> tuple[list[str], list[str]]:
    """(state names in crocoddyl's order q then v, torque names), by joint."""
    q = [arm.coordinate_names(j)[0] for j in spec["joints"]]
    v = [arm.speed_names(j)[0] for j in spec["joints"]]
    prefix = q[0].split(".")[0]
    tau = [f"{prefix}.{arm.child_name(j)}_motor.tau" for j in spec["joints"]]
    return q + v, tau


def statement(arm, system, spec: dict, N: int | None = None):
    """The problem of ``spec`` as a TrajectoryProblem (module docstring)."""
    import casadi as ca
    N = N or spec["N"]
    xn, un = names(arm, spec)
    ocp = jd.TrajectoryProblem(system, N * spec["dt"], intervals=N)
    ocp.initial(dict(zip(xn, initial_state(spec))))
    w, goal = spec["weights"], np.array(spec["x_goal"], dtype=float)
    ocp.least_squares(lambda v: np.sqrt(0.5 * w["x"]) * (ca.vertcat(*[v[n] for n in xn]) -
                                                         goal))
    ocp.least_squares(lambda v: np.sqrt(0.5 * w["u"]) * ca.vertcat(*[v[n] for n in un]))
    ocp.least_squares(lambda v: np.sqrt(0.5 * w["x_terminal"]) *
                      (ca.vertcat(*[v[n] for n in xn]) - goal), terminal=True)
    for name, (lower, upper) in limits(arm, system, spec).items():
        ocp.bound(name, lower, upper)
    return ocp


def limits(arm, system, spec: dict) -> dict:
    """{name: (lower, upper)}: the torque limits (stated, or the URDF's effort) and, with
    ``joint_limits``, the URDF's joint position and speed limits."""
    _, un = names(arm, spec)
    out = {n: b for n, b in arm.bounds(system).items() if spec["joint_limits"] or n in un}
    if spec["torque_limit"] is not None:
        out.update({n: (-t, t) for n, t in zip(un, spec["torque_limit"])})
    return out


def resimulated_error(system, sol) -> tuple[float, float]:
    """(local, open loop): max over intervals and states of |x_(k+1) re-simulated (CVODES,
    1e-10) from the planned x_k − the planned x_(k+1)|, and of |x(t_f) re-simulated from x(0)
    − the planned x(t_f)| (grows along unstable motions such as the swing-up's end)."""
    check = sol.check()
    sim = check.simulated
    open_loop = max(abs(sim[n][-1] - sol.X[i, -1]) for i, n in enumerate(system.x_names))
    return float(max(check.local.values())), float(open_loop)


def limit_violation(system, sol, bounds: dict) -> float:
    """The largest excess of the plan over its bounds (0 when all hold)."""
    worst = 0.0
    for name, (lower, upper) in bounds.items():
        values = sol[name]
        worst = max(worst, float(np.max(lower - values)), float(np.max(values - upper)))
    return worst


def jourdain_row(arm, system, spec: dict, options: dict, repeat: int, N: int) -> dict:
    options = {"tol": 1e-8, **options}
    cpu = robot_ocp._cpu()
    built = statement(arm, system, spec, N).build(
        jd.MultipleShooting(jd.Integrator.RK4, steps=1), raise_on_failure=False, **options)
    row = {"build_cpu_s": robot_ocp._cpu() - cpu, "compiled": built.compiled}
    if options.get("codegen"):          # a second build loads the cached library
        cpu = robot_ocp._cpu()
        built = statement(arm, system, spec, N).build(
            jd.MultipleShooting(jd.Integrator.RK4, steps=1), raise_on_failure=False, **options)
        row["cached_build_cpu_s"] = robot_ocp._cpu() - cpu
    solves = [built.solve(warm=False) for _ in range(repeat)]
    sol = solves[-1]
    row.update({"solve_cpu_s": float(np.median([s.stats["solve_cpu_time"] for s in solves])),
                "iterations": sol.stats["iterations"], "cost": sol.cost,
                "status": sol.stats["status"],
                **dict(zip(("resimulated_error", "resimulated_error_open_loop"),
                           resimulated_error(system, sol))),
                "plan": plan(arm, system, spec, sol),
                "limit_violation": limit_violation(system, sol, limits(arm, system, spec))})
    return row


def plan(arm, system, spec: dict, sol) -> dict:
    """The plan in crocoddyl's order: {"xs": (N + 1) × nx nodes, "us": N × nu torques}."""
    xn, un = names(arm, spec)
    ix, iu = [system.x_names.index(n) for n in xn], [system.u_names.index(n) for n in un]
    return {"xs": sol.X[ix, :].T.tolist(), "us": sol.U[iu, :, 0].T.tolist()}


def crocoddyl_python() -> str:
    return os.environ.get("CROCODDYL_PYTHON", sys.executable)


def crocoddyl_row(problem: str, N: int, repeat: int, *extra: str) -> dict:
    """benchmarks/peers/crocoddyl_ocp.py in $CROCODDYL_PYTHON (crocoddyl 3.2.1, pin 4.0.0)."""
    script = ROOT / "benchmarks" / "peers" / "crocoddyl_ocp.py"
    out = subprocess.run([crocoddyl_python(), str(script), "--problem", problem, "--N", str(N),
                          "--repeat", str(repeat), *extra], capture_output=True, text=True,
                         env={**os.environ, "OMP_NUM_THREADS": "1"})
    if out.returncode:
        return {"skipped": out.stderr.strip().splitlines()[-1] if out.stderr else "failed"}
    return json.loads(out.stdout.strip().splitlines()[-1])


def crocoddyl_cost(problem: str, N: int, plan: dict, *extra: str) -> float | None:
    """crocoddyl's cost of a plan {"xs", "us"} (crocoddyl's order) at its nodes."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        json.dump(plan, file)
    try:
        return crocoddyl_row(problem, N, 1, "--cost-of", file.name, *extra).get("cost")
    finally:
        os.unlink(file.name)


def same_dynamics(arm, system, spec: dict, croc: dict) -> float:
    """One RK4 step of jourdain's model from each of crocoddyl's optimal nodes x_k with its
    u_k: max |step − crocoddyl's x_(k+1)| over intervals and states. crocoddyl's plan has no
    gaps, so this is round-off when both sides integrate the same dynamics (differences in
    gravity, inertias, frames or signs show up here)."""
    xn, un = names(arm, spec)
    return rk4_step_error(system, croc, spec["dt"], [system.x_names.index(n) for n in xn],
                          [system.u_names.index(n) for n in un])


def rk4_step_error(system, croc: dict, h: float, ix: list[int], iu: list[int]) -> float:
    """:func:`same_dynamics` for crocoddyl's nodes ``croc["xs"]``, torques ``croc["us"]`` in
    the order ``ix`` of jourdain's states and ``iu`` of its inputs."""
    from jourdain.solver.optimal.functions import dynamics
    f = dynamics(system)
    worst = 0.0

    def rhs(x, u):
        return np.array(f(0.0, x, u, system.p_default)).ravel()
    for k, u_croc in enumerate(croc["us"]):
        x, u = np.zeros(system.nx), np.zeros(len(system.u_names))
        x[ix], u[iu] = croc["xs"][k], u_croc
        k1 = rhs(x, u)
        k2 = rhs(x + h / 2 * k1, u)
        k3 = rhs(x + h / 2 * k2, u)
        k4 = rhs(x + h * k3, u)
        step = x + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        worst = max(worst, float(np.max(np.abs(step[ix] - np.array(croc["xs"][k + 1])))))
    return worst


def problem_rows(problem: str, labels: list[str], repeat: int, quick: bool) -> dict:
    spec = dict(PROBLEMS[problem])
    if quick:       # half the intervals over the same horizon: the same problem, coarser
        spec.update(N=spec["N"] // 2, dt=2 * spec["dt"])
    N, grid = spec["N"], ("--dt", repr(spec["dt"]))
    arm, system, import_cpu = robot(spec)
    out = {"N": N, "dt": spec["dt"], "import_compile_cpu_s": import_cpu, "rows": {}}
    croc = crocoddyl_row(problem, N, repeat, *grid)
    if "us" in croc:
        croc["jourdain_rk4_step_of_crocoddyl_nodes_error"] = same_dynamics(arm, system, spec,
                                                                           croc)
        croc.pop("us"), croc.pop("xs")
        out["rows"]["crocoddyl BoxFDDP"] = croc
    else:
        print(f"crocoddyl skipped: {croc.get('skipped')}", flush=True)
    for label in labels:
        row = jourdain_row(arm, system, spec, CONTENDERS[label]["options"], repeat, N)
        plan = row.pop("plan")
        if "cost" in croc:        # the same cost: crocoddyl's of jourdain's plan
            row["crocoddyl_cost_of_plan"] = crocoddyl_cost(problem, N, plan, *grid)
        out["rows"][label] = row
        print(problem, label, {k: (round(v, 4) if isinstance(v, float) else v)
                               for k, v in row.items()}, flush=True)
    return out


def talos_rows(repeat: int, quick: bool, max_iter: int) -> dict:
    """The Talos arm reach with robot_ocp.py's functions, the arm stated as crocoddyl's model
    of it (example-robot-data's talos_arm: TALOS_ARMATURE kg·m² of rotor inertia on each arm
    joint, no joint damping; benchmarks/peers/crocoddyl_arm.py --armature): crocoddyl's FDDP
    (not BoxFDDP: no limits in this problem) and jourdain's FDDP on the same RK4 transcription
    (one step per knot, compiled knots), both stopping at th_stop = 1e-9 on the expected
    decrease of a full step, from the same quasi-static guess."""
    N = 20 if quick else 100
    cpu = time.process_time()
    _, system = robot_ocp.talos_arm(TALOS_ARMATURE, joint_damping=False)
    out = {"N": N, "dt": 0.01, "armature": TALOS_ARMATURE,
           "import_compile_cpu_s": time.process_time() - cpu, "rows": {}}
    croc = robot_ocp.crocoddyl(N, repeat, "--armature", repr(TALOS_ARMATURE))
    if "solve_cpu_s" in croc:
        every = list(range(system.nx))
        croc["jourdain_rk4_step_of_crocoddyl_nodes_error"] = rk4_step_error(
            system, croc, 0.01, every, list(range(len(system.u_names))))
        croc.pop("xs"), croc.pop("us")
        out["rows"]["crocoddyl FDDP"] = dict(croc, resimulated_error=croc[
            "frame_error_resimulated_m"])
    else:
        print(f"crocoddyl skipped: {croc.get('skipped')}", flush=True)
    for label in TALOS_CONTENDERS:
        steps, options = robot_ocp.CONTENDERS[label]
        row = robot_ocp.contender(system, N, repeat, steps, max_iter=max_iter, **options)
        row["resimulated_error"] = row["frame_error_resimulated_m"]
        out["rows"]["jourdain " + label] = row
    return out


# the warm re-solve after moving the target 2 cm: label -> FDDP build options (compiled knots
# and backward pass, RK4x1: crocoddyl's transcription)
WARM = "Talos arm warm re-solve"
WARM_MOVE = np.array([0.02, 0.0, 0.0])
WARM_CONTENDERS = {
    "FDDP Gauss-Newton, tol 1e-9": {"tol": 1e-9},
    "FDDP newton=True, tol 1e-9": {"tol": 1e-9, "newton": True},
    "FDDP newton=True, tol 1e-10": {"tol": 1e-10, "newton": True},
}


def converged_optimum(built, params: dict, X, U) -> tuple:
    """The moved problem's optimum to the solver's noise floor: exact Newton steps (the
    second-order terms refreshed at every round, :mod:`ddp_newton`) from (X, U): (X, U,
    cost)."""
    from jourdain.solver.optimal import ddp, ddp_newton
    model = built._model(built._p(params))
    for _ in range(4):
        second = ddp_newton.second_order(model, X, U)
        res = ddp.solve(ddp_newton.corrected(model, second), built.x0, X, U, 1e-16, 15)
        X, U = res.X, res.U
    return X, U, res.cost


def talos_warm_rows(repeat: int, quick: bool) -> dict:
    """The Talos arm (talos_rows' statement) solved cold to crocoddyl's stop, then re-solved
    warm after moving the target 2 cm: latency (CPU of the re-solve), iterations, and its
    accuracy against the moved problem's converged optimum (cost, gripper at t_f), side by
    side with crocoddyl's warm re-solve (its cost and gripper on the same statement)."""
    N = 20 if quick else 100
    _, system = robot_ocp.talos_arm(TALOS_ARMATURE, joint_damping=False)
    nq = len(system.y_names)
    x0 = np.concatenate([robot_ocp.Q0[:nq], np.zeros(system.nx - nq)])
    moved = {"target": np.array(robot_ocp.TARGET) + WARM_MOVE}
    out = {"N": N, "dt": 0.01, "armature": TALOS_ARMATURE, "move_m": WARM_MOVE.tolist(),
           "rows": {}}
    transcription = jd.MultipleShooting(jd.Integrator.RK4, steps=1)
    reference = None
    for label, options in WARM_CONTENDERS.items():
        built = robot_ocp.reach(system, N).build(
            transcription, solver="fddp", codegen=True, max_iter=1000,
            guess=robot_ocp.quasi_static(system, x0), raise_on_failure=False, **options)
        runs = []
        for _ in range(repeat):
            cold = built.solve(warm=False)
            runs.append((cold, built.solve(params=moved)))
        cold, warm = runs[-1]
        if reference is None:
            X, U, cost = converged_optimum(built, moved, warm.X.T, warm.U[:, :, 0].T)
            reference = {"cost": cost, "gripper_m": robot_ocp.gripper_at(system, X[-1])}
            out["reference"] = {"cost": cost, "gripper_final_m": reference["gripper_m"].tolist(),
                                "how": "exact Newton (second-order terms refreshed) to the "
                                       "finite differences' noise floor"}
        gripper = robot_ocp.gripper_at(system, warm.X[:, -1])
        out["rows"]["jourdain " + label] = {
            "warm_resolve_cpu_s": float(np.median([w.stats["solve_cpu_time"]
                                                   for _, w in runs])),
            "prepare_cpu_s": float(np.median([c.stats["prepare_cpu_time"] for c, _ in runs])),
            "cold_solve_cpu_s": float(np.median([c.stats["solve_cpu_time"] for c, _ in runs])),
            "cold_iterations": cold.stats["iterations"],
            "warm_iterations": warm.stats["iterations"], "newton": warm.stats["newton"],
            "warm_cost": warm.cost, "status": warm.stats["status"],
            "cost_rel_error": (warm.cost - reference["cost"]) / reference["cost"],
            "gripper_error_m": float(np.linalg.norm(gripper - reference["gripper_m"])),
            "resimulated_error": robot_ocp.frame_error(system, warm)}
        print(WARM, label, out["rows"]["jourdain " + label], flush=True)
    croc = robot_ocp.crocoddyl(N, repeat, "--armature", repr(TALOS_ARMATURE))
    if "warm_cost" in croc and reference is not None:
        out["rows"]["crocoddyl FDDP, th_stop 1e-9"] = {
            "warm_resolve_cpu_s": croc["warm_resolve_cpu_s"],
            "warm_iterations": croc["warm_iterations"], "warm_cost": croc["warm_cost"],
            "cost_rel_error": (croc["warm_cost"] - reference["cost"]) / reference["cost"],
            "gripper_error_m": float(np.linalg.norm(np.array(croc["warm_gripper_final_m"]) -
                                                    reference["gripper_m"])),
            "cold_solve_cpu_s": croc["solve_cpu_s"], "cold_iterations": croc["iterations"]}
    else:
        print(f"crocoddyl skipped: {croc.get('skipped')}", flush=True)
    return out


def warm_table(result: dict) -> None:
    print(f"{WARM} (N = {result['N']}, target moved 2 cm; errors against the converged "
          f"optimum, cost {result['reference']['cost']:.15g})")
    print(f"{'contender':36s} {'latency':>8s} {'it':>3s} {'prepare':>8s} {'cost rel err':>12s} "
          f"{'gripper err':>11s} {'cold':>7s} {'it':>4s}")
    for label, r in result["rows"].items():
        prepare = f"{r['prepare_cpu_s']:8.3f}" if "prepare_cpu_s" in r else f"{'-':>8s}"
        print(f"{label[:36]:36s} {r['warm_resolve_cpu_s']:8.3f} {r['warm_iterations']:3d} "
              f"{prepare} {r['cost_rel_error']:12.1e} {r['gripper_error_m']:11.1e} "
              f"{r['cold_solve_cpu_s']:7.3f} {r['cold_iterations']:4d}")


def table(record: dict) -> None:
    print(f"{'problem':20s} {'contender':28s} {'build':>7s} {'cached':>7s} {'solve':>8s} "
          f"{'it':>5s} {'cost':>11s} {'re-sim err':>10s} {'solve/croc':>10s}")
    for problem, result in record["problems"].items():
        if problem == WARM:
            warm_table(result)
            continue
        rows = result["rows"]
        ref = next((r["solve_cpu_s"] for k, r in rows.items() if k.startswith("crocoddyl")),
                   None)
        for label, r in rows.items():
            ratio = f"{r['solve_cpu_s'] / ref:10.2f}" if ref else f"{'-':>10s}"
            cached = f"{r['cached_build_cpu_s']:7.2f}" if "cached_build_cpu_s" in r else \
                f"{'-':>7s}"
            print(f"{problem[:20]:20s} {label[:28]:28s} {r['build_cpu_s']:7.2f} {cached} "
                  f"{r['solve_cpu_s']:8.3f} {r['iterations']:5d} {r['cost']:11.6g} "
                  f"{r['resimulated_error']:10.1e} {ratio}")
            if not r.get("converged", r.get("status") == "Solve_Succeeded"):
                print(f"{'':20s}   ^ not converged ({r.get('status', 'stopped')})")
        print(f"{'':20s} (URDF import + compile {result['import_compile_cpu_s']:.2f} s, "
              f"N = {result['N']})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="half the intervals over the same horizon (Talos: N = 20), "
                             "one solve each")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--problems", nargs="+", default=[*PROBLEMS, TALOS, WARM],
                        choices=[*PROBLEMS, TALOS, WARM])
    parser.add_argument("--contenders", nargs="+", choices=list(CONTENDERS),
                        help="jourdain's contenders (default: each problem's list)")
    parser.add_argument("--talos-max-iter", type=int, default=1000,
                        help="FDDP's iteration limit on the Talos arm (crocoddyl's: 1000)")
    args = parser.parse_args()
    repeat = 1 if args.quick else args.repeat
    path = RESULTS / f"ocp_vs_crocoddyl{'_quick' if args.quick else ''}.json"
    # rows of problems and contenders not run now are kept from the last record
    record = json.loads(path.read_text()) if path.exists() else {"problems": {}}
    record.update({"repeat": repeat, "quick": args.quick})
    RESULTS.mkdir(parents=True, exist_ok=True)
    for problem in args.problems:
        if problem in (TALOS, WARM):
            result = talos_rows(repeat, args.quick, args.talos_max_iter) if problem == TALOS \
                else talos_warm_rows(repeat, args.quick)
            record["problems"][problem] = result       # the statement changed: all new
        else:
            result = problem_rows(problem, args.contenders or DEFAULTS[problem], repeat,
                                  args.quick)
            kept = record["problems"].get(problem, {}).get("rows", {})
            result["rows"] = {**kept, **result["rows"]}
            record["problems"][problem] = result
        path.write_text(json.dumps(record, indent=1))      # long runs: keep what is done
    table(record)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
