"""Stage 8's named CasADi functions of a model (f, M, k, q, ydot, h, energy, dissipation), the
names and order of y, z, s, u, p and outputs, and what the structure report lists.

Ordering: x = (y, z, s); y in declaration order of the tree joints' coordinates, z the speeds in
the user's order followed by completing default speeds; s (usually empty) the signal-block
states, u and outputs in declaration order of their components; p as documented in
:mod:`jourdain.solver.model.parameters`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError

from ..model.mechanics import Mechanics
from ..model.speeds import Speeds
from ..model.speeds import describe as describe_speeds
from .projection import to_speeds


@dataclass
class Structure:
    """What the compiler found, for the report: names of parts, coordinates and signals."""

    bodies: list[str]
    joints: list[str]
    forces: list[str]
    signal_blocks: list[str]
    coordinate_units: list[str]
    speed_units: list[str]
    speed_definitions: list[str]
    constants: dict = field(default_factory=dict)
    parameter_units: dict = field(default_factory=dict)
    default_speed_ops: dict | None = None  # operation counts of M, k, f for z = w
    stiff: list = field(default_factory=list)  # paths of components declaring stiffness


def structure_of(mech: Mechanics, sp: Speeds) -> Structure:
    """The parts, units and speed definitions the structure report lists."""
    return Structure(
        [b.path for b in mech.flat.bodies], [j.path for j in mech.flat.joints],
        [e.path for e in mech.flat.forces], [s.path for s in mech.flat.signals],
        [c.unit for c in mech.kin.coordinates], sp.units, describe_speeds(sp),
        mech.params.constants, mech.params.units,
        stiff=[c.path for c in mech.flat.components if getattr(c, "stiff", False) is True])


def names_of(mech: Mechanics, sp: Speeds) -> dict:
    outputs, _ = mech.ctx.outputs()
    return {"y": [c.name for c in mech.kin.coordinates], "z": list(sp.names),
            "y_default": [c.default for c in mech.kin.coordinates],
            "u": [n for s in mech.ctx.inputs for n in s.entry_names()],
            "p": list(mech.params.names), "out": [n for s in outputs for n in s.entry_names()],
            "inputs": list(mech.ctx.inputs), "outputs": outputs, "s": mech.ctx.state_names,
            "quaternions": _quaternions(mech), "check_parameters": mech.params.check}


def _quaternions(mech: Mechanics) -> list[tuple[int, str]]:
    """(index of q0 in y, joint path) for every joint whose coordinates hold a unit quaternion."""
    found, start = [], 0
    for joint in dict.fromkeys(c.joint for c in mech.kin.coordinates):
        if joint.UNIT_QUATERNION is not None:
            found.append((start + joint.UNIT_QUATERNION, joint.path))
        start += len(joint.COORDINATES)
    return found


def named_functions(mech: Mechanics, sp: Speeds, eom, zdot) -> dict:
    t, y, z, u, p = mech.t, mech.kin.y, sp.z, mech.ctx.u, mech.params.p
    s = mech.ctx.s
    x = ca.vertcat(y, z, s)
    ydot = sp.ydot
    _, out = mech.ctx.outputs()
    T = to_speeds(mech.kinetic_energy(), mech, sp)
    V = mech.potential_energy()
    P = to_speeds(mech.dissipated_power(), mech, sp)
    return {
        "f": ca.Function("f", [t, x, u, p],
                         [ca.vertcat(ydot, zdot, to_speeds(mech.ctx.state_derivatives(), mech, sp))],
                         ["t", "x", "u", "p"], ["xdot"]),
        "M": ca.Function("M", [y, p], [eom.M], ["y", "p"], ["M"]),
        "k": ca.Function("k", [y, z, p], [eom.k], ["y", "z", "p"], ["k"]),
        "q": _q_function(t, y, z, u, p, s, eom.q),
        "ydot": ca.Function("ydot", [y, z, p], [ydot], ["y", "z", "p"], ["ydot"]),
        "h": ca.Function("h", [t, x, u, p], [to_speeds(out, mech, sp)],
                         ["t", "x", "u", "p"], ["out"]),
        "energy": ca.Function("energy", [x, p], [T, V], ["x", "p"], ["T", "V"]),
        "dissipation": ca.Function("dissipation", [t, x, u, p], [P],
                                   ["t", "x", "u", "p"], ["P"]),
        **inverse_dynamics(mech, sp, eom),
    }


def inverse_dynamics(mech: Mechanics, sp: Speeds, eom) -> dict:
    """{"inverse_dynamics": ID(t, y, z, a, u, p) = M·a + k − q} when the back end supplies it
    (recursive, joint speeds, no signal-block states), else {}."""
    if eom.inverse is None or not sp.identity or mech.ctx.s.numel():
        return {}
    a, tau = eom.inverse
    args = [mech.t, mech.kin.y, sp.z, a, mech.ctx.u, mech.params.p]
    return {"inverse_dynamics": ca.Function("inverse_dynamics", args, [tau],
                                            ["t", "y", "z", "a", "u", "p"], ["tau"])}


def _q_function(t, y, z, u, p, s, q) -> ca.Function:
    """q(t, y, z, u, p); models with signal-block states (a PID driving a motor) take s too."""
    if s.numel() == 0:
        return ca.Function("q", [t, y, z, u, p], [q], ["t", "y", "z", "u", "p"], ["q"])
    return ca.Function("q", [t, y, z, u, p, s], [q], ["t", "y", "z", "u", "p", "s"], ["q"])


def check_mass_matrix(M: ca.Function, mech: Mechanics, sp: Speeds, p: np.ndarray) -> None:
    """A singular mass matrix at a generic configuration means a speed without inertia."""
    n = sp.z.numel()
    if n == 0:
        return
    y = np.random.default_rng(1).uniform(-1.0, 1.0, mech.kin.y.numel())
    mass = np.array(M(y, p))
    eig, vec = np.linalg.eigh(0.5 * (mass + mass.T))
    scale = max(1.0, float(np.abs(eig).max())) if eig.size else 1.0
    if eig[0] > 1e-12 * scale:
        return
    idle = [sp.names[i] for i in np.flatnonzero(np.abs(vec[:, 0]) > 1e-6)]
    raise ModelError("the mass matrix is singular: speed(s) " + ", ".join(idle) +
                     " move no mass or inertia (a joint that carries no body, or a body with "
                     "zero inertia about the joint axis); attach a body or remove the joint")
