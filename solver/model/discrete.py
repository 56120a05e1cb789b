"""Discrete variables of hybrid elements (modes, held values): CasADi symbols appended to the
parameter vector p, named ``<path>.<name>``, so every compiled function takes them where it
takes parameters and the event loop changes them between integration segments.

Ordering: after the symbolic parameters, components in declaration order, each component's
``DISCRETE`` in declaration order.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import casadi as ca
import numpy as np

from jourdain.blocks.hybrid.base import Hybrid

from .parameters import ParameterSet


@dataclass
class DiscreteSet:
    """The discrete variables of a model: names, symbols by component, defaults, owners."""

    names: list[str] = field(default_factory=list)
    symbols: dict = field(default_factory=dict)    # component path -> {name: SX}
    sym: ca.SX = field(default_factory=lambda: ca.SX(0, 1))
    defaults: np.ndarray = field(default_factory=lambda: np.zeros(0))
    owners: list = field(default_factory=list)     # component of each entry
    docs: list[str] = field(default_factory=list)


def collect_discrete(components) -> DiscreteSet:
    """Symbols for the DISCRETE variables of every hybrid component."""
    out = DiscreteSet()
    syms, defaults = [], []
    for comp in components:
        if not isinstance(comp, Hybrid) or not comp.DISCRETE:
            continue
        own = {}
        for var in comp.DISCRETE:
            name = f"{comp.path}.{var.name}"
            own[var.name] = ca.SX.sym(name)
            syms.append(own[var.name])
            defaults.append(float(var.initial))
            out.names.append(name)
            out.owners.append(comp)
            out.docs.append(var.doc)
        out.symbols[comp.path] = own
    out.sym = ca.vertcat(*syms) if syms else ca.SX(0, 1)
    out.defaults = np.array(defaults, dtype=float)
    return out


def with_discrete(params: ParameterSet, discrete: DiscreteSet) -> ParameterSet:
    """The parameter set with the discrete variables appended to p."""
    if not discrete.names:
        return params
    units = dict(params.units)
    units.update({name: "1" for name in discrete.names})
    return ParameterSet(params.names + discrete.names, ca.vertcat(params.p, discrete.sym),
                        np.concatenate([params.defaults, discrete.defaults]), params.constants,
                        units, params.owners,   # owners: params= is validated at run time
                        constant_units=params.constant_units,
                        constant_entries=params.constant_entries)
