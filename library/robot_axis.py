"""One axis of an industrial robot, in the style of the Modelica Standard Library's
``Mechanics.MultiBody.Examples.Systems.RobotR3.OneAxis``: a reference motion (KinematicPTP),
a cascade controller (the MSL's P-PI ``Controller`` of ``library.robot_r3``, then a PI current
loop), a DC motor on an H-bridge, a gearbox and the arm link on a revolute joint. The MSL's
own axis (its analog current controller, friction, the MSL's initialization) is
``library.robot_r3.OneAxis``.

From OneAxis (public MSL source): the structure of ``Controller`` (the references are given at
the gear output and scaled by the gear ratio to the motor side; speed error
e_w = ratio·qd_ref + kp·(ratio·q_ref − φ_motor) − ω_motor into a PI with gain ks and time
constant Ts), the motor inertia J_motor = 0.0013 kg·m², the load inertia about the axis
1.3·m_load = 19.5 kg·m² (m_load = 15 kg) and the reference 0 → 120° with 3 rad/s and
10 rad/s² (``PathPlanning1``), simulated for 1.6 s. OneAxis' gear ratio 210 and its elastic
gear (c = 8 N·m/rad, cd = 0.01 N·m·s/rad on the motor side) are the defaults here too.

ESTIMATES (OneAxis' motor is a current-controlled black box): a servo-class DC motor
R = 1 Ω, L = 5 mH, k = 0.3 N·m/A on a 300 V H-bridge (at 3 rad/s × 210 the motor turns at
630 rad/s: 189 V back-EMF), and a PI current loop of 1000 rad/s (kc = L·1000 V/A,
Tc = L/R). OneAxis' speed and position gains (ks = 0.5, Ts = 0.05 s, kp = 5) then give a speed
loop of about ks·k/(J_motor + J_load/ratio²) ≈ 86 rad/s.
"""
from __future__ import annotations

import numpy as np

from jourdain.blocks import (
    PID,
    Add,
    AngleSensor,
    Composite,
    IdealGear,
    KinematicPTP,
    Revolute,
    RigidBody,
    RotationalSpring,
    ViscousFriction,
)

from .motors import DCMotorDrive
from .robot_r3 import Controller


class RobotAxis(Composite):
    """Reference → controller → DCMotorDrive ``drive`` → (elastic) IdealGear ``gear`` →
    Revolute ``joint`` (axis y, vertical: the default World's gravity loads nothing) → arm
    ``arm``. Exposes ``frame_a`` (the joint's base).

    ratio [1] gear ratio (motor angle / joint angle); c, cd [N·m/rad, N·m·s/rad] gear
    elasticity on the motor side (c = None: a rigid gear); m_load [kg] and J_load [kg·m²] the
    arm's mass and inertia about the axis (center of mass 1 m out); q_end [rad], qd_max,
    qdd_max: the reference motion from 0; kp [1/s], ks [A·s/rad], Ts [s]: position and speed
    controller gains; kc [V/A], Tc [s]: the current loop. Motor keywords: see DCMotorDrive.
    """

    def __init__(self, ratio: float = 210.0, c: float | None = 8.0, cd: float = 0.01,
                 m_load: float = 15.0, J_load: float | None = None,
                 q_end: float = np.radians(120.0), qd_max: float = 3.0, qdd_max: float = 10.0,
                 kp: float = 5.0, ks: float = 0.5, Ts: float = 0.05, kc: float = 5.0,
                 Tc: float = 5e-3, V_supply: float = 300.0, R: float = 1.0, L: float = 5e-3,
                 k: float = 0.3, J_motor: float = 0.0013):
        super().__init__()
        J_load = 1.3 * m_load if J_load is None else J_load
        self.reference = KinematicPTP(0.0, q_end, qd_max, qdd_max)
        self.drive = DCMotorDrive(V_supply=V_supply, R=R, L=L, k=k, J=J_motor)
        self.gear = IdealGear(ratio=ratio)
        self._mechanics(c, cd, m_load, J_load)
        self._controller(ratio, kp, ks, Ts, kc, Tc)
        self.expose(self.joint.frame_a, "frame_a")

    def _mechanics(self, c, cd, m_load, J_load) -> None:
        """Motor shaft → (spring-damper) → gear → joint axis; the arm on the joint."""
        self.joint = Revolute(axis=(0, 1, 0))
        I_axis = J_load - m_load * 1.0 ** 2          # central inertia about the axis
        self.arm = RigidBody(m=m_load, r_cm=(1.0, 0, 0), I=(0.1 * I_axis, I_axis, I_axis))
        self.connect(self.joint.frame_b, self.arm.frame_a)
        if c is None:
            self.connect(self.drive.flange, self.gear.flange_a)
        else:
            self.elasticity = RotationalSpring(c=c)
            self.gear_damping = ViscousFriction(d=cd)
            for element in (self.elasticity, self.gear_damping):
                self.connect(element.flange_a, self.drive.flange)
                self.connect(element.flange_b, self.gear.flange_a)
        self.connect(self.gear.flange_b, self.joint.axis)

    def _controller(self, ratio, kp, ks, Ts, kc, Tc) -> None:
        """OneAxis' Controller (``library.robot_r3.Controller``, the MSL's P-PI cascade:
        current_ref = PI(ks, Ts)[ratio·qd_ref + kp·(ratio·q_ref − φ_m) − ω_m]); a PI current
        loop gives the bridge's voltage command (the MSL's analog current controller is
        ``robot_r3.Motor``)."""
        self.motor_sensor = AngleSensor()
        self.connect(self.motor_sensor.flange, self.drive.flange)
        self.controller = Controller(kp=kp, ks=ks, Ts=Ts, ratio=ratio)
        self.current_error = Add(1.0, -1.0)
        self.current_controller = PID(k_p=kc, k_i=kc / Tc)
        for source, port in ((self.reference.q, self.controller.angle_ref),
                             (self.reference.qd, self.controller.speed_ref),
                             (self.motor_sensor.phi, self.controller.motorAngle),
                             (self.motor_sensor.w, self.controller.motorSpeed),
                             (self.controller.current_ref, self.current_error.u1),
                             (self.drive.ammeter.i, self.current_error.u2),
                             (self.current_error.y, self.current_controller.e),
                             (self.current_controller.y, self.drive.v_ref)):
            self.connect(source, port)
