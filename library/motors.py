"""Electric drives built from blocks: a permanent-magnet DC motor and the same motor on a
PWM-averaged H-bridge with a current sensor.

The motor follows Modelica's ``Electrical.Machines.BasicMachines.DCMachines.DC_PermanentMagnet``
reduced to its armature circuit (no brush, core or stray losses):

    V = R·i + L·di/dt + k·ω,    J·dω/dt = k·i − d·ω − τ_load,

so at a constant voltage V the steady state is ω = k·V/(k² + R·d), i = d·V/(k² + R·d) (no
load), the electrical time constant is L/R and the locked-rotor torque k·V/R.
"""
from __future__ import annotations

from jourdain.blocks import (
    EMF,
    Composite,
    CurrentSensor,
    Ground,
    HBridge,
    Inductor,
    Inertia,
    Resistor,
    ViscousFriction,
    VoltageLimit,
)
from jourdain.blocks.errors import ModelError


class DCMotor(Composite):
    """A permanent-magnet DC motor: armature resistor ``armature`` (R), inductor
    ``inductor`` (L), ``emf`` (k), rotor ``rotor`` (J) and bearing ``friction`` (d).

    Ports: pins ``p``, ``n`` (armature terminals), flanges ``flange`` (shaft) and ``support``
    (housing; the reference 0 unless connected, e.g. to a joint's support).
    R [Ω] > 0; L [H] ≥ 0 (0: no inductor, the current follows the voltage instantly);
    k [N·m/A] torque constant = back-EMF constant [V·s/rad]; J [kg·m²] ≥ 0 rotor inertia (0
    when the rotor is counted in the driven body); d [N·m·s/rad] ≥ 0 bearing friction.
    """

    def __init__(self, R: float = 1.0, L: float = 1e-3, k: float = 0.1, J: float = 1e-4,
                 d: float = 0.0):
        super().__init__()
        for name, value in (("L", L), ("J", J), ("d", d)):
            if not value >= 0:
                raise ModelError(f"DCMotor: {name} must be non-negative, got {value}")
        self.armature = Resistor(R=R)
        self.emf = EMF(k=k)
        end = self.armature.n
        if L > 0:
            self.inductor = Inductor(L=L)
            self.connect(self.armature.n, self.inductor.p)
            end = self.inductor.n
        self.connect(end, self.emf.p)
        shaft = self.emf.flange
        if J > 0:
            self.rotor = Inertia(J=J)
            self.connect(self.emf.flange, self.rotor.flange_a)
            shaft = self.rotor.flange_b
        if d > 0:
            self.friction = ViscousFriction(d=d)
            self.connect(self.friction.flange_b, shaft)
            self.connect(self.friction.flange_a, self.emf.support)
        self.expose(self.armature.p, "p")
        self.expose(self.emf.n, "n")
        self.expose(shaft, "flange")
        self.expose(self.emf.support, "support")


class DCMotorDrive(Composite):
    """A DCMotor (child ``motor``) on a PWM H-bridge (``bridge``, averaged, output limited to
    ±V_supply) with a ``ground`` and an ammeter ``ammeter`` in the armature circuit.

    Input ``v_ref`` [V]: the commanded armature voltage (duty cycle × V_supply). Output
    ``ammeter.i`` [A]: the armature current. Flanges ``flange`` and ``support`` as the motor's.
    V_supply [V] > 0; limit: VoltageLimit.CLIP (default) or SMOOTH (for optimization); the
    other keywords (R, L, k, J, d) go to DCMotor.
    """

    def __init__(self, V_supply: float = 24.0, limit: VoltageLimit = VoltageLimit.CLIP,
                 **motor):
        super().__init__()
        self.bridge = HBridge(V_supply=V_supply, limit=limit)
        self.ammeter = CurrentSensor()
        self.motor = DCMotor(**motor)
        self.ground = Ground()
        self.connect(self.bridge.p, self.ammeter.p)
        self.connect(self.ammeter.n, self.motor.p)
        self.connect(self.motor.n, self.bridge.n)
        self.connect(self.bridge.n, self.ground.p)
        self.expose(self.bridge.v_ref, "v_ref")
        self.expose(self.ammeter.i, "i")
        self.expose(self.motor.flange, "flange")
        self.expose(self.motor.support, "support")
