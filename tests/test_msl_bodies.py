"""Body checks decided by physics (issue 26): a body with m = 0 carrying only an inertia (the
MSL's ActuatedDrive) is accepted, a Rotor1D on a housing lighter than the rotor (the MSL's
BevelGear1D pattern) gives a regular but indefinite mass matrix that is accepted, and what is
not physical or not solvable is still refused by name."""
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import Motor, Revolute, RigidBody, Rotor1D, World


def _massless_rotor(I=(2.0, 0.0, 0.0)):
    m = jd.Model(world=World(g=(0, 0, 0)))
    m.joint, m.rotor, m.motor = Revolute(n=(1, 0, 0)), RigidBody(m=0.0, I=I), Motor()
    m.connect(m.world.frame_b, m.joint.frame_a)
    m.connect(m.joint.frame_b, m.rotor.frame_a)
    m.connect(m.motor.flange_b, m.joint.axis)
    return jd.compile(m)


def test_massless_body_with_rotor_inertia():
    """Reference: closed form φ = τ·t²/(2·J) of J·φ̈ = τ with J = I_11 = 2 kg·m² of a body
    with m = 0 and I = diag(2, 0, 0) (the MSL's ActuatedDrive BodyShape), τ = 3 N·m."""
    system = _massless_rotor()
    res = system.simulate(1.0, inputs={"motor.tau": 3.0}, n_out=11, rtol=1e-10, atol=1e-12,
                          progress=False)
    assert np.abs(res["joint.phi"] - 3.0 * res.t**2 / 4.0).max() < 1e-8


def test_massless_body_without_inertia_about_its_axis_is_a_singular_mass_matrix():
    """Reference: M = [I_11] = 0 about the joint's axis: the system's mass matrix is
    singular, named at compile time (the body alone is legitimate)."""
    with pytest.raises(jd.ModelError, match="mass matrix is singular: speed.*joint.w"):
        _massless_rotor(I=(0.0, 1.0, 1.0))


def _rotor_on_light_housing(I_h, J=1.1):
    """A housing (inertia I_h about y) on a revolute about y, a Rotor1D (J about y) on it and
    a Motor between rotor and housing: T = ½·I_h·ω² + J·ω·w + ½·J·w² (the MSL's Rotor1D adds
    only the relative rotation's effects), M = [[I_h, J], [J, J]], indefinite when I_h < J."""
    m = jd.Model(world=World(g=(0, 0, 0)))
    m.hinge = Revolute(n=(0, 1, 0))
    m.housing = RigidBody(m=1.0, I=(I_h, I_h, I_h))
    m.rotor, m.motor = Rotor1D(J=J, n=(0, 1, 0)), Motor()
    m.connect(m.world.frame_b, m.hinge.frame_a)
    m.connect(m.hinge.frame_b, m.housing.frame_a)
    m.connect(m.hinge.frame_b, m.rotor.frame_a)
    m.connect(m.motor.flange_b, m.rotor.flange_a)
    return jd.compile(m)


def test_rotor_on_a_light_housing_indefinite_but_regular():
    """Reference: Lagrange's equations of T above with the motor torque τ on w only:
    I_h·ω̇ + J·ẇ = 0, J·(ω̇ + ẇ) = τ, so ω̇ = τ/(J − I_h), ẇ = −I_h·ω̇/J (closed form);
    the mass matrix has one negative eigenvalue (indefinite) and is regular, as in the MSL's
    BevelGear1D example, and the energy T changes by the motor's work ∫τ·w dt."""
    I_h, J, tau = 0.1, 1.1, 0.5
    system = _rotor_on_light_housing(I_h, J)
    eig = np.linalg.eigvalsh(np.array(system.M([0.0, 0.0], system.p_default)))
    assert eig[0] < 0 < eig[1]
    res = system.simulate(2.0, inputs={"motor.tau": tau}, n_out=21, rtol=1e-10, atol=1e-12,
                          progress=False)
    w_dot = tau / (J - I_h)
    assert np.abs(res["hinge.w"] - w_dot * res.t).max() < 1e-8
    assert np.abs(res["rotor.w"] + I_h * w_dot / J * res.t).max() < 1e-8
    work = tau * (-I_h * w_dot / J) * res.t**2 / 2
    T = np.array([float(system.energy(x, system.p_default)[0]) for x in res.x.T])
    assert np.abs(T - work).max() < 1e-8


def test_rotor_whose_housing_cancels_its_inertia_is_singular():
    """Reference: det M = J·(I_h − J) = 0 at I_h = J: refused as a singular mass matrix."""
    with pytest.raises(jd.ModelError, match="mass matrix is singular"):
        _rotor_on_light_housing(I_h=1.1, J=1.1)


@pytest.mark.parametrize("body, pattern", [
    ({"m": -1.0, "I": (1, 1, 1)}, "mass m must be ≥ 0"),
    ({"m": 0.0, "I": (1.0, 1.0, -0.5)}, "positive semi-definite"),
    ({"m": 0.0, "I": (0, 0, 0)}, "m = 0 and inertia I = 0 carries nothing"),
    ({"m": 1.0, "I": (2.0, 0.0, 0.0)}, "triangle inequality.*m = 0"),
])
def test_non_physical_bodies_are_still_refused(body, pattern):
    """Reference: the physics of a rigid body: m ≥ 0, I positive semi-definite, and with a
    mass distribution (m > 0) the triangle inequality of the principal moments."""
    m = jd.Model(world=World())
    m.joint, m.bob = Revolute(n=(1, 0, 0)), RigidBody(**body)
    m.connect(m.world.frame_b, m.joint.frame_a)
    m.connect(m.joint.frame_b, m.bob.frame_a)
    with pytest.raises(jd.ModelError, match="bob: .*" + pattern):
        jd.compile(m)
