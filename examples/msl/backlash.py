"""Modelica.Mechanics.Rotational.Examples.Backlash in jourdain
============================================================

Built as the MSL builds it, from library parts only: the effect of a backlash.

What: two inertias (J = 5 kg·m², released at rest at φ = 90°) are held to a Fixed, the first
through a SpringDamper (c = 2e4 N·m/rad, d = 50 N·m·s/rad), the second through an
ElastoBacklash with the same c and d and a total backlash b = 45°. The MSL runs it for 1 s:
the backlash lowers the eigenfrequency, and its damping torque never pulls.
Why: SpringDamper and ElastoBacklash as one element each, with the MSL's laws.
Deviation: the MSL's third branch (ElastoBacklash2, whose torque jumps at contact) is left
out: ElastoBacklash2 is not provided yet.
You will see: the SpringDamper branch against the closed form of the damped oscillator, the
ElastoBacklash branch against an independent scipy model of the MSL's law, the sign of its
torque, the energy balance, and out/backlash.png.
"""
# %%
from pathlib import Path

import numpy as np
from scipy.integrate import solve_ivp

import jourdain as jd
from jourdain.blocks import ElastoBacklash, Fixed, Inertia, SpringDamper, World

OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)
J, c, d, b, phi0 = 5.0, 20.0e3, 50.0, np.pi / 4, np.pi / 2

# %% The model (MSL names)
model = jd.Model(world=World())
model.fixed1, model.fixed2 = Fixed(), Fixed()
model.springDamper = SpringDamper(c=c, d=d)
model.inertia1, model.inertia2 = Inertia(J=J), Inertia(J=J)
model.elastoBacklash = ElastoBacklash(c=c, d=d, b=b)
for a, bb in ((model.springDamper.flange_b, model.inertia1.flange_a),
              (model.elastoBacklash.flange_b, model.inertia2.flange_a),
              (model.fixed1.flange, model.springDamper.flange_a),
              (model.fixed2.flange, model.elastoBacklash.flange_a)):
    model.connect(a, bb)
system = jd.compile(model)

# %% Simulate 1 s (StopTime 1, Interval 1e-3) from 90° at rest
res = system.simulate(1.0, y0={"inertia1.phi": phi0, "inertia2.phi": phi0}, n_out=1001,
                      rtol=1e-10, atol=1e-12)
t = res.t
wn, zeta = np.sqrt(c / J), d / (2 * np.sqrt(c * J))
wd = wn * np.sqrt(1 - zeta ** 2)
closed = phi0 * np.exp(-zeta * wn * t) * (np.cos(wd * t) + zeta * wn / wd * np.sin(wd * t))
print(f"springDamper: max |phi - closed form| {np.abs(res['inertia1.phi'] - closed).max():.2e} "
      f"rad")


def backlash_torque(phi, w):
    """The MSL's ElastoBacklash torque, written out here independently of jourdain."""
    half = b / 2
    if abs(phi) <= half:
        return 0.0
    tau_c = c * (phi - np.sign(phi) * half)
    tau_d = d * w
    if tau_c > 0:
        return 0.0 if tau_c + tau_d <= 0 else tau_c + min(tau_c, tau_d)
    return 0.0 if tau_c + tau_d >= 0 else tau_c + max(tau_c, tau_d)


ref = solve_ivp(lambda s, x: [x[1], -backlash_torque(x[0], x[1]) / J], (0.0, 1.0), [phi0, 0.0],
                t_eval=t, rtol=1e-11, atol=1e-13, max_step=1e-4)
print(f"elastoBacklash: max |phi - scipy| {np.abs(res['inertia2.phi'] - ref.y[0]).max():.2e} "
      "rad")
tau = np.array([backlash_torque(p, w) for p, w in zip(res["inertia2.phi"], res["inertia2.w"])])
print(f"elastoBacklash never pulls: min tau·sign(phi) = "
      f"{np.min(tau * np.sign(res['inertia2.phi'])):.3g} N·m")
zero_crossings = lambda x: np.count_nonzero(np.diff(np.sign(x)))   # noqa: E731
print(f"zero crossings in 1 s: springDamper {zero_crossings(res['inertia1.phi'])}, "
      f"elastoBacklash {zero_crossings(res['inertia2.phi'])}")
check = res.check()
print(f"energy balance {'holds' if check else 'FAILS'}: relative error "
      f"{check.energy_relative:.1e}")
res.plot("inertia1.phi", "inertia2.phi", path=OUT / "backlash.png",
         title="MSL Rotational.Examples.Backlash")
print(f"figure saved to {OUT / 'backlash.png'}")
