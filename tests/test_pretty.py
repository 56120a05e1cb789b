"""Tests for jourdain.solver.equations.pretty (CasADi SX -> sympy conversion).

Numerical reference: the CasADi Function built from the same SX expression,
evaluated in double precision.  The sympy result is evaluated with
``sympy.lambdify(..., modules="mpmath")`` at 30 significant digits, so the
only error in the comparison is CasADi's own round-off; values must agree
to a relative tolerance of 1e-12 (erfinv excepted, see OP_REL_TOL).
Symbolic references (constants, structure, text) are stated per test.
"""

import math
import random

import casadi as ca
import mpmath
import pytest
import sympy
from sympy.printing.pycode import MpmathPrinter

from jourdain.solver.equations.pretty import (
    SUPPORTED_OPS,
    format_equations,
    latex_equations,
    simplify_matrix,
    sx_to_sympy,
)

REL_TOL = 1e-12
# Only for exact-zero results (e.g. a false comparison), where a relative
# tolerance is meaningless.
ABS_TOL = 1e-14

X, Y, Z = (ca.SX.sym(name) for name in "xyz")
SX_SYMS = [X, Y, Z]
SP_SYMS = sympy.symbols("x y z")


class _ModSafeMpmathPrinter(MpmathPrinter):
    """MpmathPrinter that parenthesizes Mod.

    sympy prints ``-Mod(a, b)*c`` as ``-a % b*c``, which Python evaluates
    as ``((-a) % b)*c`` (sympy issue #30389, open for sympy 1.14); our
    fmod translation produces exactly such products.
    """

    def _print_Mod(self, expr):
        return f"({super()._print_Mod(expr)})"


def _instruction_ops(expr):
    func = ca.Function("f", ca.symvar(expr), [expr])
    return {func.instruction_id(k) for k in range(func.n_instructions())}


def _assert_round_trip(expr, points, rel_tol=REL_TOL):
    """Compare CasADi and the lambdified sympy conversion at ``points``."""
    converted = sx_to_sympy(expr, {})
    assert converted.shape == expr.shape
    casadi_f = ca.Function("f", SX_SYMS, [expr])
    # Same settings lambdify itself would pass to its default printer.
    printer = _ModSafeMpmathPrinter(
        {"fully_qualified_modules": False, "inline": True,
         "allow_unknown_functions": True})
    sympy_f = sympy.lambdify(SP_SYMS, list(converted), modules="mpmath",
                             printer=printer)
    with mpmath.workdps(30):
        for point in points:
            expected = casadi_f(*point).full().ravel(order="F")
            got = sympy_f(*(mpmath.mpf(v) for v in point))
            for e, g in zip(expected, got):
                assert math.isclose(float(g), e, rel_tol=rel_tol, abs_tol=ABS_TOL), (
                    f"{converted} at {point}: sympy {g} vs casadi {e}")


def _random_points(rng, n):
    # Magnitudes in [0.3, 2] keep divisions and domains away from trouble;
    # the repeated-value point exercises equality comparisons.
    points = [tuple(rng.choice((-1, 1)) * rng.uniform(0.3, 2.0) for _ in range(3))
              for _ in range(n)]
    return points + [(0.7, 0.7, -0.7)]


