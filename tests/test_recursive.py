"""The recursive back end (ABA, CRBA, RNEA) against the projection method and Pinocchio.

References: the other formulation (projection, dynamics.jourdain) for f, M, k, q to round-off
(1e-10 relative), and Pinocchio's CRBA (an established peer) for the mass matrix.
"""
import time

import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import (Composite, FixedRotation, FixedTranslation, FreeJoint, ModelError,
                             Prismatic, Revolute, RigidBody, Spherical, ViscousFriction, World)
from jourdain.library import (BalancedCubeOnCorner, BalancedCubeOnEdge, CartPole,
                              CrankSlider, CubeOnCorner, CubeOnEdge, DifferentialDrive,
                              DoublePendulum, FourBar, NLinkPendulum, Pendulum, RandomTree,
                              RollingDisk, Wheel)

TOL = 1e-10


def _random_point(system, rng):
    """A random state (unit quaternions where there are quaternions), input and parameters."""
    x = rng.normal(size=system.nx)
    names = system.y_names
    for k, name in enumerate(names):
        if name.endswith(".q0"):
            x[k:k + 4] /= np.linalg.norm(x[k:k + 4])
    u = rng.normal(size=len(system.u_names))
    return 0.7, x, u, system.p_default


def _close(a, b, what):
    a, b = np.array(a, dtype=float), np.array(b, dtype=float)
    scale = max(1.0, float(np.abs(a).max()) if a.size else 1.0)
    assert np.abs(a - b).max(initial=0.0) <= TOL * scale, f"{what}: {np.abs(a - b).max()}"


def _agree(model, speeds=None, seed=0, parameters=()):
    """f, M, k, q of both back ends at random points (and perturbed symbolic parameters)."""
    proj = jd.compile(model, speeds=speeds, parameters=parameters,
                      backend=jd.Backend.PROJECTION)
    rec = jd.compile(model, speeds=speeds, parameters=parameters, backend=jd.Backend.RECURSIVE)
    assert proj.backend is jd.Backend.PROJECTION and rec.backend is jd.Backend.RECURSIVE
    rng = np.random.default_rng(seed)
    ny = len(proj.y_names)
    for _ in range(3):
        t, x, u, p = _random_point(proj, rng)
        p = p * rng.uniform(0.8, 1.2, p.size)  # keeps masses positive, inertias near physical
        y, z = x[:ny], x[ny:]
        _close(proj.f(t, x, u, p), rec.f(t, x, u, p), "f")
        _close(proj.M(y, p), rec.M(y, p), "M")
        _close(proj.k(y, z, p), rec.k(y, z, p), "k")
        _close(proj.q(t, y, z, u, p), rec.q(t, y, z, u, p), "q")


@pytest.mark.parametrize("part", [Pendulum(d=0.3), DoublePendulum(m2=2.0, l2=0.5),
                                  CartPole(d=0.2), CubeOnEdge(C_phi=1e-3), NLinkPendulum(4),
                                  CubeOnCorner(),
                                  BalancedCubeOnEdge(K=[[-3.0, -0.4, -0.01]], tau_max=0.2),
                                  BalancedCubeOnCorner(K=0.1 * np.arange(27.0).reshape(3, 9),
                                                       tau_max=0.5)],
                         ids=lambda c: type(c).__name__)
def test_library_models_agree(part):
    """Every tree-structured library model (closed loops and rolling contacts: below)."""
    _agree(jd.Model.on_world(World(), part=part))


@pytest.mark.parametrize("part", [FourBar(), CrankSlider(), RollingDisk(), Wheel(),
                                  DifferentialDrive()], ids=lambda c: type(c).__name__)
def test_constrained_models_agree(part):
    """Closed loops and rolling contacts: the articulated-body algorithm over loop nodes
    (Backend.RECURSIVE, the default) against Jourdain's projection with G substituted
    symbolically (Backend.PROJECTION), f, M, k, q at assembled random states; the partition
    is the same, so the speeds z are."""
    model = jd.Model.on_world(World(), part=part)
    proj = jd.compile(model, backend=jd.Backend.PROJECTION)
    rec = jd.compile(model, backend=jd.Backend.RECURSIVE)
    assert proj.backend is jd.Backend.PROJECTION and rec.backend is jd.Backend.RECURSIVE
    assert proj.z_names == rec.z_names
    rng = np.random.default_rng(3)
    ny = len(proj.y_names)
    for _ in range(3):
        x = proj.state(z0={n: rng.uniform(-2, 2) for n in proj.z_names})
        free = [i for i, n in enumerate(proj.y_names) if n not in proj.dependent_coordinates
                and not n.split(".")[-1].startswith("q")]
        x[free] += rng.uniform(-0.3, 0.3, len(free))
        if "project" in proj.functions:
            x = np.array(proj.project(x, proj.p_default)).ravel()
        t, u, p = 0.3, rng.normal(size=len(proj.u_names)), proj.p_default
        y, z = x[:ny], x[ny:]
        _close(proj.f(t, x, u, p), rec.f(t, x, u, p), "f")
        _close(proj.M(y, p), rec.M(y, p), "M")
        _close(proj.k(y, z, p), rec.k(y, z, p), "k")
        _close(proj.q(t, y, z, u, p), rec.q(t, y, z, u, p), "q")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_trees_agree(seed):
    _agree(jd.Model.on_world(World(g=(0.3, -9.81, 1.2)), tree=RandomTree(7, seed=seed)),
           seed=seed)


