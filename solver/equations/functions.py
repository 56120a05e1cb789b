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

from jourdain.blocks.drivers.base import Level
from jourdain.blocks.errors import ModelError
from jourdain.blocks.ports import Frame

from ..model.kinematics import flange_state
from ..model.mechanics import Mechanics
from ..model.speeds import Speeds
from ..model.speeds import describe as describe_speeds
from .driven import Drive, driven_speed_index
from .projection import to_speeds
from .readings import dynamic_names, signal_terms


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
    stiff: list = field(default_factory=list)  # paths of components declaring stiffness
    constant_units: dict = field(default_factory=dict)    # constant parameter -> unit
    constant_entries: dict = field(default_factory=dict)  # entry name -> constant parameter


def structure_of(mech: Mechanics, sp: Speeds) -> Structure:
    """The parts, units and speed definitions the structure report lists."""
    return Structure(
        [b.path for b in mech.flat.bodies], [j.path for j in mech.flat.joints],
        [e.path for e in mech.flat.forces + mech.flat.lines + mech.flat.wrenches],
        [s.path for s in mech.flat.signals],
        [c.unit for c in mech.kin.coordinates], sp.units, describe_speeds(sp),
        mech.params.constants, mech.params.units, None,
        list(dict.fromkeys(c.path for c in mech.flat.inertias + mech.flat.couplings)),
        [c.path for c in mech.flat.electrical],
        input_units=[s.unit for s in mech.ctx.inputs for _ in s.entry_names()],
        output_units=[s.unit for s in mech.ctx.outputs()[0] for _ in s.entry_names()],
        stiff=[c.path for c in mech.flat.components if getattr(c, "stiff", False) is True],
        constant_units=mech.params.constant_units,
        constant_entries=mech.params.constant_entries)


def names_of(mech: Mechanics, sp: Speeds) -> dict:
    outputs, _ = mech.ctx.outputs()
    _, s_init = mech.ctx.initial_residuals()
    return {"y": [c.name for c in mech.kin.coordinates], "z": list(sp.names),
            "y_default": [c.default for c in mech.kin.coordinates],
            "u": [n for s in mech.ctx.inputs for n in s.entry_names()],
            "p": list(mech.params.names), "out": [n for s in outputs for n in s.entry_names()],
            "inputs": list(mech.ctx.inputs), "outputs": outputs, "s": mech.ctx.state_names,
            "s_default": mech.ctx.start_values(), "s_init": s_init,
            "quantities": [n for s in outputs for n in s.entry_names()] + quantity_terms(mech)[0],
            "quaternions": _quaternions(mech), "driven": _driven(mech, sp),
            "driven_by": {sp.names[driven_speed_index(mech, sp, d.speed)]: d.path
                          for d in mech.driven},
            "prescribed": [driven_speed_index(mech, sp, d.speed) for d in mech.driven],
            "dynamic": dynamic_names(mech), "check_parameters": mech.params.check,
            "flanges": flange_terms(mech)[0] + acausal_terms(mech)[0]}


def _driven(mech: Mechanics, sp: Speeds) -> tuple[list[int], list[int]]:
    """Indices in y of the coordinates whose position drivers prescribe (at the start, for
    filters) and in z of the speeds known from drivers (all but Accelerate's)."""
    ys = [d.coordinate for d in mech.driven if d.driver.LEVEL is Level.POSITION]
    zs = [driven_speed_index(mech, sp, d.speed) for d in mech.driven
          if d.driver.LEVEL is not Level.ACCELERATION]
    return ys, zs


def _quaternions(mech: Mechanics) -> list[tuple[int, str]]:
    """(index of q0 in y, joint path) for every joint whose coordinates hold a unit quaternion."""
    found, start = [], 0
    for joint in dict.fromkeys(c.joint for c in mech.kin.coordinates):
        if joint.UNIT_QUATERNION is not None:
            found.append((start + joint.UNIT_QUATERNION, joint.path))
        start += len(joint.COORDINATES)
    return found


