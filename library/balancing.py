"""The cubes with their balancing controllers: sensors → state vector → state feedback →
torque limit → motors, all signal blocks, so the closed loop is one model.

The state vector is assembled in the order ``STATES`` (names relative to the cube, as in the
linearization of the open-loop cube with default speeds); design the gain on
``lin.select([f"cube.{s}" for s in STATES])`` so its columns match.
"""
from __future__ import annotations

import numpy as np

from jourdain.blocks import (AngleSensor, AttitudeError, Composite, Demux, FrameSensor, Mux,
                             Saturation, StateFeedback)
from jourdain.blocks.geometry import axis_rotation, unit_axis

from .cube import CubeOnEdge
from .cube_corner import UPRIGHT_ANGLE, UPRIGHT_AXIS, CubeOnCorner


def _upright_rotation() -> np.ndarray:
    """The housing's upright orientation (the cube's fixed ``upright`` rotation), numeric."""
    axis = unit_axis(UPRIGHT_AXIS, "BalancedCubeOnCorner")
    return np.array(axis_rotation(axis, UPRIGHT_ANGLE), dtype=float)


class BalancedCubeOnEdge(Composite):
    """CubeOnEdge (child ``cube``) with u = −K·x, x = (edge.phi, edge.w, bearing.w), the
    torque limited to ±tau_max [N·m]. ``K``: 1×3 gain; other keywords go to CubeOnEdge."""

    STATES = ("edge.phi", "edge.w", "bearing.w")

    def __init__(self, K, tau_max: float, **cube_options):
        super().__init__()
        self.cube = CubeOnEdge(**cube_options)
        self.edge_sensor, self.wheel_sensor = AngleSensor(), AngleSensor()
        self.state = Mux(1, 1, 1)
        self.controller = StateFeedback(K)
        self.limit = Saturation(tau_max)
        self.connect(self.edge_sensor.flange, self.cube.edge.axis)
        self.connect(self.wheel_sensor.flange, self.cube.bearing.axis)
        self.connect(self.edge_sensor.phi, self.state.u1)
        self.connect(self.edge_sensor.w, self.state.u2)
        self.connect(self.wheel_sensor.w, self.state.u3)
        self.connect(self.state.y, self.controller.x)
        self.connect(self.controller.u, self.limit.u)
        self.connect(self.limit.y, self.cube.motor.tau)
        self.expose(self.cube.frame_a, "frame_a")


class BalancedCubeOnCorner(Composite):
    """CubeOnCorner (child ``cube``) with u = −K·x, x = (attitude error θ of the housing,
    its body rates ω, the wheel speeds ψ̇_i relative to the housing) measured by a
    FrameSensor (an IMU) and three AngleSensors; torques limited to ±tau_max [N·m] each.
    ``K``: 3×9 gain; other keywords go to CubeOnCorner."""

    STATES = ("pivot.theta_x", "pivot.theta_y", "pivot.theta_z", "pivot.wx", "pivot.wy",
              "pivot.wz", "bearing1.w", "bearing2.w", "bearing3.w")

    def __init__(self, K, tau_max: float, **cube_options):
        super().__init__()
        self.cube = CubeOnCorner(**cube_options)
        self.imu = FrameSensor()
        self.attitude = AttitudeError(_upright_rotation())
        self.state = Mux(3, 3, 1, 1, 1)
        self.controller = StateFeedback(K)
        self.limit = Saturation(tau_max, size=3)
        self.torques = Demux(1, 1, 1)
        self.connect(self.imu.frame_a, self.cube.pivot.frame_b)
        self.connect(self.imu.R, self.attitude.R)
        self.connect(self.imu.w, self.attitude.w)
        self.connect(self.attitude.theta, self.state.u1)
        self.connect(self.attitude.w_local, self.state.u2)
        for i in (1, 2, 3):
            sensor = self.add(f"wheel_sensor{i}", AngleSensor())
            self.connect(sensor.flange, getattr(self.cube, f"bearing{i}").axis)
            self.connect(sensor.w, getattr(self.state, f"u{i + 2}"))
            self.connect(getattr(self.torques, f"y{i}"), getattr(self.cube, f"motor{i}").tau)
        self.connect(self.state.y, self.controller.x)
        self.connect(self.controller.u, self.limit.u)
        self.connect(self.limit.y, self.torques.u)
        self.expose(self.cube.frame_a, "frame_a")
