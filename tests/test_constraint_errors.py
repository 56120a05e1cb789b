"""Bad input to the constraint stage: each a ModelError naming the parts involved (DESIGN.md
§5)."""
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import (Composite, FixedTranslation, Prismatic, Revolute, RigidBody,
                             RollingContact, World)
from jourdain.library import FourBar
from jourdain.library.wheel import disk_inertia


def _compile(**children):
    return jd.compile(jd.Model.on_world(World(), **children))


def test_loop_that_cannot_close():
    """A ground link longer than the three other links together: no assembly exists."""
    with pytest.raises(jd.ModelError, match=r"assembly failed.*fb\.pin.*closing the loop"):
        _compile(fb=FourBar(l0=2.0, l1=0.2, l2=0.8, l3=0.5))


def test_loop_locked_stretched_cannot_be_vouched_for():
    """A ground link exactly as long as the other three together (1.5 = 0.2 + 0.8 + 0.5):
    the loop closes only stretched along one line, a singular position whose constraint rank
    (1 there, 2 a hair away, where Gauss–Newton stops) would promise one freedom that the
    locked linkage does not have. No re-assembly reaches another configuration, so the
    degrees of freedom cannot be vouched for: a ModelError naming the loop and what to do.
    Reference: the triangle inequality (a 1.4999 m ground link moves, by ±0.04 rad of the
    crank: it compiles with one speed)."""
    with pytest.raises(jd.ModelError, match=r"constraints of fb\.pin .*no other configuration "
                                            r"could be assembled.*cannot be vouched for.*"
                                            r"link lengths"):
        _compile(fb=FourBar(l0=1.5, l1=0.2, l2=0.8, l3=0.5))
    assert _compile(fb=FourBar(l0=1.4999, l1=0.2, l2=0.8, l3=0.5)).z_names == ["fb.crank.w"]


def test_assembly_request_that_cannot_be_met():
    """A non-Grashof four-bar whose crank cannot point away from the rocker pivot: the
    message names the loop and the coordinate held fixed."""
    system = _compile(fb=FourBar(l0=1.0, l1=0.5, l2=0.6, l3=0.5))
    with pytest.raises(jd.ModelError, match=r"fb\.pin.*fb\.crank\.phi = 3\.14"):
        system.state(y0={"fb.crank.phi": np.pi})


def test_initial_speeds_violating_constraints():
    """A dependent speed that disagrees with G(y)·z is rejected, naming it and the loop."""
    system = _compile(fb=FourBar())
    with pytest.raises(jd.ModelError, match=r"initial speeds violate.*fb\.rocker\.w.*fb\.pin"):
        system.state(y0={"fb.crank.phi": 1.0}, z0={"fb.crank.w": 1.0, "fb.rocker.w": 5.0})
    consistent = system.state(y0={"fb.crank.phi": 1.0}, z0={"fb.crank.w": 1.0})
    assert consistent.size == 4


class _Cart(Composite):
    """A cart on a rail carrying a spinning disk whose hub sits at height ``hub`` [m]; the
    contact has radius R [m]. ``rail=False`` fixes the axle to the ground."""

    def __init__(self, hub: float, R: float, rail: bool = True):
        super().__init__()
        if rail:
            self.rail = Prismatic(axis=(1, 0, 0))
        self.hub = FixedTranslation(r=(0, hub, 0))
        self.spin = Revolute(axis=(0, 0, -1))
        self.disk = RigidBody(m=1.0, I=disk_inertia(1.0, R))
        self.contact = RollingContact(R=R)
        if rail:
            self.connect(self.rail.frame_b, self.hub.frame_a)
            self.expose(self.rail.frame_a, "frame_a")
        else:
            self.expose(self.hub.frame_a, "frame_a")
        self.connect(self.hub.frame_b, self.spin.frame_a)
        self.connect(self.spin.frame_b, self.disk.frame_a)
        self.connect(self.spin.frame_b, self.contact.frame_a)


def test_cart_rolls_consistently():
    """Control case: hub height = radius: the height equation is redundant and consistent,
    the no-slip along the rail couples s and φ (s = R·φ, integrable)."""
    system = _compile(cart=_Cart(hub=0.3, R=0.3))
    assert system.integrability.holonomic and system.integrability.g == 1