def named_functions(mech: Mechanics, sp: Speeds, eom, zdot, drive: Drive | None = None,
                    wdot=None) -> dict:
    """The System's functions for the accelerations ``zdot`` (``drive``: kinematic drivers,
    whose prescribed values replace the driven entries of x; ``wdot``: the joint
    accelerations when the equations give them, see :func:`.readings.placeholder_values`)."""
    t, y, z, u, p = mech.t, mech.kin.y, sp.z, mech.ctx.u, mech.params.p
    s = mech.ctx.s
    x = ca.vertcat(y, z, s)
    ydot = sp.ydot
    apply = drive.apply if drive is not None else (lambda expr: expr)
    sdot, out, residuals = signal_terms(mech, sp, zdot, drive, wdot)
    T = to_speeds(mech.kinetic_energy(), mech, sp)
    V = mech.potential_energy()
    W = _state_energy(mech, t, u)
    P = to_speeds(mech.dissipated_power(), mech, sp)
    P_in = to_speeds(mech.supplied_power(), mech, sp) + driver_power(mech, sp, drive)
    rows: dict = {}   # the twins that read hybrid rows' forces (:func:`_reading_rows`)
    functions = {
        "f": _reading_rows("f", [t, x, u, p], apply(ca.vertcat(ydot, zdot, sdot)), "xdot",
                           mech, rows),
        "M": ca.Function("M", [y, p], [eom.M], ["y", "p"], ["M"]),
        "k": ca.Function("k", [y, z, p], [eom.k], ["y", "z", "p"], ["k"]),
        "q": _q_function(t, y, z, u, p, s, apply(eom.q)),
        "ydot": ca.Function("ydot", [y, z, p], [ydot], ["y", "z", "p"], ["ydot"]),
        "h": _reading_rows("h", [t, x, u, p], apply(out), "out", mech, rows),
        "energy": ca.Function("energy", [x, p], [T, V, W], ["x", "p"], ["T", "V", "W"]),
        "dissipation": _reading_rows("dissipation", [t, x, u, p], apply(P), "P", mech, rows),
        "supplied": _reading_rows("supplied", [t, x, u, p], apply(P_in), "P", mech, rows),
        "init": _reading_rows("init", [t, x, u, p], apply(residuals), "residual", mech, rows),
        **inverse_dynamics(mech, sp, eom, drive),
    }
    names, exprs = (a + b for a, b in zip(flange_terms(mech), acausal_terms(mech)))
    if names:
        values = to_speeds(ca.vertcat(*exprs), mech, sp)
        functions["flanges"] = _reading_rows("flanges", [t, x, u, p], apply(values),
                                             "flanges", mech, rows)
    if drive is not None:
        functions.update(drive_functions(t, x, u, p, drive))
    functions.update(rows)
    return functions


def _reading_rows(name: str, args: list, expr: ca.SX, out: str, mech: Mechanics,
                  rows: dict) -> ca.Function:
    """The Function ``name``(t, x, u, p) -> expr. Where expr reads hybrid rows' forces λ
    (the heat of a lossy hybrid element: ``ctx.multiplier`` in its loss power), λ = 0 in it
    (the smooth equations: every row without force, as f_smooth's ż), and its twin
    ``<name>:rows``(t, x, u, p, lambda) goes into ``rows``, λ in the order of
    ``ctx.multipliers``: the hybrid stage calls it with the solved λ
    (solver.hybrid.dynamics.with_rows)."""
    names = ["t", "x", "u", "p"]
    lam = ca.vertcat(*mech.ctx.multipliers.values()) if mech.ctx.multipliers else None
    if lam is not None and ca.depends_on(expr, lam):
        rows[f"{name}:rows"] = ca.Function(name, args + [lam], [expr], names + ["lambda"],
                                           [out])
        expr = ca.substitute(expr, lam, ca.SX.zeros(lam.numel()))
    return ca.Function(name, args, [expr], names, [out])


def flange_terms(mech: Mechanics) -> tuple[list[str], list]:
    """Names and expressions (in y, w) of the position and rate of every 1-D body (Inertia,
    Mass) whose net's coordinate is not its own — behind a gear, a cut sensor or on a joint's
    axis — named as its own coordinate would be (``inertia2.phi``, ``inertia2.w``): so every
    1-D body of the model has its series in a Result, whichever net the 1-D network chose
    to keep as a coordinate."""
    owners = {c.joint.path for c in mech.kin.coordinates}
    names, exprs = [], []
    for body in mech.flat.inertias:
        if body.path in owners or not body.COORDINATES or not body.SPEEDS:
            continue
        state = flange_state(mech.kin, mech.flat.net_of[body.body_flange()])
        names += [f"{body.path}.{body.COORDINATES[0].name}", f"{body.path}.{body.SPEEDS[0].name}"]
        exprs += [ca.SX(state.s), ca.SX(state.w)]
    return names, exprs


