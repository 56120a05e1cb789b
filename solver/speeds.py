"""Stage 5, generalized speeds: z = W(y)·ẏ chosen by the user (seed 000: u2 = φ̇ + ψ̇) or by
default z = ẏ; the kinematics ODE ẏ = v(y, z) = W(y)⁻¹·z (seed 001).

User speeds are given by name as expressions of coordinate names (``cube.edge.phi``), their
derivatives (``cube.edge.phi.der``) or default speed names (``cube.edge.w``, i.e. φ̇), with
+ − * / and sin, cos, tan, sqrt, exp. Speeds not given are completed with default speeds.
"""
from __future__ import annotations

import ast
import difflib
from dataclasses import dataclass

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError

from .kinematics import Kinematics

_FUNCTIONS = {"sin": ca.sin, "cos": ca.cos, "tan": ca.tan, "sqrt": ca.sqrt, "exp": ca.exp}
_BINOPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
           ast.Mult: lambda a, b: a * b, ast.Div: lambda a, b: a / b,
           ast.Pow: lambda a, b: a ** b}


@dataclass
class Speeds:
    """Generalized speeds z, the kinematics ODE ẏ = v(y, z) and the definition z = W(y)·ẏ."""

    names: list[str]
    units: list[str]
    z: ca.SX
    ydot: ca.SX       # v(y, z)
    z_of_ydot: ca.SX  # W(y)·ẏ in terms of y and the symbols ẏ
    identity: bool


def choose_speeds(kin: Kinematics, spec: dict[str, str] | None) -> Speeds:
    """Default speeds z = ẏ, or the user's definitions completed by default speeds."""
    if not spec:
        return Speeds([c.speed for c in kin.coordinates], [c.speed_unit for c in kin.coordinates],
                      kin.yd, kin.yd, kin.yd, True)
    n = len(kin.coordinates)
    if len(spec) > n:
        raise ModelError(f"speeds: {len(spec)} speeds given but the model has only {n} "
                         f"coordinates ({', '.join(c.name for c in kin.coordinates)})")
    exprs = [_parse(name, text, kin) for name, text in spec.items()]
    names, units = list(spec), ["" for _ in spec]
    for k, name in enumerate(names):
        if not ca.depends_on(exprs[k], kin.yd):
            raise ModelError(f"speeds: '{name}' = {spec[name]!r} does not involve any coordinate "
                             "rate (write e.g. 'cube.edge.phi.der')")
        jac = ca.jacobian(exprs[k], kin.yd)
        if ca.depends_on(jac, kin.yd):
            raise ModelError(f"speeds: '{name}' = {spec[name]!r} is not linear in the coordinate "
                             "rates; speeds must be z = W(y)·ẏ")
    _complete(kin, exprs, names, units)
    z_of_ydot = ca.vertcat(*exprs)
    W = ca.jacobian(z_of_ydot, kin.yd)
    z = ca.vertcat(*[ca.SX.sym(name) for name in names])
    if ca.depends_on(W, kin.y):
        ydot = ca.solve(W, z)
    else:
        W_num = np.array(ca.DM(ca.evalf(W)))
        ydot = ca.mtimes(ca.DM(np.linalg.inv(W_num)), z)
    return Speeds(names, units, z, ydot, z_of_ydot, False)


def _complete(kin: Kinematics, exprs: list, names: list[str], units: list[str]) -> None:
    """Add default speeds (ẏ_j) while they raise the rank of W; fail if W stays singular."""
    rng = np.random.default_rng(0)
    y_probe = rng.uniform(-1, 1, kin.y.numel())
    rank_of = ca.Function("rank_probe", [kin.y], [ca.jacobian(ca.vertcat(*exprs), kin.yd)]) \
        if exprs else None
    rank = np.linalg.matrix_rank(np.array(rank_of(y_probe))) if rank_of else 0
    if rank < len(exprs):
        raise ModelError("speeds: the definitions of " + ", ".join(names) +
                         " are not independent (W(y) is singular); each speed must add a new "
                         "direction of motion")
    for j, coord in enumerate(kin.coordinates):
        if len(exprs) == kin.y.numel():
            break
        trial = ca.vertcat(*exprs, kin.yd[j])
        W = ca.Function("rank_probe", [kin.y], [ca.jacobian(trial, kin.yd)])(y_probe)
        if np.linalg.matrix_rank(np.array(W)) > len(exprs):
            exprs.append(kin.yd[j])
            names.append(coord.speed)
            units.append(coord.speed_unit)


def _parse(name: str, text: str, kin: Kinematics) -> ca.SX:
    if not isinstance(text, str):
        raise ModelError(f"speeds: '{name}' must be an expression string, got {text!r}")
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as exc:
        raise ModelError(f"speeds: '{name}' = {text!r} is not a valid expression") from exc
    symbols = {}
    for c, y, yd in zip(kin.coordinates, ca.vertsplit(kin.y), ca.vertsplit(kin.yd)):
        symbols[c.name], symbols[c.name + ".der"], symbols[c.speed] = y, yd, yd
    return _eval(tree.body, symbols, name, text)


def _dotted(node) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return f"{head}.{node.attr}" if head else None
    return None


def _eval(node, symbols: dict, name: str, text: str):
    dotted = _dotted(node)
    if dotted is not None:
        if dotted not in symbols:
            close = difflib.get_close_matches(dotted, list(symbols), n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise ModelError(f"speeds: '{name}' uses unknown name '{dotted}'{hint}")
        return symbols[dotted]
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return float(node.value)
    if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
        return _BINOPS[type(node.op)](_eval(node.left, symbols, name, text),
                                      _eval(node.right, symbols, name, text))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = _eval(node.operand, symbols, name, text)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
            and node.func.id in _FUNCTIONS and len(node.args) == 1:
        return _FUNCTIONS[node.func.id](_eval(node.args[0], symbols, name, text))
    raise ModelError(f"speeds: '{name}' = {text!r}: unsupported syntax "
                     f"'{ast.unparse(node)}' (use names, numbers, + - * / ** and sin/cos/...)")
