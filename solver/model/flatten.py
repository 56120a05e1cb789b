"""Stage 1, flatten: expand composites into primitive components with dotted names and group
connected ports into nets; check ports and parameters (DESIGN.md §3.1)."""
from __future__ import annotations

from dataclasses import dataclass, field

from jourdain.blocks.base import Component, Composite
from jourdain.blocks.bodies import Body
from jourdain.blocks.contacts import Contact
from jourdain.blocks.drivetrain import Coupling, Fixed, FlangeMass
from jourdain.blocks.electrical import Electrical
from jourdain.blocks.errors import ModelError
from jourdain.blocks.forces import FlangeForce
from jourdain.blocks.hybrid.base import Hybrid
from jourdain.blocks.joints import Joint
from jourdain.blocks.multibody.interfaces import FrameForce, LineForce, Mount
from jourdain.blocks.ports import Flange, Frame, Motion, Port, RealOutput
from jourdain.blocks.signals import SignalBlock
from jourdain.blocks.world import World

KINDS = (World, Body, Joint, FlangeForce, LineForce, FrameForce, Mount, Contact, SignalBlock,
         FlangeMass, Coupling, Fixed, Electrical, Hybrid)


@dataclass
class FlatModel:
    """Primitive components in declaration order and the nets of connected ports."""

    components: list[Component]
    net_of: dict[Port, int]
    nets: list[list[Port]]  # ports of primitives (and exposed composite ports) per net
    worlds: list[World] = field(default_factory=list)
    bodies: list[Body] = field(default_factory=list)
    joints: list[Joint] = field(default_factory=list)
    forces: list[FlangeForce] = field(default_factory=list)
    signals: list[SignalBlock] = field(default_factory=list)
    contacts: list[Contact] = field(default_factory=list)
    inertias: list[FlangeMass] = field(default_factory=list)   # 1-D bodies (Inertia, Mass)
    couplings: list[Coupling] = field(default_factory=list)    # gears, cut sensors
    fixed: list[Fixed] = field(default_factory=list)
    electrical: list[Electrical] = field(default_factory=list)
    hybrid: list[Hybrid] = field(default_factory=list)         # stops, friction, contacts, …
    lines: list[LineForce] = field(default_factory=list)       # 3-D line force elements
    wrenches: list[FrameForce] = field(default_factory=list)   # forces/torques on frames
    mounts: list[Mount] = field(default_factory=list)          # 1-D supports in 3-D frames
    composites: list[Composite] = field(default_factory=list)  # the model and its composites

    def net_ports(self, port: Port) -> list[Port]:
        """All primitive ports connected to ``port``."""
        return [p for p in self.nets[self.net_of[port]] if not isinstance(p.owner, Composite)]

    def net_ports_of(self, net: int) -> list[Port]:
        """The primitive ports of net ``net``."""
        return [p for p in self.nets[net] if not isinstance(p.owner, Composite)]

    def describe_net(self, port: Port) -> str:
        return "{" + ", ".join(p.path for p in self.net_ports(port)) + "}"


def flatten(model: Component) -> FlatModel:
    """Flatten ``model`` (a Composite such as jd.Model) and run the pre-flight checks."""
    if not isinstance(model, Composite):
        raise ModelError(f"compile expects a Composite model (e.g. jd.Model(world=World(), ...)),"
                         f" got {type(model).__name__}")
    primitives, composites = [], []
    _walk(model, "", primitives, composites, {})
    net_of, nets = _union_ports(primitives, composites)
    flat = FlatModel(primitives, net_of, nets, composites=composites)
    for comp in primitives:
        _classify(flat, comp)
        _validate(comp)
    _check_world(flat)
    _check_ports(flat)
    _check_motions(flat)
    return flat


def _check_motions(flat: FlatModel) -> None:
    """Force elements of either motion (a Stop, a Brake, a spring: Motion.ANY) take the
    kind of the flanges they touch (couplings such as LinearCoupling relate the kinds); one that touches a rotational and a translational flange
    (directly or through other such elements) would add an angle to a length. A ModelError
    naming the elements and a flange of each kind."""
    parent: dict = {}

    def find(net):
        while parent.setdefault(net, net) != net:
            net = parent[net]
        return net
    members: dict = {}
    for comp in flat.forces:   # couplings (LinearCoupling) may relate the two kinds
        nets = [flat.net_of[p] for p in comp.ports()
                if isinstance(p, Flange) and p.motion is Motion.ANY and p in flat.net_of]
        for net in nets[1:]:
            parent[find(net)] = find(nets[0])
        if nets:
            members.setdefault(comp, nets[0])
    kinds: dict = {}
    for net in {n for n in parent} | set(members.values()):
        for port in flat.net_ports_of(net):
            if isinstance(port, Flange) and port.motion is not Motion.ANY:
                kinds.setdefault(find(net), {}).setdefault(port.motion, port)
    for root, found in kinds.items():
        if len(found) > 1:
            comps = [c.path for c, n in members.items() if find(n) == root]
            ports = " and ".join(f"{p.path} ({m.value})" for m, p in found.items())
            raise ModelError(f"{', '.join(comps)}: connects {ports}; an element acts along one "
                             "kind of motion: give each axis its own element, or couple a "
                             "rotation to a translation with IdealGearR2T")


def _check_world(flat: FlatModel) -> None:
    if not flat.worlds:
        raise ModelError("the model has no World; add one (jd.Model(world=World(), ...)) so the "
                         "mechanism has an inertial frame and gravity")
    if len(flat.worlds) > 1:
        raise ModelError(f"the model has {len(flat.worlds)} World components (" +
                         ", ".join(w.path for w in flat.worlds) + "); keep exactly one")


