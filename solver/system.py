"""Stage 8, the compiled System (DESIGN.md §3.8): named CasADi functions, the names and order of
y, z, s, u, p and outputs, default parameter values and the structure report, with the
consumers as methods.

This module sits above every wing: each method is a one-line delegation to the free function
that implements it (simulation, linearization, code generation, reports, the constraint
stage's initial states), so no wing imports the System class and no import runs in a circle
(docs/architecture.md). ``compile`` (:mod:`.compile`) builds the System.
"""
from __future__ import annotations

import numpy as np

from jourdain.blocks.errors import ModelError

from .constraints.initial import (
    assemble_coordinates,
    check_consistent,
    constrained_state,
    independent_coordinates,
)
from .constraints.initialize import initialize
from .constraints.report import constraint_report, redundant_constraints
from .control.linearize import linearize
from .equations.backends import Backend, Formulation
from .equations.functions import Structure
from .equations.report import equations_text, structure_report, sympy_equations
from .exchange.fmu import export_fmu
from .model.names import by_name, check_quaternions, unknown
from .model.parameters import parameter_vector
from .model.signatures import delegates_to
from .simulation.codegen import attach
from .simulation.controlled import run
from .simulation.dae import simulate_constrained
from .simulation.simulate import simulate as simulate_plain
from .simulation.numeric import NumericFunction
from .simulation.portable import restore_system, system_state
from .stepping.run import simulate_mode, simulate_stepping
from .visual.graph import draw_graph
from .visual.reprs import system_html


