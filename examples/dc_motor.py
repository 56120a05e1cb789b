"""Circuits, a DC motor and a geared drive train, acausally connected across domains
=================================================================================

What: three models built from the electrical and 1-D drive-train blocks:

1. an RLC series circuit driven by a voltage step (its resonance frequency 1/√(LC));
2. a DC motor (armature R, L, EMF k, rotor J, bearing friction d) on a 12 V step: speed and
   current settle at ω = k·V/(k² + R·d), i = d·V/(k² + R·d); the same motor with its shaft
   held by a TorqueSensor on a Fixed flange shows the locked-rotor torque k·V/R;
3. the motor behind an IdealGear (ratio 20) driving a pendulum arm on a revolute joint, the
   transmitted torque measured by a TorqueSensor and filtered by a CriticalDamping filter
   initialized in steady state, with a sinusoidal voltage; the cross-domain energy balance
   supplied = dE/dt + dissipated holds along the run.

Why: Modelica's strength is components of several physical domains connected acausally; here
the electrical network is reduced to ODEs (capacitor voltages and inductor currents as states)
coupled with the mechanics, and the gear is a holonomic coupling of flange positions, so the
motor's inertia appears reflected (r²·J) at the joint.
You will see: the closed forms next to the simulated values, the reflected inertia in the mass
matrix, the energy-balance residual, and out/dc_motor.png.
"""
# %%
# Imports
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

import jourdain as jd
from jourdain.blocks import (
    Capacitor,
    CriticalDamping,
    Fixed,
    Ground,
    IdealGear,
    Inductor,
    Init,
    Resistor,
    Revolute,
    RigidBody,
    SignalVoltage,
    TorqueSensor,
    World,
)
from jourdain.library import DCMotor

OUT = Path("out")


# %%
# 1. RLC series circuit: source → R → L → C → ground
class RLC(jd.Composite):
    def __init__(self, R=2.0, L=0.1, C=1e-3):
        super().__init__()
        self.source, self.ground = SignalVoltage(), Ground()
        self.R, self.L, self.C = Resistor(R=R), Inductor(L=L), Capacitor(C=C)
        self.connect(self.source.p, self.R.p)
        self.connect(self.R.n, self.L.p)
        self.connect(self.L.n, self.C.p)
        self.connect(self.C.n, self.source.n)
        self.connect(self.source.n, self.ground.p)


rlc = jd.compile(jd.Model(World(), rlc=RLC()))
print(rlc.report())
modes = jd.linearize(rlc).eigenvalues
R, L, C = 2.0, 0.1, 1e-3
print(f"RLC: damped resonance {abs(modes.imag).max():.4f} rad/s, closed form "
      f"√(1/LC − (R/2L)²) = {np.sqrt(1 / (L * C) - (R / (2 * L)) ** 2):.4f} rad/s")
rlc_run = rlc.simulate(0.3, inputs={"rlc.source.v": 1.0}, n_out=601)


# %%
# 2. DC motor on a voltage step, free and locked
class FreeMotor(jd.Composite):
    def __init__(self, **motor):
        super().__init__()
        self.source, self.ground, self.motor = SignalVoltage(), Ground(), DCMotor(**motor)
        self.connect(self.source.p, self.motor.p)
        self.connect(self.motor.n, self.source.n)
        self.connect(self.source.n, self.ground.p)


class LockedMotor(FreeMotor):
    def __init__(self, **motor):
        super().__init__(**motor)
        self.sensor, self.lock = TorqueSensor(), Fixed()
        self.connect(self.motor.flange, self.sensor.flange_a)
        self.connect(self.sensor.flange_b, self.lock.flange)


MOTOR = {"R": 1.0, "L": 0.01, "k": 0.1, "J": 0.01, "d": 1e-3}
V = 12.0
free = jd.compile(jd.Model(World(), m=FreeMotor(**MOTOR)))
run = free.simulate(10.0, inputs={"m.source.v": V}, n_out=1001)
w_ss = MOTOR["k"] * V / (MOTOR["k"] ** 2 + MOTOR["R"] * MOTOR["d"])
i_ss = MOTOR["d"] * V / (MOTOR["k"] ** 2 + MOTOR["R"] * MOTOR["d"])
print(f"motor: ω(10 s) = {run['m.motor.rotor.w'][-1]:.4f} rad/s (closed form {w_ss:.4f}), "
      f"i = {run['m.motor.inductor.i'][-1]:.4f} A (closed form {i_ss:.4f})")
