"""crocoddyl's side of benchmarks/ocp_vs_crocoddyl.py: the double-pendulum swing-up and the
UR5 point-to-point move of benchmarks/peers/ocp_statements.py, solved by BoxFDDP (box on the
torques) on RK4 integrated action models, in an interpreter with crocoddyl 3.2.1 and
Pinocchio 4.0.0 (its wheel silently drops gravity with Pinocchio 4.1), one thread.

Same URDF, grid, weights and limits as jourdain's side; joint position and speed limits,
which BoxFDDP cannot bound, are a quadratic barrier on the state (crocoddyl's way, zero
inside the limits, weight 1e3). Initial guess: x0 at every node, the quasi-static torques.
Prints one JSON line: build and solve CPU (time.process_time, median of --repeat),
iterations, cost, the optimal torques and nodes, and the final-state error of the
torques re-simulated (RK4, 100 substeps per interval, Pinocchio's ABA) against crocoddyl's
own nodes (max over intervals and the state's components: from each planned node, and from
x(0) to t_f). With --cost-of FILE, crocoddyl's cost of given torques (rolled out).

    python benchmarks/peers/crocoddyl_ocp.py --problem "double pendulum" [--N 100]
"""
from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))

import crocoddyl  # noqa: E402
import numpy as np  # noqa: E402
import pinocchio  # noqa: E402

from ocp_statements import PROBLEMS, x0 as initial_state  # noqa: E402


def urdf_path(relative: str) -> str:
    share = importlib.metadata.distribution("example-robot-data").locate_file(
        "cmeel.prefix/share")
    return str(Path(str(share)) / "example-robot-data" / "robots" / relative)


def problem(model, spec: dict, N: int):
    state = crocoddyl.StateMultibody(model)
    actuation = crocoddyl.ActuationModelFull(state)
    w = spec["weights"]
    goal = np.array(spec["x_goal"], dtype=float)
    x_reg = crocoddyl.CostModelResidual(state, crocoddyl.ResidualModelState(state, goal))
    u_reg = crocoddyl.CostModelResidual(state, crocoddyl.ResidualModelControl(state))
    running, terminal = crocoddyl.CostModelSum(state), crocoddyl.CostModelSum(state)
    running.addCost("xReg", x_reg, w["x"])
    running.addCost("uReg", u_reg, w["u"])
    terminal.addCost("xGoal", x_reg, w["x_terminal"])
    if spec["joint_limits"]:
        lower = np.concatenate([model.lowerPositionLimit, -model.velocityLimit])
        upper = np.concatenate([model.upperPositionLimit, model.velocityLimit])
        barrier = crocoddyl.CostModelResidual(
            state, crocoddyl.ActivationModelQuadraticBarrier(
                crocoddyl.ActivationBounds(lower, upper)),
            crocoddyl.ResidualModelState(state, np.zeros(state.nx)))
        running.addCost("stateBounds", barrier, 1e3)
        terminal.addCost("stateBounds", barrier, 1e3)
    limit = np.array(spec["torque_limit"] or model.effortLimit, dtype=float)
    rk4 = crocoddyl.RKType.four
    models = []
    for costs, dt in ((running, spec["dt"]), (terminal, 0.0)):
        dam = crocoddyl.DifferentialActionModelFreeFwdDynamics(state, actuation, costs)
        dam.u_lb, dam.u_ub = -limit, limit
        iam = crocoddyl.IntegratedActionModelRK(dam, rk4, dt)
        iam.u_lb, iam.u_ub = -limit, limit
        models.append(iam)
    x0 = np.array(initial_state(spec), dtype=float)
    return crocoddyl.ShootingProblem(x0, [models[0]] * N, models[1]), x0, limit


def solve(prob, x0, N: int):
    solver = crocoddyl.SolverBoxFDDP(prob)
    solver.th_stop = 1e-9
    xs = [x0] * (N + 1)
    us = prob.quasiStatic([x0] * N)
    cpu = time.process_time()
    solver.solve(xs, us, 1000, False)
    return solver, time.process_time() - cpu


def resimulated_error(model, solver, dt: float, substeps: int = 100) -> tuple[float, float]:
    """(local, open loop): max over intervals and state components of |x_(k+1) re-simulated
    from crocoddyl's x_k with u_k − crocoddyl's x_(k+1)|, and of |x(t_f) re-simulated from
    x(0) − crocoddyl's x_N| (grows along unstable motions)."""
    data = model.createData()
    nq, h = model.nq, dt / substeps

    def f(x, u):
        return np.concatenate([x[nq:], pinocchio.aba(model, data, x[:nq], x[nq:], u)])

    def interval(x, u):
        for _ in range(substeps):
            k1 = f(x, u)
            k2 = f(x + h / 2 * k1, u)
            k3 = f(x + h / 2 * k2, u)
            k4 = f(x + h * k3, u)
            x = x + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        return x
    local, x = 0.0, solver.xs[0].copy()
    for k, u in enumerate(solver.us):
        local = max(local, float(np.max(np.abs(interval(solver.xs[k], u) - solver.xs[k + 1]))))
        x = interval(x, u)
    return local, float(np.max(np.abs(x - solver.xs[-1])))


def cost_of(prob, plan: dict) -> float:
    """crocoddyl's cost of a plan {"xs": (N + 1) × nx nodes, "us": N × nu torques} evaluated at
    its nodes (as the plan states them: an open-loop rollout diverges on unstable motions)."""
    xs = [np.asarray(x, dtype=float) for x in plan["xs"]]
    us = [np.asarray(u, dtype=float) for u in plan["us"]]
    return float(prob.calc(xs, us))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--problem", required=True, choices=list(PROBLEMS))
    parser.add_argument("--N", type=int, default=None, help="intervals (default: the spec's)")
    parser.add_argument("--dt", type=float, default=None, help="[s] (default: the spec's)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cost-of", help="a JSON file {xs, us} of a plan: print crocoddyl's "
                        "cost of it instead of solving")
    args = parser.parse_args()
    spec = dict(PROBLEMS[args.problem], dt=args.dt or PROBLEMS[args.problem]["dt"])
    N = args.N or spec["N"]
    model = pinocchio.buildModelFromUrdf(urdf_path(spec["urdf"]))
    cpu = time.process_time()
    prob, x0, limit = problem(model, spec, N)
    build = time.process_time() - cpu
    if args.cost_of:
        print(json.dumps({"cost": cost_of(prob, json.loads(Path(args.cost_of).read_text()))}))
        return
    runs = [solve(prob, x0, N) for _ in range(args.repeat)]
    solver = runs[-1][0]
    us = np.array(solver.us)
    out = {"versions": {"crocoddyl": crocoddyl.__version__,
                        "pinocchio": pinocchio.__version__},
           "N": N, "build_cpu_s": build,
           "solve_cpu_s": float(np.median([r[1] for r in runs])),
           "iterations": solver.iter, "cost": solver.cost,
           "converged": bool(solver.stop < solver.th_stop), "stop": solver.stop,
           **dict(zip(("resimulated_error", "resimulated_error_open_loop"),
                      resimulated_error(model, solver, spec["dt"]))),
           "max_torque_over_limit": float(np.max(np.abs(us) / limit)),
           "us": us.tolist(), "xs": np.array(solver.xs).tolist()}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