# One expression per supported op, each valid on the sampled points.
# OP_ASSIGN is absent: CasADi's SX code generator does not emit it for
# expression graphs, so it cannot be triggered from Python.
OP_EXAMPLES = {
    ca.OP_ADD: lambda x, y: x + y,
    ca.OP_SUB: lambda x, y: x - y,
    ca.OP_MUL: lambda x, y: x * y,
    ca.OP_DIV: lambda x, y: x / y,
    ca.OP_NEG: lambda x, y: -x,
    ca.OP_TWICE: lambda x, y: x + x,
    ca.OP_INV: lambda x, y: 1 / x,
    ca.OP_SQ: lambda x, y: x**2,
    ca.OP_SQRT: lambda x, y: ca.sqrt(ca.fabs(x)),
    ca.OP_POW: lambda x, y: ca.fabs(x) ** y,
    ca.OP_CONSTPOW: lambda x, y: ca.fabs(x) ** 1.5,
    ca.OP_EXP: lambda x, y: ca.exp(x),
    ca.OP_EXPM1: lambda x, y: ca.expm1(x),
    ca.OP_LOG: lambda x, y: ca.log(ca.fabs(x)),
    ca.OP_LOG1P: lambda x, y: ca.log1p(ca.fabs(x)),
    ca.OP_SIN: lambda x, y: ca.sin(x),
    ca.OP_COS: lambda x, y: ca.cos(x),
    ca.OP_TAN: lambda x, y: ca.tan(x / 2),
    ca.OP_ASIN: lambda x, y: ca.asin(x / 2.5),
    ca.OP_ACOS: lambda x, y: ca.acos(x / 2.5),
    ca.OP_ATAN: lambda x, y: ca.atan(x),
    ca.OP_ATAN2: lambda x, y: ca.atan2(x, y),
    ca.OP_SINH: lambda x, y: ca.sinh(x),
    ca.OP_COSH: lambda x, y: ca.cosh(x),
    ca.OP_TANH: lambda x, y: ca.tanh(x),
    ca.OP_ASINH: lambda x, y: ca.asinh(x),
    ca.OP_ACOSH: lambda x, y: ca.acosh(1 + x**2),
    ca.OP_ATANH: lambda x, y: ca.atanh(x / 2.5),
    ca.OP_HYPOT: lambda x, y: ca.hypot(x, y),
    ca.OP_FABS: lambda x, y: ca.fabs(x),
    ca.OP_SIGN: lambda x, y: ca.sign(x),
    ca.OP_COPYSIGN: lambda x, y: ca.copysign(x, y),
    ca.OP_FLOOR: lambda x, y: ca.floor(3 * x),
    ca.OP_CEIL: lambda x, y: ca.ceil(3 * x),
    ca.OP_FMOD: lambda x, y: ca.fmod(x, y),
    ca.OP_FMIN: lambda x, y: ca.fmin(x, y),
    ca.OP_FMAX: lambda x, y: ca.fmax(x, y),
    ca.OP_ERF: lambda x, y: ca.erf(x),
    ca.OP_ERFINV: lambda x, y: ca.erfinv(x / 2.5),
    ca.OP_LT: lambda x, y: x < y,
    ca.OP_LE: lambda x, y: x <= y,
    ca.OP_EQ: lambda x, y: x == y,
    ca.OP_NE: lambda x, y: x != y,
    ca.OP_NOT: lambda x, y: ca.logic_not(x < y),
    ca.OP_AND: lambda x, y: ca.logic_and(x < y, y > 0),
    ca.OP_OR: lambda x, y: ca.logic_or(x == y, x > 0) * y,
    ca.OP_IF_ELSE_ZERO: lambda x, y: ca.if_else(x < y, x, y),
}


def test_op_examples_cover_supported_ops():
    assert set(OP_EXAMPLES) == SUPPORTED_OPS - {ca.OP_ASSIGN}


# CasADi 3.8's erfinv is a low-order approximation: a sweep of (-0.999,
# 0.999) against scipy.special.erfinv (and mpmath.erfinv) shows relative
# errors up to 3.3e-6 (worst near |x| = 0.7), while sympy.erfinv is exact.
# Hence the looser tolerance, and no erfinv in the random trees below.
OP_REL_TOL = {ca.OP_ERFINV: 1e-5}


@pytest.mark.parametrize("op", sorted(OP_EXAMPLES))
def test_single_op_round_trip(op):
    expr = OP_EXAMPLES[op](X, Y)
    assert op in _instruction_ops(expr), "example does not exercise its op"
    _assert_round_trip(expr, _random_points(random.Random(op), 8),
                       rel_tol=OP_REL_TOL.get(op, REL_TOL))


# Building blocks for random trees; inner wrappers keep every argument in
# the op's real domain for any finite input.
UNARY = [
    ca.sin, ca.cos, ca.atan, ca.tanh, ca.asinh, ca.erf, ca.fabs, ca.sign,
    ca.floor, ca.ceil, lambda a: -a, lambda a: a**2, lambda a: a + a,
    lambda a: 1 / (1 + a**2),
    lambda a: ca.exp(ca.tanh(a)),
    lambda a: ca.expm1(ca.tanh(a)),
    lambda a: ca.log(1 + a**2),
    lambda a: ca.log1p(a**2),
    lambda a: ca.sqrt(ca.fabs(a)),
    lambda a: ca.tan(ca.tanh(a)),
    lambda a: ca.asin(0.9 * ca.tanh(a)),
    lambda a: ca.acos(0.9 * ca.tanh(a)),
    lambda a: ca.atanh(0.9 * ca.tanh(a)),
    lambda a: ca.sinh(ca.tanh(a)),
    lambda a: ca.cosh(ca.tanh(a)),
    lambda a: ca.acosh(1 + a**2),
]
BINARY = [
    lambda a, b: a + b,
    lambda a, b: a - b,
    lambda a, b: a * b,
    lambda a, b: a / (1 + b**2),
    lambda a, b: (1 + a**2) ** ca.tanh(b),
    lambda a, b: (1 + a**2) ** 1.5,
    ca.atan2, ca.fmin, ca.fmax, ca.hypot,
    lambda a, b: ca.fmod(a, 1 + b**2),
]
# Ops whose sympy form is a Piecewise.  sympy folds a Piecewise occurring
# inside another Piecewise's condition (running simplify_logic), which can
# take many seconds for deep nests, so random trees allow at most one of
# these per root-to-leaf path; test_nested_conditionals covers nesting.
BRANCHING = [
    # The shift keeps b away from exact (possibly negative) zeros produced
    # by if_else: sympy has no -0.0, which copysign could observe.
    lambda a, b: ca.copysign(a, b - 0.123),
    lambda a, b: ca.if_else(a < b, a, b),
    lambda a, b: ca.if_else(ca.logic_and(a <= b, a != b), a, b),
    lambda a, b: ca.logic_or(a == b, ca.logic_not(a < b)) * a,
]
CONSTANTS = [0.5, 1 / 3, 2.0, -1.25, 0.1, 3.7, math.pi]


