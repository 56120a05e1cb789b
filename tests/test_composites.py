"""Composites: nesting, exposed ports, dotted names, reuse; and the structure report.
Reference: the names and structure the user declared."""
import numpy as np

import jourdain as jd
from jourdain.blocks import FixedTranslation, Revolute, RigidBody, World
from jourdain.library import CubeOnEdge, DoublePendulum


class Link(jd.Composite):
    """A revolute joint, a body and an offset to the next joint, exposing frame_a and tip."""

    def __init__(self, l=1.0):
        super().__init__()
        self.joint = Revolute()
        self.body = RigidBody(m=1.0, r_cm=(0, -l / 2, 0), I=(l**2 / 12, 0, l**2 / 12))
        self.offset = FixedTranslation(r=(0, -l, 0))
        self.connect(self.joint.frame_b, self.body.frame_a)
        self.connect(self.joint.frame_b, self.offset.frame_a)
        self.expose(self.joint.frame_a, "frame_a")
        self.expose(self.offset.frame_b, "tip")


class TwoLinks(jd.Composite):
    def __init__(self):
        super().__init__()
        self.upper, self.lower = Link(1.0), Link(0.5)
        self.connect(self.upper.tip, self.lower.frame_a)
        self.expose(self.upper.frame_a, "frame_a")
        self.expose(self.lower.tip, "tip")


def test_nested_composites_have_dotted_names():
    model = jd.Model.on_world(World(), arm=TwoLinks())
    system = jd.compile(model)
    assert system.y_names == ["arm.upper.joint.phi", "arm.lower.joint.phi"]
    assert system.z_names == ["arm.upper.joint.w", "arm.lower.joint.w"]
    assert model.arm.lower.tip.path == "arm.lower.tip"


def test_nested_composite_equals_flat_model(rng):
    """The same chain written flat: identical state derivatives (reference: same mechanics)."""
    nested = jd.compile(jd.Model.on_world(World(), arm=TwoLinks()))
    flat = jd.Model(world=World())
    flat.j1, flat.b1, flat.o1 = Revolute(), RigidBody(m=1.0, r_cm=(0, -0.5, 0), I=(1 / 12, 0, 1 / 12)), FixedTranslation(r=(0, -1, 0))
    flat.j2, flat.b2 = Revolute(), RigidBody(m=1.0, r_cm=(0, -0.25, 0), I=(0.25 / 12, 0, 0.25 / 12))
    flat.connect(flat.world.frame_b, flat.j1.frame_a)
    flat.connect(flat.j1.frame_b, flat.b1.frame_a)
    flat.connect(flat.j1.frame_b, flat.o1.frame_a)
    flat.connect(flat.o1.frame_b, flat.j2.frame_a)
    flat.connect(flat.j2.frame_b, flat.b2.frame_a)
    flat_sys = jd.compile(flat)
    for _ in range(5):
        x = rng.uniform(-2, 2, 4)
        assert np.allclose(np.array(nested.f(0, x, [], [])), np.array(flat_sys.f(0, x, [], [])),
                           rtol=1e-13, atol=1e-13)


def test_joint_attached_backwards_gives_the_same_motion(rng):
    """A revolute wired frame_b → world (the tree runs through it from b to a) describes the
    same pendulum with the angle's sign flipped."""
    forward = jd.Model(world=World())
    forward.j, forward.b = Revolute(), RigidBody(m=1.0, r_cm=(0, -1, 0))
    forward.connect(forward.world.frame_b, forward.j.frame_a)
    forward.connect(forward.j.frame_b, forward.b.frame_a)
    backward = jd.Model(world=World())
    backward.j, backward.b = Revolute(), RigidBody(m=1.0, r_cm=(0, -1, 0))
    backward.connect(backward.world.frame_b, backward.j.frame_b)
    backward.connect(backward.j.frame_a, backward.b.frame_a)
    fa, fb = jd.compile(forward), jd.compile(backward)
    for _ in range(5):
        phi, w = rng.uniform(-2, 2, 2)
        a = np.array(fa.f(0, [phi, w], [], [])).ravel()
        b = np.array(fb.f(0, [-phi, -w], [], [])).ravel()
        assert np.allclose(a, -b, atol=1e-13)


def test_structure_report_lists_everything():
    system = jd.compile(jd.Model.on_world(World(), cube=CubeOnEdge()),
                        speeds={"u1": "cube.edge.phi.der",
                                "u2": "cube.edge.phi.der + cube.bearing.phi.der"},
                        parameters=["cube.wheel.m"])
    report = system.report()
    for text in ["bodies (2): cube.housing, cube.wheel", "joints (3): cube.edge, cube.mount, "
                 "cube.bearing", "cube.edge.phi [rad]", "u2 = (cube.edge.w+cube.bearing.w)",
                 "inputs u (1): cube.motor.tau", "cube.wheel.m=0.204", "operation counts",
                 "(with the joint speeds as generalized speeds: M: "]:
        assert text in report, text
    assert "4 coordinates" not in repr(system) and "2 coordinates" in repr(system)


def test_library_models_expose_frame_a():
    model = jd.Model.on_world(World(), dp=DoublePendulum())
    assert jd.compile(model).y_names == ["dp.joint1.phi", "dp.joint2.phi"]
