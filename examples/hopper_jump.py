"""A one-legged hopper jumps and lands
===================================

Trajectory optimization through a fixed contact sequence, checked by hybrid simulation.

What: a body (10 kg) on a telescopic leg (a prismatic joint with a thrust force, leg length
0.2 … 0.6 m) above a foot (1 kg) on the ground (a rigid floor stop). The jump is planned as
four phases of one multi-phase problem: push (stance: the floor holds the foot, its reaction
must push, ≥ 0), ascent (flight until the foot clears 0.15 m), descent (flight until the foot
touches down), and landing (an impact on the floor row — plastic, the foot stops dead — then
stance again until the body is at rest with the leg at 0.3 m). Each phase has its own free
duration; the cost is ∫ thrust² dt.
Why: legged robots, jumping cubes and landing gear move through contact modes; with the
sequence fixed, the modes' constraints and the impact map at each junction make one smooth
NLP (Posa, Kuindersma & Tedrake, ICRA 2016).
You will see: the phase durations and thrusts, the foot's clearance, the landing impact's
speed jump, and a check: the planned thrust simulated open loop through the event loop
(lift-off when the floor's reaction crosses zero, the landing impact) reproduces the plan's
lift-off and touch-down times; the figure out/hopper_jump.png.
"""
# %%
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import jourdain as jd  # noqa: E402
from jourdain.blocks import LinearMotor, Prismatic, RigidBody, World  # noqa: E402
from jourdain.blocks.hybrid import Stop, StopMode  # noqa: E402

OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)

# %%
# The hopper: foot on the ground (a floor stop), body on a telescopic leg with a thrust
model = jd.Model(world=World())
model.foot, model.foot_mass = Prismatic(axis=(0, 1, 0)), RigidBody(m=1.0)
model.leg, model.body = Prismatic(axis=(0, 1, 0)), RigidBody(m=10.0)
model.thrust, model.floor = LinearMotor(), Stop(lower=0.0)
for a, b in ((model.world.frame_b, model.foot.frame_a), (model.foot.frame_b, model.foot_mass.frame_a),
             (model.foot.frame_b, model.leg.frame_a), (model.leg.frame_b, model.body.frame_a),
             (model.thrust.flange_b, model.leg.axis), (model.floor.flange_b, model.foot.axis)):
    model.connect(a, b)
hopper = jd.compile(model)
stance, flight = {"floor.mode": StopMode.LOWER}, {"floor.mode": StopMode.FREE}


def phase(modes: dict, duration: float) -> jd.TrajectoryProblem:
    """A phase with its modes, a free duration, the leg's limits and the effort cost."""
    problem = jd.TrajectoryProblem(hopper, jd.FreeTime(duration, 0.02, 2.0), intervals=20,
                                   params=modes)
    problem.bound("leg.s", 0.2, 0.6)
    problem.bound("thrust.f", -400.0, 400.0)
    problem.integral_cost(lambda v: 1e-4 * v["thrust.f"] ** 2)
    return problem


# %%
# Four phases, one impact
push, ascent, descent, landing = (phase(stance, 0.2), phase(flight, 0.2), phase(flight, 0.2),
                                  phase(stance, 0.3))
push.initial({"foot.s": 0.0, "foot.v": 0.0, "leg.s": 0.3, "leg.v": 0.0})
for stand in (push, landing):
    stand.path_constraint(lambda v: v["floor.lower"], 0.0, np.inf, name="the ground pushes")
for fly in (ascent, descent):
    fly.path_constraint(lambda v: v["foot.s"], 0.0, np.inf, name="foot above the ground")
ascent.final({"foot.s": 0.15})
descent.final({"foot.s": 0.0})
landing.final({"leg.v": 0.0, "leg.s": 0.3})
jump = jd.MultiPhaseProblem([push, ascent, descent, landing],
                            [None, None, jd.Impact("floor.lower", e=0.0)])
plan = jump.solve()
print(f"solved: {plan.success}, cost {plan.cost:.6f}; phase durations "
      f"{[round(p.T, 4) for p in plan.phases]} s (push, ascent, descent, landing)")
t_plan, thrust = plan.series("thrust.f")
t_foot, foot = plan.series("foot.s")
lift_off, touch_down = plan.t0[1], plan.t0[3]
print(f"the foot leaves at t = {lift_off:.4f} s, clears {foot.max():.3f} m, lands at "
      f"t = {touch_down:.4f} s; peak thrust {np.abs(thrust).max():.1f} N")
before, after = plan.phases[2].X[:, -1], plan.phases[3].X[:, 0]
print(f"landing impact: foot speed {before[2]:+.4f} → {after[2]:+.4f} m/s, leg speed "
      f"{before[3]:+.4f} → {after[3]:+.4f} m/s (the foot stops dead, the body's absolute speed "
      "is kept)")

# %%
# Check: the planned thrust, open loop through the event loop of the hybrid model
def planned(t: float) -> float:
    """The plan's piecewise-constant thrust at t (on the common clock)."""
    k = min(np.searchsorted(t_plan, t, side="right") - 1, t_plan.size - 1)
    return float(thrust[max(k, 0)])


end = plan.t0[-1] + plan.phases[-1].T
sim = hopper.simulate(end, y0={"leg.s": 0.3}, inputs={"thrust.f": planned},
                      n_out=801, rtol=1e-10, atol=1e-10)
lifts = sim.events.select("floor", "leave_lower")
lands = sim.events.select("floor", "hit_lower")
print(f"simulated: lift-off at t = {lifts[0].t:.4f} s (plan {lift_off:.4f}), touch-down at "
      f"t = {lands[0].t:.4f} s (plan {touch_down:.4f}), foot clearance "
      f"{sim['foot.s'].max():.3f} m (plan {foot.max():.3f})")

# %%
# Figure
fig, ax = plt.subplots(3, 1, sharex=True, figsize=(7, 7))
for name, a in (("foot.s", ax[0]), ("leg.s", ax[1])):
    t, v = plan.series(name)
    a.plot(t, v, "o", ms=3, label="plan")
    a.plot(sim.t, sim[name], label="simulated")
    a.set_ylabel(f"{name} [m]")
    a.legend(fontsize=7)
ax[2].step(t_plan, thrust, where="post")
ax[2].set_ylabel("thrust [N]")
ax[2].set_xlabel("t [s]")
for a in ax:
    for start in plan.t0[1:]:
        a.axvline(start, color="k", lw=0.5, ls="--")
    a.grid(True, alpha=0.3)
fig.suptitle("Hopper: push, ascent, descent, landing (impact)")
fig.tight_layout()
fig.savefig(OUT / "hopper_jump.png", dpi=120)
print(f"figure saved to {OUT / 'hopper_jump.png'}")
