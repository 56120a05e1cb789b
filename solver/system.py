"""Stage 8, the compiled System: named CasADi functions, the names and order of y, z, u, p and
outputs, default parameter values, and the structure report (DESIGN.md §3.8).

Ordering: x = (y, z, s); y in declaration order of the tree joints' coordinates, z the speeds in
the user's order followed by completing default speeds; s (usually empty) the signal-block
states, u and outputs in declaration order of their components; p as documented in
:mod:`jourdain.solver.parameters`.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from enum import Enum

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError

from .dynamics import jourdain, to_speeds
from .lagrange import lagrange_zdot
from .mechanics import Mechanics, build_mechanics
from .signals import SignalInfo
from .speeds import describe as describe_speeds
from .speeds import Speeds, choose_speeds


class Backend(Enum):
    """How the Jourdain equations are evaluated: by projection (closed-form M, k, q; expression
    size O(n³)), by the recursive O(n) algorithms (trees only), or chosen by size."""

    PROJECTION = "projection"  # dynamics.jourdain
    RECURSIVE = "recursive"    # recursive: ABA for ż, CRBA for M, RNEA for k and q
    AUTO = "auto"              # recursive above AUTO_RECURSIVE_SPEEDS speeds


AUTO_RECURSIVE_SPEEDS = 12


class Formulation(Enum):
    """How the equations of motion are derived."""

    JOURDAIN = "jourdain"   # projection: Jourdain's principle / Kane's equations (seed 001)
    LAGRANGE = "lagrange"   # Lagrange's equations of the 2nd kind + dissipation (seeds 003, 004)


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


class System:
    """A compiled multibody system: x = (y, z, s), ẋ = f(t, x, u, p); s (usually empty) holds
    the internal states of signal blocks with memory, e.g. a PID's integral.

    Functions (casadi.Function, inputs and outputs named):
      f(t, x, u, p) -> xdot          state derivative
      M(y, p) -> M                   mass matrix of the speeds z
      k(y, z, p) -> k                gyroscopic, centrifugal and Coriolis terms
      q(t, y, z, u, p) -> q          generalized applied forces (q(t, y, z, u, p, s) when
                                     signal blocks have states s)
      ydot(y, z, p) -> ydot          kinematics ODE ẏ = v(y, z)
      h(t, x, u, p) -> out           sensor and signal outputs
      energy(x, p) -> (T, V)         kinetic and potential energy [J]
      dissipation(t, x, u, p) -> P   power removed by dissipative elements [W]
    """

    backend: Backend = Backend.PROJECTION  # the back end compile() used
    library = None  # path of the compiled C library after codegen(), else None

    def __init__(self, formulation: Formulation, names: dict, functions: dict,
                 p_default: np.ndarray, structure: Structure):
        self.formulation = formulation
        self.y_names: list[str] = names["y"]
        self.y_default = np.array(names["y_default"], dtype=float)
        self.z_names: list[str] = names["z"]
        # internal states of signal blocks with memory (e.g. PID), x = (y, z, s)
        self.s_names: list[str] = names.get("s", [])
        self.u_names: list[str] = names["u"]
        self.p_names: list[str] = names["p"]
        self.output_names: list[str] = names["out"]
        # (index of q0 in y, joint path) of every unit quaternion among the coordinates
        self.quaternions: list[tuple[int, str]] = names.get("quaternions", [])
        self.inputs: list[SignalInfo] = names["inputs"]
        self.outputs: list[SignalInfo] = names["outputs"]
        self.p_default = p_default
        self.structure = structure
        self.functions = functions
        for key, fn in functions.items():
            setattr(self, key, fn)

    @property
    def x_names(self) -> list[str]:
        return self.y_names + self.z_names + self.s_names

    @property
    def nx(self) -> int:
        return len(self.x_names)

    def __repr__(self) -> str:
        return (f"<System {self.formulation.value}: {len(self.y_names)} coordinates, "
                f"{len(self.z_names)} speeds, {len(self.u_names)} inputs, "
                f"{len(self.p_names)} parameters>")

    # ---- named values -> vectors -------------------------------------------------------
    def state(self, y0: dict | None = None, z0: dict | None = None) -> np.ndarray:
        """Initial state x0 = (y0, z0[, s0]) from dictionaries by name; missing coordinates take
        their defaults (0, or the identity quaternion), missing speeds are 0. Signal-block
        states (``s_names``, e.g. a PID's integral) may be given in z0 and default to 0."""
        y = _by_name(y0 or {}, self.y_names, "y0", "coordinate", self.y_default)
        z = _by_name(z0 or {}, self.z_names + self.s_names, "z0", "speed")
        return np.concatenate([y, z])

    def parameters(self, params: dict | None = None) -> np.ndarray:
        """Parameter vector p: the defaults overridden by ``params`` (symbolic ones only)."""
        p = self.p_default.copy()
        for name, value in (params or {}).items():
            if name in self.p_names:
                p[self.p_names.index(name)] = float(value)
            elif name in self.structure.constants:
                raise ModelError(f"params: '{name}' was compiled as a constant; declare it "
                                 f"symbolic with jd.compile(..., parameters=['{name}'])")
            else:
                raise ModelError(_unknown("params", name, self.p_names))
        return p

    # ---- consumers ---------------------------------------------------------------------
    def codegen(self, compiler: str = "gcc", flags=None, cache_dir=None) -> "System":
        """Replace f by compiled C code (with its Jacobian), cached on disk; keeps the virtual
        machine with a warning when no compiler works. See :mod:`jourdain.solver.export`."""
        from .export import attach
        return attach(self, compiler, flags, cache_dir)

    def numeric(self, name: str = "f"):
        """A fast numeric caller of one of the functions (e.g. ``system.numeric("f")(t, x, u,
        p)`` → ẋ as a numpy array, a few µs instead of tens); see
        :class:`jourdain.solver.evaluate.NumericFunction`. Built anew after ``codegen``."""
        from .evaluate import NumericFunction
        if name not in self.functions:
            raise ModelError(_unknown("numeric", name, sorted(self.functions)))
        return NumericFunction(getattr(self, name))

    def simulate(self, t_end: float, **options):
        """Integrate with CVODES; see :func:`jourdain.solver.simulate.simulate`."""
        from .simulate import simulate
        return simulate(self, t_end, **options)

    def linearize(self, **options):
        """A, B, C, D about an operating point; see :func:`jourdain.solver.linearize.linearize`."""
        from .linearize import linearize
        return linearize(self, **options)

    def report(self) -> str:
        """Readable structure report: bodies, joints, coordinates, speeds, inputs, parameters,
        outputs, operation counts."""
        from .report import structure_report
        return structure_report(self)

    def equations(self, symbols: dict | None = None, simplify: bool = True):
        """M, k, q as sympy matrices (names mapped through ``symbols``, e.g. to seed symbols)."""
        from .report import sympy_equations
        return sympy_equations(self, symbols or {}, simplify)

    def equations_text(self, symbols: dict | None = None, simplify: bool = True) -> str:
        """The equations M·ż + k = q, one line per speed, in readable text."""
        from .report import equations_text
        return equations_text(self, symbols or {}, simplify)


def _unknown(what: str, name: str, known: list[str]) -> str:
    close = difflib.get_close_matches(name, known, n=3)
    hint = f"did you mean {', '.join(close)}?" if close else f"known names: {', '.join(known)}"
    return f"{what}: unknown name '{name}'; {hint}"


def _by_name(values: dict, names: list[str], what: str, kind: str,
             default: np.ndarray | None = None) -> np.ndarray:
    vec = np.zeros(len(names)) if default is None else default.copy()
    for name, value in values.items():
        if name not in names:
            raise ModelError(_unknown(what, name, names) + f" (a {kind} name is expected)")
        vec[names.index(name)] = float(value)
    return vec


def compile(model, speeds: dict | None = None, parameters=(),
            formulation: Formulation = Formulation.JOURDAIN, constraints=None,
            baumgarte: tuple = (10.0, 10.0), backend: Backend = Backend.AUTO,
            codegen: bool = False) -> System:
    """Compile a model into a System.

    model : a jd.Model (or any Composite) holding one World.
    speeds : optional {name: expression} generalized speeds z = W(y)·ẏ, e.g.
        {"u1": "cube.edge.phi.der", "u2": "cube.edge.phi.der + cube.bearing.phi.der"}.
    parameters : names of parameters (or components) to keep symbolic, in p.
    formulation : Formulation.JOURDAIN (default) or Formulation.LAGRANGE.
    constraints : for closed loops and contacts, a jd.ConstraintMethod (default PARTITIONING;
        BAUMGARTE or DAE); see :mod:`jourdain.solver.constrained`.
    baumgarte : (α, β) [1/s], the stabilization rates of the BAUMGARTE and DAE methods.
    backend : Backend.AUTO (default: recursive for tree systems with more than
        AUTO_RECURSIVE_SPEEDS speeds, user-chosen or not, else projection), PROJECTION or
        RECURSIVE.
    codegen : generate, compile (cached on disk) and load C code for f and its Jacobian
        (see :mod:`jourdain.solver.export`).
    """
    if not isinstance(formulation, Formulation):
        raise ModelError(f"formulation must be a jd.Formulation, got {formulation!r}")
    mech = build_mechanics(model, parameters)
    if mech.constrained and backend is Backend.RECURSIVE:
        raise ModelError("Backend.RECURSIVE needs a tree-structured system; this model has "
                         "closed loops or contacts: use backend=Backend.PROJECTION")
    if mech.constrained:
        from .constrained import ConstraintMethod
        from .constrained_system import compile_constrained
        system = compile_constrained(mech, speeds, formulation,
                                     constraints or ConstraintMethod.PARTITIONING, baumgarte)
        return system.codegen() if codegen else system
    sp = choose_speeds(mech.kin, speeds)
    eom, used = _equations(mech, sp, formulation, backend)
    zdot = eom.zdot if formulation is Formulation.JOURDAIN else lagrange_zdot(mech, sp)
    functions = _functions(mech, sp, eom, zdot)
    p_default = mech.params.defaults
    _check_mass_matrix(functions["M"], mech, sp, p_default)
    names = _names(mech, sp)
    structure = structure_of(mech, sp)
    if not sp.identity:  # seed 000: show what the speed choice does to the equations' size
        structure.default_speed_ops = _default_speed_ops(mech, used)
    system = System(formulation, names, functions, p_default, structure)
    system.backend = used
    if codegen:
        system.codegen()
    return system


def _default_speed_ops(mech: Mechanics, backend: Backend) -> dict:
    """Operation counts of M, k and f had the joint speeds been the generalized speeds."""
    sp = choose_speeds(mech.kin, None)
    eom, _ = _equations(mech, sp, Formulation.JOURDAIN, backend)
    y, z, p, t, u = mech.kin.y, sp.z, mech.params.p, mech.t, mech.ctx.u
    terms = {"M": ([y, p], eom.M), "k": ([y, z, p], eom.k),
             "f": ([t, y, z, u, p, mech.ctx.s], ca.vertcat(sp.ydot, eom.zdot))}
    return {name: ca.Function(name, args, [expr]).n_instructions()
            for name, (args, expr) in terms.items()}


def _equations(mech: Mechanics, sp: Speeds, formulation: Formulation, backend: Backend):
    """M, k, q, ż by the chosen back end (Backend docstring)."""
    from .recursive import recursive
    if not isinstance(backend, Backend):
        raise ModelError(f"backend must be a jd.Backend, got {backend!r}")
    if backend is Backend.RECURSIVE and formulation is not Formulation.JOURDAIN:
        raise ModelError("Backend.RECURSIVE evaluates the Jourdain/Kane equations; use "
                         "formulation=Formulation.JOURDAIN or backend=Backend.PROJECTION")
    if backend is Backend.RECURSIVE and mech.topo.cut_joints:
        raise ModelError("Backend.RECURSIVE needs a tree-structured system; this model has closed "
                         "loops: use backend=Backend.PROJECTION")
    # user-chosen speeds included: the recursive back end maps them (M_z = VᵀMV) in O(n·nnz W)
    # where the projection is O(n³) (chain n = 40 with two user speeds: 3.9k vs 119k SX ops)
    auto = backend is Backend.AUTO and formulation is Formulation.JOURDAIN \
        and not mech.topo.cut_joints and sp.z.numel() > AUTO_RECURSIVE_SPEEDS
    if backend is Backend.RECURSIVE or auto:
        return recursive(mech, sp), Backend.RECURSIVE
    return jourdain(mech, sp), Backend.PROJECTION


def structure_of(mech: Mechanics, sp: Speeds) -> Structure:
    """The parts, units and speed definitions the structure report lists."""
    return Structure(
        [b.path for b in mech.flat.bodies], [j.path for j in mech.flat.joints],
        [e.path for e in mech.flat.forces], [s.path for s in mech.flat.signals],
        [c.unit for c in mech.kin.coordinates], sp.units, describe_speeds(sp),
        mech.params.constants, mech.params.units)


def _names(mech: Mechanics, sp: Speeds) -> dict:
    outputs, _ = mech.ctx.outputs()
    return {"y": [c.name for c in mech.kin.coordinates], "z": list(sp.names),
            "y_default": [c.default for c in mech.kin.coordinates],
            "u": [n for s in mech.ctx.inputs for n in s.entry_names()],
            "p": list(mech.params.names), "out": [n for s in outputs for n in s.entry_names()],
            "inputs": list(mech.ctx.inputs), "outputs": outputs, "s": mech.ctx.state_names,
            "quaternions": _quaternions(mech)}


def _quaternions(mech: Mechanics) -> list[tuple[int, str]]:
    """(index of q0 in y, joint path) for every joint whose coordinates hold a unit quaternion."""
    found, start = [], 0
    for joint in dict.fromkeys(c.joint for c in mech.kin.coordinates):
        if joint.UNIT_QUATERNION is not None:
            found.append((start + joint.UNIT_QUATERNION, joint.path))
        start += len(joint.COORDINATES)
    return found


def _functions(mech: Mechanics, sp: Speeds, eom, zdot) -> dict:
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
    }


def _q_function(t, y, z, u, p, s, q) -> ca.Function:
    """q(t, y, z, u, p); models with signal-block states (a PID driving a motor) take s too."""
    if s.numel() == 0:
        return ca.Function("q", [t, y, z, u, p], [q], ["t", "y", "z", "u", "p"], ["q"])
    return ca.Function("q", [t, y, z, u, p, s], [q], ["t", "y", "z", "u", "p", "s"], ["q"])


def _check_mass_matrix(M: ca.Function, mech: Mechanics, sp: Speeds, p: np.ndarray) -> None:
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
