"""crocoddyl's side of benchmarks/robot_ocp.py: the Talos arm reaching a frame position,
FDDP on RK4 integrated action models, run in an interpreter with crocoddyl 3.2.1 and
Pinocchio 4.0.0 (its wheel silently drops gravity with Pinocchio 4.1), one thread.

Problem (crocoddyl's examples/arm_manipulation.py with the grid of issue 27, stated as
jourdain's benchmarks/robot_ocp.py states it): talos_arm with the gripper joint locked at
q = -0.005 (pinocchio.buildReducedModel: 6 joints, 6 torques), no armature (the loaded model
has 0.1 kg·m² on each arm joint, which Pinocchio's ABA adds to the mass matrix; jourdain's
URDF model has none), N knots of dt = 0.01 s, RK4; running costs gripper position to the
target (weight 1, ResidualModelFrameTranslation: the position, as jourdain states it), state
regularization to x0 and control regularization (1e-4), terminal gripper position (1).
``--armature A`` gives the arm joints A kg·m² of rotor inertia instead (example-robot-data's
talos_arm has 0.1; benchmarks/ocp_vs_crocoddyl.py states it on both sides). Prints one JSON line: CPU times (time.process_time, median of --repeat), iterations,
cost, the gripper error of the optimal torques re-simulated (RK4, 100 substeps per knot,
Pinocchio's ABA) against crocoddyl's own final state, and the warm re-solve after moving
the target 2 cm (its cost and final gripper position too).

    python benchmarks/peers/crocoddyl_arm.py [--N 100] [--repeat 3]
"""
from __future__ import annotations

import argparse
import json
import os
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

import crocoddyl  # noqa: E402
import example_robot_data  # noqa: E402
import numpy as np  # noqa: E402
import pinocchio  # noqa: E402

TARGET = np.array([0.0, 0.0, 0.4])
Q0 = np.array([0.173046, 1.0, -0.52366, 0.0, 0.0, 0.1])
GRIPPER_Q = -0.005
FRAME = "gripper_left_joint"


def arm_model(armature: float = 0.0):
    """talos_arm as jourdain states it: the gripper locked, ``armature`` on the six arm
    joints (module docstring)."""
    full = example_robot_data.load("talos_arm").model
    q_lock = np.concatenate([Q0, [GRIPPER_Q]])
    model = pinocchio.buildReducedModel(full, [full.getJointId("gripper_left_joint")], q_lock)
    model.armature[:] = armature
    return model


def problem(model, N: int, dt: float, target: np.ndarray):
    state = crocoddyl.StateMultibody(model)
    actuation = crocoddyl.ActuationModelFull(state)
    frame = model.getFrameId(FRAME)
    reach = crocoddyl.CostModelResidual(
        state, crocoddyl.ResidualModelFrameTranslation(state, frame, target))
    x0 = np.concatenate([Q0, np.zeros(model.nv)])
    x_reg = crocoddyl.CostModelResidual(state, crocoddyl.ResidualModelState(state, x0))
    u_reg = crocoddyl.CostModelResidual(state, crocoddyl.ResidualModelControl(state))
    running, terminal = crocoddyl.CostModelSum(state), crocoddyl.CostModelSum(state)
    running.addCost("gripperPosition", reach, 1.0)
    running.addCost("xReg", x_reg, 1e-4)
    running.addCost("uReg", u_reg, 1e-4)
    terminal.addCost("gripperPosition", reach, 1.0)
    rk4 = crocoddyl.RKType.four
    run = crocoddyl.IntegratedActionModelRK(
        crocoddyl.DifferentialActionModelFreeFwdDynamics(state, actuation, running), rk4, dt)
    end = crocoddyl.IntegratedActionModelRK(
        crocoddyl.DifferentialActionModelFreeFwdDynamics(state, actuation, terminal), rk4, 0.0)
    return crocoddyl.ShootingProblem(x0, [run] * N, end), x0


def solve(prob, x0, N: int, xs=None, us=None):
    solver = crocoddyl.SolverFDDP(prob)
    solver.th_stop = 1e-9
    xs = xs if xs is not None else [x0] * (N + 1)
    us = us if us is not None else prob.quasiStatic([x0] * N)
    cpu = time.process_time()
    solver.solve(xs, us, 1000, False)
    return solver, time.process_time() - cpu


def gripper(model, data, q) -> np.ndarray:
    pinocchio.framesForwardKinematics(model, data, q)
    return data.oMf[model.getFrameId(FRAME)].translation.copy()


def resimulated_error(model, solver, dt: float, substeps: int = 100) -> float:
    """|gripper(x re-simulated) − gripper(crocoddyl's x_N)| [m] at t_f."""
    data = model.createData()
    x = solver.xs[0].copy()
    nq = model.nq
    h = dt / substeps

    def f(x, u):
        return np.concatenate([x[nq:], pinocchio.aba(model, data, x[:nq], x[nq:], u)])
    for u in solver.us:
        for _ in range(substeps):
            k1 = f(x, u)
            k2 = f(x + h / 2 * k1, u)
            k3 = f(x + h / 2 * k2, u)
            k4 = f(x + h * k3, u)
            x = x + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    return float(np.linalg.norm(gripper(model, data, x[:nq]) -
                                gripper(model, data, solver.xs[-1][:nq])))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--N", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--armature", type=float, default=0.0,
                        help="rotor inertia of each arm joint [kg m^2] (default 0: jourdain's)")
    args = parser.parse_args()
    N, dt = args.N, 0.01
    model = arm_model(args.armature)
    cpu = time.process_time()
    prob, x0 = problem(model, N, dt, TARGET)
    build = time.process_time() - cpu
    runs = [solve(prob, x0, N) for _ in range(args.repeat)]
    solver = runs[-1][0]
    warm = []
    for _ in range(args.repeat):
        moved, _ = problem(model, N, dt, TARGET + np.array([0.02, 0.0, 0.0]))
        warm.append(solve(moved, x0, N, list(solver.xs), list(solver.us)))
    out = {"versions": {"crocoddyl": crocoddyl.__version__,
                        "pinocchio": pinocchio.__version__},
           "build_cpu_s": build, "solve_cpu_s": float(np.median([r[1] for r in runs])),
           "iterations": solver.iter, "cost": solver.cost,
           "warm_resolve_cpu_s": float(np.median([r[1] for r in warm])),
           "warm_iterations": warm[-1][0].iter, "warm_cost": warm[-1][0].cost,
           "warm_stop": warm[-1][0].stop,
           "warm_gripper_final_m": gripper(model, model.createData(),
                                           warm[-1][0].xs[-1][:model.nq]).tolist(),
           "frame_error_resimulated_m": resimulated_error(model, solver, dt),
           "gripper_final_m": gripper(model, model.createData(), solver.xs[-1][:model.nq]
                                      ).tolist(), "converged": bool(solver.stop < solver.th_stop),
           "stop": solver.stop, "armature": args.armature,
           "xs": np.array(solver.xs).tolist(), "us": np.array(solver.us).tolist()}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
