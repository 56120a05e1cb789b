"""A conditional in the compiled step that evaluates one branch only, on explicit arguments.

CasADi's ``if_else(c, a, b, True)`` on MX short-circuits by making each branch a function of
the expression's free symbols (symvar): inside the step those are the step's own inputs, so
each branch recomputed everything upstream of it — the kinematics, the sweeps, the exact
solve — at every step (a step with a position correction ran the whole step three times).
Here each branch is a function of the values handed to it, and CasADi's Switch calls one.
"""
from __future__ import annotations

import casadi as ca


def switch(name: str, cond, args: list, on_true, on_false):
    """``on_true(*args)`` where cond holds, else ``on_false(*args)``: the branches are Python
    callables building MX from symbols that stand for ``args`` (MX, any sparsity); the
    result of each must have the same shape."""
    syms = [ca.MX.sym(f"{name}_{i}", ca.MX(a).sparsity()) for i, a in enumerate(args)]
    f_true = ca.Function(f"{name}_true", syms, [ca.densify(on_true(*syms))])
    f_false = ca.Function(f"{name}_false", syms, [ca.densify(on_false(*syms))])
    return ca.Function.if_else(name, f_true, f_false)(cond, *args)