def _walk(comp: Component, path: str, primitives: list, composites: list, seen: dict) -> None:
    if id(comp) in seen:
        raise ModelError(f"the same {type(comp).__name__} instance appears twice, as "
                         f"'{seen[id(comp)]}' and '{path}'; create one instance per use")
    seen[id(comp)] = path
    comp._path = path or None
    if isinstance(comp, Composite):
        composites.append(comp)
        primary = getattr(comp, "PRIMARY", None)   # a child that takes the composite's path
        for name, child in comp.children.items():
            child_path = path if name == primary and path else \
                (f"{path}.{name}" if path else name)
            _walk(child, child_path, primitives, composites, seen)
    else:
        primitives.append(comp)


def _union_ports(primitives: list, composites: list) -> tuple[dict, list]:
    parent: dict[Port, Port] = {}

    def find(p: Port) -> Port:
        parent.setdefault(p, p)
        while parent[p] is not p:
            parent[p] = parent[parent[p]]
            p = parent[p]
        return p

    for comp in primitives:
        for port in comp.ports():
            find(port)
        for a, b in getattr(comp, "RIGID", ()):   # ports of one rigid 1-D body: one net
            parent[find(getattr(comp, a))] = find(getattr(comp, b))
    members = {id(c) for c in primitives} | {id(c) for c in composites}
    for comp in composites:
        for a, b in comp.connections:
            for port in (a, b):
                if id(port.owner) not in members:
                    raise ModelError(f"{comp.path}: connect() uses port '{port.name}' of a "
                                     f"{type(port.owner).__name__} that is not part of the "
                                     "model; assign it as a child attribute first")
            parent[find(a)] = find(b)
    worlds = [c for c in primitives if isinstance(c, World)]
    for comp in primitives:   # e.g. Fixed: frame_a sits on the world frame without wiring
        if getattr(comp, "WORLD_MOUNTED", False) and len(worlds) == 1:
            parent[find(comp.frame_a)] = find(worlds[0].frame_b)
    roots: dict[Port, int] = {}
    nets: list[list[Port]] = []
    net_of: dict[Port, int] = {}
    for port in list(parent):
        root = find(port)
        if root not in roots:
            roots[root] = len(nets)
            nets.append([])
        net_of[port] = roots[root]
        nets[roots[root]].append(port)
    return net_of, nets


def _classify(flat: FlatModel, comp: Component) -> None:
    """Put ``comp`` in the bucket of every kind it is (an EMF is a force element and an
    electrical component, a torque sensor a coupling and a signal block)."""
    buckets = {World: flat.worlds, Body: flat.bodies, Joint: flat.joints,
               FlangeForce: flat.forces, LineForce: flat.lines, FrameForce: flat.wrenches,
               Mount: flat.mounts, Contact: flat.contacts, SignalBlock: flat.signals,
               FlangeMass: flat.inertias, Coupling: flat.couplings, Fixed: flat.fixed,
               Electrical: flat.electrical,
               Hybrid: flat.hybrid}
    kinds = [kind for kind in buckets if isinstance(comp, kind)]
    if not kinds:
        raise ModelError(f"{comp.path}: {type(comp).__name__} is not a known component kind; "
                         f"derive it from one of {', '.join(k.__name__ for k in KINDS)}")
    for kind in kinds:
        buckets[kind].append(comp)


def _validate(comp: Component) -> None:
    try:
        comp.validate()
    except ModelError:
        raise
    except (TypeError, ValueError) as exc:
        raise ModelError(f"{comp.path}: invalid parameter: {exc}") from exc


def _check_ports(flat: FlatModel) -> None:
    # primitive ports per net, counted once (per port it was quadratic in a net as large as
    # the ground of a 1,000-section ladder)
    sizes = [sum(not isinstance(p.owner, Composite) for p in net) for net in flat.nets]
    for comp in flat.components:
        for port in comp.ports():
            _check_port(flat, comp, port, sizes)
    for net in flat.nets:
        drivers = [p for p in net if isinstance(p, RealOutput) and not isinstance(p.owner, Composite)]
        if len(drivers) > 1:
            raise ModelError("signal outputs " + ", ".join(p.path for p in drivers) +
                             " are connected together; an input may be driven by one output only")


def _check_port(flat: FlatModel, comp: Component, port: Port, sizes: list[int]) -> None:
    alone = sizes[flat.net_of[port]] == 1
    # A rigid offset may end in a free frame (a point of interest); everything else must be
    # attached, or it would float or carry a massless degree of freedom.
    rigid_offset = isinstance(comp, Joint) and not comp.COORDINATES and port.name == "frame_b"
    if isinstance(port, Frame) and alone and not isinstance(comp, World) and not rigid_offset:
        raise ModelError(f"{port.path} is not connected; connect it to a frame (every frame of "
                         "a body, joint or sensor must be attached)")
    if isinstance(comp, FlangeForce) and isinstance(port, Flange) and port.name == "flange_a":
        if alone and sizes[flat.net_of[comp.flange_b]] == 1:
            raise ModelError(f"{comp.path}: neither flange_a nor flange_b is connected; connect "
                             "at least one to a joint's axis or support flange")
    optional = port.name in getattr(comp, "OPTIONAL_PORTS", ())   # e.g. a driver's support
    if isinstance(comp, SignalBlock) and isinstance(port, Flange) and alone and not optional:
        raise ModelError(f"{port.path} is not connected; connect the sensor to a flange (a "
                         "joint's axis, an Inertia, a gear)")
