"""Modelica.Mechanics.Rotational.Examples.OneWayClutchDisengaged in jourdain
=========================================================================

Built as the MSL builds it, from library parts only.

What: a driving inertia (J = 1 kg·m², −0.5 rad/s) under the torque 0.3 + 10·sin(2π·2·t) N·m
and a driven inertia (J = 1, at rest) loaded by a ConstantTorque of −0.3 N·m, joined by a
one-way clutch (peak 25, fn_max 3 N) that stays disengaged (f_normalized = 0). Only its
freewheel acts: the driven side overruns freely (w_rel = inertiaOut.w − inertiaIn.w > 0) and
is carried along whenever the driving side would pass it. The MSL runs it for 2 s and asks
to compare the two speeds.
Why: the freewheel is a unilateral constraint on a speed; disengaged, the MSL's OneWayClutch
still holds it (with the tiny static limit eps0·mu0·cgeo·fn_max = 1.5e-4 N·m).
You will see: the lock and release instants against an independent scipy event model of the
same equations, the speeds at 2 s, and the figure out/one_way_clutch_disengaged.png.

Parts: Motor = Rotational.Sources.Torque; Constant = Blocks.Sources.Constant.
"""
# %%
from pathlib import Path

import numpy as np
from scipy.integrate import solve_ivp

import jourdain as jd
from jourdain.blocks import ConstantTorque, Constant, Inertia, Motor, Sine, World
from jourdain.blocks.hybrid import FrictionMode, OneWayClutch

OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)

# %% The model (MSL names)
model = jd.Model(world=World())
model.inertiaIn, model.inertiaOut = Inertia(J=1.0), Inertia(J=1.0)
model.oneWayClutch = OneWayClutch(peak=25.0, fn_max=3.0)
model.torque = Motor()
model.torqueLoad = ConstantTorque(tau_constant=-0.3)
model.signalTorque = Sine(amplitude=10.0, offset=0.3, f=2.0)   # offset = −torqueLoad.tau_constant
model.signalEngagement = Constant(k=0.0)
for a, b in ((model.torque.flange_b, model.inertiaIn.flange_a),
             (model.signalTorque.y, model.torque.tau),
             (model.inertiaIn.flange_b, model.oneWayClutch.flange_a),
             (model.oneWayClutch.flange_b, model.inertiaOut.flange_a),
             (model.signalEngagement.y, model.oneWayClutch.f_normalized),
             (model.inertiaOut.flange_b, model.torqueLoad.flange)):
    model.connect(a, b)
system = jd.compile(model)

# %% Simulate 2 s (StopTime 2, Interval 1e-3)
res = system.simulate(2.0, z0={"inertiaIn.w": -0.5}, n_out=2001, rtol=1e-10, atol=1e-10)
ours = [(r.t, "lock" if "→ 0" in c else "release") for r in res.events.select("oneWayClutch")
        for c in r.changes if "mode" in c]
print("freewheel (0 locked, 1 the driven side overruns):")
for t, what in ours:
    print(f"  t = {t:.6f} s  {what}")


# %% The independent reference: scipy on the same equations, written out
def reference(t_end=2.0, limit=1e-4 * 0.5 * 1.0 * 3.0):
    """Free: J·ẇ_in = 0.3 + 10·sin(4πt), J·ẇ_out = −0.3; locked: 2·ẇ = 10·sin(4πt), the
    torque on the driven side 5·sin(4πt) + 0.3 must stay ≥ −limit (the freewheel only
    pushes it forward). Lock when w_out − w_in falls to 0."""
    drive = lambda t: 0.3 + 10 * np.sin(4 * np.pi * t)            # noqa: E731
    free = lambda t, x: [drive(t), -0.3]                          # noqa: E731
    locked = lambda t, x: [(drive(t) - 0.3) / 2] * 2              # noqa: E731
    lock = lambda t, x: x[1] - x[0]                               # noqa: E731
    release = lambda t, x: (drive(t) - 0.3) / 2 + 0.3 + limit      # noqa: E731
    lock.terminal = release.terminal = True
    lock.direction = release.direction = -1
    t, x, is_free, events = 0.0, [-0.5, 0.0], True, []
    while t < t_end:
        sol = solve_ivp(free if is_free else locked, (t, t_end), x, rtol=1e-11, atol=1e-12,
                        events=lock if is_free else release, method="DOP853")
        t, x = sol.t[-1], sol.y[:, -1]
        if sol.status == 1:
            events.append((t, "lock" if is_free else "release"))
            is_free = not is_free
            t = t + 1e-12 if not is_free else t   # leave the release point
    return events, x


ref, x_end = reference()
print(f"scipy: {len(ref)} switches, max |t - t_scipy| = "
      f"{max(abs(a[0] - b[0]) for a, b in zip(ours, ref)):.2e} s, same sequence: "
      f"{[w for _, w in ours] == [w for _, w in ref]}")
w_in, w_out = res["inertiaIn.w"][-1], res["inertiaOut.w"][-1]
print(f"at t = 2 s: inertiaIn.w = {w_in:.6f}, inertiaOut.w = {w_out:.6f} rad/s; scipy "
      f"{x_end[0]:.6f}, {x_end[1]:.6f}")
w_rel = res["inertiaOut.w"] - res["inertiaIn.w"]
print(f"the driven side never lags: min w_rel = {w_rel.min():.2e} rad/s")
locked = res["oneWayClutch.mode"] == FrictionMode.STUCK
print(f"locked {100 * locked.mean():.1f} % of the time")
res.plot("inertiaIn.w", "inertiaOut.w", "oneWayClutch.mode",
         path=OUT / "one_way_clutch_disengaged.png",
         title="MSL Rotational.Examples.OneWayClutchDisengaged")
print(f"figure saved to {OUT / 'one_way_clutch_disengaged.png'}")
