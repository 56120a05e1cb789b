"""The IFToMM spatial rigid slider-crank (library.mbs_spatial.SpatialSliderCrank): crank
0.08 m about x at A = (0, 0.1, 0.12) m (0.12 kg, center of mass on the axis, inertia
diag(1e-4, 1e-5, 1e-4) kg·m²), rod 0.3 m (0.5 kg, diag(4e-4, 4e-3, 4e-3) about its own axis
first) on a ball joint at the crank and a universal joint at the slider (2 kg) that slides
along x; gravity 9.81 m/s² along −z; the crank starts along +z at 6 rad/s, no drive; 5 s.
The measure: the slider's position and the crank angle at 501 outputs (common.iftomm_error).

Reference: the minimal-coordinate formulation in closed form (lagrange_peer): with θ the
crank angle, B = A + 0.08·(0, −sin θ, cos θ), C = (√(0.3² − B_y² − B_z²), 0, 0), the rod's
axis e = (C − B)/0.3 and its second axis (x × e)/|x × e| (the universal joint keeps it
normal to x); T(θ, θ̇) from these, Lagrange's equation in θ alone, CVODES at 1e-12 (no
closure equations at all). Beside it the energy, which nothing dissipates.
"""
from __future__ import annotations

import casadi as ca
import numpy as np

import lagrange_peer as peer
from common import cpu, iftomm_error, row

import jourdain as jd
from jourdain.blocks import World
from jourdain.library.mbs_spatial import SLIDER_CRANK, SpatialSliderCrank

T_END, N_OUT, G, OMEGA0 = 5.0, 501, 9.81, 6.0


def peer_model(p=SLIDER_CRANK):
    """(x, ẋ, energy, slider x) of the one-coordinate formulation (module docstring)."""
    th = ca.SX.sym("theta")
    a = ca.DM(p["a"])
    b = a + p["crank"] * ca.vertcat(0, -ca.sin(th), ca.cos(th))
    c = ca.vertcat(ca.sqrt(p["rod"]**2 - b[1]**2 - b[2]**2), 0, 0)
    e = (c - b) / p["rod"]
    y = ca.cross(ca.DM([1, 0, 0]), e)
    y = y / ca.norm_2(y)
    R_rod = ca.horzcat(e, y, ca.cross(e, y))
    bodies = [(p["m_crank"], np.diag(p["i_crank"]), peer.rot((1, 0, 0), th), a),
              (p["m_rod"], np.diag(p["i_rod"]), R_rod, (b + c) / 2),
              (p["m_slider"], np.diag(p["i_slider"]), ca.DM.eye(3), c)]
    x, xdot, energy, _ = peer.equations(th, bodies, (0, 0, -G))
    return x, xdot, energy, c[0]


def reference(t=None, tol: float = 1e-12):
    """Slider x and crank angle of the peer, and its energy drift."""
    t = np.linspace(0.0, T_END, N_OUT) if t is None else t
    x, xdot, energy, slider = peer_model()
    xs = peer.integrate(x, xdot, [0.0, OMEGA0], t, tol, tol)
    E = peer.along(x, energy, xs).ravel()
    return ({"slider": peer.along(x, slider, xs).ravel(), "crank": xs[0]},
            float(np.abs(E - E[0]).max()))


def compile_slider_crank(method=jd.ConstraintMethod.PARTITIONING):
    model = jd.Model.on_world(World(g=(0, 0, -G)), sc=SpatialSliderCrank())
    return jd.compile(model, constraints=method)


def jourdain_run(system, t_end=T_END, n_out=N_OUT, **options):
    res = system.simulate(t_end, z0={"sc.crank.w": OMEGA0}, n_out=n_out, **options)
    x_c = SLIDER_CRANK["rod"]**2 - 0.1**2 - (0.12 + SLIDER_CRANK["crank"])**2
    return res, {"slider": np.sqrt(x_c) + res["sc.slide.s"], "crank": res["sc.crank.phi"]}


def run(repeat: int = 3) -> list[dict]:
    t_peer, (ref, drift) = cpu(lambda: reference(), repeat)
    rows = [row("spatial slider-crank 5 s", "CasADi CVODES minimal rtol 1e-12", 0.0, t_peer,
                energy_drift=drift, settings="the reference (closed-form kinematics)")]
    t_8, (ref_8, _) = cpu(lambda: reference(tol=1e-8), repeat)
    rows.append(row("spatial slider-crank 5 s", "CasADi CVODES minimal rtol 1e-08",
                    iftomm_error(ref_8, ref)["error"], t_8, settings="the peer at the default"))
    for method in jd.ConstraintMethod:
        system = compile_slider_crank(method)
        name = f"jourdain {method.value} (defaults)"
        try:
            t_cpu, (res, values) = cpu(lambda: jourdain_run(system), repeat)
        except jd.SimulationError as exc:
            rows.append(row("spatial slider-crank 5 s", name, float("nan"), float("nan"),
                            refused=str(exc).splitlines()[0][:160]))
            continue
        E = res["energy.total"]
        rows.append(row("spatial slider-crank 5 s", name, iftomm_error(values, ref)["error"],
                        t_cpu, energy_drift=float(np.abs(E - E[0]).max()),
                        settings=f"energy drift {float(np.abs(E - E[0]).max()):.1e} J"))
    return rows


if __name__ == "__main__":
    for r in run(1):
        print(r)