def _random_tree(rng, depth, branch=True):
    if depth == 0 or rng.random() < 0.15:
        return rng.choice(SX_SYMS + SX_SYMS + [ca.SX(rng.choice(CONSTANTS))])
    if rng.random() < 0.5:
        return rng.choice(UNARY)(_random_tree(rng, depth - 1, branch))
    pool = BINARY + BRANCHING if branch else BINARY
    op = rng.choice(pool)
    branch = branch and op not in BRANCHING
    return op(_random_tree(rng, depth - 1, branch),
              _random_tree(rng, depth - 1, branch))


@pytest.mark.parametrize("seed", range(60))
def test_random_tree_round_trip(seed):
    rng = random.Random(seed)
    expr = ca.vertcat(*(_random_tree(rng, 4) for _ in range(3)))
    _assert_round_trip(expr, _random_points(rng, 5))


def test_nested_conditionals():
    x, y, z = SX_SYMS
    low = ca.if_else(x < y, x, y)
    exprs = ca.vertcat(
        ca.if_else(low < z, low, z),                       # min of three
        ca.logic_and(low <= z, ca.copysign(x, y) != z) * (x + 1),
        ca.if_else(ca.fabs(ca.if_else(x > 1, 1, x)) < y, ca.sin(x), ca.cos(y)),
    )
    _assert_round_trip(exprs, _random_points(random.Random(1), 20))


def test_sparse_matrix_structural_zeros():
    x, y = ca.SX.sym("x"), ca.SX.sym("y")
    m = ca.SX(3, 4)  # all entries structurally zero
    m[0, 3] = x      # asymmetric placement catches row/column mix-ups
    m[2, 0] = ca.sin(y)
    m[1, 1] = 0      # an explicit (numeric) zero
    assert m.nnz() == 3
    expected = sympy.zeros(3, 4)
    expected[0, 3] = sympy.Symbol("x")
    expected[2, 0] = sympy.sin(sympy.Symbol("y"))
    result = sx_to_sympy(m, {})
    assert result == expected
    assert all(isinstance(e, sympy.Expr) for e in result)


def test_empty_and_constant_matrices():
    assert sx_to_sympy(ca.SX(2, 3), {}) == sympy.zeros(2, 3)
    lower = ca.SX(ca.Sparsity.lower(3), 2.0)
    assert sx_to_sympy(lower, {}) == sympy.Matrix(
        [[2, 0, 0], [2, 2, 0], [2, 2, 2]])
    # Vector symbols are named q_0, q_1, ... by CasADi.
    q = ca.SX.sym("q", 2)
    assert sx_to_sympy(q.T, {}) == sympy.Matrix([sympy.symbols("q_0 q_1")])


def test_half_becomes_rational():
    result = sx_to_sympy(0.5 * X, {})[0]
    assert result == sympy.Rational(1, 2) * sympy.Symbol("x")
    assert sympy.sstr(result) == "x/2"
    assert sx_to_sympy(ca.SX(0.5), {})[0] == sympy.Rational(1, 2)
    assert isinstance(sx_to_sympy(ca.SX(0.5), {})[0], sympy.Rational)


@pytest.mark.parametrize("value, expected", [
    (1 / 3, sympy.Rational(1, 3)),       # inexact in binary, still 1/3
    (0.1, sympy.Rational(1, 10)),
    (-2.5, sympy.Rational(-5, 2)),
    (7 / 12, sympy.Rational(7, 12)),     # largest allowed denominator
    (4.0, sympy.Integer(4)),
    (1e20, sympy.Integer(10**20)),
])
def test_simple_fractions_become_rational(value, expected):
    result = sx_to_sympy(ca.SX(value), {})[0]
    assert result == expected and isinstance(result, sympy.Rational)


@pytest.mark.parametrize("value", [math.pi, 1 / 13, 0.1 + 1e-12, 9.81])
def test_other_constants_stay_float(value):
    result = sx_to_sympy(ca.SX(value), {})[0]
    assert isinstance(result, sympy.Float)
    assert float(result) == value   # a 53-bit sympy.Float round-trips exactly: not computed


