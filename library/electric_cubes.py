"""The reaction-wheel cubes with DC motors on H-bridges instead of ideal torque sources: the
inputs are armature voltages, the wheel torque is k·i with the current i a state of the
armature circuit (R, L, back-EMF k·ψ̇ of the wheel's speed relative to the housing).

MOTOR DATA ARE ESTIMATES (the Cubli papers give no motor constants; change them for your
hardware): a 24 V, 50 W class flat brushless motor treated as a DC motor, R = 0.608 Ω,
L = 0.463 mH (L/R ≈ 0.76 ms), k = 0.0335 N·m/A (back-EMF 3.5 V per 100 rad/s); the rotor is
counted in the wheel inertia (Θ_w) and the bearing friction in C_w, so the motors carry
neither. Supply V_SUPPLY = 24 V (the H-bridge clips ±24 V); current limit I_MAX = 15 A, the
peak current of a 50 V / 5 A servo amplifier class, so k·I_MAX ≈ 0.50 N·m. The current limit
is a limit of the drive, not a model element: bound the current (the state
``drive.motor.inductor.i``, or the output ``drive.ammeter.i`` when L = 0) in an optimization,
or keep it in a controller's design.
"""
from __future__ import annotations

from jourdain.blocks import AngleSensor, Composite, Mux, Revolute, StateFeedback, VoltageLimit

from .cube import CubeOnEdge
from .cube_corner import CubeOnCorner
from .motors import DCMotorDrive

CUBE_MOTOR = {"R": 0.608, "L": 0.463e-3, "k": 0.0335}   # ESTIMATES (module docstring)
V_SUPPLY = 24.0   # [V] ESTIMATE
I_MAX = 15.0      # [A] ESTIMATE


def _drive(limit: VoltageLimit, motor: dict) -> DCMotorDrive:
    return DCMotorDrive(V_supply=V_SUPPLY, limit=limit, J=0.0, d=0.0, **{**CUBE_MOTOR, **motor})


class ElectricCubeOnEdge(CubeOnEdge):
    """CubeOnEdge whose wheel is driven by a DCMotorDrive ``drive`` (input ``drive.v_ref``
    [V], armature current state ``drive.motor.inductor.i`` [A], output ``drive.ammeter.i``).

    limit : the H-bridge's VoltageLimit (SMOOTH for optimization); motor : overrides of
    R, L, k (e.g. {"L": 0} for an algebraic current); other keywords go to CubeOnEdge.
    """

    def __init__(self, limit: VoltageLimit = VoltageLimit.CLIP, motor: dict | None = None,
                 **cube_options):
        object.__setattr__(self, "_options", (limit, dict(motor or {})))
        super().__init__(**cube_options)

    def _actuate(self) -> None:
        self.drive = _drive(*self._options)
        self.connect(self.drive.flange, self.bearing.axis)


class ElectricCubeOnCorner(CubeOnCorner):
    """CubeOnCorner whose wheels are driven by DCMotorDrives ``drive1..3`` (inputs
    ``drive<i>.v_ref`` [V]); keywords as ElectricCubeOnEdge."""

    def __init__(self, limit: VoltageLimit = VoltageLimit.CLIP, motor: dict | None = None,
                 **cube_options):
        object.__setattr__(self, "_options", (limit, dict(motor or {})))
        super().__init__(**cube_options)

    def _actuate(self, i: int, bearing: Revolute) -> None:
        drive = self.add(f"drive{i}", _drive(*self._options))
        self.connect(drive.flange, bearing.axis)


class BalancedElectricCubeOnEdge(Composite):
    """ElectricCubeOnEdge (child ``cube``) with v_ref = −K·x, x = (edge.phi, edge.w,
    bearing.w, armature current): AngleSensors and the drive's ammeter → Mux →
    StateFeedback → the H-bridge (which clips at ±V_SUPPLY). ``K``: 1×4 gain, e.g. LQR on
    ``lin.select([f"cube.{s}" for s in STATES])``; other keywords go to ElectricCubeOnEdge."""

    STATES = ("edge.phi", "edge.w", "bearing.w", "drive.motor.inductor.i")

    def __init__(self, K, **cube_options):
        super().__init__()
        self.cube = ElectricCubeOnEdge(**cube_options)
        self.edge_sensor, self.wheel_sensor = AngleSensor(), AngleSensor()
        self.state = Mux(1, 1, 1, 1)
        self.controller = StateFeedback(K)
        self.connect(self.edge_sensor.flange, self.cube.edge.axis)
        self.connect(self.wheel_sensor.flange, self.cube.bearing.axis)
        for port, source in ((self.state.u1, self.edge_sensor.phi),
                             (self.state.u2, self.edge_sensor.w),
                             (self.state.u3, self.wheel_sensor.w),
                             (self.state.u4, self.cube.drive.ammeter.i)):
            self.connect(source, port)
        self.connect(self.state.y, self.controller.x)
        self.connect(self.controller.u, self.cube.drive.v_ref)
        self.expose(self.cube.frame_a, "frame_a")
