"""jourdain's unit strings ("kg.m2", "N.m.s/rad", "m/s2") as FMI 2.0 units: the name as written
and, where every symbol is known, its exponents of the SI base units (and rad), so importing
tools can check and convert them.

Grammar: factors separated by '.', an optional integer exponent after each symbol, one '/'
whose right side is the denominator ("1" is dimensionless).
"""
from __future__ import annotations

import re

BASE = ("kg", "m", "s", "A", "K", "mol", "cd", "rad")
_DERIVED = {
    "kg": {"kg": 1}, "g": {"kg": 1}, "m": {"m": 1}, "s": {"s": 1}, "A": {"A": 1},
    "K": {"K": 1}, "mol": {"mol": 1}, "cd": {"cd": 1}, "rad": {"rad": 1},
    "N": {"kg": 1, "m": 1, "s": -2}, "J": {"kg": 1, "m": 2, "s": -2},
    "W": {"kg": 1, "m": 2, "s": -3}, "Hz": {"s": -1}, "Pa": {"kg": 1, "m": -1, "s": -2},
    "V": {"kg": 1, "m": 2, "s": -3, "A": -1}, "Ohm": {"kg": 1, "m": 2, "s": -3, "A": -2},
    "H": {"kg": 1, "m": 2, "s": -2, "A": -2}, "F": {"kg": -1, "m": -2, "s": 4, "A": 2},
    "C": {"s": 1, "A": 1}, "1": {},
}
_FACTOR = {"g": 1e-3}
_TOKEN = re.compile(r"^([A-Za-z]+|1)(-?\d+)?$")


def base_units(unit: str) -> tuple[dict[str, int], float] | None:
    """({base unit: exponent}, factor) of ``unit``, or None when a symbol is unknown."""
    numerator, _, denominator = unit.partition("/")
    exps: dict[str, int] = {}
    factor = 1.0
    for part, sign in ((numerator, 1), (denominator, -1)):
        for token in filter(None, part.split(".")):
            match = _TOKEN.match(token)
            if match is None or match.group(1) not in _DERIVED:
                return None
            power = sign * int(match.group(2) or 1)
            factor *= _FACTOR.get(match.group(1), 1.0) ** power
            for base, e in _DERIVED[match.group(1)].items():
                exps[base] = exps.get(base, 0) + e * power
    return {b: e for b, e in exps.items() if e}, factor
