"""The Composite an import returns: ordinary blocks plus what the file said about them.

Joints, bodies and frames are reachable by their names in the file (``robot.joints
["panda_joint1"].axis`` is the flange a motor drives) and, sanitized, as attributes
(``robot.panda_joint1``). Limits, geometry and the unsupported parts of the file are kept as
metadata: limits bound trajectory problems through :meth:`Robot.bounds` and become hard stops
in simulation on request (:meth:`Robot.add_stops`, ``from_urdf(..., stops=True)``); shapes do
not enter the physics.
"""
from __future__ import annotations

import keyword
import re

from jourdain.blocks import Composite, Joint, LinearMotor, Motor, Prismatic, Revolute
from jourdain.blocks.errors import ModelError
from jourdain.blocks.hybrid import Stop

from ..model.names import unknown
from .joint_friction import add_friction
from .options import import_option, selected_joints
from .spec import JointLimits, JointSpec


class UnsupportedWarning(UserWarning):
    """Parts of a robot description that were not imported (named in the message)."""


class Robot(Composite):
    """A mechanism imported from a robot description file (:func:`from_urdf`,
    :func:`from_mjcf`); mount it with ``jd.Model.on_world(World(g=robot.gravity),
    name=robot)`` through its port ``frame_a`` (the root link, or the floating base's
    reference).

    Attributes (keys are the names in the file):
      joints      {name: Joint block} of the moving joints (flanges ``axis``/``support`` on
                  revolute and prismatic joints)
      joint_info  {name: JointSpec} of every joint: type, origin, axis, limits, damping, …
      links       {name: RigidBody or None}: the body carrying the link's mass (a link welded
                  to its parent by a fixed joint is merged into the parent's body, as
                  Pinocchio does; None for a massless link)
      frames      {name: Frame port} of every link (and MJCF site): wire sensors here
      visuals, collisions  {link name: [Geometry]}, metadata for the visualization
      stops, frictions  {name: Stop}, {name: BearingFriction or SupportFriction} added by
                  :meth:`add_stops` and :meth:`add_friction` (``stops=``, ``friction=``)
      mimics      {name: LinearCoupling} of the mimic joints kept on their leaders (URDF
                  ``<mimic>``: q = multiplier·q_leader + offset)
      joint_names, link_names  {name in the file: component name} of the joints and bodies
      notes       what was not imported, merged, renamed or balanced
      gravity     the file's gravity vector [m/s²] (URDF: (0, 0, −9.81), z up)
    """

    def __init__(self, name: str, source: str, gravity: tuple):
        super().__init__()
        self.name, self.source, self.gravity = name, source, tuple(gravity)
        self.joints: dict[str, Joint] = {}
        self.joint_info: dict[str, JointSpec] = {}
        self.links: dict = {}
        self.frames: dict = {}
        self.visuals: dict[str, list] = {}
        self.collisions: dict[str, list] = {}
        self.joint_names: dict[str, str] = {}
        self.link_names: dict[str, str] = {}
        self.notes: list[str] = []
        self.motors: dict[str, object] = {}
        self.stops: dict[str, Stop] = {}
        self.frictions: dict[str, object] = {}
        self.mimics: dict[str, object] = {}

    def __repr__(self) -> str:
        return (f"<Robot {self.name!r} from {self.source}: {len(self.joints)} moving joints, "
                f"{len({id(b) for b in self.links.values() if b is not None})} bodies>")

    @property
    def limits(self) -> dict[str, JointLimits]:
        """{joint name: JointLimits} of the moving joints (as in the file; they act in a
        simulation once :meth:`add_stops` made them stops)."""
        return {name: self.joint_info[name].limits for name in self.joints}

    def child_name(self, name: str) -> str:
        """The component name of the joint named ``name`` in the file."""
        return self.joint_names.get(name, name)

    def add_motors(self, joints=None) -> dict[str, object]:
        """Add an ideal Motor (revolute) or LinearMotor (prismatic) on the axis flange of each
        joint in ``joints`` (names in the file; default: every revolute and prismatic joint)
        and return {joint name: motor}. The motors are named ``<joint>_motor``; their inputs
        (``tau`` / ``f``) are system inputs, bounded by the effort limits in :meth:`bounds`.
        By default mimic joints get none: their leader's motor drives them (as one actuator
        drives a gripper's fingers); name them in ``joints`` to add one."""
        added = {}
        for name, joint in selected_joints(self, joints, f"{self.name}.add_motors"):
            if not isinstance(joint, (Revolute, Prismatic)):
                continue
            if name in self.motors:
                raise ModelError(f"{self.name}.add_motors: joint '{name}' has a motor already")
            motor = Motor() if isinstance(joint, Revolute) else LinearMotor()
            self.add(unique_name(self, f"{self.child_name(name)}_motor"), motor)
            self.connect(motor.flange_b, joint.axis)
            self.motors[name] = added[name] = motor
        return added

    def add_stops(self, joints=None, **options) -> dict[str, Stop]:
        """Make the position limits of the file hard stops: a :class:`~jourdain.blocks.hybrid.
        Stop` ``<joint>_stop`` on the axis flange of each revolute and prismatic joint in
        ``joints`` (names in the file; default: all, except mimic followers) whose file gives
        a lower or an upper limit, at [lower − ref, upper − ref] in the joint's coordinate. ``options`` are the
        Stop's (e [1] restitution, default 0: plastic; v_rest; law=StopLaw.COMPLIANT with c,
        d, n). Returns {joint name: Stop}; the stops join the model's event loop."""
        chosen = list(self.joints) if joints is None else list(joints)
        added = {}
        for name in chosen:
            joint = self.joints.get(name)
            if joint is None:
                raise ModelError(unknown(f"{self.name}.add_stops", name, list(self.joints)))
            lim, ref = self.joint_info[name].limits, self.joint_info[name].ref
            if not isinstance(joint, (Revolute, Prismatic)) or name in self.mimics or \
                    (lim.lower is None and lim.upper is None):
                continue   # a mimic joint follows its leader's stop
            if name in self.stops:
                raise ModelError(f"{self.name}.add_stops: joint '{name}' has a stop already")
            low = -float("inf") if lim.lower is None else lim.lower - ref
            high = float("inf") if lim.upper is None else lim.upper - ref
            try:
                stop = Stop(lower=low, upper=high, **options)
            except TypeError as exc:
                raise ModelError(f"{self.name}.add_stops: {exc}; the options are Stop's (e, "
                                 "v_rest, law, c, d, n)") from None
            self.add(unique_name(self, f"{self.child_name(name)}_stop"), stop)
            self.connect(stop.flange_b, joint.axis)
            self.stops[name] = added[name] = stop
        return added

    def add_contacts(self, **options) -> int:
        """Declare the file's collision geometry as collision shapes of the links (MJCF
        contype/conaffinity, friction, solref; URDF ``<collision>``); ``options`` are contact
        keywords over the file's (:func:`~.contacts.add_contacts`). Returns the count."""
        from .contacts import add_contacts
        return add_contacts(self, **options)

    def add_friction(self, joints=None, **options) -> dict:
        """Make the dry friction of the file (URDF ``<dynamics friction>``, MJCF
        ``frictionloss``: one value f [N·m or N] per joint) Coulomb friction with true
        stiction: a :class:`~jourdain.blocks.hybrid.BearingFriction` (revolute) or
        :class:`~jourdain.blocks.hybrid.SupportFriction` (prismatic) ``<joint>_friction`` on
        the axis flange of each joint in ``joints`` (names in the file; default: every joint
        with f > 0) — sliding friction f against the motion, held by a constraint until the
        holding torque exceeds the static limit peak·f. ``options``: peak [1] ≥ 1 (default 1:
        the file gives one value for both). A mimic joint's friction acts on its leader's
        element as |multiplier|·f. Returns {joint name: element}; the elements join the
        model's event loop (:mod:`.joint_friction`)."""
        return add_friction(self, joints, options, unique_name)

    def coordinate_names(self, name: str) -> list[str]:
        """Dotted names of the coordinates of joint ``name`` (after the model is compiled)."""
        return [f"{self._prefix()}{self.child_name(name)}.{c.name}"
                for c in self._joint(name).COORDINATES]

    def speed_names(self, name: str) -> list[str]:
        """Dotted names of the default speeds of joint ``name`` (after compiling)."""
        return [f"{self._prefix()}{self.child_name(name)}.{s.name}"
                for s in self._joint(name).SPEEDS]

    def bounds(self, system=None) -> dict[str, tuple[float, float]]:
        """{dotted name: (lower, upper)} from the joint limits of the file: coordinates within
        [lower, upper], speeds within ±velocity, motor inputs (:meth:`add_motors`) within
        ±effort. With ``system``, only names among its states and inputs are kept (user-chosen
        speeds replace joint speeds). For ``TrajectoryProblem.bound``::

            for name, (lo, hi) in robot.bounds(system).items():
                ocp.bound(name, lo, hi)
        """
        out = {}
        for name, joint in self.joints.items():
            lim = self.joint_info[name].limits
            if len(joint.COORDINATES) != 1:
                continue
            (coord,), (speed,) = self.coordinate_names(name), self.speed_names(name)
            ref = self.joint_info[name].ref
            if lim.lower is not None and lim.upper is not None:
                out[coord] = (lim.lower - ref, lim.upper - ref)
            if lim.velocity:
                out[speed] = (-lim.velocity, lim.velocity)
            motor = self.motors.get(name)
            if motor is not None and lim.effort:
                signal = "tau" if isinstance(motor, Motor) else "f"
                out[f"{self._prefix()}{_child_of(self, motor)}.{signal}"] = \
                    (-lim.effort, lim.effort)
        if system is not None:
            known = set(system.x_names) | set(system.u_names)
            out = {k: v for k, v in out.items() if k in known}
        return out

    def report(self) -> str:
        """What was imported: joints by type with limits, bodies with masses, renamed names,
        merged links and what was left out."""
        lines = [f"{self.name} (from {self.source}): {len(self.joints)} moving joints, "
                 f"total mass {self.total_mass():.6g} kg"]
        for name, spec in self.joint_info.items():
            lim = spec.limits
            limits = "" if lim == JointLimits() else (
                f"  limits [{_fmt(lim.lower)}, {_fmt(lim.upper)}], effort {_fmt(lim.effort)}, "
                f"velocity {_fmt(lim.velocity)}")
            if name in self.mimics:
                leader, multiplier, offset = spec.mimic
                limits += f"  mimic of {leader}: q = {multiplier:g}·q_leader + {offset:g}"
            if spec.friction > 0:
                limits += f"  friction {spec.friction:g}" + \
                    (" (stiction element)" if name in self.frictions else "")
            lines.append(f"  joint {name} ({spec.type.value}) {spec.parent} -> {spec.child}"
                         f"{limits}")
        renamed = {k: v for names in (self.joint_names, self.link_names)
                   for k, v in names.items() if k != v}
        if renamed:
            lines.append("  renamed: " + ", ".join(f"{k} -> {v}" for k, v in renamed.items()))
        lines += [f"  note: {n}" for n in self.notes]
        return "\n".join(lines)

    def total_mass(self) -> float:
        """The mass of all bodies of the robot [kg] (welded links counted once)."""
        bodies = {id(b): b for b in self.links.values() if b is not None}
        return float(sum(b.m for b in bodies.values()))

    # ---- helpers -------------------------------------------------------------------------
    def _joint(self, name: str) -> Joint:
        if name not in self.joints:
            raise ModelError(unknown(self.name, name, list(self.joints)) +
                             " (fixed and locked joints have no coordinates)")
        return self.joints[name]

    def _prefix(self) -> str:
        if self._path is None:
            raise ModelError(f"{self.name}: names of coordinates depend on where the robot sits "
                             "in the model; compile a model that contains it first")
        return self._path + "."


