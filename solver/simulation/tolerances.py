"""The integrators' default tolerances, which honour the horizon.

The global error of a simulation grows with its horizon: the phase error of an oscillation
grows linearly with the time, so at a fixed tolerance a long run drifts further than a short
one (the IFToMM A01 pendulum, 2000 s at rtol = atol = 1e-8, ends 1.5e-3 m off its closed
form). The default rtol = atol = 1e-8 holds up to HORIZON; beyond it both are tightened in
proportion to the horizon, 1e-8·HORIZON/(t_end − t0), down to FLOOR (A01: 1e-10, 1.1e-4 m).
Tolerances the user gives are used as given. ``result.stats["tolerances"]`` says which ran.
"""
from __future__ import annotations

from ..model.checks import number

DEFAULT = 1e-8       # rtol = atol up to HORIZON
HORIZON = 20.0       # [s] the longest horizon at the plain default
FLOOR = 1e-12        # the tightest default (round-off of double precision beyond)


def resolve(rtol, atol, t0: float, t_end: float) -> tuple:
    """(rtol, atol, note): None (the default) becomes the horizon's default tolerance; the
    note for ``result.stats["tolerances"]``."""
    if rtol is not None:
        rtol = number(rtol, "simulate: rtol", 0.0, 1.0, open_low=True, open_high=True)
    if atol is not None:
        atol = number(atol, "simulate: atol", 0.0, open_low=True)
    span = float(t_end) - float(t0)
    scaled = max(FLOOR, DEFAULT * min(1.0, HORIZON / span)) if span > 0 else DEFAULT
    given = [name for name, v in (("rtol", rtol), ("atol", atol)) if v is not None]
    rtol = scaled if rtol is None else rtol
    atol = scaled if atol is None else atol
    if len(given) == 2:
        note = f"rtol = {rtol:g}, atol = {atol:g} (given)"
    elif scaled < DEFAULT:
        note = (f"rtol = {rtol:g}, atol = {atol:g}: the default {DEFAULT:g} tightened by "
                f"{HORIZON:g} s / {span:g} s for the long horizon"
                + (f" ({' and '.join(given)} given)" if given else ""))
    else:
        note = f"rtol = {rtol:g}, atol = {atol:g}" + (
            f" ({' and '.join(given)} given, the other the default)" if given else
            " (the default)")
    return rtol, atol, note


def checked(value):
    """A tolerance for the argument checks made before the horizon is known: None (the
    default) stands for DEFAULT."""
    return DEFAULT if value is None else value
