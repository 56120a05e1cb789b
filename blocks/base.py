"""Component base classes: parameters with units, ports, and composites that nest.

A primitive component is a dataclass whose parameters are declared with :func:`param` (unit and
shape in the metadata) and whose ports are created in ``__post_init__``. The solver reads the
parameters generically, so any parameter can be kept numeric (the default) or made symbolic at
compile time without the component knowing.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar, Iterator

import numpy as np

from .errors import ModelError
from .ports import Port


class Shape(Enum):
    """Shape of a parameter value, which fixes how it is flattened into the parameter vector p."""

    SCALAR = "scalar"          # one entry, name "comp.x"
    VECTOR3 = "vector3"        # three entries, names "comp.r[0]", "comp.r[1]", "comp.r[2]"
    SYMMETRIC3 = "symmetric3"  # six entries, names "comp.I.xx", ".yy", ".zz", ".xy", ".xz", ".yz"


def param(default: Any, unit: str, doc: str = "", shape: Shape = Shape.SCALAR):
    """Declare a physical parameter of a component dataclass (unit and shape go to the metadata)."""
    meta = {"unit": unit, "doc": doc, "shape": shape}
    if isinstance(default, (list, tuple, np.ndarray)):
        return field(default_factory=lambda d=tuple(np.ravel(default)): d, metadata=meta)
    return field(default=default, metadata=meta)


def parameter_fields(component) -> list[dataclasses.Field]:
    """The parameter fields of a component, in declaration order."""
    if not dataclasses.is_dataclass(component):
        return []
    return [f for f in dataclasses.fields(component) if "unit" in f.metadata]


def _not_numbers(value) -> bool:
    """True for booleans and strings, alone or inside a sequence: float(True) is 1.0 and
    float('5') is 5.0, which would pass a flag or a text as a number."""
    if isinstance(value, (bool, np.bool_, str, bytes)):
        return True
    if isinstance(value, np.ndarray):
        return value.dtype.kind in "bSUO" and (value.dtype.kind != "O" or any(
            _not_numbers(v) for v in value.ravel()))
    if isinstance(value, (list, tuple)):
        return any(_not_numbers(v) for v in value)
    return False


def as_vector3(value, owner: str, name: str) -> np.ndarray:
    """A float 3-vector, or a ModelError naming the parameter."""
    if _not_numbers(value):
        raise ModelError(f"{owner}: {name} must be a 3-vector of numbers, got {value!r}")
    try:
        vec = np.asarray(value, dtype=float).reshape(3)
    except (TypeError, ValueError) as exc:
        raise ModelError(f"{owner}: {name} must be a 3-vector of numbers, got {value!r}") from exc
    if not np.all(np.isfinite(vec)):
        raise ModelError(f"{owner}: {name} must be finite, got {value!r}")
    return vec


def as_scalar(value, owner: str, name: str) -> float:
    """A finite float, or a ModelError naming the parameter (booleans and strings refused)."""
    if _not_numbers(value):
        raise ModelError(f"{owner}: {name} must be a number, got {value!r}")
    try:
        num = float(value)
    except (TypeError, ValueError) as exc:
        raise ModelError(f"{owner}: {name} must be a number, got {value!r}") from exc
    if not np.isfinite(num):
        raise ModelError(f"{owner}: {name} must be finite, got {value!r}")
    return num


def as_scalars(obj, owner: str, *names: str) -> None:
    """Replace each named attribute of ``obj`` by :func:`as_scalar` of it (a component's
    numeric parameters, checked in ``__post_init__``)."""
    for name in names:
        setattr(obj, name, as_scalar(getattr(obj, name), owner, name))


def as_size(value, owner: str, name: str) -> int:
    """A signal size: an integer ≥ 1, or a ModelError naming the parameter."""
    ok = not isinstance(value, (bool, str, bytes)) and value is not None
    try:
        ok = ok and float(value) == int(value) and int(value) >= 1
    except (TypeError, ValueError, OverflowError):
        ok = False
    if not ok:
        raise ModelError(f"{owner}: {name} must be a positive integer, got {value!r}")
    return int(value)


def as_array(value, owner: str, name: str) -> np.ndarray:
    """A finite float array, or a ModelError naming the parameter."""
    if _not_numbers(value):
        raise ModelError(f"{owner}: {name} must be numbers, got {value!r:.60}")
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ModelError(f"{owner}: {name} must be numbers, got {value!r:.60}") from exc
    if not np.all(np.isfinite(arr)):
        raise ModelError(f"{owner}: {name} must be finite, got {value!r:.60}")
    return arr


class Component:
    """Base of every component: a dotted path (set when the model is flattened), ports, and
    the hooks of a component with continuous states of its own (docs/domains.md).

    States. A component with memory (a filter, an integrator, a capacitor's voltage, an
    inductor's current) names its states in ``STATES``; they become system states s,
    appended to x = (y, z, s) and named ``<path>.<state>``. Its hooks read them with
    ``ctx.state(self)`` (a vector in the order of STATES):

    * ``derivatives(ctx)``: ds/dt, one expression per state (the ``der`` equations);
    * ``start()``: the default initial values (zeros unless overridden; a user's z0 wins);
    * ``initial_equations(ctx)``: None (start from ``start()``), or one residual per state
      whose zero fixes the initial states at t0, e.g. ``self.derivatives(ctx)`` for a steady
      state (Modelica's ``initial equation``), solved by Newton before simulating.

    Time events. A component whose equations jump at known instants (a step, a pulse's
    edges, a road bump written with ``ca.if_else`` on ``ctx.t``) returns those instants from
    ``time_events(t0, t_end)`` (the ones in the open interval (t0, t_end), in seconds):
    simulate stops the integrator there and restarts it, so it is never stepped over
    (docs/domains.md, "Time events").

    Energy. ``stored_energy(ctx)`` [J] (in the states only: ½·C·v², ½·L·i²),
    ``dissipated_power(ctx)`` [W] (≥ 0: R·i²) and ``supplied_power(ctx)`` [W] (what a source
    delivers) enter the System's energy and power functions, so the balance
    supplied = dE/dt + dissipated can be checked across domains.
    """

    _path: str | None = None
    _parent: tuple | None = None   # (composite, attribute name), set when added to one
    STATES: ClassVar[tuple[str, ...]] = ()
    # Declares fast dynamics (an electrical time constant, a compliant contact, a stiff gear):
    # simulate's Method.AUTO then integrates with BDF. Set on a class, or on one instance.
    stiff: bool = False

    @property
    def path(self) -> str:
        """The dotted instance path (``cube.motor``): set by the compiler, or from the
        composites this component was added to while a model is being built (relative to
        the outermost one); the class name for a component not added anywhere yet."""
        if self._path:
            return self._path
        parts, comp = [], self
        while comp._parent is not None:
            comp, attribute = comp._parent
            parts.append(attribute)
        return ".".join(reversed(parts)) or type(self).__name__

    def ports(self) -> Iterator[Port]:
        """The ports this component owns (own attributes only, in creation order)."""
        for value in vars(self).values():
            if isinstance(value, Port) and value.owner is self:
                yield value

    def validate(self) -> None:
        """Check parameter values; raise ModelError naming ``self.path`` and the parameter."""

    def derivatives(self, ctx) -> list:
        """ds/dt of the component's STATES, in their order (none without states)."""
        return []

    def start(self) -> list:
        """Default initial values of the STATES (zeros)."""
        return [0.0] * len(self.STATES)

    def initial_equations(self, ctx) -> list | None:
        """Residuals fixing the initial STATES at t0 (e.g. a steady state), or None."""
        return None

    def time_events(self, t0: float, t_end: float) -> list[float]:
        """The instants in (t0, t_end) [s] where the component's equations jump (none)."""
        return []

    def stored_energy(self, ctx):
        """Energy stored in the component's states [J] (a function of the states only)."""
        return 0

    def dissipated_power(self, ctx):
        """Power the component turns into heat [W], ≥ 0."""
        return 0

    def supplied_power(self, ctx):
        """Power the component delivers to the model as a source [W]."""
        return 0

    def shape(self, *shapes, frame=None) -> "Component":
        """Attach visual shapes (:mod:`jourdain.blocks.visual`: Box, Sphere, Cylinder, Capsule,
        Mesh) to ``frame``, a Frame port of this component or of its children (default
        frame_a, or frame_b for the World); returns the component, so
        ``RigidBody(...).shape(Box(...))`` reads as one expression. Shapes are metadata for
        animations, never physics. Default shapes derived from the geometry are drawn for
        components without shapes of their own (a body's too when shapes sit on its frame);
        ``shape()`` with no shape hides them."""
        from .visual.shapes import attach
        return attach(self, shapes, frame)

    def collide(self, *shapes, frame=None, group: int = 1, mask: int = 1,
                **material) -> "Component":
        """Declare collision shapes (Sphere, Capsule, Box, Mesh, Plane) fixed in ``frame``
        (default frame_a, or frame_b for the World), with collision bits and a contact
        material (:func:`jourdain.blocks.colliders.collide`); returns the component. At
        compile time every two shapes that may touch become contacts."""
        from .colliders import collide
        return collide(self, shapes, frame, group, mask, **material)

    def default_shapes(self, size: float) -> list | None:
        """Shapes a component draws when the user attached none, as (frame port, shape)
        pairs; ``size`` [m] is the model's nominal length. None (the default) leaves the
        choice to the animation, which derives shapes from the geometry (bodies, joints,
        offsets) as Modelica's MultiBody animation does."""
        return None

    def with_parameters(self, values: dict[str, Any]) -> "Component":
        """A shallow copy whose parameter attributes are replaced (numeric or CasADi symbols).

        Ports are shared with the original, so port objects stay valid keys; validation is
        skipped on purpose because symbolic values cannot be checked.
        """
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        clone.__dict__.update(values)
        return clone


# Names a child may not take: the composite's wiring methods and what the compiler reads.
_RESERVED = frozenset({"connect", "expose", "children", "connections", "path", "ports"})


class Composite(Component):
    """A component made of components: children are attributes, wiring via ``connect``.

    Subclass it and assign children as attributes in ``__init__`` (after ``super().__init__()``);
    their names become path segments (``cube.bearing.phi``). ``expose`` makes an inner port a
    port of the composite, so composites nest and are wired like primitives.
    """

    def __init__(self, **children: Component):
        object.__setattr__(self, "_children", {})
        object.__setattr__(self, "_connections", [])
        for name, child in children.items():
            _require_component(self, name, child)
            setattr(self, name, child)

    def __setattr__(self, name: str, value: Any) -> None:
        if "_children" not in self.__dict__:
            raise ModelError(f"{type(self).__name__}: call super().__init__() before adding "
                             f"children (while setting '{name}')")
        if isinstance(value, type) and issubclass(value, Component):
            _require_component(self, name, value)
        if isinstance(value, Component):
            if name.startswith("_") or name in _RESERVED:
                raise ModelError(f"{self.path}: '{name}' is reserved (an attribute or method of "
                                 f"{type(self).__name__}); give the child another name")
            if name in self._children and self._children[name] is not value:
                raise ModelError(f"{self.path}: a child named '{name}' already exists")
            self._children[name] = value
            object.__setattr__(value, "_parent", (self, name))
        object.__setattr__(self, name, value)

    def add(self, name: str, child: Component) -> Component:
        """Add a child under ``name`` (for programmatic models such as n-link chains)."""
        if not isinstance(name, str) or not name.isidentifier():
            raise ModelError(f"{self.path}: '{name}' is not a valid component name (use a "
                             "Python identifier such as 'link3')")
        _require_component(self, name, child)
        setattr(self, name, child)
        return child

    @property
    def children(self) -> dict[str, Component]:
        """The child components by name."""
        return dict(self._children)

    @property
    def connections(self) -> list[tuple[Port, Port]]:
        """The (port, port) pairs connected in this composite."""
        return list(self._connections)

    def connect(self, a: Port, b: Port) -> None:
        """Connect two ports (frame to frame, flange to flange, output to input)."""
        for port in (a, b):
            if not isinstance(port, Port):
                raise ModelError(f"{self.path}.connect: expected port objects, got {port!r}; "
                                 "wire with ports such as body.frame_a, not strings")
        reason = a.compatible(b)
        if reason:
            raise ModelError(f"{self.path}: cannot connect {a.path} to {b.path}: {reason}")
        self._connections.append((a, b))

    def expose(self, inner: Port, name: str) -> Port:
        """Make ``inner`` available as port ``name`` of this composite and return the new port."""
        if not isinstance(inner, Port):
            raise ModelError(f"{self.path}.expose: expected a port object, got {inner!r}")
        if not isinstance(name, str) or not name.isidentifier():
            raise ModelError(f"{self.path}.expose: the port name must be a Python identifier "
                             f"such as 'frame_a', got {name!r}")
        if name in self.__dict__:
            raise ModelError(f"{self.path}.expose: '{name}' is already "
                             f"{_describe(self.__dict__[name])} of {self.path}; choose "
                             "another name")
        outer = object.__new__(type(inner))
        outer.__dict__.update(inner.__dict__)
        outer.owner, outer.name = self, name
        object.__setattr__(self, name, outer)
        self._connections.append((outer, inner))
        return outer


class Model(Composite):
    """The top-level model: a composite that holds the World and the mechanism.

    ``Model(world=World(), pendulum=Pendulum())`` adds children by keyword; a World passed
    positionally is named ``world``.
    """

    def __init__(self, *worlds: Component, **children: Component):
        if len(worlds) > 1:
            raise ModelError("Model: pass at most one component positionally (the World)")
        named = {"world": worlds[0]} if worlds else {}
        named.update(children)
        super().__init__(**named)

    @classmethod
    def on_world(cls, world: Component, *unnamed, **children: Component) -> "Model":
        """A model whose children are mounted on ``world``: each child's ``frame_a`` is
        connected to ``world.frame_b`` (library mechanisms expose ``frame_a``)."""
        if unnamed:
            raise ModelError("Model.on_world: pass the mechanisms by name after the World, "
                             "e.g. jd.Model.on_world(World(), arm=Arm()); got "
                             f"{len(unnamed)} unnamed ({type(unnamed[0]).__name__})")
        if not isinstance(getattr(world, "frame_b", None), Port):
            raise ModelError(f"Model.on_world: the first argument must be the World (a "
                             f"component with frame_b), got {world!r:.60}; write "
                             "jd.Model.on_world(World(), name=mechanism)")
        model = cls(world=world, **children)
        for name, child in children.items():
            mount = getattr(child, "frame_a", None)
            if not isinstance(mount, Port):
                raise ModelError(f"Model.on_world: {name} has no frame_a port to mount")
            model.connect(world.frame_b, mount)
        return model


def _require_component(composite: Composite, name: str, child) -> None:
    """A child must be a component instance (a class or another value is a slip)."""
    if isinstance(child, Component):
        return
    if isinstance(child, type) and issubclass(child, Component):
        raise ModelError(f"{composite.path}: '{name}' is the class {child.__name__}, not a "
                         f"component; write {child.__name__}() to create one")
    raise ModelError(f"{composite.path}: '{name}' must be a component (a body, joint, "
                     f"force element, signal block or composite), got {child!r:.60}")


def _describe(value) -> str:
    if isinstance(value, Port):
        return f"the port {value.path}"
    if isinstance(value, Component):
        return "a child component"
    return "an attribute"


@dataclass(frozen=True)
class FrameState:
    """Kinematics of a frame: rotation R (frame → world), origin r [m], velocity v [m/s] and
    angular velocity w [rad/s], both in world coordinates, and the same two vectors v_local,
    w_local in the frame's own axes."""

    R: Any
    r: Any
    v: Any
    w: Any
    v_local: Any = None
    w_local: Any = None


@dataclass(frozen=True)
class FlangeState:
    """Kinematics of a flange: position (phi [rad] or s [m]) and its rate (w or v)."""

    s: Any
    w: Any


class Context:
    """What a component hook may read: time, signal values and the kinematics of its ports.

    Implemented by the solver; blocks use only this interface.
    """

    t: Any

    def value(self, port: Port) -> Any:  # pragma: no cover - interface
        """The value of a signal port (a CasADi expression)."""
        raise NotImplementedError

    def frame(self, port: Port) -> FrameState:  # pragma: no cover - interface
        """Pose and velocities of the frame a port belongs to."""
        raise NotImplementedError

    def flange(self, port: Port) -> FlangeState:  # pragma: no cover - interface
        """Position and rate of the flange a port belongs to."""
        raise NotImplementedError

    def state(self, block) -> Any:  # pragma: no cover - interface
        """The states of a component with memory (its ``STATES``), a vector."""
        raise NotImplementedError

    def voltage(self, branch) -> Any:  # pragma: no cover - interface
        """The voltage v = p.v − n.v [V] across a two-pin electrical component."""
        raise NotImplementedError

    def current(self, branch) -> Any:  # pragma: no cover - interface
        """The current i [A] through a two-pin electrical component, from pin p to pin n."""
        raise NotImplementedError

    def potential(self, pin) -> Any:  # pragma: no cover - interface
        """The potential [V] of an electrical pin (ground = 0)."""
        raise NotImplementedError

    def acausal(self, component) -> Any:  # pragma: no cover - interface
        """The solved variables of an acausal component (``.name`` or ``.get(name)``), for
        its other hooks, e.g. the ``force`` of an acausal element on flanges."""
        raise NotImplementedError

    def cut_force(self, sensor) -> Any:  # pragma: no cover - interface
        """The torque [N·m] or force [N] a cut sensor transmits from flange_a to flange_b."""
        raise NotImplementedError

    # Outputs may depend on the dynamics (accelerations, driver reactions); the solver
    # substitutes them once the equations of motion are known. Forces must not use them
    # (that would be an algebraic loop, reported by compile).
    def derivative(self, expr) -> Any:  # pragma: no cover - interface
        """d/dt of an expression of time and the kinematics (positions, velocities)."""
        raise NotImplementedError

    def acceleration(self, port) -> tuple:  # pragma: no cover - interface
        """(a, z): acceleration [m/s²] of the frame's origin and angular acceleration
        [rad/s²], in world coordinates."""
        raise NotImplementedError

    def reaction(self, block) -> Any:  # pragma: no cover - interface
        """The force or torque a kinematic driver applies to its flange."""
        raise NotImplementedError

    def discrete(self, component) -> dict:  # pragma: no cover - interface
        """The discrete variables of a hybrid component (its ``DISCRETE``) by name: symbols
        that are constant between events (modes, held values; jourdain.blocks.hybrid)."""
        raise NotImplementedError
