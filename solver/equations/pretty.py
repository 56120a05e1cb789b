"""Convert CasADi SX expressions into sympy for human consumption.

Equations of motion are generated and evaluated as CasADi SX graphs, which
are fast but unreadable.  This module translates such graphs into sympy so
they can be pretty printed, rendered as LaTeX or simplified:

* :func:`sx_to_sympy` walks the instruction list of a ``casadi.Function``
  built from the expression and rebuilds every operation in sympy.
* :func:`simplify_matrix` simplifies a sympy matrix entry by entry, skipping
  entries that are too large for sympy to simplify in reasonable time.
* :func:`format_equations` / :func:`latex_equations` render the equations
  ``M(q, t) * zdot + k(q, u, t) = Q(q, u, t)`` row by row.

Walking the instruction list (rather than recursing over ``SX.dep``) keeps
shared subexpressions shared and avoids recursion limits on deep graphs.

Caveats, all on the sympy side:

* CasADi comparisons are numbers (1/0); in sympy they stay relations where
  used as conditions and become ``Piecewise((1, cond), (0, True))`` where
  used as numbers.  ``if_else`` becomes a sum of two Piecewise.  sympy folds
  a Piecewise that appears inside another Piecewise's condition (an
  ``if_else`` compared again) into ITE form with ``simplify_logic``, which
  is slow for deep nests; ordinary mechanics expressions have none.
* sympy has no signed zero, so ``copysign(x, -0.0)`` gives ``|x|``.
* ``lambdify`` with the ``math``/``mpmath`` printers misprints ``-Mod(a,
  b)*c`` (sympy issue #30389), which the fmod translation can produce;
  the default NumPy printer is unaffected.
"""

from __future__ import annotations

import math
import operator
from fractions import Fraction
from typing import Callable, Mapping, Sequence

import casadi
import sympy
from sympy.core.relational import Relational
from sympy.logic.boolalg import BooleanAtom, BooleanFunction

__all__ = [
    "SUPPORTED_OPS",
    "format_equations",
    "latex_equations",
    "simplify_matrix",
    "sx_to_sympy",
]

# Largest denominator for which a float constant is shown as a fraction.
_MAX_DENOMINATOR = 12
# A float is only replaced by p/q if it matches to (relative) round-off.
_RATIONAL_TOL = 1e-14

# sympy.Symbol subclasses Boolean, so "is this a truth value" must be tested
# against the concrete logical classes rather than sympy's Boolean base.
_BOOLEAN_TYPES = (Relational, BooleanFunction, BooleanAtom)


def _select(cond: sympy.Basic, value: sympy.Expr, otherwise: sympy.Expr) -> sympy.Expr:
    """``value if cond else otherwise`` as a two-branch Piecewise."""
    return sympy.Piecewise((value, cond), (otherwise, True))


def _as_number(value: sympy.Basic) -> sympy.Expr:
    """Turn a truth value into CasADi's numeric 1/0 so arithmetic works."""
    if isinstance(value, _BOOLEAN_TYPES):
        return _select(value, sympy.Integer(1), sympy.Integer(0))
    return value


def _as_bool(value: sympy.Basic) -> sympy.Basic:
    """Interpret a value as a condition, CasADi-style: nonzero means true."""
    if isinstance(value, _BOOLEAN_TYPES):
        return value
    return sympy.Ne(value, 0)


def _constant(value: float) -> sympy.Expr:
    """Convert a float, preferring a small fraction if it is one exactly."""
    if math.isnan(value):
        return sympy.nan
    if math.isinf(value):
        return sympy.oo if value > 0 else -sympy.oo
    frac = Fraction(value).limit_denominator(_MAX_DENOMINATOR)
    if abs(float(frac) - value) <= _RATIONAL_TOL * max(1.0, abs(value)):
        return sympy.Rational(frac.numerator, frac.denominator)
    return sympy.Float(value)


def _fmod(x: sympy.Expr, y: sympy.Expr) -> sympy.Expr:
    # C fmod takes the sign of the dividend; sympy.Mod takes the divisor's.
    return sympy.sign(x) * sympy.Mod(sympy.Abs(x), sympy.Abs(y))


def _copysign(x: sympy.Expr, y: sympy.Expr) -> sympy.Expr:
    # sympy.sign(0) is 0, but copysign(x, +0.0) is |x|, hence the Piecewise.
    # sympy has no signed zero, so copysign(x, -0.0) = -|x| is not reproduced.
    return _select(y >= 0, sympy.Abs(x), -sympy.Abs(x))


def _if_else_zero(cond: sympy.Basic, value: sympy.Basic) -> sympy.Expr:
    return _select(_as_bool(cond), _as_number(value), sympy.Integer(0))


