"""Stage 5, generalized speeds: z = W(y)·w chosen by the user (the cube on an edge: u2 = φ̇ + ψ̇) or by
default z = w, the joint speeds (w = ẏ for scalar joints, body-fixed angular velocity for
quaternion joints); the kinematics ODE ẏ = v(y, z) = N(y)·W(y)⁻¹·z (Kane and Levinson 1985).

User speeds are given by name as expressions of coordinate names (``cube.edge.phi``), their
derivatives (``cube.edge.phi.der``) or joint speed names (``cube.edge.w``, i.e. φ̇;
``cube.pivot.wx``), with + − * / and sin, cos, tan, sqrt, exp. Speeds not given are
completed with joint speeds.
"""
from __future__ import annotations

import ast
import difflib
from collections.abc import Mapping
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
    """Generalized speeds z, the joint speeds w(y, z), the kinematics ODE ẏ = v(y, z) and the
    definition z = W(y)·w."""

    names: list[str]
    units: list[str]
    z: ca.SX
    w_of_z: ca.SX     # joint speeds in terms of y and z
    ydot: ca.SX       # v(y, z)
    z_of_w: ca.SX     # W(y)·w in terms of y and the joint speed symbols w
    identity: bool


def speed_spec(spec, kin: Kinematics, reserved=()) -> dict[str, str]:
    """compile's ``speeds``: a dict {new name: expression string} (None: joint speeds). A
    name may not be that of a coordinate, of a joint speed other than the one it defines, or
    of an input, output or signal state (``reserved``): results are looked up by name."""
    if spec is None:
        return {}
    if not isinstance(spec, Mapping):
        raise ModelError(f"speeds: expected a dict {{name: expression}}, e.g. {{'u1': "
                         f"'{_example(kin)}'}}, got {type(spec).__name__} {spec!r:.60}")
    taken = {n: "an input, output or signal-block state" for n in reserved}
    taken.update({r.derivative_of + ".der": "a coordinate rate" for r in kin.rates
                  if r.derivative_of})
    taken.update({c.name: "a coordinate" for c in kin.coordinates})
    rates = {r.name: j for j, r in enumerate(kin.rates)}
    for name, text in spec.items():
        if not isinstance(name, str) or not name.replace(".", "_").isidentifier():
            raise ModelError(f"speeds: the speed name {name!r} must be a string such as 'u1' "
                             "(letters, digits, _ and dots)")
        if not isinstance(text, str):
            raise ModelError(f"speeds: '{name}' must be an expression string such as "
                             f"'{_example(kin)}', got {text!r}")
        if name in rates and not ca.is_equal(ca.SX(_parse(name, text, kin)),
                                             kin.w[rates[name]]):
            taken[name] = f"the joint speed {name}, which '{name}' = {text!r} is not"
        if name in taken:
            raise ModelError(f"speeds: the name '{name}' is already {taken[name]}; give the "
                             "generalized speed a new name such as 'u1'")
    return dict(spec)


def _example(kin: Kinematics) -> str:
    return f"{kin.rates[0].name}" if kin.rates else "joint.phi.der"


def choose_speeds(kin: Kinematics, spec: dict[str, str] | None) -> Speeds:
    """Default speeds z = w, or the user's definitions completed by joint speeds."""
    if not spec:
        return Speeds([r.name for r in kin.rates], [r.unit for r in kin.rates], kin.w, kin.w,
                      kin.ydot, kin.w, True)
    n = kin.w.numel()
    if len(spec) > n:
        raise ModelError(f"speeds: {len(spec)} speeds given but the model has only {n} degrees "
                         f"of freedom ({', '.join(r.name for r in kin.rates)})")
    exprs = [_parse(name, text, kin) for name, text in spec.items()]
    names, units = list(spec), ["" for _ in spec]
    for k, name in enumerate(names):
        if not ca.depends_on(exprs[k], kin.w):
            raise ModelError(f"speeds: '{name}' = {spec[name]!r} involves no speed or coordinate "
                             "rate (write e.g. 'cube.edge.phi.der')")
        if ca.depends_on(ca.jacobian(exprs[k], kin.w), kin.w):
            raise ModelError(f"speeds: '{name}' = {spec[name]!r} is not linear in the speeds; "
                             "generalized speeds must be z = W(y)·w")
        _check_homogeneous(kin, exprs[k], name, spec[name])
    _complete(kin, exprs, names, units)
    z_of_w = ca.vertcat(*exprs)
    W = ca.jacobian(z_of_w, kin.w)
    z = ca.vertcat(*[ca.SX.sym(name) for name in names])
    if ca.depends_on(W, kin.y):
        w_of_z = ca.solve(W, z)
    else:  # constant W: invert numerically, the expressions stay small
        w_of_z = ca.mtimes(ca.DM(np.linalg.inv(np.array(ca.DM(ca.evalf(W))))), z)
    ydot = ca.substitute(kin.ydot, kin.w, w_of_z)
    return Speeds(names, units, z, w_of_z, ydot, z_of_w, False)