def test_redundant_and_inconsistent_contact_height():
    """Hub 0.3 m above ground, disk radius 0.25 m: the contact height equation is redundant
    (no coordinate changes it) and inconsistent (it is 0.05 m, never 0)."""
    with pytest.raises(jd.ModelError, match=r"assembly failed.*cart\.contact"):
        _compile(cart=_Cart(hub=0.3, R=0.25))


def test_contact_without_freedom_to_roll():
    """A disk on a fixed axle can only spin, and no-slip forbids spinning in place."""
    with pytest.raises(jd.ModelError, match=r"cart\.contact.*no freedom of motion"):
        _compile(cart=_Cart(hub=0.3, R=0.3, rail=False))


def test_constrained_speeds_must_be_joint_speeds():
    """With constraints a user speed must be one joint speed, which is then kept independent
    together with its coordinate."""
    with pytest.raises(jd.ModelError, match=r"single joint speed"):
        jd.compile(jd.Model.on_world(World(), fb=FourBar()),
                   speeds={"u": "fb.crank.w + fb.rocker.w"})
    system = jd.compile(jd.Model.on_world(World(), fb=FourBar()), speeds={"u": "fb.rocker.w"})
    assert system.z_names == ["u"] and "fb.rocker.phi" not in system.dependent_coordinates


def test_lagrange_refuses_constraints():
    """Lagrange's equations are implemented for trees; a loop asks for the projection."""
    with pytest.raises(jd.ModelError, match=r"Formulation\.JOURDAIN"):
        jd.compile(jd.Model.on_world(World(), fb=FourBar()),
                   formulation=jd.Formulation.LAGRANGE)


def _driven_four_bar(*joints):
    from jourdain.blocks import ViscousFriction
    model = jd.Model.on_world(World(), fb=FourBar())
    for name in joints:
        damper = model.add(f"damper_{name}", ViscousFriction(d=0.1))
        model.connect(damper.flange_b, getattr(model.fb, name).axis)
    return model


def test_driven_joints_are_not_cut():
    """A damper on the pin keeps the pin in the spanning tree: another joint closes the loop."""
    system = jd.compile(_driven_four_bar("pin"))
    assert "fb.rocker (closing the loop" in system.report()


def test_loop_of_driven_joints_names_the_cut_joint():
    """When every joint of the loop is driven, the cut one is named with the remedy."""
    with pytest.raises(jd.ModelError, match=r"fb\.pin closes the loop.*force elements act on its "
                                            r"axis flange"):
        jd.compile(_driven_four_bar("crank", "coupler", "rocker", "pin"))


def test_given_dependent_coordinate_is_held_fixed():
    """Reference: constraint residual. A dependent coordinate given in y0 (the rocker angle)
    is held and the crank and coupler are assembled to it (c(y) = 0 to 1e-12); a complete y
    from an earlier state is accepted as it is. Held means the given value itself, up to
    round-off (one ulp of 0.3; the continuation used to land at 0.29999999999999993)."""
    system = _compile(fb=FourBar())
    x = system.state(y0={"fb.rocker.phi": 0.3})
    assert abs(x[system.y_names.index("fb.rocker.phi")] - 0.3) <= np.spacing(0.3)
    assert np.abs(np.array(system.c(x[:3], system.p_default))).max() < 1e-12
    again = system.state(y0=dict(zip(system.y_names, x[:3])))
    assert np.allclose(again, x, atol=1e-12)


def test_over_determined_initial_coordinates():
    """Crank and rocker angles both given and incompatible: the rocker is named with the
    value the loop requires (it used to be replaced silently)."""
    system = _compile(fb=FourBar())
    with pytest.raises(jd.ModelError, match=r"fb\.rocker\.phi = 0\.3 cannot be met under the "
                                            r"constraints of fb\.pin.*fb\.crank\.phi held"):
        system.state(y0={"fb.crank.phi": 1.0, "fb.rocker.phi": 0.3})
    # Alone, a rocker angle beyond the rocker's swing on the reference branch is impossible.
    with pytest.raises(jd.ModelError, match=r"fb\.rocker\.phi = 3"):
        system.state(y0={"fb.rocker.phi": 3.0})


