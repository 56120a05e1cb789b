"""The FMU's assembly of closed loops at initialization: the importer sets the start values of
the independent coordinates (a four-bar's crank angle) and the FMU solves the closure
equations for the dependent ones in ``fmi2ExitInitializationMode``, as ``system.initialize``
and ``simulate(y0=...)`` do (``assemble_coordinates`` in :mod:`..constraints.initial`): the
coordinates that no dependent move changes are held, and the dependent ones are found by
continuation from the reference assembly ``y_ref`` in steps of at most :data:`CONTINUATION`
(rad or m) of the held coordinates, so Newton stays on the reference's assembly branch (no
flipped elbow).

The wrapper runs the loop (``assemble`` in fmi2_wrapper.c); the generated C is one Newton
step ``jd_assemble(y, p) -> (y_next, residual)``: the dependent moves δ solved from the
independent closure equations linearized at y, c_ind(y ⊕ δ) ≈ c_ind(y) + (∂c_ind/∂δ)·δ = 0,
with the moves of :mod:`..constraints.moves` (a ball joint's quaternion stays on the unit
sphere), and the largest |c_ind(y)| before the step. With the multiplier methods (Baumgarte)
the state holds every joint speed: ``jd_speeds(x, p) -> x`` completes the dependent speeds
from the independent ones through w = G(y)·w_ind, as ``system.state`` does.

Dependent coordinates and speeds are ``initial="calculated"`` in the description: they are
not start values an importer may set (FMPy refuses to set them, the wrapper refuses by name).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import casadi as ca
import numpy as np

from ..constraints.assembly import ASSEMBLY_TOL
from ..constraints.methods import ConstraintMethod

CONTINUATION = 0.2   # largest step of the held coordinates per continuation step [rad, m]
MAX_NEWTON = 50      # Newton steps per continuation step before the FMU gives up


@dataclass
class LoopStart:
    """The generated functions and what the wrapper needs: ``held`` (coordinates kept during
    assembly, continuation from ``y_ref``), ``dependent`` (indices in x of the coordinates
    and speeds computed, "calculated" in the description) and the held names for messages."""

    assemble: ca.Function
    speeds: ca.Function
    y_ref: np.ndarray
    held: list[int] = field(default_factory=list)
    dependent: list[int] = field(default_factory=list)
    active: bool = False      # the System has closure equations of positions to solve
    names: str = ""
    calculated_names: list = field(default_factory=list)


def loop_start(system) -> LoopStart:
    """The assembly functions of ``system`` (identities when it has no closed loop)."""
    nx, ny = system.nx, len(system.y_names)
    y, p = ca.SX.sym("y", ny), ca.SX.sym("p", len(system.p_names))
    x = ca.SX.sym("x", nx)
    identity = LoopStart(ca.Function("jd_assemble", [y, p], [y, ca.SX(0)], ["y", "p"],
                                     ["y_next", "residual"]),
                         ca.Function("jd_speeds", [x, p], [x], ["x", "p"], ["x0"]),
                         np.zeros(ny))
    part = getattr(system, "partition", None)
    if part is None:
        return identity
    speeds, dep_speeds = _speeds(system, x, p, part)
    dep_moves = list(part.dependent_moves)
    if not dep_moves or not part.holonomic_rows:
        identity.speeds, identity.dependent = speeds, dep_speeds
        identity.calculated_names = [system.x_names[i] for i in dep_speeds]
        return identity
    mover = system.mover
    moved = sorted({i for j in dep_moves for i in mover.moved[j]})
    held = [i for i in range(ny) if i not in moved]
    delta = ca.SX.sym("delta", len(dep_moves))
    full = ca.SX.zeros(len(mover.moved))
    for k, j in enumerate(dep_moves):
        full[j] = delta[k]
    residual = mover.c(mover.retract(y, full), p)[list(part.holonomic_rows)]
    zero = ca.DM.zeros(len(dep_moves))
    r0 = ca.substitute(residual, delta, zero)
    jac = ca.substitute(ca.jacobian(residual, delta), delta, zero)
    step = ca.substitute(mover.retract(y, full), delta, -ca.solve(jac, r0))
    assemble = ca.Function("jd_assemble", [y, p], [step, ca.mmax(ca.fabs(r0))], ["y", "p"],
                           ["y_next", "residual"])
    names = ", ".join(system.y_names[i] for i in held)
    return LoopStart(assemble, speeds, np.asarray(system.y_ref, dtype=float), held,
                     moved + dep_speeds, True, names,
                     [system.x_names[i] for i in moved + dep_speeds])


def _speeds(system, x, p, part) -> tuple[ca.Function, list[int]]:
    """jd_speeds and the indices in x of the speeds it computes (multiplier methods only:
    partitioning integrates the independent speeds alone)."""
    ny = len(system.y_names)
    if getattr(system, "method", None) is ConstraintMethod.PARTITIONING:
        return ca.Function("jd_speeds", [x, p], [x], ["x", "p"], ["x0"]), []
    nw = len(system.speed_names)
    ind, dep = list(part.independent_speeds), list(part.dependent_speeds)
    G = system.functions["G"](x[:ny], p)
    w = ca.mtimes(G, x[[ny + j for j in ind]])
    out = ca.vertcat(x[:ny], w, x[ny + nw:])
    return (ca.Function("jd_speeds", [x, p], [out], ["x", "p"], ["x0"]),
            [ny + j for j in dep])


def _c_string(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def assembly_config(start: LoopStart, ny: int) -> list[str]:
    """Lines of jd_config.h for the wrapper's assembly loop."""
    held = np.zeros(max(1, ny), dtype=int)
    held[start.held] = 1
    dependent = ", ".join(str(i) for i in start.dependent) or "-1"
    y_ref = start.y_ref if start.y_ref.size else np.zeros(1)
    names = _c_string(start.names)
    calc_names = ", ".join(f'"{_c_string(n)}"' for n in start.calculated_names) or '""'
    return [f"#define JD_NY {ny}", f"#define JD_LOOPS {int(start.active)}",
            f"#define JD_ASSEMBLY_TOL {ASSEMBLY_TOL!r}",
            f"#define JD_CONTINUATION {CONTINUATION!r}", f"#define JD_MAX_NEWTON {MAX_NEWTON}",
            f'#define JD_HELD_NAMES "{names}"',
            f"#define JD_NCALC {len(start.dependent)}",
            f"static const int jd_calculated[{max(1, len(start.dependent))}] = {{{dependent}}};",
            f"static const char *jd_calculated_names[{max(1, len(start.dependent))}] = "
            f"{{{calc_names}}};",
            f"static const int jd_held[{held.size}] = {{{', '.join(map(str, held))}}};",
            f"static const double jd_y_ref[{y_ref.size}] = "
            f"{{{', '.join(format(v, '.17g') for v in y_ref)}}};"]