def _check_homogeneous(kin: Kinematics, expr, name: str, text: str) -> None:
    """z = W(y)·w has no term free of the speeds (z = 0 at rest): a constant or a function of
    the coordinates alone would be dropped by the linear form, so it is refused."""
    rest = ca.Function("rest", [kin.y], [ca.substitute(expr, kin.w, ca.DM.zeros(kin.w.numel()))])
    probes = np.random.default_rng(2).uniform(-1, 1, (3, kin.y.numel()))
    offset = max(abs(float(rest(y))) for y in probes)
    if not offset <= 1e-12:
        raise ModelError(f"speeds: '{name}' = {text!r} has a term without speeds (it is not "
                         "zero at rest); generalized speeds are linear combinations "
                         "z = W(y)·w of the joint speeds: drop the constant or the term in "
                         "the coordinates alone")


def _complete(kin: Kinematics, exprs: list, names: list[str], units: list[str]) -> None:
    """Add joint speeds while they raise the rank of W; fail if the user's W is singular."""
    y_probe = np.random.default_rng(0).uniform(-1, 1, kin.y.numel())

    def rank(rows: list) -> int:
        if not rows:
            return 0
        W = ca.Function("rank_probe", [kin.y], [ca.jacobian(ca.vertcat(*rows), kin.w)])
        return int(np.linalg.matrix_rank(np.array(W(y_probe))))

    if rank(exprs) < len(exprs):
        raise ModelError("speeds: the definitions of " + ", ".join(names) +
                         " are not independent (W(y) is singular); each speed must add a new "
                         "direction of motion")
    for j, info in enumerate(kin.rates):
        if len(exprs) == kin.w.numel():
            break
        if rank(exprs + [kin.w[j]]) > len(exprs):
            exprs.append(kin.w[j])
            names.append(info.name)
            units.append(info.unit)


def _parse(name: str, text: str, kin: Kinematics) -> ca.SX:
    if not isinstance(text, str):
        raise ModelError(f"speeds: '{name}' must be an expression string, got {text!r}")
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as exc:
        raise ModelError(f"speeds: '{name}' = {text!r} is not a valid expression") from exc
    symbols = {c.name: y for c, y in zip(kin.coordinates, ca.vertsplit(kin.y))}
    for r, w in zip(kin.rates, ca.vertsplit(kin.w)):
        symbols[r.name] = w
        if r.derivative_of:
            symbols[r.derivative_of + ".der"] = w
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


def speed_matrix(kin: Kinematics, speeds: Speeds) -> ca.Function:
    """W(y) -> W, the definition z = W(y)·w of user-chosen speeds (a named function, so
    simulations can check that the speeds stay independent along the motion)."""
    return ca.Function("W", [kin.y], [ca.jacobian(speeds.z_of_w, kin.w)], ["y"], ["W"])


def describe(speeds: Speeds) -> list[str]:
    """One line per speed for the report: its definition z_i = W_i(y)·w, or "joint speed"."""
    lines = []
    for name, expr in zip(speeds.names, ca.vertsplit(speeds.z_of_w)):
        text = str(expr)
        lines.append(f"{name} (joint speed)" if text == name else f"{name} = {text}")
    return lines
