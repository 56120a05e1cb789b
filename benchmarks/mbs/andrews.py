"""Andrews' squeezing mechanism (IFToMM A03; the Test Set for IVP Solvers' problem "andrews",
an index-3 DAE of 27 equations): seven bodies, three loops, a stiff spring and a constant
driving torque; 0.03 s from the published consistent initial state at rest.

Reference: the published solution at t = 0.03 s (Test Set for IVP Solvers, Mazzia &
Magherini, computed by PSIDE at rtol = atol = 1e-14); the measure is the Test Set's number
of correct significant digits of the seven angles, scd = −log10(max_i |y_i − ref_i|/|ref_i|).
Peer: the same equations (the problem statement's M(q), f(q, q̇), g(q) and G = ∂g/∂q) in plain
CasADi, index-1 (accelerations and multipliers from [M Gᵀ; G 0]·[q̈; λ] = [f; −Ġ·q̇])
integrated by CVODES at the same tolerances.
"""
from __future__ import annotations

import casadi as ca
import numpy as np

from common import cpu, row

import jourdain as jd
from jourdain.blocks import World
from jourdain.library.mbs_benchmarks import ANDREWS, AndrewsMechanism

T_END = 0.03
NAMES = ("beta", "theta", "gamma", "phi", "delta", "omega", "epsilon")
Y0 = (-0.0617138900142764496358948458001, 0.0, 0.455279819163070380255912382449,
      0.222668390165885884674473185609, 0.487364979543842550225598953530,
      -0.222668390165885884674473185609, 1.23054744454982119249735015568)
REFERENCE = np.array([0.1581077119629904e2, -0.1575637105984298e2, 0.4082224013073101e-1,
                      -0.5347301163226948, 0.5244099658805304, 0.5347301163226948,
                      0.1048080741042263e1])


def digits(q) -> float:
    """The Test Set's significant correct digits of the angles q at t = 0.03 s."""
    return float(-np.log10(np.max(np.abs(np.asarray(q) - REFERENCE) / np.abs(REFERENCE))))


def compile_andrews(method=jd.ConstraintMethod.PARTITIONING):
    model = jd.Model.on_world(World(g=(0, 0, 0)), a=AndrewsMechanism())
    return jd.compile(model, constraints=method)


def jourdain_run(system, rtol: float, atol: float, **options) -> np.ndarray:
    y0 = {f"a.{n}.phi": v for n, v in zip(NAMES, Y0)}
    res = system.simulate(T_END, y0=y0, n_out=2, rtol=rtol, atol=atol, **options)
    return np.array([res[f"a.{n}.phi"][-1] for n in NAMES])


def peer_equations():
    """The problem statement's equations as CasADi SX: (q, v) ↦ (M, f, g, G)."""
    p = ANDREWS
    q, v = ca.SX.sym("q", 7), ca.SX.sym("v", 7)
    be, th, ga, ph, de, om, ep = (q[i] for i in range(7))
    bep, thp, php, dep, omp, epp = v[0], v[1], v[3], v[4], v[5], v[6]
    m1, m2, m3, m4, m5, m6, m7 = (p[f"m{i}"] for i in range(1, 8))
    i1, i2, i3, i4, i5, i6, i7 = (p[f"i{i}"] for i in range(1, 8))
    rr, ra, d, da, e, ea, zt = p["rr"], p["ra"], p["d"], p["da"], p["e"], p["ea"], p["zt"]
    zf, fa, u, ss = p["zf"], p["fa"], p["u"], p["ss"]
    M = ca.SX.zeros(7, 7)
    M[0, 0] = m1 * ra**2 + m2 * (rr**2 - 2 * da * rr * ca.cos(th) + da**2) + i1 + i2
    M[1, 0] = M[0, 1] = m2 * (da**2 - da * rr * ca.cos(th)) + i2
    M[1, 1] = m2 * da**2 + i2
    M[2, 2] = m3 * (p["sa"]**2 + p["sb"]**2) + i3
    M[3, 3] = m4 * (e - ea)**2 + i4
    M[4, 3] = M[3, 4] = m4 * ((e - ea)**2 + zt * (e - ea) * ca.sin(ph)) + i4
    M[4, 4] = (m4 * (zt**2 + 2 * zt * (e - ea) * ca.sin(ph) + (e - ea)**2)
               + m5 * (p["ta"]**2 + p["tb"]**2) + i4 + i5)
    M[5, 5] = m6 * (zf - fa)**2 + i6
    M[6, 5] = M[5, 6] = m6 * ((zf - fa)**2 - u * (zf - fa) * ca.sin(om)) + i6
    M[6, 6] = (m6 * ((zf - fa)**2 - 2 * u * (zf - fa) * ca.sin(om) + u**2)
               + m7 * (p["ua"]**2 + p["ub"]**2) + i6 + i7)
    xd = p["sd"] * ca.cos(ga) + p["sc"] * ca.sin(ga) + p["xb"]
    yd = p["sd"] * ca.sin(ga) - p["sc"] * ca.cos(ga) + p["yb"]
    length = ca.sqrt((xd - p["xc"])**2 + (yd - p["yc"])**2)
    force = -p["c0"] * (length - p["l0"]) / length
    fx, fy = force * (xd - p["xc"]), force * (yd - p["yc"])
    f = ca.vertcat(
        p["mom"] - m2 * da * rr * thp * (thp + 2 * bep) * ca.sin(th),
        m2 * da * rr * bep**2 * ca.sin(th),
        fx * (p["sc"] * ca.cos(ga) - p["sd"] * ca.sin(ga))
        + fy * (p["sd"] * ca.cos(ga) + p["sc"] * ca.sin(ga)),
        m4 * zt * (e - ea) * dep**2 * ca.cos(ph),
        -m4 * zt * (e - ea) * php * (php + 2 * dep) * ca.cos(ph),
        -m6 * u * (zf - fa) * epp**2 * ca.cos(om),
        m6 * u * (zf - fa) * omp * (omp + 2 * epp) * ca.cos(om))
    xa, ya = p["xa"], p["ya"]
    ex, ey = rr * ca.cos(be) - d * ca.cos(be + th), rr * ca.sin(be) - d * ca.sin(be + th)
    g = ca.vertcat(ex - ss * ca.sin(ga) - p["xb"], ey + ss * ca.cos(ga) - p["yb"],
                   ex - e * ca.sin(ph + de) - zt * ca.cos(de) - xa,
                   ey + e * ca.cos(ph + de) - zt * ca.sin(de) - ya,
                   ex - zf * ca.cos(om + ep) - u * ca.sin(ep) - xa,
                   ey - zf * ca.sin(om + ep) + u * ca.cos(ep) - ya)
    return q, v, M, f, g, ca.jacobian(g, q)