def test_non_finite_constants():
    result = sx_to_sympy(ca.vertcat(math.inf, -math.inf, math.nan), {})
    assert list(result[:2]) == [sympy.oo, -sympy.oo]
    assert result[2] is sympy.nan


def test_symbols_mapped_by_name():
    t = sympy.Symbol("t")
    phi = sympy.Function("phi")(t)
    m_sym = sympy.Symbol("m", positive=True)
    phi_sx, m_sx, u_sx = ca.SX.sym("phi"), ca.SX.sym("m"), ca.SX.sym("u")
    expr = m_sx * ca.sin(phi_sx) + u_sx
    result = sx_to_sympy(expr, {"phi": phi, "m": m_sym, "unused": t})[0]
    # "u" is missing from the mapping, so it becomes Symbol("u").
    assert result == m_sym * sympy.sin(phi) + sympy.Symbol("u")
    assert result.has(phi) and not result.has(sympy.Symbol("m"))


def test_pendulum_expression_is_exact():
    # Reference: the same expression written by hand in sympy.
    m, g, l, c, phi, u = (ca.SX.sym(n) for n in ("m", "g", "l", "c", "phi", "u"))
    expr = ca.vertcat(m * l**2, 0.5 * m * g * l * ca.sin(phi) - c * u / 3)
    names = sympy.symbols("m g l c phi u", real=True)
    result = sx_to_sympy(expr, {str(s): s for s in names})
    ms, gs, ls, cs, phis, us = names
    expected = sympy.Matrix([ms * ls**2,
                             ms * gs * ls * sympy.sin(phis) / 2 - cs * us / 3])
    assert sympy.simplify(result - expected) == sympy.zeros(2, 1)


@pytest.mark.parametrize("build, name", [
    (lambda x, y: x.printme(y), "OP_PRINTME"),
    (lambda x, y: ca.remainder(x, y), "OP_REMAINDER"),
])
def test_unsupported_op_raises(build, name):
    with pytest.raises(NotImplementedError, match=name):
        sx_to_sympy(build(X, Y), {})


def test_simplify_matrix():
    a, b = sympy.symbols("a b")
    m = sympy.Matrix([[sympy.sin(a)**2 + sympy.cos(a)**2, (a**2 - b**2) / (a - b)]])
    assert simplify_matrix(m) == sympy.Matrix([[1, a + b]])
    # Above the op limit the entry is returned untouched.
    assert simplify_matrix(m, max_ops=1) == m


def _two_dof_example():
    I_K, I_L, C_psi, g, l_C, m, T_M, phi, u1, u2, d = sympy.symbols(
        "I_K I_L C_psi g l_C m T_M phi u1 u2 d")
    M = sympy.Matrix([[I_K, 0], [-m * l_C, I_L]])
    k = sympy.Matrix([0, d * u2])
    q = sympy.Matrix([g * l_C * m * sympy.sin(phi) - T_M + C_psi * (u2 - u1),
                      -C_psi * (u2 - u1)])
    zdot = sympy.symbols("u1' u2'")
    return M, k, q, zdot


def test_format_equations_two_dof():
    M, k, q, zdot = _two_dof_example()
    lines = format_equations(M, k, q, zdot).split("\n")
    assert len(lines) == 2
    # Row 0: zero M entry and zero k are skipped.
    lhs0, rhs0 = lines[0].split(" = ")
    assert lhs0 == "  I_K*u1'"
    assert sympy.sympify(rhs0) == q[0]
    # Row 1: a negative mass-matrix term is joined with " - ", then k.
    lhs1, rhs1 = lines[1].split(" = ")
    assert lhs1 == "  -l_C*m*u1' + I_L*u2' + d*u2"
    assert sympy.sympify(rhs1) == q[1]


def test_format_equations_all_zero_row_and_size_check():
    M, k, q, zdot = _two_dof_example()
    text = format_equations(sympy.zeros(2, 2), sympy.zeros(2, 1), q, zdot)
    assert text.split("\n")[0].startswith("  0 = ")
    with pytest.raises(ValueError):
        format_equations(M, k, q, zdot[:1])


def test_latex_equations_two_dof():
    M, k, q, zdot = _two_dof_example()
    text = latex_equations(M, k, q, zdot)
    assert text.startswith("\\begin{aligned}\n")
    assert text.endswith("\n\\end{aligned}")
    assert text.count("&=") == 2 and text.count("\\\\") == 1
    rows = text.split("\n")[1:3]
    assert rows[0].startswith("I_{K} u1' &= ")
    assert rows[1].startswith("- l_{C} m u1' + I_{L} u2' + d u_{2} &= ")
