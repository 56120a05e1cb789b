"""Sampled blocks in the FMU (DiscretePID, ZeroOrderHold, DiscreteStateFeedback): FMI 2.0 time
events. Each block samples at t_k = start_time + k·sample_period and holds its discrete
variables (entries of p) until the next sample, as in ``simulate``
(:mod:`..simulation.sampling`): blocks due at the same instant update in signal order, each
seeing the values the earlier ones have just written.

The generated C is ``jd_sample(t, x, u, p, active) -> p_next``: the blocks flagged in
``active`` (one entry per block, in that order) applied one after the other. The wrapper
keeps one sample counter per block (t_k from the integer k, no drift), applies the due
samples in ``fmi2NewDiscreteStates`` and reports the next sample instant as
``nextEventTime`` (model exchange), or integrates from sample instant to sample instant
inside ``fmi2DoStep`` (co-simulation). The held values are ``local``/``discrete`` variables
of the description; a held output (``pid.y``) appears once, as the output.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import casadi as ca
from ..simulation.sampling import model_samplers

EPS = 1e-9   # a sample is due within EPS·max(1e-3, the shortest period) of t, as simulate's


@dataclass
class Sampling:
    """``function`` (jd_sample), the blocks' periods and first instants, and the indices in
    p of the discrete variables (``discrete``)."""

    function: ca.Function
    periods: list = field(default_factory=list)
    starts: list = field(default_factory=list)
    labels: list = field(default_factory=list)
    discrete: list = field(default_factory=list)


def sampling(system) -> Sampling:
    """The sampled updates of ``system`` (jd_sample returns p unchanged when it has none)."""
    samplers = model_samplers(system) if getattr(system, "hybrid", None) else []
    fns = [system.functions[f"update:{s.label}"] for s in samplers]
    sym = ca.SX if all(fn.is_a("SXFunction") for fn in fns) else ca.MX
    t, x = sym.sym("t"), sym.sym("x", system.nx)
    u, p = sym.sym("u", len(system.u_names)), sym.sym("p", len(system.p_names))
    active = sym.sym("active", max(1, len(samplers)))
    entries = ca.vertsplit(p) if p.numel() else []
    for k, (sampler, fn) in enumerate(zip(samplers, fns)):
        new = ca.vertsplit(fn(t, x, u, ca.vertcat(*entries)))
        for name, value in zip(sampler.targets, new):
            i = system.p_names.index(name)
            entries[i] = ca.if_else(active[k] > 0.5, value, entries[i])
    out = ca.vertcat(*entries) if entries else sym(0, 1)
    function = ca.Function("jd_sample", [t, x, u, p, active], [out],
                           ["t", "x", "u", "p", "active"], ["p_next"])
    discrete = [system.p_names.index(n) for n in
                (system.hybrid.discrete_names if samplers else [])]
    return Sampling(function, [s.period for s in samplers], [s.start_time for s in samplers],
                    [s.label for s in samplers], discrete)


def sampling_config(sampled: Sampling) -> list[str]:
    """Lines of jd_config.h for the wrapper's time events."""
    n = len(sampled.periods)
    eps = EPS * max(1e-3, min(sampled.periods, default=1.0))

    def array(kind: str, name: str, values) -> str:
        body = ", ".join(format(float(v), ".17g") for v in values) or "0"
        return f"static const {kind} {name}[{max(1, len(values))}] = {{{body}}};"
    return [f"#define JD_NSAMPLED {n}", f"#define JD_SAMPLE_EPS {eps!r}",
            array("double", "jd_sample_period", sampled.periods),
            array("double", "jd_sample_start", sampled.starts)]