class System:
    """A compiled multibody system: x = (y, z, s), ẋ = f(t, x, u, p); s (usually empty) holds
    the states of components with memory: a PID's integral, a filter's, a capacitor's voltage,
    an inductor's current.

    Functions (casadi.Function, inputs and outputs named):
      f(t, x, u, p) -> xdot          state derivative
      M(y, p) -> M                   mass matrix of the speeds z
      k(y, z, p) -> k                gyroscopic, centrifugal and Coriolis terms
      q(t, y, z, u, p) -> q          generalized applied forces (q(t, y, z, u, p, s) when
                                     signal blocks have states s)
      ydot(y, z, p) -> ydot          kinematics ODE ẏ = v(y, z)
      h(t, x, u, p) -> out           sensor and signal outputs
      energy(x, p) -> (T, V, W)      kinetic, potential and stored energy (capacitors,
                                     inductors: ½·C·v², ½·L·i²) [J]
      dissipation(t, x, u, p) -> P   power removed by dissipative elements (R·i² included) [W]
      supplied(t, x, u, p) -> P      power delivered by sources [W]
      init(t, x, u, p) -> residual   initial equations of the states ``s_init`` (steady-state
                                     filters), solved before a simulation starts
      W(y) -> W                      user-chosen speeds only: their definition z = W(y)·w
      drive(t, x, u, p), drive0      kinematic drivers only: x with the driven coordinates and
                                     speeds at their prescribed values (drive0: at the start)
      quantities(t, x, u, p)         outputs and the other quantities ``initialize`` takes
                                     conditions on (built on first use)

    Outputs, state derivatives and initial equations may read the accelerations
    (acceleration sensors, drivers' reactions, cut sensors; ``dynamic_outputs``): they are
    evaluated with ż from the equations of motion.
    """

    backend: Backend = Backend.PROJECTION  # the back end compile() used
    library = None  # path of the compiled C library after codegen(), else None
    hybrid = None   # HybridInfo of the hybrid elements (jourdain.solver.hybrid), else None
    time_sources = ()   # components declaring time events (simulation.discontinuities)

    def __init__(self, formulation: Formulation, names: dict, functions: dict,
                 p_default: np.ndarray, structure: Structure):
        self.formulation = formulation
        self.y_names: list[str] = names["y"]
        self.y_default = np.array(names["y_default"], dtype=float)
        self.z_names: list[str] = names["z"]
        # states of components with memory (PID, filters, capacitors, inductors), x = (y, z, s)
        self.s_names: list[str] = names.get("s", [])
        self.s_default = np.array(names.get("s_default", [0.0] * len(self.s_names)), dtype=float)
        self.s_init: list[int] = names.get("s_init", [])   # s fixed by initial equations
        self.u_names: list[str] = names["u"]
        self.p_names: list[str] = names["p"]
        self.output_names: list[str] = names["out"]
        # position and rate of every 1-D body whose net's coordinate is not its own (a load
        # behind a gear or a cut sensor): series of a Result (the ``flanges`` function)
        self.flange_names: list[str] = names.get("flanges", [])
        # (index of q0 in y, joint path) of every unit quaternion among the coordinates
        self.quaternions: list[tuple[int, str]] = names.get("quaternions", [])
        # what initial conditions can be given for (System.initialize), in the order of the
        # quantities function: outputs, force elements' s_rel/w_rel, frames' r_0/v_0
        self.quantity_names: list[str] = names.get("quantities", [])
        # driven coordinates (y indices) and speeds (z indices) of kinematic drivers
        self.driven_coordinates, self.driven_speeds = names.get("driven", ([], []))
        # every driver's speed (Accelerate's too) by name -> the driver's path: rigid motion
        # that impacts cannot change (solver/hybrid/state.py)
        self.driven_by: dict = names.get("driven_by", {})
        # z indices of every driven speed (Accelerate's too): they have no equation of motion,
        # so their rows of M are no mass to check (a driven joint may carry none)
        self.prescribed_speeds: list[int] = names.get("prescribed", [])
        # outputs that read the dynamics (accelerations, drivers' reactions, cut sensors)
        self.dynamic_outputs: list[str] = names.get("dynamic", [])
        self.inputs = names["inputs"]
        self.outputs = names["outputs"]
        self.p_default = p_default
        # runs the components' validate() at run-time values of the symbolic parameters
        self.check_parameters = names.get("check_parameters")
        self.structure = structure
        self.functions = functions
        for key, fn in functions.items():
            setattr(self, key, fn)
        # what only some consumers need, built on first use: name -> (builder, is a function)
        self._lazy: dict = {}

    def __getattr__(self, name: str):
        """Attributes built on first use (``quantities``, ``mover``): see ``_lazy``."""
        lazy = self.__dict__.get("_lazy", {})
        if name not in lazy:
            raise AttributeError(f"{type(self).__name__!s} has no attribute {name!r}")
        build, is_function = lazy.pop(name)
        value = build()
        setattr(self, name, value)
        if is_function:
            self.functions[name] = value
        return value

    @property
    def parameter_names(self) -> list[str]:
        """Every parameter by name: the symbolic ones (``p_names``, values by ``params=`` at
        run time), then the constants compiled into the equations (``report()`` lists their
        values and units; ``jd.compile(..., parameters=[name])`` makes one symbolic)."""
        return list(self.p_names) + list(self.structure.constants)

    @property
    def x_names(self) -> list[str]:
        """Names of the states x = (y, z, s), in order."""
        return self.y_names + self.z_names + self.s_names

    def __getstate__(self) -> dict:
        """Pickled for other processes and machines, a compiled C library as bytes; see
        :mod:`jourdain.solver.simulation.portable`."""
        return system_state(self)

    def __setstate__(self, state: dict) -> None:
        restore_system(self, state)

    @property
    def nx(self) -> int:
        """Number of states, len(x)."""
        return len(self.x_names)

    def __repr__(self) -> str:
        return (f"<System {self.formulation.value}: {len(self.y_names)} coordinates, "
                f"{len(self.z_names)} speeds, {len(self.u_names)} inputs, "
                f"{len(self.p_names)} parameters>")

    # ---- named values -> vectors -------------------------------------------------------
    def state(self, y0: dict | None = None, z0: dict | None = None, *, fix: dict | None = None,
              guess: dict | None = None, params: dict | None = None) -> np.ndarray:
        """Initial state x0 = (y0, z0[, s0]) from dictionaries by name; missing coordinates take
        their defaults (0, or the identity quaternion), missing speeds are 0. Component states
        (``s_names``: a PID's integral, a capacitor's voltage) may be given in z0 and default
        to the components' start values (``s_default``). With ``fix`` (conditions on any
        quantity) or ``guess`` (start values that are not held) the state is solved by
        :meth:`initialize`."""
        if fix or guess:
            return self.initialize(y0, z0, fix=fix, guess=guess, params=params).x0
        y = by_name(y0, self.y_names, "y0", "coordinate", self.y_default)
        check_quaternions(self, y, "y0")
        z = by_name(z0, self.z_names + self.s_names, "z0", "speed",
                    np.concatenate([np.zeros(len(self.z_names)), self.s_default]))
        return np.concatenate([y, z])

    def initialize(self, y0: dict | None = None, z0: dict | None = None, *,
                   fix: dict | None = None, guess: dict | None = None,
                   params: dict | None = None, t0: float = 0.0, u0=None, steady=None,
                   solve=None):
        """Initial state from conditions on any quantity (Modelica's start/fixed):

        y0, z0 : coordinates and speeds held at these values (fixed = true);
        fix : {quantity: value} for any name in ``quantity_names`` (outputs, a force element's
            ``s_rel``/``w_rel``, a frame's ``r_0[i]``/``v_0[i]``), solved with the closure
            equations; e.g. ``fix={"tip.frame_b.r_0[0]": 0.7, "tip.frame_b.v_0[0]": 0.0}``;
            and initial equations on derivatives, ``{"der(<state>)": value}`` for any name in
            ``x_names`` (``der(joint.w)`` is the joint's acceleration);
        guess : {coordinate or position-level quantity: value}, start values that only choose
            the solution (the assembly branch), not held (fixed = false; the MSL's phi_guess);
        steady : True (der(x) = 0 for every state: Modelica's steady-state start) or a list of
            state names (der(name) = 0 for those);
        solve : parameter names (symbolic ones, ``p_names``) solved at initialization
            (Modelica's parameter fixed = false), returned in ``params`` of the result;
        t0, u0 : time and inputs at the start (drivers, outputs that read inputs).
        Returns an :class:`~jourdain.solver.constraints.initialize.Initialization` with ``x0``
        and a report of what was held, fixed, solved and left at its start value. See
        :mod:`jourdain.solver.constraints.initialize`."""
        return initialize(self, y0, z0, fix, guess, params, t0, u0, steady, solve)

    def parameters(self, params: dict | None = None) -> np.ndarray:
        """Parameter vector p: the defaults overridden by ``params`` (symbolic ones only),
        checked like the components' own parameters; see
        :func:`jourdain.solver.model.parameters.parameter_vector`."""
        return parameter_vector(self, params)

    # ---- consumers: one-line delegations to the wings ----------------------------------
    def codegen(self, compiler: str = "gcc", flags=None, cache_dir=None,
                timeout=None) -> "System":
        """Replace f by compiled C code (with its Jacobian), cached on disk and verified
        against the virtual machine; keeps the virtual machine with a warning when no compiler
        works or the build exceeds ``timeout`` [s]. See
        :mod:`jourdain.solver.simulation.codegen`."""
        return attach(self, compiler, flags, cache_dir, timeout)

    def numeric(self, name: str = "f"):
        """A fast numeric caller of one of the functions (e.g. ``system.numeric("f")(t, x, u,
        p)`` → ẋ as a numpy array, a few µs instead of tens); see
        :class:`jourdain.solver.simulation.numeric.NumericFunction`. Built anew after
        ``codegen``."""
        if name not in self.functions:
            raise ModelError(unknown("numeric", name, sorted(self.functions)))
        return NumericFunction(getattr(self, name))

    @delegates_to(simulate_plain, run, simulate_mode, simulate_stepping)
    def simulate(self, t_end: float, **options):
        """Integrate with CVODES; see :func:`jourdain.solver.simulation.simulate.simulate`;
        ``controller=`` (and ``period=``) put a controller in the loop, see
        :func:`jourdain.solver.simulation.controlled.run`; ``contact="stepping"`` (with
        ``dt=``) runs the fast time-stepping contact mode, see
        :func:`jourdain.solver.stepping.run.simulate_mode`."""
        return simulate_mode(self, t_end, **options)

    @delegates_to(export_fmu)
    def export_fmu(self, path, **options):
        """Write an FMI 2.0 FMU (model exchange and/or co-simulation) and return its path;
        see :func:`jourdain.solver.exchange.fmu.export_fmu`."""
        return export_fmu(self, path, **options)

    @delegates_to(linearize)
    def linearize(self, **options):
        """A, B, C, D about an operating point; see
        :func:`jourdain.solver.control.linearize.linearize`."""
        return linearize(self, **options)

    def report(self) -> str:
        """Readable structure report: bodies, joints, coordinates, speeds, inputs, parameters,
        outputs, operation counts."""
        return structure_report(self)

    def equations(self, symbols: dict | None = None, simplify: bool = True):
        """M, k, q as sympy matrices (names mapped through ``symbols``, e.g. to a textbook's symbols)."""
        return sympy_equations(self, symbols or {}, simplify)

    def equations_text(self, symbols: dict | None = None, simplify: bool = True) -> str:
        """The equations M·ż + k = q, one line per speed, in readable text."""
        return equations_text(self, symbols or {}, simplify)

    def draw(self, path=None, title: str | None = None):
        """The component graph (bodies, tree and cut joints, offsets, force elements,
        contacts, signal blocks and their connections) as a matplotlib figure, saved to
        ``path`` (.png, .pdf, .svg) if given; the graph itself is ``system.graph``."""
        return draw_graph(self.graph, path, title)

    def _repr_html_(self) -> str:
        return system_html(self)