def _child_of(composite: Composite, component) -> str:
    return next(k for k, v in composite.children.items() if v is component)


def _fmt(value) -> str:
    return "-" if value is None else f"{value:g}"


_RESERVED = set(dir(Robot)) | {"frame_a", "name", "source", "gravity", "joints", "joint_info",
                               "links", "frames", "visuals", "collisions", "joint_names",
                               "link_names", "notes", "motors", "mimics", "stops",
                               "frictions"}


def sanitize(name: str) -> str:
    """A valid component name from a name in a file: characters other than letters, digits and
    '_' become '_'; a leading digit, a Python keyword or a reserved attribute gets a suffix."""
    clean = re.sub(r"\W", "_", name, flags=re.ASCII) or "unnamed"
    if clean[0].isdigit():
        clean = "_" + clean
    if keyword.iskeyword(clean) or clean in _RESERVED:
        clean += "_"
    return clean


def with_stops(robot: Robot, stops, caller: str) -> None:
    """The ``stops`` option of the importers: False, True or a dict of Stop options."""
    import_option(stops, robot.add_stops, caller, "stops", "a dict of Stop options",
                  "{'e': 0.5}")


def unique_name(composite: Composite, base: str) -> str:
    """``base`` or ``base_2``, ``base_3``, … whichever is not a child or attribute yet."""
    name, k = base, 1
    while name in composite.children or name in _RESERVED or hasattr(composite, name):
        k += 1
        name = f"{base}_{k}"
    return name
