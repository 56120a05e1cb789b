"""The Cubli's jump-up on one edge (M. Gajamohan, M. Merz, I. Thommen, R. D'Andrea, "The
Cubli: A cube that can jump up and balance", IROS 2012): lying on a face, the cube spins its
reaction wheel up, brakes it abruptly — the wheel's angular momentum passes to the whole cube,
which rises onto its edge — and a digital LQR controller catches and balances it.

Built from blocks: the cube with its floor (a rigid stop at the faces), a brake on the wheel
bearing (MSL Brake, stick/slip) closed from ``brake_at`` until the controller takes over, the
spin-up command (a pulse of motor torque), and the balancing
loop (sensors → state vector → DiscreteStateFeedback at ``sample_period`` → Latch that closes
when the tilt comes within ``catch_angle`` of upright → torque limit → motor).
"""
from __future__ import annotations

from math import pi, sqrt

from jourdain.blocks import Add, AngleSensor, Composite, Mux, Pulse, Saturation, Step
from jourdain.blocks.hybrid import Brake, Direction, DiscreteStateFeedback, Latch

from .cube import CubeOnEdge


class CubliJumpUp(Composite):
    """The 1-D Cubli jumping up from its face φ = −π/4 (see the module docstring).

    * K: (1 × 3) state-feedback gain on (edge.phi, edge.w, bearing.w), e.g. an LQR design
      from ``jd.linearize`` of a CubeOnEdge (x_ref = 0).
    * tau_max [N·m]: motor torque limit; sample_period [s]: of the controller.
    * catch_angle [rad]: the controller takes over when φ rises above −catch_angle.
    * spin_torque [N·m] for spin_time [s] from t = 0: the motor spins the wheel up (0: none,
      start with the wheel spinning instead).
    * brake_at [s]: the brake closes, and holds the wheel until the controller takes over
      (the cube rises as one body).
    * brake_torque [N·m]: the brake's sliding torque (MSL Brake: cgeo·μ·fn_max, μ = 0.5,
      cgeo = 0.02 m, peak 1.2).
    """

    STATES = ("edge.phi", "edge.w", "bearing.w")

    def __init__(self, K, tau_max: float = 0.2, sample_period: float = 1e-3,
                 catch_angle: float = 0.1, spin_torque: float = 0.0, spin_time: float = 0.0,
                 brake_at: float = 0.02, brake_torque: float = 50.0,
                 **cube_options):
        super().__init__()
        self.cube = CubeOnEdge(floor=True, **cube_options)
        self.brake = Brake(mu_pos=((0.0, 0.5),), peak=1.2, cgeo=0.02,
                           fn_max=brake_torque / (0.5 * 0.02))
        self.brake_on = Step(height=1.0, t_step=brake_at)
        self.brake_command = Add(1.0, -1.0)      # closed from brake_at until the catch
        self.spin_command = Pulse(amplitude=spin_torque, width=100 * spin_time / 1e3,
                                  period=1e3)
        self.edge_sensor, self.wheel_sensor = AngleSensor(), AngleSensor()
        self.state = Mux(1, 1, 1)
        self.controller = DiscreteStateFeedback(K, sample_period)
        self.catch = Latch(-catch_angle, Direction.RISING)
        self.total = Add()
        self.limit = Saturation(tau_max)
        for a, b in ((self.brake.flange_b, self.cube.bearing.axis),
                     (self.brake_on.y, self.brake_command.u1),
                     (self.catch.state, self.brake_command.u2),
                     (self.brake_command.y, self.brake.f_normalized),
                     (self.edge_sensor.flange, self.cube.edge.axis),
                     (self.wheel_sensor.flange, self.cube.bearing.axis),
                     (self.edge_sensor.phi, self.state.u1), (self.edge_sensor.w, self.state.u2),
                     (self.wheel_sensor.w, self.state.u3), (self.state.y, self.controller.x),
                     (self.controller.u, self.catch.u), (self.edge_sensor.phi, self.catch.trigger),
                     (self.catch.y, self.total.u1), (self.spin_command.y, self.total.u2),
                     (self.total.y, self.limit.u), (self.limit.y, self.cube.motor.tau)):
            self.connect(a, b)
        self.expose(self.cube.frame_a, "frame_a")


def jump_speed(cube: CubeOnEdge | None = None, g: float = 9.81) -> float:
    """The least wheel speed [rad/s] that brings the cube from its face onto its edge when the
    wheel is braked instantly (Gajamohan et al. 2012, angular momentum about the edge):
    before braking L = Θ_w·ω_w (the housing at rest); after it the cube turns as one body,
    Θ_0·ω = L with Θ_0 = Θ_b + Θ_w + m_w·l² (about the edge); rising from φ = −45° to upright
    lifts the centre of mass by l_c·(1 − cos 45°):  ½·Θ_0·ω² = (m_b·l_b + m_w·l)·g·(1 − 1/√2),
    so ω_w = √(2·Θ_0·(m_b·l_b + m_w·l)·g·(1 − 1/√2)) / Θ_w."""
    cube = cube or CubeOnEdge()
    m_b, l_b = cube.housing.m, cube.housing.r_cm[1]
    m_w, l = cube.wheel.m, cube.mount.r[1]
    theta_w = cube.wheel.I[2, 2]
    theta_b = cube.housing.I[2, 2] + m_b * l_b**2
    theta_0 = theta_b + theta_w + m_w * l**2
    return sqrt(2 * theta_0 * (m_b * l_b + m_w * l) * g * (1 - 1 / sqrt(2))) / theta_w


FACE = -pi / 4   # the edge angle of the cube lying on its face
