"""IFToMM A04, Bricard's mechanism: five bars (1 m, 1 kg, square cross-section 0.1 m) and
six revolutes closing one loop with the ground; gravity 9.81 m/s² along −y; released at rest
from the initial configuration (library.mbs_spatial.Bricard: joints at P0 … P5 with axes
y, z, x, y, z, x); 10 s. Grübler–Kutzbach counts 0 degrees of freedom, the mechanism moves
with 1: one closure equation is redundant, and jourdain reports it (``system.report()``,
``system.redundant_constraints``). The statement's measure is the trajectory of the point P3
(here the joint j3, P3 = (1, −1, 1) m at the start) and the mechanical energy, which no
dissipation changes.

Reference: (1) the energy, constant; (2) the same mechanism in plain CasADi (lagrange_peer:
the five tree angles, Lagrange's equations, the closure at j5 as 4 independent equations of
its 5, index-1, CVODES BDF at rtol = atol = 1e-12); the error is the largest difference of
P3's coordinates from the peer's over 1001 outputs (common.iftomm_error), and the methods of
jourdain (partitioning, Baumgarte, DAE) are compared with each other the same way.
"""
from __future__ import annotations

import casadi as ca
import numpy as np

import lagrange_peer as peer
from common import cpu, iftomm_error, row

import jourdain as jd
from jourdain.blocks import World
from jourdain.library.mbs_spatial import BRICARD_AXES, BRICARD_POINTS, Bricard

T_END, N_OUT, G = 10.0, 1001, 9.81
L, M, W = 1.0, 1.0, 0.1


def tree(q):
    """Rotations and joint positions of the open chain j0 … j4 (world axes at q = 0)."""
    R, p, out = ca.DM.eye(3), ca.DM(BRICARD_POINTS[0]), []
    for i in range(5):
        R = ca.mtimes(R, peer.rot(BRICARD_AXES[i], q[i]))
        d = ca.DM(BRICARD_POINTS[i + 1]) - ca.DM(BRICARD_POINTS[i])
        out.append((R, p, d))
        p = p + ca.mtimes(R, d)
    return out, p, R


def peer_model():
    """(x, ẋ, energy, closure residual, P3 of x) of the plain-CasADi formulation."""
    q = ca.SX.sym("q", 5)
    links, tip, R4 = tree(q)
    bodies = []
    for R, p, d in links:
        axis = int(np.argmax(np.abs(np.array(d).ravel())))
        inertia = np.full(3, M * (L**2 + W**2) / 12)
        inertia[axis] = M * 2 * W**2 / 12
        bodies.append((M, np.diag(inertia), R, p + ca.mtimes(R, d) / 2))
    closure = ca.vertcat(tip - ca.DM(BRICARD_POINTS[5]), ca.mtimes(R4, ca.DM([1, 0, 0]))[1:])
    G0 = np.array(ca.Function("G", [q], [ca.jacobian(closure, q)])(np.zeros(5)))
    keep, rank = [], 0
    for i in range(5):   # rows kept while they raise the rank (the redundant one dropped)
        if np.linalg.matrix_rank(G0[keep + [i]], tol=1e-9) > rank:
            keep, rank = keep + [i], rank + 1
    x, xdot, energy, _ = peer.equations(q, bodies, (0, -G, 0), g=closure[keep])
    R, p, d = links[2]
    return x, xdot, energy, closure, p + ca.mtimes(R, d), len(keep)


def reference(t=None, tol: float = 1e-12):
    """P3 (dict x, y, z), the energy drift and the closure residual of the peer."""
    t = np.linspace(0.0, T_END, N_OUT) if t is None else t
    x, xdot, energy, closure, p3, _ = peer_model()
    xs = peer.integrate(x, xdot, np.zeros(10), t, tol, tol)
    P3 = peer.along(x, p3, xs)
    E = peer.along(x, energy, xs).ravel()
    return ({"x": P3[0], "y": P3[1], "z": P3[2]}, float(np.abs(E - E[0]).max()),
            float(np.abs(peer.along(x, closure, xs)).max()))


def p3_of(res) -> dict:
    """P3 from jourdain's joint angles (the chain's geometry, tree())."""
    q = ca.SX.sym("q", 5)
    f = ca.Function("p3", [q], [tree(q)[0][3][1]])
    qs = np.vstack([res[f"b.j{i}.phi"] for i in range(5)])
    P3 = np.array(f.map(qs.shape[1])(qs))
    return {"x": P3[0], "y": P3[1], "z": P3[2]}


def compile_bricard(method=jd.ConstraintMethod.PARTITIONING):
    model = jd.Model.on_world(World(g=(0, -G, 0)), b=Bricard(l=L, m=M, width=W))
    return jd.compile(model, constraints=method)


def jourdain_run(system, t_end=T_END, n_out=N_OUT, **options):
    res = system.simulate(t_end, n_out=n_out, **options)
    return res, p3_of(res)


def run(repeat: int = 3, tolerances=(None, 1e-10)) -> list[dict]:
    t_peer, (ref, drift, residual) = cpu(lambda: reference(), repeat)
    rows = [row("A04 Bricard 10 s", "CasADi CVODES index-1 rtol 1e-12", 0.0, t_peer,
                energy_drift=drift, closure_residual=residual,
                settings=f"the reference; energy drift {drift:.1e} J, closure {residual:.1e}")]
    t_8, (p3_8, _, _) = cpu(lambda: reference(tol=1e-8), repeat)
    rows.append(row("A04 Bricard 10 s", "CasADi CVODES index-1 rtol 1e-08",
                    iftomm_error(p3_8, ref)["error"], t_8, settings="the peer at the default"))
    systems = {method: compile_bricard(method) for method in jd.ConstraintMethod}
    for tol in tolerances:
        options = {} if tol is None else {"rtol": tol, "atol": tol}
        label = "(defaults)" if tol is None else f"rtol {tol:g}"
        values = {}
        for method, system in systems.items():
            name = f"jourdain {method.value} {label}"
            try:
                t_cpu, (res, p3) = cpu(lambda: jourdain_run(system, **options), repeat)
            except jd.SimulationError as exc:
                rows.append(row("A04 Bricard 10 s", name, float("nan"), float("nan"),
                                refused=str(exc).splitlines()[0][:160]))
                continue
            values[method] = p3
            energy = res["energy.total"]
            drift = float(np.abs(energy - energy[0]).max())
            rows.append(row("A04 Bricard 10 s", name, iftomm_error(p3, ref)["error"], t_cpu,
                            energy_drift=drift, redundant=system.redundant_constraints,
                            settings=f"redundant: {', '.join(system.redundant_constraints)}; "
                                     f"energy drift {drift:.1e} J"))
        spread = max((iftomm_error(values[a], values[b])["error"] for a in values
                      for b in values if a is not b), default=float("nan"))
        rows.append(row("A04 Bricard 10 s", f"spread between jourdain's methods {label}",
                        spread, float("nan"),
                        settings="largest P3 difference between two methods"))
    return rows


if __name__ == "__main__":
    for r in run(1):
        print(r)