# Op code -> sympy constructor.  Arguments arrive numeric (truth values
# already mapped to 1/0) except for the ops listed in _LOGICAL_OPS.
_OPS: dict[int, Callable[..., sympy.Basic]] = {
    casadi.OP_ASSIGN: lambda a: a,  # not emitted for SX graphs; harmless
    casadi.OP_ADD: operator.add,
    casadi.OP_SUB: operator.sub,
    casadi.OP_MUL: operator.mul,
    casadi.OP_DIV: operator.truediv,
    casadi.OP_NEG: operator.neg,
    casadi.OP_TWICE: lambda a: 2 * a,
    casadi.OP_INV: lambda a: 1 / a,
    casadi.OP_SQ: lambda a: a**2,
    casadi.OP_SQRT: sympy.sqrt,
    casadi.OP_POW: sympy.Pow,
    casadi.OP_CONSTPOW: sympy.Pow,
    casadi.OP_EXP: sympy.exp,
    casadi.OP_EXPM1: lambda a: sympy.exp(a) - 1,
    casadi.OP_LOG: sympy.log,
    casadi.OP_LOG1P: lambda a: sympy.log(1 + a),
    casadi.OP_SIN: sympy.sin,
    casadi.OP_COS: sympy.cos,
    casadi.OP_TAN: sympy.tan,
    casadi.OP_ASIN: sympy.asin,
    casadi.OP_ACOS: sympy.acos,
    casadi.OP_ATAN: sympy.atan,
    casadi.OP_ATAN2: sympy.atan2,
    casadi.OP_SINH: sympy.sinh,
    casadi.OP_COSH: sympy.cosh,
    casadi.OP_TANH: sympy.tanh,
    casadi.OP_ASINH: sympy.asinh,
    casadi.OP_ACOSH: sympy.acosh,
    casadi.OP_ATANH: sympy.atanh,
    casadi.OP_HYPOT: lambda a, b: sympy.sqrt(a**2 + b**2),
    casadi.OP_FABS: sympy.Abs,
    casadi.OP_SIGN: sympy.sign,
    casadi.OP_COPYSIGN: _copysign,
    casadi.OP_FLOOR: sympy.floor,
    casadi.OP_CEIL: sympy.ceiling,
    casadi.OP_FMOD: _fmod,
    casadi.OP_FMIN: sympy.Min,
    casadi.OP_FMAX: sympy.Max,
    casadi.OP_ERF: sympy.erf,
    casadi.OP_ERFINV: sympy.erfinv,
    casadi.OP_LT: sympy.Lt,
    casadi.OP_LE: sympy.Le,
    casadi.OP_EQ: sympy.Eq,
    casadi.OP_NE: sympy.Ne,
    casadi.OP_NOT: lambda a: sympy.Not(_as_bool(a)),
    casadi.OP_AND: lambda a, b: sympy.And(_as_bool(a), _as_bool(b)),
    casadi.OP_OR: lambda a, b: sympy.Or(_as_bool(a), _as_bool(b)),
    casadi.OP_IF_ELSE_ZERO: _if_else_zero,
}
# Ops whose constructors interpret their arguments themselves, so that a
# comparison feeding a logical op stays a readable relation.
_LOGICAL_OPS = frozenset(
    {casadi.OP_NOT, casadi.OP_AND, casadi.OP_OR, casadi.OP_IF_ELSE_ZERO}
)

#: Arithmetic op codes :func:`sx_to_sympy` can translate (besides the
#: structural OP_INPUT, OP_OUTPUT and OP_CONST).
SUPPORTED_OPS = frozenset(_OPS)

_OP_NAMES = {
    getattr(casadi, name): name for name in dir(casadi) if name.startswith("OP_")
}


def sx_to_sympy(expr: casadi.SX, symbols: Mapping[str, sympy.Expr]) -> sympy.Matrix:
    """Convert a (matrix-valued, possibly sparse) SX expression to sympy.

    Each free SX symbol is replaced by ``symbols[name]``, or by
    ``sympy.Symbol(name)`` if its name is missing; distinct SX symbols
    sharing a name therefore become the same sympy object.  Structural
    zeros become 0.  Raises NotImplementedError for ops that have no
    meaningful sympy counterpart (e.g. OP_PRINTME, OP_REMAINDER).
    """
    expr = casadi.SX(expr)
    free = casadi.symvar(expr)
    inputs = [sympy.sympify(symbols[s.name()]) if s.name() in symbols
              else sympy.Symbol(s.name()) for s in free]
    func = casadi.Function("sx_to_sympy", free, [expr])
    sparsity = func.sparsity_out(0)
    rows, cols = sparsity.row(), sparsity.get_col()
    result = sympy.zeros(*expr.shape)
    work: dict[int, sympy.Basic] = {}
    for k in range(func.n_instructions()):
        op = func.instruction_id(k)
        if op == casadi.OP_OUTPUT:
            nz = func.instruction_output(k)[1]
            value = work[func.instruction_input(k)[0]]
            result[rows[nz], cols[nz]] = _as_number(value)
            continue
        work[func.instruction_output(k)[0]] = _instruction(func, k, op, inputs, work)
    return result


