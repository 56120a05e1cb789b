"""The statements of benchmarks/ocp_vs_crocoddyl.py's problems, shared by both sides: plain
numbers only (no jourdain, no crocoddyl import), so that crocoddyl's interpreter
(benchmarks/peers/crocoddyl_ocp.py) and jourdain's read the same grid, weights and limits.

Costs are crocoddyl's: Σ_k dt·Σ_i w_i·½‖r_i(x_k, u_k)‖² over the intervals (integrated by the
same RK4 steps as the dynamics) + Σ_i W_i·½‖r_i(x_N)‖² at the end; dynamics are the URDF's
rigid bodies with ideal torques (no joint damping, no armature), RK4 with one step per
interval of dt, x(0) given, the inputs piecewise constant.
"""
from __future__ import annotations

import math

PROBLEMS = {
    # example-robot-data's meshless double pendulum (2 revolute joints about x, 0.2 + 0.3 kg,
    # links 0.1 and 0.2 m), both joints driven, from hanging at rest to upright at rest; the
    # torque limit is below the static torque that lifts it sideways (0.69 N·m), so it must
    # swing: BoxFDDP's box on the controls, bounds on jourdain's inputs
    "double pendulum": {
        "urdf": "double_pendulum_description/urdf/double_pendulum_simple.urdf",
        "joints": ["joint1", "joint2"],
        "N": 100, "dt": 0.02,
        "q0": [math.pi, 0.0], "x_goal": [0.0, 0.0, 0.0, 0.0],
        "weights": {"x": 1e-1, "u": 1e-1, "x_terminal": 1e3},
        "torque_limit": [0.6, 0.6],       # [N·m], stated: the file's effort is 0
        "joint_limits": False,
    },
    # example-robot-data's UR5 (6 revolute joints), point to point at rest in 1 s; the joint
    # position, speed and torque limits of the URDF (jourdain: bounds; crocoddyl: its torque
    # box and a quadratic barrier on the state bounds, zero inside them)
    "UR5 point to point": {
        "urdf": "ur_description/urdf/ur5_robot.urdf",
        "joints": ["shoulder_pan_joint", "shoulder_lift_joint", "elbow_joint",
                   "wrist_1_joint", "wrist_2_joint", "wrist_3_joint"],
        "N": 50, "dt": 0.02,
        "q0": [0.0, -1.5, 1.5, -1.5, -1.5, 0.0],
        "x_goal": [1.5, -1.0, 0.8, -1.0, -1.0, 1.0] + [0.0] * 6,
        "weights": {"x": 1e-2, "u": 1e-4, "x_terminal": 1e3},
        "torque_limit": None,             # the URDF's effort
        "joint_limits": True,
    },
}


def x0(problem: dict) -> list[float]:
    """The initial state: q0 at rest."""
    return list(problem["q0"]) + [0.0] * len(problem["q0"])