class MixedTree(Composite):
    """Free-floating base, a ball joint, then a revolute (with a damper) and a prismatic joint
    on a tilted axis that the tree traverses from frame_b to frame_a (backwards)."""

    def __init__(self):
        super().__init__()
        rng = np.random.default_rng(5)
        self.free = FreeJoint()
        self.base = RigidBody(m=2.0, r_cm=(0.1, 0.0, -0.05), I=(0.05, 0.07, 0.09))
        self.arm = FixedTranslation(r=(0.3, 0.1, 0.0))
        self.ball = Spherical()
        self.upper = RigidBody(m=1.0, r_cm=(0.0, -0.2, 0.1), I=(0.02, 0.01, 0.025))
        self.hinge = Revolute(axis=(0.2, 0.3, 1.0))
        self.lower = RigidBody(m=0.7, r_cm=(0.05, -0.15, 0.0), I=(0.01, 0.008, 0.012))
        self.tilt = FixedRotation(angle=0.4, r=(0.0, -0.3, 0.05), axis=(1, 1, 0))
        self.slide = Prismatic(axis=tuple(rng.normal(size=3)))
        self.tip = RigidBody(m=0.4, r_cm=(0.02, 0.0, 0.03), I=(0.003, 0.002, 0.004))
        self.damper = ViscousFriction(d=0.3)
        self.connect(self.free.frame_b, self.base.frame_a)
        self.connect(self.base.frame_a, self.arm.frame_a)
        self.connect(self.arm.frame_b, self.ball.frame_a)
        self.connect(self.ball.frame_b, self.upper.frame_a)
        self.connect(self.upper.frame_a, self.hinge.frame_b)   # reversed joint
        self.connect(self.hinge.frame_a, self.lower.frame_a)
        self.connect(self.lower.frame_a, self.tilt.frame_a)
        self.connect(self.tilt.frame_b, self.slide.frame_b)    # reversed joint
        self.connect(self.slide.frame_a, self.tip.frame_a)
        self.connect(self.damper.flange_b, self.hinge.axis)
        self.expose(self.free.frame_a, "frame_a")


def test_quaternion_and_reversed_joints_agree():
    _agree(jd.Model.on_world(World(), tree=MixedTree()), seed=3)


def test_user_speeds_agree():
    """z = W(y)·w with a configuration-dependent W (seed 000 style speeds and a cos term)."""
    speeds = {"u1": "cube.edge.phi.der",
              "u2": "cube.edge.phi.der + cos(cube.edge.phi) * cube.bearing.phi.der"}
    _agree(jd.Model.on_world(World(), cube=CubeOnEdge(C_phi=1e-3)), speeds=speeds)


def test_symbolic_parameters_agree():
    """Mass, center of mass, inertia tensor and a rigid offset kept symbolic in p."""
    _agree(jd.Model.on_world(World(), cube=CubeOnEdge(C_phi=1e-3)),
           parameters=["cube.housing", "cube.mount", "cube.wheel.m", "world.g"])


def test_auto_chooses_by_size():
    small = jd.compile(jd.Model.on_world(World(), chain=NLinkPendulum(3)))
    large = jd.compile(jd.Model.on_world(World(), chain=NLinkPendulum(13)))
    assert small.backend is jd.Backend.PROJECTION
    assert large.backend is jd.Backend.RECURSIVE
    chosen = {"u1": "chain.joint1.w + chain.joint2.w",
              "u2": "cos(chain.joint3.phi) * chain.joint3.w + chain.joint4.w"}
    model = jd.Model.on_world(World(), chain=NLinkPendulum(13))
    auto = jd.compile(model, speeds=chosen)  # user speeds count as speeds
    assert auto.backend is jd.Backend.RECURSIVE and auto.z_names[:2] == ["u1", "u2"]
    reference = jd.compile(model, speeds=chosen, backend=jd.Backend.PROJECTION)
    x = np.random.default_rng(0).normal(size=auto.nx)  # the other formulation agrees
    _close(reference.f(0, x, [], auto.p_default), auto.f(0, x, [], auto.p_default), "f")


