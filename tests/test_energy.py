"""Conservation laws. Reference: a conservative model keeps T + V constant (to the integrator
tolerance, rtol = atol = 1e-10 here) over 10 s; with dissipation elements the energy balance
dE/dt = −P holds, with P = d·w² for viscous friction (seed 004: D = ½·d·w², P = ∂D/∂w·w)."""
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import Spherical, RigidBody, World
from jourdain.library import CartPole, CubeOnEdge, DoublePendulum, NLinkPendulum, Pendulum

from conftest import ROUNDOFF

CONSERVATIVE = {
    "pendulum": (lambda: Pendulum(J=0.02), {"m.joint.phi": 2.5}),
    "double_pendulum": (lambda: DoublePendulum(1.0, 0.4, 1.0, 0.6),
                        {"m.joint1.phi": 2.0, "m.joint2.phi": -1.0}),
    "chain4": (lambda: NLinkPendulum(4), {f"m.joint{i}.phi": 0.5 for i in range(1, 5)}),
    "cartpole": (lambda: CartPole(), {"m.hinge.phi": 0.8}),
    "cube_on_edge": (lambda: CubeOnEdge(C_psi=0.0), {"m.edge.phi": 0.1}),
}


@pytest.mark.parametrize("name", sorted(CONSERVATIVE))
def test_energy_is_conserved(name):
    make, y0 = CONSERVATIVE[name]
    system = jd.compile(jd.Model.on_world(World(), m=make()))
    res = system.simulate(10.0, y0=y0, rtol=1e-10, atol=1e-10)
    E = res["energy.total"]
    scale = np.abs(res["energy.kinetic"]).max() + np.abs(res["energy.potential"]).max()
    assert np.abs(E - E[0]).max() < 1e-7 * scale
    # no dissipation element: the energy it could remove over the run is round-off of E
    assert np.abs(res["power.dissipated"]).max() * res.t[-1] <= ROUNDOFF * scale


def test_heavy_top_on_a_spherical_joint_conserves_energy_and_vertical_momentum():
    """A symmetric top on a quaternion ball joint: T + V and the angular momentum about the
    vertical (gravity axis) through the pivot are invariants."""
    model = jd.Model(world=World())
    model.ball = Spherical()
    model.top = RigidBody(m=1.0, r_cm=(0, 0.2, 0), I=(0.01, 0.02, 0.01))
    model.connect(model.world.frame_b, model.ball.frame_a)
    model.connect(model.ball.frame_b, model.top.frame_a)
    system = jd.compile(model)
    tilt = 0.3
    res = system.simulate(10.0, y0={"ball.q0": np.cos(tilt / 2), "ball.q3": np.sin(tilt / 2)},
                          z0={"ball.wy": 30.0, "ball.wx": 0.5}, rtol=1e-11, atol=1e-11)
    E = res["energy.total"]
    assert np.abs(E - E[0]).max() < 1e-7 * np.abs(E).max()
    q = np.array([res[f"ball.q{i}"] for i in range(4)])
    assert np.abs(np.linalg.norm(q, axis=0) - 1).max() < 1e-8
    # L_vertical = e_yᵀ·R·I_pivot·ω, with I_pivot = I_cm + m·(|r|²·1 − r·rᵀ)
    r = np.array([0, 0.2, 0])
    I_pivot = np.diag([0.01, 0.02, 0.01]) + (r @ r * np.eye(3) - np.outer(r, r))
    L = []
    for k in range(res.t.size):
        w0, x, y, z = q[:, k]
        R = np.array([[1 - 2 * (y*y + z*z), 2 * (x*y - w0*z), 2 * (x*z + w0*y)],
                      [2 * (x*y + w0*z), 1 - 2 * (x*x + z*z), 2 * (y*z - w0*x)],
                      [2 * (x*z - w0*y), 2 * (y*z + w0*x), 1 - 2 * (x*x + y*y)]])
        omega = np.array([res["ball.wx"][k], res["ball.wy"][k], res["ball.wz"][k]])
        L.append((R @ I_pivot @ omega)[1])
    assert np.ptp(L) < 1e-7 * np.abs(L).max()


def test_viscous_friction_dissipates_d_w_squared():
    d = 0.2
    system = jd.compile(jd.Model.on_world(World(), m=Pendulum(J=0.01, d=d)))
    res = system.simulate(10.0, y0={"m.joint.phi": 2.0}, rtol=1e-10, atol=1e-10, n_out=4001)
    w = res["m.joint.w"]
    assert np.allclose(res["power.dissipated"], d * w**2, rtol=1e-12, atol=1e-14)
    # E(t) − E(0) = −∫P dt (trapezoid on a fine grid)
    E, P, t = res["energy.total"], res["power.dissipated"], res.t
    lost = np.concatenate([[0], np.cumsum(0.5 * (P[1:] + P[:-1]) * np.diff(t))])
    assert np.abs(E - E[0] + lost).max() < 1e-5 * abs(E[0])
    V_bottom = float(system.energy(system.state(), system.p_default)[1])
    assert E[-1] - V_bottom < 0.2 * (E[0] - V_bottom)  # most of the swing energy is gone


def test_energy_balance_with_motor_input():
    """dE/dt = T_M·ψ̇ − P: the motor's work on the wheel-housing pair (reference: power
    balance), checked by integrating the supplied power along the trajectory."""
    system = jd.compile(jd.Model.on_world(World(), cube=CubeOnEdge()))
    res = system.simulate(2.0, y0={"cube.edge.phi": 0.05}, n_out=4001, rtol=1e-10, atol=1e-10,
                          inputs={"cube.motor.tau": lambda t: 0.02 * np.cos(4 * t)})
    t, E = res.t, res["energy.total"]
    supplied = res["cube.motor.tau"] * res["cube.bearing.w"] - res["power.dissipated"]
    integral = np.concatenate([[0], np.cumsum(0.5 * (supplied[1:] + supplied[:-1]) * np.diff(t))])
    assert np.abs(E - E[0] - integral).max() < 1e-5 * np.abs(E).max()