def acausal_terms(mech: Mechanics) -> tuple[list[str], list]:
    """Names and expressions of the acausal components' own quantities that are no state
    and no output (docs/acausal.md): their VARIABLES (``diode.i`` of a user's diode, a
    hydraulic volume's pressure) and their connectors' potential and flow
    (``g.port_a.Q_flow``, ``d.p.v``, ``d.p.i``), by dotted names, so a Result has them as
    series like every other component's; the electrical library's two-pin parts keep
    their sensors."""
    from jourdain.blocks.acausal import AcausalComponent
    from jourdain.blocks.ports import Pin

    stage = mech.ctx.acausal_stage
    if stage is None:
        return [], []
    outputs, _ = mech.ctx.outputs()
    taken = set(mech.ctx.state_names) | {n for s in outputs for n in s.entry_names()}
    found: dict = {}
    table = stage.table
    for (comp, name), sym in table.local.items():
        found.setdefault(f"{comp.path}.{name}", sym)
    for port, sym in table.flow.items():
        if isinstance(port, Pin) and not isinstance(port.owner, AcausalComponent):
            continue
        potential = table.potential.get(table.flat.net_of[port])
        if potential is not None:   # (a potential no equation reads has no symbol)
            found.setdefault(f"{port.path}.{port.POTENTIAL[0]}", potential)
        found.setdefault(f"{port.path}.{port.FLOW[0]}", sym)
    names = [n for n in found if n not in taken]
    exprs = [mech.ctx.resolve(stage.value.get(found[n].element_hash(), found[n]))
             for n in names]
    return names, exprs


def driver_power(mech: Mechanics, sp: Speeds, drive: Drive | None) -> ca.SX:
    """Σ τ_D·w_D [W]: the power kinematic drivers deliver, their reaction (the generalized
    force on the driven speed) times that speed (the support does not move)."""
    if drive is None:
        return ca.SX(0)
    return sum((drive.reactions[d.path] * sp.z[driven_speed_index(mech, sp, d.speed)]
                for d in mech.driven if d.path in drive.reactions), ca.SX(0))


def quantity_terms(mech: Mechanics) -> tuple[list[str], list]:
    """Names and expressions (in y, w) of what initial conditions can be given for besides
    the outputs (System.initialize): every force element's relative position s_rel and rate
    w_rel (the distance and its rate for line forces), and every frame port's origin r_0[i]
    and velocity v_0[i] in world coordinates."""
    names, exprs = [], []
    for e in mech.elements:
        names += [f"{e.path}.s_rel", f"{e.path}.w_rel"]
        exprs += [e.s, e.w]
    for port, net in sorted(mech.flat.net_of.items(), key=lambda kv: kv[0].path):
        frame = mech.kin.frames.get(net)
        if frame is None or not isinstance(port, Frame):
            continue
        names += [f"{port.path}.r_0[{i}]" for i in range(3)]
        names += [f"{port.path}.v_0[{i}]" for i in range(3)]
        exprs += [frame.r, frame.v]
    return names, exprs


def quantity_function(mech: Mechanics, sp: Speeds, h: ca.Function,
                      drive: Drive | None = None) -> ca.Function:
    """quantities(t, x, u, p): the outputs (the System's h) followed by
    :func:`quantity_terms`; built on first use (System.quantities), since only initialization
    needs it and on a 60-link chain it costs a seventh of the compile time."""
    t, u, p = mech.t, mech.ctx.u, mech.params.p
    x = ca.vertcat(mech.kin.y, sp.z, mech.ctx.s)
    apply = drive.apply if drive is not None else (lambda expr: expr)
    _, exprs = quantity_terms(mech)
    values = to_speeds(ca.vertcat(*[ca.reshape(ca.SX(e), -1, 1) for e in exprs]), mech, sp) \
        if exprs else ca.SX(0, 1)
    return ca.Function("quantities", [t, x, u, p], [ca.vertcat(h(t, x, u, p), apply(values))],
                       ["t", "x", "u", "p"], ["quantities"])


def drive_functions(t, x, u, p, drive: Drive) -> dict:
    """drive(t, x, u, p): x with the exactly driven coordinates and speeds at their prescribed
    values; drive0: the same plus filtered positions at their reference (the start)."""
    initial = Drive(drive.symbols + [sym for sym, _ in drive.initial],
                    drive.values + [val for _, val in drive.initial])
    return {"drive": ca.Function("drive", [t, x, u, p], [drive.apply(x)],
                                 ["t", "x", "u", "p"], ["x_driven"]),
            "drive0": ca.Function("drive0", [t, x, u, p], [initial.apply(x)],
                                  ["t", "x", "u", "p"], ["x_driven"])}


