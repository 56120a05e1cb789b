"""Sampled updates in the event loop: the model's sampled blocks (ZeroOrderHold,
DiscretePID, …) as SampledCallbacks in signal order, the user's callbacks checked, and which
callbacks are due at an instant. The general machinery (a callback with its own period whose
output is held in discrete variables or inputs) is :class:`~jourdain.solver.hybrid.events.
SampledCallback`; a Python controller running at a sample period uses the same path."""
from __future__ import annotations

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError

from ..hybrid.events import SampledCallback


def model_samplers(system) -> list[SampledCallback]:
    """The model's sampled blocks as callbacks, each after the blocks it reads."""
    info, out = system.hybrid, []
    for order, block in enumerate(_sampled_order(system)):
        fn = system.functions[f"update:{block.path}"]
        targets = [system.p_names[i] for i in info.discrete_index[block.path].values()]
        out.append(SampledCallback(block.sample_period, _block_update(fn), targets,
                                   block.start_time, block.path, order))
    return out


def check_samplers(system, samplers, held_mask: np.ndarray) -> list[SampledCallback]:
    """The user's callbacks, their targets checked; inputs they drive are marked held."""
    out = []
    for sampler in samplers:
        if not isinstance(sampler, SampledCallback):
            raise ModelError(f"simulate: samplers must be SampledCallback objects, got "
                             f"{sampler!r:.60}")
        for name in sampler.targets:
            if name in system.u_names:
                held_mask[system.u_names.index(name)] = True
            elif name not in system.p_names:
                raise ModelError(f"{sampler.label}: target '{name}' is neither an input nor "
                                 "a discrete variable or parameter of the system")
        out.append(sampler)
    return out


def due(samplers: list[SampledCallback], t: float) -> list[SampledCallback]:
    """The callbacks with a sample at t, in their order."""
    eps = 1e-9 * max(1e-3, min((s.period for s in samplers), default=1.0))
    return sorted((s for s in samplers if abs(s.next_time(t, eps) - t) <= eps),
                  key=lambda s: s.order)


def _sampled_order(system) -> list:
    """The model's sampled blocks, each after the sampled blocks it reads (a topological order
    of the signal graph; declaration order breaks ties and cycles)."""
    info = system.hybrid
    if info is None:
        return []
    blocks = list(info.samplers)
    deps = {b.path: set() for b in blocks}
    for b in blocks:
        fn = system.functions[f"update:{b.path}"]
        used = set(np.flatnonzero(np.array(ca.DM(fn.sparsity_jac("p", "d")).full()).any(axis=0)))
        for other in blocks:
            if other is not b and used & set(info.discrete_index[other.path].values()):
                deps[b.path].add(other.path)
    order, done = [], set()
    while len(order) < len(blocks):
        ready = [b for b in blocks if b.path not in done and deps[b.path] <= done] or \
            [next(b for b in blocks if b.path not in done)]
        order.append(ready[0])
        done.add(ready[0].path)
    return order


def _block_update(fn: ca.Function):
    def update(t, x, u, p):
        return np.array(fn(t, x, u, p), dtype=float).ravel()
    return update