def test_disk_height_cannot_be_chosen():
    """The center height of a rolling disk is fixed by the contact: 0.6 m for R = 0.25 m."""
    from jourdain.library import RollingDisk
    system = _compile(disk=RollingDisk(R=0.25))
    with pytest.raises(jd.ModelError, match=r"disk\.joint\.y = 0\.6 cannot be met under the "
                                            r"constraints of disk\.contact \(nearest assembled: "
                                            r"disk\.joint\.y = 0\.25\)"):
        system.state(y0={"disk.joint.y": 0.6})


def test_disk_lying_flat_is_refused():
    """A disk with its axle vertical has no rolling direction: the contact's no-slip equations
    are undefined (0/0), which is reported instead of a numpy/NaN failure."""
    from jourdain.library import RollingDisk
    system = _compile(disk=RollingDisk())
    flat = {"disk.joint.q0": np.cos(np.pi / 4), "disk.joint.q1": np.sin(np.pi / 4)}
    with pytest.raises(jd.ModelError, match=r"disk\.contact are undefined.*lying flat"):
        system.simulate(0.1, y0=flat)


class _Welded(Composite):
    """A disk bolted to the world, touching the ground: a contact with no joint at all."""

    def __init__(self):
        super().__init__()
        self.hub = FixedTranslation(r=(0, 0.25, 0))
        self.disk = RigidBody(m=1.0, I=disk_inertia(1.0, 0.25))
        self.contact = RollingContact(R=0.25)
        self.connect(self.hub.frame_b, self.disk.frame_a)
        self.connect(self.hub.frame_b, self.contact.frame_a)
        self.expose(self.hub.frame_a, "frame_a")


def test_welded_contact_is_named():
    with pytest.raises(jd.ModelError, match=r"constraints of w\.contact leave .*no freedom"):
        _compile(w=_Welded())


class _Triangle(Composite):
    """Three unit links pinned in a triangle: a rigid structure (Grübler: 3·2 − 2·3 = 0)."""

    def __init__(self):
        super().__init__()
        self.j1, self.j2, self.j3 = Revolute(), Revolute(), Revolute()
        self.b1, self.b2 = RigidBody(m=1.0, r_cm=(0.5, 0, 0)), RigidBody(m=1.0, r_cm=(0.5, 0, 0))
        self.e1, self.e2 = FixedTranslation(r=(1, 0, 0)), FixedTranslation(r=(1, 0, 0))
        self.base = FixedTranslation(r=(1, 0, 0))
        for a, b in ((self.j1.frame_b, self.b1.frame_a), (self.j1.frame_b, self.e1.frame_a),
                     (self.e1.frame_b, self.j2.frame_a), (self.j2.frame_b, self.b2.frame_a),
                     (self.j2.frame_b, self.e2.frame_a), (self.j1.frame_a, self.base.frame_a),
                     (self.base.frame_b, self.j3.frame_a), (self.e2.frame_b, self.j3.frame_b)):
            self.connect(a, b)
        self.expose(self.j1.frame_a, "frame_a")


def test_loop_without_mobility_is_a_structure():
    with pytest.raises(jd.ModelError, match=r"t\.j3 \(closing the loop.*no freedom of motion.*"
                                            r"rigid structure"):
        _compile(t=_Triangle())


@pytest.mark.parametrize("bad", [(-1.0, 10.0), 5.0, (1.0, float("nan"))])
def test_baumgarte_rates_are_checked(bad):
    with pytest.raises(jd.ModelError, match=r"baumgarte must be a pair"):
        jd.compile(jd.Model.on_world(World(), fb=FourBar()),
                   constraints=jd.ConstraintMethod.BAUMGARTE, baumgarte=bad)


