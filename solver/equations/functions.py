"""Stage 8's named CasADi functions of a model (f, M, k, q, ydot, h, energy, dissipation,
supplied, init), the names and order of y, z, s, u, p and outputs, and what the structure report
lists.

Ordering: x = (y, z, s); y in declaration order of the tree joints' coordinates followed by the
coordinates of free 1-D bodies (Inertia, Mass), z the speeds in the user's order followed by
completing default speeds; s (usually empty) the states of components with memory (filters,
PID, capacitors, inductors) in declaration order, u and outputs in declaration order of their
components; p as documented in
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
from .cuts import cut_readings, substitute_readings
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
    one_dim: list[str] = field(default_factory=list)      # 1-D bodies and couplings
    electrical: list[str] = field(default_factory=list)   # electrical components
    input_units: list[str] = field(default_factory=list)    # per entry of u
    output_units: list[str] = field(default_factory=list)   # per entry of the outputs


def structure_of(mech: Mechanics, sp: Speeds) -> Structure:
    """The parts, units and speed definitions the structure report lists."""
    return Structure(
        [b.path for b in mech.flat.bodies], [j.path for j in mech.flat.joints],
        [e.path for e in mech.flat.forces], [s.path for s in mech.flat.signals],
        [c.unit for c in mech.kin.coordinates], sp.units, describe_speeds(sp),
        mech.params.constants, mech.params.units, None,
        [c.path for c in mech.flat.inertias + mech.flat.couplings],
        [c.path for c in mech.flat.electrical],
        input_units=[s.unit for s in mech.ctx.inputs for _ in s.entry_names()],
        output_units=[s.unit for s in mech.ctx.outputs()[0] for _ in s.entry_names()])


def names_of(mech: Mechanics, sp: Speeds) -> dict:
    outputs, _ = mech.ctx.outputs()
    _, s_init = mech.ctx.initial_residuals()
    return {"y": [c.name for c in mech.kin.coordinates], "z": list(sp.names),
            "y_default": [c.default for c in mech.kin.coordinates],
            "u": [n for s in mech.ctx.inputs for n in s.entry_names()],
            "p": list(mech.params.names), "out": [n for s in outputs for n in s.entry_names()],
            "inputs": list(mech.ctx.inputs), "outputs": outputs, "s": mech.ctx.state_names,
            "s_default": mech.ctx.start_values(), "s_init": s_init,
            "quaternions": _quaternions(mech), "check_parameters": mech.params.check}


def _quaternions(mech: Mechanics) -> list[tuple[int, str]]:
    """(index of q0 in y, joint path) for every joint whose coordinates hold a unit quaternion."""
    found, start = [], 0
    for joint in dict.fromkeys(c.joint for c in mech.kin.coordinates):
        if joint.UNIT_QUATERNION is not None:
            found.append((start + joint.UNIT_QUATERNION, joint.path))
        start += len(joint.COORDINATES)
    return found


def signal_terms(mech: Mechanics, sp: Speeds, zdot) -> tuple:
    """(ṡ, outputs, initial residuals) in (t, y, z, u, s, p), with the cut sensors' readings
    computed from the accelerations ``zdot`` (equations.cuts)."""
    _, out = mech.ctx.outputs()   # first: building them hands out the sensors' placeholders
    terms = (mech.ctx.state_derivatives(), out, mech.ctx.initial_residuals()[0])
    readings = cut_readings(mech, sp, zdot)
    return tuple(substitute_readings(to_speeds(e, mech, sp), mech, readings) for e in terms)


def named_functions(mech: Mechanics, sp: Speeds, eom, zdot) -> dict:
    t, y, z, u, p = mech.t, mech.kin.y, sp.z, mech.ctx.u, mech.params.p
    s = mech.ctx.s
    x = ca.vertcat(y, z, s)
    ydot = sp.ydot
    sdot, out, residuals = signal_terms(mech, sp, zdot)
    T = to_speeds(mech.kinetic_energy(), mech, sp)
    V = mech.potential_energy()
    W = _state_energy(mech, t, u)
    P = to_speeds(mech.dissipated_power(), mech, sp)
    P_in = to_speeds(mech.supplied_power(), mech, sp)
    return {
        "f": ca.Function("f", [t, x, u, p], [ca.vertcat(ydot, zdot, sdot)],
                         ["t", "x", "u", "p"], ["xdot"]),
        "M": ca.Function("M", [y, p], [eom.M], ["y", "p"], ["M"]),
        "k": ca.Function("k", [y, z, p], [eom.k], ["y", "z", "p"], ["k"]),
        "q": _q_function(t, y, z, u, p, s, eom.q),
        "ydot": ca.Function("ydot", [y, z, p], [ydot], ["y", "z", "p"], ["ydot"]),
        "h": ca.Function("h", [t, x, u, p], [out], ["t", "x", "u", "p"], ["out"]),
        "energy": ca.Function("energy", [x, p], [T, V, W], ["x", "p"], ["T", "V", "W"]),
        "dissipation": ca.Function("dissipation", [t, x, u, p], [P],
                                   ["t", "x", "u", "p"], ["P"]),
        "supplied": ca.Function("supplied", [t, x, u, p], [P_in],
                                ["t", "x", "u", "p"], ["P"]),
        "init": ca.Function("init", [t, x, u, p], [residuals], ["t", "x", "u", "p"],
                            ["residual"]),
    }


def _state_energy(mech: Mechanics, t, u) -> ca.SX:
    """W: the energy stored in component states, which must depend on the states only."""
    W = mech.stored_energy()
    if ca.depends_on(W, ca.vertcat(t, u, mech.kin.y, mech.kin.w)):
        owners = [c.path for c in mech.flat.components if ca.depends_on(
            ca.SX(mech.inst[c].stored_energy(mech.ctx)), ca.vertcat(t, u, mech.kin.y,
                                                                    mech.kin.w))]
        raise ModelError(f"{', '.join(owners)}: stored_energy() must depend on the component's "
                         "states and parameters only")
    return W


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
