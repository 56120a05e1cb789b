"""Random mechanisms for the property-based tests (tests/test_properties.py).

Joints: Revolute, Prismatic, Spherical, FreeJoint and the MSL's Universal, Cylindrical and
Planar, behind FixedTranslation / FixedRotation offsets; loops are cut at a Revolute,
Prismatic, Spherical, Universal, Cylindrical or Planar joint.

Hypothesis strategies draw plain, frozen specifications (``Tree``, ``Loop``, ``Rolling``);
``build`` turns one into a ``jd.Model`` and ``start`` gives its initial state. A failing case
is therefore printed as its own reproducer: paste the spec shown by hypothesis into
``build(spec)``.

Every parameter is physical: masses 0.2–3 kg, inertias of boxes 0.05–0.6 m in random
orientations (positive definite, triangle inequality), offsets up to 0.5 m, springs,
dampers, Coulomb friction (regularization 1e-2–0.1), quadratic drag and motors with moderate
values, initial speeds up to 2 rad/s or m/s. A model without dampers, friction, drag and motors
is *conservative* (``spec.conservative``): its total energy T + V is an invariant.

Loops are closed *consistently by construction*: the poses of the tree are computed here (in
numpy, from the same joint conventions as blocks/joints.py) at the drawn initial coordinates,
and the cut joint's frames are placed to coincide there, so the drawn y0 satisfies c(y0) = 0
to round-off and the test can check the compiler's kinematics against these poses.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st
from scipy.spatial.transform import Rotation

import jourdain as jd
from jourdain.blocks import (
    CoulombFriction,
    Cylindrical,
    FixedRotation,
    FixedTranslation,
    FreeJoint,
    LinearMotor,
    Motor,
    Planar,
    Prismatic,
    QuadraticDrag,
    Revolute,
    RigidBody,
    RollingContact,
    RotationalSpring,
    Spherical,
    TranslationalSpring,
    Universal,
    ViscousFriction,
    World,
)

ONE_DOF = ("revolute", "prismatic")          # the joints with axis flanges (force elements)
JOINTS = ("revolute", "prismatic", "spherical", "free", "universal", "cylindrical", "planar")
CUTS = ("revolute", "spherical", "prismatic", "universal", "cylindrical", "planar")
# coordinate and speed names per joint kind (joints.py, multibody/joints.py)
COORDINATES = {"revolute": ("phi",), "prismatic": ("s",), "universal": ("phi_a", "phi_b"),
               "cylindrical": ("s", "phi"), "planar": ("s_x", "s_y", "phi")}
SPEEDS = {"revolute": ("w",), "prismatic": ("v",), "spherical": ("wx", "wy", "wz"),
          "free": ("vx", "vy", "vz", "wx", "wy", "wz"), "universal": ("w_a", "w_b"),
          "cylindrical": ("v", "w"), "planar": ("v_x", "v_y", "w")}
JOINT_SPEEDS = {kind: len(names) for kind, names in SPEEDS.items()}
CUT_EQUATIONS = {"revolute": 5, "prismatic": 5, "spherical": 3, "universal": 4,
                 "cylindrical": 4, "planar": 3}
DISSIPATIVE = ("damper", "coulomb", "drag")


# ---------------------------------------------------------------- specifications
@dataclass(frozen=True)
class Body:
    """m [kg]; r_cm [m] in the joint's frame_b; a box of sides ``sides`` [m] whose axes are
    turned by the rotation vector ``turn`` [rad]."""

    m: float
    r_cm: tuple
    sides: tuple
    turn: tuple

    def inertia(self) -> np.ndarray:
        a, b, c = self.sides
        box = self.m / 12 * np.diag([b * b + c * c, a * a + c * c, a * a + b * b])
        Q = Rotation.from_rotvec(self.turn).as_matrix()
        return Q @ box @ Q.T


@dataclass(frozen=True)
class Element:
    """A 1-D element on a revolute/prismatic joint's axis flange: ``kind`` one of spring,
    damper, coulomb, drag, motor; ``value`` its coefficient (c, d, μ·N, c or the motor's
    amplitude), ``extra`` the spring's rest position or the motor's frequency [rad/s];
    ``other``: index of another link of the same joint kind whose axis carries flange_a
    (an element between two joints), or None (flange_a at the joint's support)."""

    kind: str
    value: float
    extra: float = 0.0
    other: int | None = None


@dataclass(frozen=True)
class Link:
    """Body ``index`` hangs from ``parent`` (0: the world) through a fixed offset (a
    FixedTranslation by ``r``, or a FixedRotation by ``angle`` about ``turn_axis`` when angle
    ≠ 0) and a joint of kind ``joint`` (axis ``axis`` for revolute/prismatic). ``q``: its
    initial coordinates (1 value, or a rotation vector [rad] for the quaternion, preceded by
    a position for a free joint); ``w``: its initial speeds."""

    parent: int
    r: tuple
    angle: float
    turn_axis: tuple
    joint: str
    axis: tuple
    body: Body
    elements: tuple = ()
    q: tuple = ()
    w: tuple = ()


@dataclass(frozen=True)
class Tree:
    links: tuple
    g: tuple = (0.0, -9.81, 0.0)

    @property
    def conservative(self) -> bool:
        return not any(e.kind in DISSIPATIVE or e.kind == "motor"
                       for link in self.links for e in link.elements)

    @property
    def minimal(self) -> bool:
        """Only revolute/prismatic joints: coordinates whose rates are the speeds (Lagrange)."""
        return all(link.joint in COORDINATES for link in self.links)


@dataclass(frozen=True)
class Loop:
    """A tree closed by a ``cut`` joint (axis ``cut_axis``) between the point ``tip`` [m] of
    body ``close_from`` and body ``close_to`` (0: the world), placed so that the loop is
    closed at the tree's initial coordinates."""

    tree: Tree
    close_from: int
    tip: tuple
    close_to: int
    cut: str
    cut_axis: tuple

    @property
    def conservative(self) -> bool:
        return self.tree.conservative


@dataclass(frozen=True)
class Rolling:
    """A disk (radius R [m], mass m [kg], axial and diametral inertia factors ``k_axial``,
    ``k_diam`` of m·R²) rolling without slip on a FreeJoint, started at ``heading``, ``lean``
    [rad] with body rates ``w`` [rad/s]; optionally a pendulum body ``bob`` hanging from the
    disk centre through a revolute joint about ``bob_axis`` (disk axes) at angle ``bob_q``."""

    R: float
    m: float
    k_axial: float
    k_diam: float
    heading: float
    lean: float
    w: tuple
    bob: Body | None = None
    bob_axis: tuple = (1.0, 0.0, 0.0)
    bob_q: float = 0.0
    conservative = True


# ---------------------------------------------------------------- strategies
def _floats(lo, hi):
    return st.floats(lo, hi, allow_nan=False, allow_infinity=False)


def _vector(lo, hi):
    return st.tuples(_floats(lo, hi), _floats(lo, hi), _floats(lo, hi))


@st.composite
def unit_vectors(draw):
    v = np.array(draw(_vector(-1.0, 1.0)))
    n = np.linalg.norm(v)
    if n < 0.2:  # too short to normalize well: take a coordinate axis instead
        v, n = np.eye(3)[draw(st.integers(0, 2))], 1.0
    return tuple(float(c) for c in v / n)


def bodies():
    return st.builds(Body, m=_floats(0.2, 3.0), r_cm=_vector(-0.3, 0.3),
                     sides=_vector(0.05, 0.6), turn=_vector(-np.pi, np.pi))


def elements(kinds, n_links: int, conservative: bool):
    allowed = [k for k in kinds if not conservative or k == "spring"]
    if not allowed:
        return st.just(())
    element = st.builds(
        lambda kind, v, x, other: Element(kind, *_element_values(kind, v, x), other),
        st.sampled_from(allowed), _floats(0.0, 1.0), _floats(-1.0, 1.0),
        st.none() | st.integers(1, max(1, n_links)))
    return st.lists(element, max_size=3).map(tuple)


def _element_values(kind: str, v: float, x: float) -> tuple:
    """Map two draws in [0, 1], [−1, 1] to physical coefficients of each kind."""
    if kind == "spring":
        return 10.0 * v, 0.5 * x          # c ≤ 10 N·m/rad or N/m, rest within ±0.5
    if kind == "damper":
        return 2.0 * v, 0.0               # d ≤ 2
    if kind == "coulomb":
        return 2.0 * v, 0.01 + 0.09 * abs(x)   # μ·N ≤ 2, w_eps in [0.01, 0.1]
    if kind == "drag":
        return 0.5 * v, 0.0
    return 2.0 * v, 3.0 * x               # motor: amplitude ≤ 2, frequency ≤ 3 rad/s


def _initial(joint: str):
    if joint in COORDINATES:
        n = len(COORDINATES[joint])
        return st.tuples(*[_floats(-1.0, 1.0)] * n), st.tuples(*[_floats(-2.0, 2.0)] * n)
    rot = _vector(-1.5, 1.5)
    if joint == "spherical":
        return rot, _vector(-2.0, 2.0)
    return (st.tuples(_floats(-0.5, 0.5), _floats(-0.5, 0.5), _floats(-0.5, 0.5))
            .flatmap(lambda p: rot.map(lambda r: p + r)),
            st.tuples(*[_floats(-2.0, 2.0)] * 6))


@st.composite
def links(draw, index: int, joints, kinds, conservative: bool, n_links: int):
    joint = draw(st.sampled_from(joints))
    q, w = _initial(joint)
    return Link(parent=draw(st.integers(0, index - 1)), r=draw(_vector(-0.5, 0.5)),
                angle=draw(st.sampled_from([0.0]) | _floats(-np.pi, np.pi)),
                turn_axis=draw(unit_vectors()), joint=joint, axis=draw(unit_vectors()),
                body=draw(bodies()),
                elements=draw(elements(kinds, n_links, conservative)) if joint in ONE_DOF
                else (), q=draw(q), w=draw(w))


@st.composite
def trees(draw, max_bodies: int = 3, joints=JOINTS,
          kinds=("spring", "damper", "coulomb", "drag", "motor"), conservative=None,
          gravity: bool = True):
    """Random trees of 1…max_bodies bodies; ``conservative`` True/False forces the kind."""
    n = draw(st.integers(1, max_bodies))
    cons = draw(st.sampled_from([False, True])) if conservative is None else conservative
    drawn = tuple(draw(links(i, joints, kinds, cons, n)) for i in range(1, n + 1))
    active = [k for k in kinds if k != "spring"]
    if not cons and active:   # at least one damper, friction, drag or motor
        drawn = _with_element(drawn, draw(elements(active, n, False).filter(bool))[0],
                              draw(st.integers(0, n - 1)))
    g = draw(st.sampled_from([(0.0, -9.81, 0.0), (0.0, 0.0, 0.0)])) if gravity else \
        (0.0, 0.0, 0.0)
    return Tree(_fix_elements(drawn), g)


def _with_element(drawn: tuple, element: Element, k: int) -> tuple:
    """Add ``element`` to the first revolute/prismatic link from link k on (link k turned
    into a revolute joint at rest if the tree has none)."""
    one_dof = [i for i in range(k, len(drawn)) if drawn[i].joint in ONE_DOF] + \
        [i for i in range(k) if drawn[i].joint in ONE_DOF]
    links_ = list(drawn)
    if one_dof:
        i = one_dof[0]
        links_[i] = Link(**{**drawn[i].__dict__, "elements": drawn[i].elements + (element,)})
    else:
        links_[k] = Link(**{**drawn[k].__dict__, "joint": "revolute", "q": (0.0,), "w": (0.0,),
                            "elements": (element,)})
    return tuple(links_)


def _fix_elements(drawn: tuple) -> tuple:
    """Elements between two joints need the other joint of the same kind; else support."""
    fixed = []
    for i, link in enumerate(drawn, start=1):
        els = []
        for e in link.elements:
            other = e.other
            if other is not None and (other == i or other > len(drawn)
                                      or drawn[other - 1].joint != link.joint):
                other = None
            els.append(Element(e.kind, e.value, e.extra, other))
        fixed.append(Link(**{**link.__dict__, "elements": tuple(els)}))
    return tuple(fixed)


@st.composite
def loops(draw, max_bodies: int = 4, conservative=None,
          joints=JOINTS, cuts=CUTS):
    """A random tree closed by a cut joint between a body and the world or another body,
    with at least one degree of freedom left in the loop by Grübler's count (the tree speeds
    on the loop's path exceed the cut joint's equations)."""
    tree = draw(trees(max_bodies, joints=joints, conservative=conservative))
    n = len(tree.links)
    close_from = draw(st.integers(1, n))
    close_to = draw(st.integers(0, n - 1))
    close_to += close_to >= close_from        # any other body, or the world
    cut = draw(st.sampled_from(cuts))
    path = _loop_path(tree, close_from, close_to)
    for i in path + [path[0]]:   # Grübler: free up the path until motion is left
        if sum(JOINT_SPEEDS[tree.links[k - 1].joint] for k in path) > CUT_EQUATIONS[cut]:
            break
        tree = _with_ball(tree, i, "free" if tree.links[i - 1].joint == "spherical"
                          else "spherical")
    return Loop(tree, close_from, draw(_vector(-0.3, 0.3)), close_to, cut, draw(unit_vectors()))


def _loop_path(tree: Tree, a: int, b: int) -> list[int]:
    """Links (by body index) on the tree path between bodies a and b (0: the world)."""
    def up(i):
        chain = []
        while i:
            chain.append(i)
            i = tree.links[i - 1].parent
        return chain
    pa, pb = up(a), up(b)
    common = set(pa) & set(pb)
    return [i for i in pa if i not in common] + [i for i in pb if i not in common]


def _with_ball(tree: Tree, index: int, joint: str) -> Tree:
    """Link ``index`` on a spherical or free joint instead (no elements, a fixed start)."""
    links_ = list(tree.links)
    q, w = ((0.3, -0.2, 0.1), (0.5, -0.5, 0.2)) if joint == "spherical" else \
        ((0.0, 0.0, 0.0, 0.3, -0.2, 0.1), (0.0, 0.0, 0.0, 0.5, -0.5, 0.2))
    links_[index - 1] = Link(**{**links_[index - 1].__dict__, "joint": joint, "elements": (),
                                "q": q, "w": w})
    return Tree(_fix_elements(tuple(links_)), tree.g)


def rolling():
    return st.builds(
        lambda ratio, k_diam, **kw: Rolling(k_axial=2 * k_diam * ratio, k_diam=k_diam, **kw),
        ratio=_floats(0.6, 1.0), k_diam=_floats(0.2, 0.35), R=_floats(0.1, 0.5),
        m=_floats(0.3, 3.0), heading=_floats(-np.pi, np.pi), lean=_floats(-0.6, 0.6),
        w=st.tuples(_floats(-1.0, 1.0), _floats(-1.0, 1.0), _floats(-8.0, 8.0)),
        bob=st.none() | bodies(), bob_axis=unit_vectors(), bob_q=_floats(-1.0, 1.0))


# ---------------------------------------------------------------- builders
def build(spec) -> jd.Model:
    if isinstance(spec, Rolling):
        return _build_rolling(spec)
    tree = spec.tree if isinstance(spec, Loop) else spec
    model = jd.Model(world=World(g=tree.g))
    frames = [model.world.frame_b]
    joints = {}
    for i, link in enumerate(tree.links, start=1):
        offset = (FixedRotation(angle=link.angle, r=link.r, axis=link.turn_axis) if link.angle
                  else FixedTranslation(r=link.r))
        joint = _joint(link)
        body = RigidBody(m=link.body.m, r_cm=link.body.r_cm, I=link.body.inertia())
        model.add(f"offset{i}", offset)
        model.add(f"joint{i}", joint)
        model.add(f"body{i}", body)
        model.connect(frames[link.parent], offset.frame_a)
        model.connect(offset.frame_b, joint.frame_a)
        model.connect(joint.frame_b, body.frame_a)
        frames.append(joint.frame_b)
        joints[i] = joint
    for i, link in enumerate(tree.links, start=1):
        for k, e in enumerate(link.elements):
            element = model.add(f"{e.kind}{i}_{k}", _element(e, link.joint))
            model.connect(element.flange_b, joints[i].axis)
            if e.other is not None:
                model.connect(element.flange_a, joints[e.other].axis)
    if isinstance(spec, Loop):
        _close(model, spec, frames)
    return model


def _joint(link: Link):
    return joint_block(link.joint, link.axis)


def joint_block(kind: str, axis):
    """The joint of ``kind`` about ``axis`` (a universal joint's second axis, a planar
    joint's n_x: the unit vector _perpendicular(axis))."""
    if kind in ("revolute", "prismatic"):
        return (Revolute if kind == "revolute" else Prismatic)(axis=axis)
    if kind == "universal":
        return Universal(n_a=axis, n_b=_perpendicular(axis))
    if kind == "cylindrical":
        return Cylindrical(n=axis)
    if kind == "planar":
        return Planar(n=axis, n_x=_perpendicular(axis))
    return Spherical() if kind == "spherical" else FreeJoint()


def _perpendicular(axis) -> tuple:
    n = np.asarray(axis, dtype=float)
    e = np.cross(n, np.eye(3)[int(np.argmin(np.abs(n)))])
    return tuple(e / np.linalg.norm(e))


def _element(e: Element, joint: str):
    rotational = joint == "revolute"
    if e.kind == "spring":
        return (RotationalSpring(c=e.value, phi_rel0=e.extra) if rotational
                else TranslationalSpring(c=e.value, s_rel0=e.extra))
    if e.kind == "damper":
        return ViscousFriction(d=e.value)
    if e.kind == "coulomb":
        return CoulombFriction(mu=e.value, N=1.0, w_eps=e.extra)
    if e.kind == "drag":
        return QuadraticDrag(c=e.value)
    return Motor() if rotational else LinearMotor()


def _close(model: jd.Model, loop: Loop, frames: list) -> None:
    """Cut joint between (body close_from ⊕ tip) and body close_to (or the world), placed so
    that its two frames coincide at the tree's initial coordinates."""
    poses = frame_poses(loop.tree)
    R_b, p_b = poses[loop.close_from]
    target = (R_b, p_b + R_b @ np.array(loop.tip))
    R_a, p_a = poses[loop.close_to]
    rel_R, rel_p = R_a.T @ target[0], R_a.T @ (target[1] - p_a)
    rotvec = Rotation.from_matrix(rel_R).as_rotvec()
    angle = float(np.linalg.norm(rotvec))
    seat = (FixedRotation(angle=angle, r=tuple(rel_p), axis=tuple(rotvec / angle))
            if angle > 1e-12 else FixedTranslation(r=tuple(rel_p)))
    tip = FixedTranslation(r=loop.tip)
    cut = joint_block(loop.cut, loop.cut_axis)
    model.add("seat", seat)
    model.add("tip", tip)
    model.add("cut", cut)  # declared last: the compiler cuts it
    model.connect(frames[loop.close_to], seat.frame_a)
    model.connect(frames[loop.close_from], tip.frame_a)
    model.connect(seat.frame_b, cut.frame_a)
    model.connect(tip.frame_b, cut.frame_b)


def frame_poses(tree: Tree) -> dict:
    """{body index: (R, p)} of each joint's frame_b in world axes at the initial coordinates
    (0: the world), by the joints' conventions (blocks/joints.py, blocks/multibody/joints.py):
    FixedRotation turns frame_b by the angle about its axis, a Revolute by q about its axis,
    a Prismatic shifts by q·axis, a ball or free joint turns by its quaternion (free: then
    shifted by its position, frame_a axes); Universal, Cylindrical, Planar in _joint_pose."""
    poses = {0: (np.eye(3), np.zeros(3))}
    for i, link in enumerate(tree.links, start=1):
        R, p = poses[link.parent]
        off = Rotation.from_rotvec(link.angle * np.array(link.turn_axis)).as_matrix()
        p = p + R @ np.array(link.r)
        R = R @ off
        jR, jp = _joint_pose(link)
        poses[i] = (R @ jR, p + R @ jp)
    return poses


def _turn(axis, angle) -> np.ndarray:
    return Rotation.from_rotvec(angle * np.asarray(axis, dtype=float)).as_matrix()


def _joint_pose(link: Link) -> tuple:
    n, q, zero = np.array(link.axis), link.q, np.zeros(3)
    if link.joint == "revolute":
        return _turn(n, q[0]), zero
    if link.joint == "prismatic":
        return np.eye(3), q[0] * n
    if link.joint == "universal":     # rot(n_a, φ_a)·rot(n_b, φ_b)
        return _turn(n, q[0]) @ _turn(_perpendicular(n), q[1]), zero
    if link.joint == "cylindrical":   # slide s along n, turn φ about n
        return _turn(n, q[1]), q[0] * n
    if link.joint == "planar":        # s_x along n_x, s_y along n × n_x, then φ about n
        n_x = np.array(_perpendicular(n))
        return _turn(n, q[2]), q[0] * n_x + q[1] * np.cross(n, n_x)
    if link.joint == "spherical":
        return Rotation.from_rotvec(link.q).as_matrix(), np.zeros(3)
    return Rotation.from_rotvec(link.q[3:]).as_matrix(), np.array(link.q[:3])


def _quaternion(rotvec) -> list:
    x, y, z, w = Rotation.from_rotvec(rotvec).as_quat()  # scipy: scalar last
    return [w, x, y, z]


def start(spec, system) -> dict:
    """simulate() keyword arguments y0 and z0 for the spec's initial state (loops: every
    coordinate, consistent by construction, and the speeds the compiler left independent)."""
    if isinstance(spec, Rolling):
        from jourdain.library.wheel import upright_quaternion
        y0 = upright_quaternion(spec.heading, spec.lean, prefix="disk.")
        if spec.bob is not None:
            y0["bob_joint.phi"] = spec.bob_q
        z0 = {f"disk.w{c}": v for c, v in zip("xyz", spec.w)}
        return {"y0": y0, "z0": {k: v for k, v in z0.items() if k in system.z_names}}
    tree = spec.tree if isinstance(spec, Loop) else spec
    y0, z0 = {}, {}
    for i, link in enumerate(tree.links, start=1):
        joint = f"joint{i}."
        if link.joint in COORDINATES:
            y0.update({joint + c: v for c, v in zip(COORDINATES[link.joint], link.q)})
        else:
            q = _quaternion(link.q if link.joint == "spherical" else link.q[3:])
            y0.update({f"{joint}q{k}": v for k, v in enumerate(q)})
            if link.joint == "free":
                y0.update({joint + c: v for c, v in zip("xyz", link.q[:3])})
        z0.update({joint + n: v for n, v in zip(SPEEDS[link.joint], link.w)})
    return {"y0": y0, "z0": {k: v for k, v in z0.items() if k in system.z_names}}


def inputs(spec, system) -> dict:
    """Motor inputs: u(t) = amplitude·cos(frequency·t)."""
    tree = spec.tree if isinstance(spec, Loop) else spec
    out = {}
    for i, link in enumerate(getattr(tree, "links", ()), start=1):
        for k, e in enumerate(link.elements):
            if e.kind == "motor":
                name = f"motor{i}_{k}." + ("tau" if link.joint == "revolute" else "f")
                out[name] = (lambda a, w: lambda t: a * np.cos(w * t))(e.value, e.extra)
    return {k: v for k, v in out.items() if k in system.u_names}


def _build_rolling(spec: Rolling) -> jd.Model:
    model = jd.Model(world=World())
    joint = model.add("disk", FreeJoint())
    I_a, I_d = spec.k_axial * spec.m * spec.R**2, spec.k_diam * spec.m * spec.R**2
    body = model.add("wheel", RigidBody(m=spec.m, I=(I_d, I_d, I_a)))
    contact = model.add("contact", RollingContact(R=spec.R, axis=(0, 0, 1)))
    model.connect(model.world.frame_b, joint.frame_a)
    model.connect(joint.frame_b, body.frame_a)
    model.connect(joint.frame_b, contact.frame_a)
    if spec.bob is not None:
        hinge = model.add("bob_joint", Revolute(axis=spec.bob_axis))
        bob = model.add("bob", RigidBody(m=spec.bob.m, r_cm=spec.bob.r_cm,
                                         I=spec.bob.inertia()))
        model.connect(joint.frame_b, hinge.frame_a)
        model.connect(hinge.frame_b, bob.frame_a)
    return model