def test_recursive_lagrange_is_refused():
    model = jd.Model.on_world(World(), chain=NLinkPendulum(2))
    with pytest.raises(ModelError, match="Formulation.JOURDAIN"):
        jd.compile(model, formulation=jd.Formulation.LAGRANGE, backend=jd.Backend.RECURSIVE)
    with pytest.raises(ModelError, match="jd.Backend"):
        jd.compile(model, backend="recursive")


def _depth_first(parents: list[int]) -> list[int]:
    """Bodies (1-based) in depth-first order: Pinocchio's CRBA needs each subtree's joints
    contiguous."""
    order, stack = [], [0]
    while stack:
        node = stack.pop()
        if node:
            order.append(node)
        stack += [i for i in range(len(parents), 0, -1) if parents[i - 1] == node]
    return order


def _pinocchio_model(tree: RandomTree):
    """The same tree in Pinocchio (joint i at the offset's pose in its parent joint's frame)
    and, per body in jourdain's order, its velocity index in Pinocchio."""
    pin = pytest.importorskip("pinocchio")
    model, ids = pin.Model(), {0: 0}
    for i in _depth_first(tree.parents):
        offset, joint = getattr(tree, f"offset{i}"), getattr(tree, f"joint{i}")
        body = getattr(tree, f"body{i}")
        axis = np.array(joint.axis_direction)
        kind = pin.JointModelPrismaticUnaligned if isinstance(joint, Prismatic) \
            else pin.JointModelRevoluteUnaligned
        rotation = pin.AngleAxis(offset.angle, np.array(offset.axis)).toRotationMatrix()
        placement = pin.SE3(rotation, np.array(offset.r))
        ids[i] = model.addJoint(ids[tree.parents[i - 1]], kind(axis), placement, f"joint{i}")
        model.appendBodyToJoint(ids[i], pin.Inertia(body.m, np.array(body.r_cm),
                                                    np.array(body.I)), pin.SE3.Identity())
    index = [model.joints[ids[i]].idx_v for i in range(1, len(tree.parents) + 1)]
    return pin, model, index


@pytest.mark.parametrize("seed", [0, 4])
def test_mass_matrix_matches_pinocchio_crba(seed):
    tree = RandomTree(9, seed=seed)
    pin, pmodel, index = _pinocchio_model(tree)
    system = jd.compile(jd.Model.on_world(World(), tree=tree), backend=jd.Backend.RECURSIVE)
    y = np.random.default_rng(seed).uniform(-2, 2, len(system.y_names))
    q = np.zeros(pmodel.nq)
    q[index] = y
    M_pin = pin.crba(pmodel, pmodel.createData(), q)
    M_pin = np.triu(M_pin) + np.triu(M_pin, 1).T
    _close(M_pin[np.ix_(index, index)], system.M(y, system.p_default), "M vs Pinocchio")


@pytest.mark.parametrize("part", [NLinkPendulum(100), RandomTree(50, seed=7)],
                         ids=["chain100", "tree50"])
def test_large_systems_build_and_simulate(part):
    """A 100-link chain and a 50-body random tree (springs, dampers) build and simulate 2 s in
    seconds (generous 60 s bound); reference: the energy balance E(t) + ∫P dt = E(0) with P the
    power of the dampers (conservation law), relative error below 1e-5."""
    start = time.perf_counter()
    system = jd.compile(jd.Model.on_world(World(), part=part))
    assert system.backend is jd.Backend.RECURSIVE
    result = system.simulate(2.0, y0={system.y_names[0]: 0.4}, n_out=801)
    assert time.perf_counter() - start < 60.0
    p = system.p_default
    xs = np.asarray(result.x).T
    energy = np.array([float(np.sum(np.array(system.energy(x, p)))) for x in xs])
    power = np.array([float(system.dissipation(t, x, [], p)) for t, x in zip(result.t, xs)])
    dissipated = np.concatenate([[0.0], np.cumsum(np.diff(result.t) * 0.5 *
                                                  (power[1:] + power[:-1]))])
    scale = max(1.0, float(np.abs(energy).max()))
    assert np.abs(energy + dissipated - energy[0]).max() <= 1e-5 * scale