@pytest.mark.parametrize("method", [jd.ConstraintMethod.BAUMGARTE, jd.ConstraintMethod.DAE])
def test_inconsistent_x0_is_refused(method):
    """A raw state x0 bypasses assembly: with all joint speeds in x, a moved crank angle or a
    dependent speed off G(y)·z would be integrated silently; it is refused naming the loop
    (reference: constraint residual, 0.097 rad and 0.044 rad/s here)."""
    system = jd.compile(jd.Model.on_world(World(), fb=FourBar()), constraints=method)
    x = system.state(y0={"fb.crank.phi": 1.0}, z0={"fb.crank.w": 1.0})
    # the accepted x0 starts the run (the assembly tolerance, 1e-12, bounds any touch-up)
    assert system.simulate(0.05, x0=x, n_out=3)["fb.crank.phi"][0] == pytest.approx(1.0,
                                                                                  abs=1e-12)
    for k in (0, -1):
        bad = x.copy()
        bad[k] += 0.1
        with pytest.raises(jd.ModelError, match=r"x0 violates the constraints of fb\.pin"):
            system.simulate(0.05, x0=bad)


class _FlatDisk(Composite):
    """A contact whose axle is the vertical y axis: the disk lies flat in its default pose."""

    def __init__(self):
        from jourdain.blocks import FreeJoint
        super().__init__()
        self.joint = FreeJoint()
        self.disk = RigidBody(m=1.0, I=disk_inertia(1.0, 0.25))
        self.contact = RollingContact(R=0.25, axis=(0, 1, 0))
        self.connect(self.joint.frame_b, self.disk.frame_a)
        self.connect(self.joint.frame_b, self.contact.frame_a)
        self.expose(self.joint.frame_a, "frame_a")


def test_contact_axis_that_lays_the_disk_flat():
    """A disk whose default pose lies flat (axle along the plane normal) has no contact point
    there; compile checks the constraints at the assembled reference configuration instead
    (issue 12: not at the coordinates' defaults), where the disk stands. Reference:
    constraint residual at y_ref and a finite constraint Jacobian there; a flat initial
    state given by the user is still refused (test_disk_lying_flat_is_refused)."""
    system = _compile(d=_FlatDisk())
    p = system.p_default
    assert np.isfinite(np.array(system.A(system.y_ref, p))).all()
    assert np.abs(np.array(system.c(system.y_ref, p))).max() < 1e-10
    with pytest.raises(jd.ModelError, match="undefined at the initial configuration"):
        system.state(y0={"d.joint.q0": 1.0, "d.joint.q1": 0.0, "d.joint.q2": 0.0,
                         "d.joint.q3": 0.0})


class _SkewFourBar(Composite):
    """The library four-bar's geometry with the rocker pivot moved ``dz`` [m] out of the
    plane: the three out-of-plane closure equations, redundant for dz = 0, become
    inconsistent (revolute axes along z cannot bridge a z offset)."""

    def __init__(self, dz: float):
        from jourdain.blocks import FixedRotation
        from jourdain.library.linkages import rod, wire_four_bar
        super().__init__()
        self.crank, self.coupler = Revolute(), Revolute()
        self.rocker, self.pin = Revolute(), Revolute()
        self.crank_end = FixedTranslation(r=(0.2, 0, 0))
        self.coupler_end = FixedTranslation(r=(0.8, 0, 0))
        self.rocker_end = FixedTranslation(r=(0.5, 0, 0))
        self.ground = FixedRotation(r=(0.8, 0, dz), angle=np.pi / 2)
        self.crank_rod, self.coupler_rod = rod(1.0, 0.2), rod(1.0, 0.8)
        self.rocker_rod = rod(1.0, 0.5)
        wire_four_bar(self, self.coupler, self.pin)


def test_redundant_loop_equations_that_are_inconsistent():
    """Control dz = 0: 5 equations of rank 2, 3 redundant and consistent. dz = 0.1 m: the
    redundant equations cannot hold (residual 0.1 m), named with the loop."""
    system = _compile(fb=_SkewFourBar(0.0))
    assert len(system.partition.redundant_rows) == 3 and system.z_names == ["fb.crank.w"]
    with pytest.raises(jd.ModelError, match=r"assembly failed.*fb\.pin \(closing the loop.*"
                                            r"largest residual 0\.1\b"):
        _compile(fb=_SkewFourBar(0.1))