class ConstrainedSystem(System):
    """A System with constraints; x = (y, z) (partitioning) or x = (y, w) (Baumgarte, DAE).

    Beyond a System's functions: A(y, p) (independent rows, in the joint speeds w), G(y, p)
    (A·G = 0, w = G·z), c(y, p) (all closure equations), residuals(x, p); by method
    ``project(x, p)`` (partitioning: the dependent coordinates by Newton), ``dae`` and
    ``multipliers`` (Baumgarte and DAE: constraint forces λ), ``m_gen(q, p)`` for one-DOF
    mechanisms (Lagrange's equations, generalized mass). Also the assembled reference configuration ``y_ref``, the
    ``partition`` into dependent and independent coordinates and speeds, and the
    classification ``integrability``.
    """

    def __init__(self, base: tuple, method, info: dict):
        super().__init__(*base)
        self.method = method
        self.y_ref: np.ndarray = info["y_ref"]
        self.partition = info["partition"]
        self._classify = info["integrability"]
        self._integrability = None
        self.constraint_owners: list[str] = info["owners"]
        self.speed_names: list[str] = info["speed_names"]      # all joint speeds w
        self.dependent_coordinates = [self.y_names[i] for i in self.partition.dependent_coordinates]
        self.dependent_speeds = [self.speed_names[j] for j in self.partition.dependent_speeds]
        self.independent_speeds = [self.speed_names[j]
                                   for j in self.partition.independent_speeds]
        self.mover = info["mover"]   # moves along joint-speed directions (constraints.moves)
        # partitioning: every partition's functions, built on demand (constraints.repartition)
        self.partitions = info.get("partitions")

    @property
    def integrability(self):
        """Seed 002's classification (computed on first use: the Lie brackets take time)."""
        if self._integrability is None:
            self._integrability = self._classify()
        return self._integrability

    @property
    def redundant_constraints(self) -> list[str]:
        """Closure equations implied by the others (dropped; see ``report()``)."""
        return redundant_constraints(self)

    @property
    def f_dof(self) -> int:
        """Position DOF f (nonholonomic constraints; Murray, Li and Sastry 1994)."""
        return self.integrability.f

    @property
    def g_dof(self) -> int:
        """Velocity DOF g (nonholonomic constraints; Murray, Li and Sastry 1994)."""
        return self.integrability.g

    # ---- one-line delegations to the constraint stage and the simulation wing ----------
    def assemble(self, y0: dict | None = None, params: dict | None = None) -> np.ndarray:
        """Coordinates satisfying the closure equations with those in ``y0`` held; see
        :func:`jourdain.solver.constraints.initial.assemble_coordinates`."""
        return assemble_coordinates(self, y0, params)

    def state(self, y0: dict | None = None, z0: dict | None = None,
              params: dict | None = None, *, fix: dict | None = None,
              guess: dict | None = None) -> np.ndarray:
        """x0 from independent coordinates and speeds by name; the rest is assembled (see
        :func:`jourdain.solver.constraints.initial.constrained_state`); with ``fix`` or
        ``guess`` solved by :meth:`initialize`."""
        if fix or guess:
            return self.initialize(y0, z0, fix=fix, guess=guess, params=params).x0
        return constrained_state(self, y0, z0, params)

    def independent_coordinates(self) -> list[str]:
        """The coordinates that are not solved from the closure equations."""
        return independent_coordinates(self)

    def check_consistent(self, x: np.ndarray, p: np.ndarray, tol: float = 1e-6) -> None:
        """A ModelError if the state x violates the constraints by more than ``tol``."""
        check_consistent(self, x, p, tol)

    @delegates_to(simulate_constrained, run, simulate_mode)
    def simulate(self, t_end: float, **options):
        """Integrate: CVODES for partitioning and Baumgarte, IDAS for the DAE method; see
        :func:`jourdain.solver.simulation.dae.simulate_constrained` (a controller in the loop:
        :func:`jourdain.solver.simulation.controlled.run`)."""
        return simulate_mode(self, t_end, **options)

    def report(self) -> str:
        return structure_report(self) + "\n" + constraint_report(self)

    def constraint_report(self) -> str:
        """Plain words on what the constraint stage found and why (DESIGN.md §3.4)."""
        return constraint_report(self)