def _instruction(func: casadi.Function, k: int, op: int,
                 inputs: Sequence[sympy.Expr],
                 work: Mapping[int, sympy.Basic]) -> sympy.Basic:
    """Evaluate instruction ``k`` (anything but OP_OUTPUT) in sympy."""
    if op == casadi.OP_INPUT:
        # Every input is a scalar symbol, so only the input index matters.
        return inputs[func.instruction_input(k)[0]]
    if op == casadi.OP_CONST:
        return _constant(func.instruction_constant(k))
    if op not in _OPS:
        name = _OP_NAMES.get(op, f"op code {op}")
        raise NotImplementedError(f"sx_to_sympy: unsupported CasADi operation {name}")
    args = [work[i] for i in func.instruction_input(k)]
    if op not in _LOGICAL_OPS:
        args = [_as_number(a) for a in args]
    return _OPS[op](*args)


def simplify_matrix(m: sympy.Matrix, max_ops: int = 400) -> sympy.Matrix:
    """Simplify each entry with ``trigsimp(simplify(.))``.

    Entries with more than ``max_ops`` operations (``sympy.count_ops``) are
    returned unchanged: sympy's simplify grows super-linearly with
    expression size and would stall on large multibody terms.
    """
    def simplify_entry(entry: sympy.Expr) -> sympy.Expr:
        if sympy.count_ops(entry) > max_ops:
            return entry
        return sympy.trigsimp(sympy.simplify(entry))

    return sympy.Matrix(m).applyfunc(simplify_entry)


def _equation_sides(M, k, q, zdot_symbols: Sequence[sympy.Expr]):
    """Yield (lhs terms, rhs) per row of ``M*zdot + k = q``; zeros dropped."""
    M, k, q = sympy.Matrix(M), sympy.Matrix(k), sympy.Matrix(q)
    g = M.rows
    if M.shape != (g, g) or len(k) != g or len(q) != g or len(zdot_symbols) != g:
        raise ValueError(
            f"inconsistent sizes: M {M.shape}, k {len(k)}, q {len(q)}, "
            f"zdot {len(zdot_symbols)}")
    for i in range(g):
        terms = [M[i, j] * zdot_symbols[j] for j in range(g) if M[i, j] != 0]
        if k[i] != 0:
            terms.append(k[i])
        yield terms, q[i]


def _join(terms: Sequence[sympy.Expr], render: Callable[[sympy.Expr], str]) -> str:
    """Render a sum term by term, in the given order, as ``a + b - c``."""
    if not terms:
        return "0"
    text = render(terms[0])
    for term in terms[1:]:
        # A printed expression starting with '-' negates only its first
        # term, so "x - rest" is equivalent to "x + (-rest)".
        s = render(term)
        text += f" - {s[1:].lstrip()}" if s.startswith("-") else f" + {s}"
    return text


def format_equations(M: sympy.MatrixBase, k: sympy.MatrixBase, q: sympy.MatrixBase,
                     zdot_symbols: Sequence[sympy.Expr]) -> str:
    """Plain-text equations of motion, one line per row of M*zdot + k = q.

    Each line reads ``  M_i0*zdot_0 + M_i1*zdot_1 + ... + k_i = q_i`` in
    ``sympy.sstr`` notation, keeping the column order and dropping zero
    terms (an all-zero left side prints as ``0``).  k and q may be column
    matrices or sequences of length g; a size mismatch raises ValueError.
    """
    return "\n".join(
        f"  {_join(terms, sympy.sstr)} = {sympy.sstr(rhs)}"
        for terms, rhs in _equation_sides(M, k, q, zdot_symbols))


def latex_equations(M: sympy.MatrixBase, k: sympy.MatrixBase, q: sympy.MatrixBase,
                    zdot_symbols: Sequence[sympy.Expr]) -> str:
    """LaTeX ``aligned`` block of M*zdot + k = q, one ``&=`` row per line."""
    lines = [f"{_join(terms, sympy.latex)} &= {sympy.latex(rhs)}"
             for terms, rhs in _equation_sides(M, k, q, zdot_symbols)]
    return "\\begin{aligned}\n" + " \\\\\n".join(lines) + "\n\\end{aligned}"