locked = jd.compile(jd.Model(World(), m=LockedMotor(**MOTOR)))
stall = locked.simulate(0.1, inputs={"m.source.v": V}, n_out=201)
print(f"locked rotor: torque {stall['m.sensor.tau'][-1]:.4f} N·m (closed form k·V/R = "
      f"{MOTOR['k'] * V / MOTOR['R']:.4f}), current at t = L/R: "
      f"{np.interp(MOTOR['L'] / MOTOR['R'], stall.t, stall['m.motor.inductor.i']):.4f} A "
      f"(closed form (1 − 1/e)·V/R = {(1 - np.exp(-1)) * V / MOTOR['R']:.4f})")


# %%
# 3. The motor behind a gear on a pendulum arm, torque measured and filtered
class GearedArm(FreeMotor):
    def __init__(self, ratio=20.0, **motor):
        super().__init__(**motor)
        self.gear, self.sensor = IdealGear(ratio=ratio), TorqueSensor()
        self.filter = CriticalDamping(n=2, f=5.0, init=Init.STEADY_STATE)
        self.joint = Revolute(axis=(0, 0, 1))
        self.arm = RigidBody(m=1.0, r_cm=(0.3, 0, 0), I=(1e-3, 5e-3, 5e-3))
        self.connect(self.motor.flange, self.gear.flange_a)
        self.connect(self.gear.flange_b, self.sensor.flange_a)
        self.connect(self.sensor.flange_b, self.joint.axis)
        self.connect(self.joint.frame_b, self.arm.frame_a)
        self.connect(self.sensor.tau, self.filter.u)
        self.expose(self.joint.frame_a, "frame_a")


arm = jd.compile(jd.Model.on_world(World(), arm=GearedArm(**MOTOR)))
M = float(np.array(arm.M(arm.y_default, []))[0, 0])
print(f"geared arm: mass matrix {M:.4f} kg·m² = arm 0.095 + r²·J_rotor "
      f"{20 ** 2 * MOTOR['J']:.4f}")
arm_run = arm.simulate(3.0, inputs={"arm.source.v": lambda t: 6.0 * np.sin(2 * np.pi * t)},
                       n_out=1501)
E = arm_run["energy.total"]
balance = (E - E[0]) - np.concatenate([[0.0], np.cumsum(
    0.5 * np.diff(arm_run.t) * (arm_run["power.supplied"] - arm_run["power.dissipated"])[1:] +
    0.5 * np.diff(arm_run.t) * (arm_run["power.supplied"] - arm_run["power.dissipated"])[:-1])])
print(f"energy balance over 3 s: max |E(t) − E(0) − ∫(P_supplied − P_dissipated)dt| = "
      f"{np.abs(balance).max():.2e} J (energy moved: "
      f"{np.trapezoid(np.abs(arm_run['power.supplied']), arm_run.t):.3f} J)")
print(f"torque at the joint: peak {np.abs(arm_run['arm.sensor.tau']).max():.3f} N·m, "
      f"filtered peak {np.abs(arm_run['arm.filter.y']).max():.3f} N·m")

# %%
# Figure
fig, ax = plt.subplots(2, 2, figsize=(10, 6))
ax[0, 0].plot(rlc_run.t, rlc_run["rlc.C.v"], label="capacitor voltage [V]")
ax[0, 0].plot(rlc_run.t, rlc_run["rlc.L.i"], label="current [A]")
ax[0, 0].set_title("RLC step response")
ax[0, 1].plot(run.t, run["m.motor.rotor.w"], label="ω [rad/s]")
ax[0, 1].axhline(w_ss, color="k", lw=0.5, ls="--")
ax[0, 1].set_title("DC motor, 12 V step")
ax[1, 0].plot(arm_run.t, arm_run["arm.sensor.tau"], label="TorqueSensor [N·m]")
ax[1, 0].plot(arm_run.t, arm_run["arm.filter.y"], label="CriticalDamping 5 Hz")
ax[1, 0].set_title("geared arm: joint torque")
ax[1, 1].plot(arm_run.t, arm_run["energy.total"], label="E = T + V + ½Li²")
ax[1, 1].plot(arm_run.t, balance, label="balance residual")
ax[1, 1].set_title("cross-domain energy")
for a in ax.ravel():
    a.legend(fontsize=7)
    a.grid(True, alpha=0.3)
    a.set_xlabel("t [s]")
fig.tight_layout()
OUT.mkdir(exist_ok=True)
fig.savefig(OUT / "dc_motor.png", dpi=120)
print(f"figure saved to {OUT / 'dc_motor.png'}")
