"""Modelica.Mechanics.Rotational.Examples.DemoFreeWheel in jourdain
================================================================

Built as the MSL builds it, from library parts only: an ideal freewheel.

What: inertia1 (J = 1 kg·m²) is driven with the prescribed speed 5·sin(2π·5·t) rad/s (a
Speed source, exact = true); the load inertia2 (J = 1, at rest) is coupled to it by a
FreeWheel and braked by a LinearSpeedDependentTorque (−5 N·m at 1 rad/s, TorqueDirection =
false: −5·w). The MSL's statement: inertia2 is accelerated as long as its flange_a is driven;
when freewheeling occurs (inertia2.w ≥ inertia1.w) the load decelerates it. The MSL runs it
for 1 s (Tolerance 1e-6).
Why: the freewheel is a unilateral constraint on a relative speed, the driving speed is
prescribed (a kinematic driver on a free Inertia): the driver's speed enters the
freewheel's lock.
You will see: the lock and release instants against an independent scipy event model of the
same equations, the speeds at 1 s, and the figure out/demo_free_wheel.png.

Deviation: the lock is rigid (FreeWheel's tauRes = 0; the MSL's lock slips tauRes·tau with
tauRes = 1e-5 rad/s per N·m, a few 1e-5 rad/s here); freewheeling, the residual torque
wRes·w_rel (wRes = 1e-5) acts as in the MSL.
"""
# %%
from pathlib import Path

import numpy as np
from scipy.integrate import solve_ivp

import jourdain as jd
from jourdain.blocks import Inertia, LinearSpeedDependentTorque, Sine, World
from jourdain.blocks.drivers import rotational
from jourdain.blocks.hybrid import FreeWheel

OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)

# %% The model (MSL names)
model = jd.Model(world=World())
model.freeWheel = FreeWheel()
model.inertia1, model.inertia2 = Inertia(J=1.0), Inertia(J=1.0)
model.torqueLoad = LinearSpeedDependentTorque(tau_nominal=-5.0, TorqueDirection=False,
                                              w_nominal=1.0)
model.speed = rotational.Speed(exact=True)
model.signalSpeed = Sine(amplitude=5.0, f=5.0)
for a, b in ((model.freeWheel.flange_b, model.inertia2.flange_a),
             (model.torqueLoad.flange, model.inertia2.flange_b),
             (model.inertia1.flange_a, model.speed.flange),
             (model.inertia1.flange_b, model.freeWheel.flange_a),
             (model.signalSpeed.y, model.speed.w_ref)):
    model.connect(a, b)
system = jd.compile(model)

# %% Simulate 1 s (StopTime 1, Interval 1e-3); inertia2 starts at rest
res = system.simulate(1.0, n_out=1001, rtol=1e-10, atol=1e-10)
ours = [(r.t, r.cause) for r in res.events.select("freeWheel")]
print("freewheel events:")
for t, what in ours:
    print(f"  t = {t:.9f} s  {what}")


# %% The independent reference: scipy on the same equations, written out
def reference(t_end=1.0, wRes=1e-5):
    """w1 = 5·sin(10πt) prescribed. Locked: w2 = w1, the freewheel's torque
    tau = J2·ẇ1 + 5·w1 ≥ 0; free: J2·ẇ2 = −5·w2 + wRes·(w1 − w2), locking when w1 rises
    to w2."""
    w1 = lambda t: 5 * np.sin(10 * np.pi * t)                      # noqa: E731
    a1 = lambda t: 50 * np.pi * np.cos(10 * np.pi * t)             # noqa: E731
    release = lambda t, x: a1(t) + 5 * w1(t)                       # noqa: E731
    lock = lambda t, x: w1(t) - x[0]                               # noqa: E731
    release.terminal = lock.terminal = True
    release.direction, lock.direction = -1, 1
    t, w2, events = 0.0, 0.0, []
    while True:   # locked: w2 follows w1 until the torque turns negative
        sol = solve_ivp(lambda t, x: [0.0], (t, t_end), [0.0], events=release,
                        rtol=1e-12, atol=1e-12, first_step=1e-6)
        if sol.status != 1:
            return events, w1(t_end)
        t = sol.t[-1]
        events.append((t, "release"))
        sol = solve_ivp(lambda s, x: [-5 * x[0] + wRes * (w1(s) - x[0])], (t, t_end), [w1(t)],
                        events=lock, rtol=1e-12, atol=1e-12, method="DOP853",
                        first_step=1e-6)
        t, w2 = sol.t[-1], sol.y[0, -1]
        if sol.status != 1:
            return events, w2
        events.append((t, "lock"))
        t += 1e-9   # past the touch point


ref, w2_ref = reference()
same = [w for _, w in ours] == [w for _, w in ref]
print(f"scipy: {len(ref)} switches, same sequence: {same}, max |t - t_scipy| = "
      f"{max(abs(a[0] - b[0]) for a, b in zip(ours, ref)):.2e} s")
print(f"at t = 1 s: inertia1.w = {res['inertia1.w'][-1]:.6f}, inertia2.w = "
      f"{res['inertia2.w'][-1]:.6f} rad/s; scipy inertia2.w = {w2_ref:.6f}")
locked = res["freeWheel.free"] == 0
print(f"locked {100 * locked.mean():.1f} % of the time: max |w1 - w2| locked "
      f"{np.abs(res['inertia1.w'] - res['inertia2.w'])[locked].max():.1e} rad/s, min tau "
      f"{res['freeWheel.tau'][locked].min():.2e} N·m; freewheeling min w2 - w1 "
      f"{(res['inertia2.w'] - res['inertia1.w'])[~locked].min():.2e} rad/s")
res.plot("inertia1.w", "inertia2.w", "freeWheel.tau", "freeWheel.free",
         path=OUT / "demo_free_wheel.png", title="MSL Rotational.Examples.DemoFreeWheel")
print(f"figure saved to {OUT / 'demo_free_wheel.png'}")
