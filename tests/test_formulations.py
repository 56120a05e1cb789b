"""Jourdain's principle (projection) and Lagrange's equations with a dissipation function
(seeds 001, 003, 004) are independent derivations; reference: they agree to round-off on every
library model at random states, with default and user-chosen speeds."""
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import (CoulombFriction, QuadraticDrag, RigidBody, Revolute,
                             RotationalSpring, Spherical, World)
from jourdain.library import CubeOnEdge

from conftest import SEED_SPEEDS, library_models


def _agree(model, rng, speeds=None, parameters=()):
    a = jd.compile(model, speeds=speeds, parameters=parameters)
    b = jd.compile(model, speeds=speeds, parameters=parameters,
                   formulation=jd.Formulation.LAGRANGE)
    for _ in range(10):
        x = rng.uniform(-2, 2, a.nx)
        u = rng.uniform(-1, 1, len(a.u_names))
        p = a.p_default * rng.uniform(0.5, 1.5, a.p_default.size)
        fa, fb = np.array(a.f(0.3, x, u, p)).ravel(), np.array(b.f(0.3, x, u, p)).ravel()
        assert np.allclose(fa, fb, rtol=1e-10, atol=1e-10 * max(1.0, np.abs(fa).max()))


@pytest.mark.parametrize("name", sorted(library_models()))
def test_library_models_agree(name, rng):
    _agree(library_models()[name](), rng)


def test_agree_with_seed_speeds_and_symbolic_parameters(rng):
    model = jd.Model.on_world(World(), cube=CubeOnEdge(C_phi=1e-3))
    _agree(model, rng, speeds=SEED_SPEEDS, parameters=["cube", "world"])


def test_agree_with_springs_coulomb_and_drag_on_a_3d_chain(rng):
    """Skewed axes, offsets and full inertia tensors exercise the 3-D kinematics."""
    model = jd.Model(world=World(g=(0.3, -9.81, 0.5)))
    model.j1 = Revolute(axis=(0.2, 0.1, 1.0))
    model.b1 = RigidBody(m=1.3, r_cm=(0.1, -0.4, 0.05),
                         I=[[0.05, 0.001, 0.002], [0.001, 0.03, 0.0], [0.002, 0.0, 0.04]])
    model.j2 = Revolute(axis=(1.0, 0.0, 0.3))
    model.b2 = RigidBody(m=0.6, r_cm=(0.0, -0.3, 0.1), I=(0.01, 0.02, 0.015))
    model.spring = RotationalSpring(c=3.0, phi_rel0=0.2)
    model.coulomb = CoulombFriction(mu=0.3, N=2.0, w_eps=0.05)
    model.drag = QuadraticDrag(c=0.2)
    model.connect(model.world.frame_b, model.j1.frame_a)
    model.connect(model.j1.frame_b, model.b1.frame_a)
    model.connect(model.j1.frame_b, model.j2.frame_a)
    model.connect(model.j2.frame_b, model.b2.frame_a)
    model.connect(model.spring.flange_a, model.j1.axis)
    model.connect(model.spring.flange_b, model.j2.axis)
    model.connect(model.coulomb.flange_b, model.j2.axis)
    model.connect(model.drag.flange_b, model.j1.axis)
    _agree(model, rng)
    _agree(model, rng, speeds={"s1": "j1.phi.der + 2*cos(j2.phi)*j2.phi.der"})


def test_lagrange_rejects_quaternion_coordinates():
    model = jd.Model(world=World())
    model.ball, model.body = Spherical(), RigidBody(m=1.0, r_cm=(0, 0.2, 0), I=(1, 1, 1))
    model.connect(model.world.frame_b, model.ball.frame_a)
    model.connect(model.ball.frame_b, model.body.frame_a)
    with pytest.raises(jd.ModelError, match="ball.*quaternion"):
        jd.compile(model, formulation=jd.Formulation.LAGRANGE)