def peer_run(rtol: float, atol: float) -> np.ndarray:
    """The index-1 ODE of the statement's equations on CVODES (BDF; Adams on request)."""
    q, v, M, f, g, G = peer_equations()
    gamma = -ca.jtimes(ca.mtimes(G, v), q, v)
    kkt = ca.blockcat([[M, G.T], [G, ca.SX.zeros(6, 6)]])
    acc = ca.solve(kkt, ca.vertcat(f, gamma))[:7]
    x = ca.vertcat(q, v)
    integ = ca.integrator("andrews", "cvodes", {"x": x, "ode": ca.vertcat(v, acc)}, 0.0,
                          T_END, {"abstol": atol, "reltol": rtol, "max_num_steps": 100000})
    out = integ(x0=np.concatenate([Y0, np.zeros(7)]))
    return np.array(out["xf"]).ravel()[:7]


def run(repeat: int = 3, tolerances=(1e-8, 1e-10)) -> list[dict]:
    rows = []
    for tol in tolerances:
        t_peer, q = cpu(lambda: peer_run(tol, tol), repeat)
        rows.append(row("A03 Andrews 0.03 s", f"CasADi CVODES rtol {tol:g}", digits(q),
                        t_peer, measure="scd"))
        for method in jd.ConstraintMethod:
            system = compile_andrews(method)
            try:
                t_cpu, q = cpu(lambda: jourdain_run(system, tol, tol), repeat)
            except jd.SimulationError as exc:
                rows.append(row("A03 Andrews 0.03 s", f"jourdain {method.value} rtol {tol:g}",
                                float("nan"), float("nan"), measure="scd",
                                refused=str(exc).splitlines()[0][:160]))
                continue
            rows.append(row("A03 Andrews 0.03 s", f"jourdain {method.value} rtol {tol:g}",
                            digits(q), t_cpu, measure="scd", vs_peer=t_cpu / t_peer))
    return rows


def defaults(repeat: int = 3) -> list[dict]:
    """Partitioning at the default settings (AUTO's method, the loops' default tolerance,
    ``res.stats``) beside the peer at that tolerance."""
    system = compile_andrews()
    t_cpu, q = cpu(lambda: jourdain_run(system, None, None), repeat)
    y0 = {f"a.{n}.phi": v for n, v in zip(NAMES, Y0)}
    stats = system.simulate(T_END, y0=y0, n_out=2).stats
    tol = float(stats["tolerances"].split("rtol = ")[1].split(",")[0])
    t_peer, q_peer = cpu(lambda: peer_run(tol, tol), repeat)
    return [row("A03 Andrews 0.03 s", f"CasADi CVODES rtol {tol:g}", digits(q_peer), t_peer,
                measure="scd"),
            row("A03 Andrews 0.03 s", "jourdain partitioning (defaults)", digits(q), t_cpu,
                measure="scd", vs_peer=t_cpu / t_peer, settings=stats["tolerances"],
                method_reason=stats["method_reason"])]


if __name__ == "__main__":
    for r in run(1):
        print(r)
