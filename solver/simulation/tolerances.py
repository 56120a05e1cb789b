"""The integrators' default tolerances, which honour the horizon.

The global error of a simulation grows with its horizon: the phase error of an oscillation
grows linearly with the time, so at a fixed tolerance a long run drifts further than a short
one (the IFToMM A01 pendulum, 2000 s at rtol = atol = 1e-8, ends 1.5e-3 m off its closed
form). The default rtol = atol = 1e-8 holds up to HORIZON; beyond it both are tightened in
proportion to the horizon, 1e-8·HORIZON/(t_end − t0), down to FLOOR (A01: 1e-10, 1.1e-4 m).
Tolerances the user gives are used as given. ``result.stats["tolerances"]`` says which ran.

Constrained systems (closed loops, by every constraint method) start one decade tighter,
LOOPS = 1e-9 (then tightened for the horizon the same way): near a singular configuration
the constraint Jacobian is ill-conditioned, and the local error the integrator controls
reaches the rest of the motion amplified by its conditioning (partitioning: the dependent
block's ν; Baumgarte and the DAE: the multipliers' equations, whose matrix A·M⁻¹·Aᵀ loses
rank there), so every passage near one leaves a phase error that the rest of the run
carries. Measured on the IFToMM N-four-bar by partitioning (20 s, 20 flat crossings, the
benchmark's high precision is 1e-3 on B0's position and velocity): at 1e-8 the error was
5.5e-4–6e-3 (n = 2, 4, 10, 40; Adams or BDF), at 1e-9 0.7–2.6e-4 on Adams for 1.2–1.3× the
CPU time; on Bricard's mechanism (IFToMM A04) the three methods differed by 1.55e-6 m at
their former defaults (Baumgarte and DAE at 1e-8, partitioning at 1e-9). The level does not
depend on stiffness (the phase of the motion drifts, whichever method controls the local
error).
"""
from __future__ import annotations

from ..model.checks import number

DEFAULT = 1e-8       # rtol = atol up to HORIZON
LOOPS = 1e-9         # the same for constrained systems, every method (module docstring)
HORIZON = 20.0       # [s] the longest horizon at the plain default
FLOOR = 1e-12        # the tightest default (round-off of double precision beyond)
LOOPS_WHY = ("for closed loops (every constraint method), whose error grows at each "
             "passage near a singular configuration")


def resolve(rtol, atol, t0: float, t_end: float, loops: bool = False) -> tuple:
    """(rtol, atol, note): None (the default) becomes the horizon's default tolerance, from
    LOOPS instead of DEFAULT for ``loops`` (constrained systems); the note for
    ``result.stats["tolerances"]``."""
    if rtol is not None:
        rtol = number(rtol, "simulate: rtol", 0.0, 1.0, open_low=True, open_high=True)
    if atol is not None:
        atol = number(atol, "simulate: atol", 0.0, open_low=True)
    span = float(t_end) - float(t0)
    base = LOOPS if loops else DEFAULT
    scaled = max(FLOOR, base * min(1.0, HORIZON / span)) if span > 0 else base
    given = [name for name, v in (("rtol", rtol), ("atol", atol)) if v is not None]
    rtol = scaled if rtol is None else rtol
    atol = scaled if atol is None else atol
    which = f"the default {base:g}" + (f" {LOOPS_WHY}" if loops else "")
    if len(given) == 2:
        note = f"rtol = {rtol:g}, atol = {atol:g} (given)"
    elif scaled < base:
        note = (f"rtol = {rtol:g}, atol = {atol:g}: {which}, tightened by "
                f"{HORIZON:g} s / {span:g} s for the long horizon"
                + (f" ({' and '.join(given)} given)" if given else ""))
    elif loops:
        note = f"rtol = {rtol:g}, atol = {atol:g}: {which}" + (
            f" ({' and '.join(given)} given, the other the default)" if given else "")
    else:
        note = f"rtol = {rtol:g}, atol = {atol:g}" + (
            f" ({' and '.join(given)} given, the other the default)" if given else
            " (the default)")
    return rtol, atol, note


def checked(value):
    """A tolerance for the argument checks made before the horizon is known: None (the
    default) stands for DEFAULT."""
    return DEFAULT if value is None else value
