"""IFToMM A01, the simple pendulum: a 1 kg point mass on a massless 1 m bar, released at rest
from the horizontal (P1 at x = +1 m) under gravity 9.81 m/s² (−y), over 2000 s; the error is
measured on P1's x and y at 4000 output steps (common.iftomm_error).

Reference: the closed form through Jacobi's elliptic functions. With θ the angle from the
downward vertical and amplitude θ0 = π/2, sin(θ/2) = k·sn(K − ω·t | k²), k = sin(θ0/2),
ω = √(g/l), K the complete elliptic integral; so x = 2·l·k·sn·dn, y = −l·(1 − 2·k²·sn²)
(scipy.special.ellipj, argument reduced modulo the period 4K). Peer: the same equation
φ̈ = −(g/l)·cos φ in plain CasADi integrated by CVODES (Adams) at the same tolerances.
"""
from __future__ import annotations

import casadi as ca
import numpy as np
from scipy.special import ellipj, ellipk

from common import cpu, iftomm_error, row

import jourdain as jd
from jourdain.blocks import World
from jourdain.library.mbs_benchmarks import SimplePendulum

G, L, T_END, N_OUT = 9.81, 1.0, 2000.0, 4001


def reference(t) -> dict:
    """P1's position on the closed form (module docstring)."""
    k = np.sin(np.pi / 4)
    m = k * k
    quarter = ellipk(m)
    u = np.mod(quarter - np.sqrt(G / L) * np.asarray(t), 4 * quarter)
    sn, _, dn, _ = ellipj(u, m)
    return {"x": 2 * L * k * sn * dn, "y": -L * (1 - 2 * m * sn**2)}


def jourdain_run(t_end: float = T_END, n_out: int = N_OUT, **options):
    system = jd.compile(jd.Model.on_world(World(), p=SimplePendulum(m=1.0, l=L)))
    res = system.simulate(t_end, n_out=n_out, **options)
    phi = res["p.joint.phi"]
    return res, {"x": L * np.cos(phi), "y": L * np.sin(phi)}


def peer_run(t_end: float = T_END, n_out: int = N_OUT, rtol: float = 1e-8,
             atol: float = 1e-8) -> dict:
    """The pendulum's equation in plain CasADi, CVODES Adams."""
    x = ca.SX.sym("x", 2)
    grid = np.linspace(0.0, t_end, n_out)
    f = ca.integrator("pendulum", "cvodes", {"x": x, "ode": ca.vertcat(x[1], -G / L *
                                                                        ca.cos(x[0]))},
                      0.0, grid[1:], {"abstol": atol, "reltol": rtol,
                                      "linear_multistep_method": "adams",
                                      "nonlinear_solver_iteration": "functional",
                                      "max_num_steps": 100000})
    phi = np.concatenate([[0.0], np.array(f(x0=[0.0, 0.0])["xf"])[0]])
    return {"x": L * np.cos(phi), "y": L * np.sin(phi)}


def run(repeat: int = 3) -> list[dict]:
    t = np.linspace(0.0, T_END, N_OUT)
    ref = reference(t)
    rows = []
    t_cpu, (res, values) = cpu(lambda: jourdain_run(), repeat)
    err = iftomm_error(values, ref)
    rows.append(row("A01 pendulum 2000 s", "jourdain (defaults)", err["error"], t_cpu,
                    rel_error=err["rel"], settings=res.stats.get("tolerance", "")))
    for tol in (1e-8, 1e-10):
        t_cpu, values = cpu(lambda: peer_run(rtol=tol, atol=tol), repeat)
        err = iftomm_error(values, ref)
        rows.append(row("A01 pendulum 2000 s", f"CasADi CVODES rtol {tol:g}", err["error"],
                        t_cpu, rel_error=err["rel"]))
    return rows


if __name__ == "__main__":
    for r in run(1):
        print(r)