def _state_energy(mech: Mechanics, t, u) -> ca.SX:
    """W: the energy stored in component states, which must depend on the states only."""
    W = mech.stored_energy()
    moving = ca.vertcat(t, u, mech.kin.y, mech.kin.w)
    if ca.depends_on(W, moving):
        stage = mech.ctx.acausal_stage
        acausal = stage.owners if stage is not None else set()
        owners = [c.path for c in mech.flat.components if id(c) not in acausal and
                  ca.depends_on(ca.SX(mech.inst[c].stored_energy(mech.ctx)), moving)]
        if stage is not None and ca.depends_on(
                mech.ctx.resolve(stage.energy["stored_energy"]), moving):
            raise ModelError(
                "the stored_energy() of the acausal components depends on time, inputs or "
                "the motion: index reduction made a variable that stores energy follow a "
                "source (a capacitor across a voltage source, an inductor in series with a "
                "current source), so its energy is no function of the states; put a "
                "resistor or conductor between them, or report no stored_energy() for it")
        raise ModelError(f"{', '.join(owners)}: stored_energy() must depend on the component's "
                         "states and parameters only")
    return W


def inverse_dynamics(mech: Mechanics, sp: Speeds, eom, drive=None) -> dict:
    """{"inverse_dynamics": ID(t, y, z, a, u, p) = M·a + k − q} when the back end supplies it
    (recursive, joint speeds, no component states, no kinematic drivers), else {}."""
    if eom.inverse is None or not sp.identity or mech.ctx.s.numel() or drive is not None:
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


def check_mass_matrix(M: ca.Function, mech: Mechanics, sp: Speeds, p: np.ndarray,
                      free: list[int] | None = None) -> None:
    """A singular mass matrix at a generic configuration means a speed without inertia
    (``free``: the speeds that keep an equation of motion, all but the driven ones); an
    indefinite but regular one (the MSL's Rotor1D on a light housing) is accepted."""
    free = list(range(sp.z.numel())) if free is None else free
    if not free:
        return
    from scipy.sparse import csc_matrix
    from scipy.sparse.csgraph import connected_components

    y = np.random.default_rng(1).uniform(-1.0, 1.0, mech.kin.y.numel())
    mass = csc_matrix(M(y, p).sparse())[free][:, free]
    mass = 0.5 * (mass + mass.T)
    # the eigenvalues of a block-diagonal M are its blocks' (one per group of coupled
    # speeds, e.g. per free ball): a dense eigh of all of M was O(n³) (41 s for 300 balls)
    count, label = connected_components(mass, directed=False)
    members = [[] for _ in range(count)]
    for i, k in enumerate(label):
        members[k].append(i)
    position = np.zeros(label.size, dtype=int)
    for block in members:
        position[block] = np.arange(len(block))
    blocks = [np.zeros((len(b), len(b))) for b in members]
    coo = mass.tocoo()   # one pass over the entries (indexing per block is n² for n blocks)
    for i, j, v in zip(coo.row, coo.col, coo.data):
        blocks[label[i]][position[i], position[j]] += v
    # regular, not necessarily definite: physical bodies give a positive semi-definite M, and
    # only the MSL's reduced rotor (Rotor1D's housing share −J·n·nᵀ, BevelGear1D on a light
    # housing) makes it indefinite, which the MSL simulates; a zero eigenvalue is a speed
    # without inertia
    lowest, scale = (np.inf, None), 1.0
    for block, dense in zip(members, blocks):
        block = np.array(block)
        eig, vec = np.linalg.eigh(dense)
        scale = max(scale, float(np.abs(eig).max()))
        k = int(np.argmin(np.abs(eig)))
        if abs(eig[k]) < lowest[0]:
            lowest = (abs(eig[k]), block[np.flatnonzero(np.abs(vec[:, k]) > 1e-6)])
    if lowest[0] > 1e-12 * scale:
        return
    idle = [sp.names[free[i]] for i in lowest[1]]
    raise ModelError("the mass matrix is singular: speed(s) " + ", ".join(idle) +
                     " move no mass or inertia (a joint that carries no body, or a body with "
                     "zero inertia about the joint axis); attach a body or remove the joint")
