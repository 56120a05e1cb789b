"""IFToMM A05, the stiff flyball governor (library.mbs_spatial.FlyballGovernor): shaft
(revolute about z), sleeve on a prismatic joint along it, two 1 m arms hinged 0.1 m apart at
the shaft's top with 5 kg balls at their ends, each arm tied to the sleeve by a
spring-damper (k = 8e5 N/m, d = 4e4 N·s/m, unstretched 0.5 m: the stiff part); bars
1 m × 0.01 m × 0.01 m and a 0.1 m cube for the sleeve at 3000 kg/m³; arms at 30° below the
horizontal, sleeve at 0.5 m, springs unstretched; the shaft turns freely, started at
2π rad/s; gravity 9.81 m/s² along −z; 10 s. The measure: the sleeve's height and the
shaft's angular velocity at 1001 outputs (common.iftomm_error).

Reference: the same four coordinates (shaft angle, sleeve travel, two hinge angles) written
directly in plain CasADi (lagrange_peer: Lagrange's equations with the springs' potential
and the dampers' Rayleigh forces), integrated by CVODES BDF at rtol = atol = 1e-12. Two
invariants check both: the shaft's angular momentum about z (no torque about the axis) and
the energy balance E(t) + ∫ d·ṡ² dt = E(0).
"""
from __future__ import annotations

import math

import casadi as ca
import numpy as np

import lagrange_peer as peer
from common import cpu, iftomm_error, row

import jourdain as jd
from jourdain.blocks import World
from jourdain.library.mbs_spatial import FLYBALL, FlyballGovernor

T_END, N_OUT, G, OMEGA0 = 10.0, 1001, 9.81, 2 * math.pi


def _cuboid(m, sides):
    a, b, c = sides
    return np.diag([m * (b * b + c * c), m * (a * a + c * c), m * (a * a + b * b)]) / 12


def peer_model(p=FLYBALL):
    """(x, ẋ, energy, dissipated power, angular momentum about z) of the four-coordinate
    formulation (module docstring)."""
    q = ca.SX.sym("q", 4)
    psi, s, b1, b2 = q[0], q[1], q[2], q[3]
    w, rho = p["width"], p["density"]
    m_bar, m_sleeve = rho * p["arm"] * w * w, rho * p["sleeve"]**3
    Rz = peer.rot((0, 0, 1), psi)
    bodies = [(rho * p["shaft"] * w * w, _cuboid(rho * p["shaft"] * w * w, (w, w, p["shaft"])),
               Rz, ca.DM([0, 0, p["shaft"] / 2])),
              (m_sleeve, _cuboid(m_sleeve, (p["sleeve"],) * 3), Rz,
               ca.vertcat(0, 0, p["s0"] + s))]
    springs = []
    for sign, beta, angle in ((1, b1, p["alpha"]), (-1, b2, math.pi - p["alpha"])):
        R = ca.mtimes(Rz, peer.rot((0, 1, 0), angle + beta))
        hinge = ca.mtimes(Rz, ca.DM([sign * p["hinge"] / 2, 0, p["shaft"]]))
        along = lambda d: hinge + ca.mtimes(R, ca.DM([d, 0, 0]))   # noqa: E731
        bodies += [(m_bar, _cuboid(m_bar, (p["arm"], w, w)), R, along(p["arm"] / 2)),
                   (p["ball"], np.zeros((3, 3)), R, along(p["arm"]))]
        side = ca.mtimes(Rz, ca.vertcat(sign * p["sleeve"] / 2, 0, p["s0"] + s))
        springs.append((p["k"], p["d"], p["spring"], side, along(p["arm"] / 2)))
    x, xdot, energy, dissipated = peer.equations(q, bodies, (0, 0, -G), springs)
    # angular momentum about z: ∂T/∂ψ̇ (ψ is cyclic)
    v = x[4:]
    T = energy  # T + V; V does not depend on ψ̇
    h_z = ca.gradient(T, v)[0]
    return x, xdot, energy, dissipated, h_z


def reference(t=None, tol: float = 1e-12):
    """Sleeve height and shaft speed of the peer; its energy-balance and momentum errors."""
    t = np.linspace(0.0, T_END, N_OUT) if t is None else t
    x, xdot, energy, dissipated, h_z = peer_model()
    xs, lost = peer.integrate(x, xdot, [0, 0, 0, 0, OMEGA0, 0, 0, 0], t, tol, tol,
                                quad=dissipated)
    E = peer.along(x, energy, xs).ravel()
    H = peer.along(x, h_z, xs).ravel()
    return ({"sleeve": FLYBALL["s0"] + xs[1], "shaft_w": xs[4]},
            {"balance": float(np.abs(E + lost - E[0]).max()),
             "momentum": float(np.abs(H - H[0]).max()), "energy_lost": float(lost[-1])})


def compile_flyball():
    return jd.compile(jd.Model.on_world(World(g=(0, 0, -G)), fg=FlyballGovernor()))


def jourdain_run(system, t_end=T_END, n_out=N_OUT, **options):
    res = system.simulate(t_end, z0={"fg.shaft.w": OMEGA0}, n_out=n_out, **options)
    return res, {"sleeve": FLYBALL["s0"] + res["fg.sleeve.s"], "shaft_w": res["fg.shaft.w"]}


def run(repeat: int = 3, tolerances=(None, 1e-10)) -> list[dict]:
    t_peer, (ref, checks) = cpu(lambda: reference(), repeat)
    rows = [row("A05 flyball governor 10 s", "CasADi CVODES BDF rtol 1e-12", 0.0, t_peer,
                settings=f"the reference; energy balance {checks['balance']:.1e} J "
                         f"(of {checks['energy_lost']:.2g} J dissipated), angular momentum "
                         f"{checks['momentum']:.1e} kg·m²/s", **checks)]
    t_8, (ref_8, _) = cpu(lambda: reference(tol=1e-8), repeat)
    rows.append(row("A05 flyball governor 10 s", "CasADi CVODES BDF rtol 1e-08",
                    iftomm_error(ref_8, ref)["error"], t_8, settings="the peer at the default"))
    system = compile_flyball()
    for tol in tolerances:
        options = {} if tol is None else {"rtol": tol, "atol": tol}
        name = "jourdain (defaults)" if tol is None else f"jourdain rtol {tol:g}"
        t_cpu, (res, values) = cpu(lambda: jourdain_run(system, **options), repeat)
        rows.append(row("A05 flyball governor 10 s", name, iftomm_error(values, ref)["error"],
                        t_cpu, settings=f"{res.stats.get('steps', '?')} steps, "
                                        f"{res.stats.get('tolerances', '')}"))
    return rows


if __name__ == "__main__":
    for r in run(1):
        print(r)
