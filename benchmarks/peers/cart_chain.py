"""An n-link pendulum on a cart in jourdain, opty and Drake, for benchmarks/optimization.py only.

The model, the same in all three: a cart (m_c = 1 kg) on a horizontal prismatic joint along x,
pushed by a force f [N]; below it a chain of n uniform rods (m = 0.5 kg, l = 0.5 m, central
inertia m·l²/12 about z) hinged end to end, joint-relative angles φ_i about z, 0 = hanging
down, gravity 9.81 m/s² along −y. Absolute angles θ_i = φ_1 + … + φ_i; the pivot of rod
i + 1 is p_i + l·(sin θ_i, −cos θ_i) and its center of mass half way (as
jourdain.library.NLinkPendulum).
"""
from __future__ import annotations

import numpy as np
import sympy as sm

G, M_CART, M_ROD, L_ROD = 9.81, 1.0, 0.5, 0.5


def jourdain_model(n: int):
    import jourdain as jd
    from jourdain.blocks import LinearMotor, Prismatic, RigidBody, World
    from jourdain.library import NLinkPendulum

    class CartChain(jd.Composite):
        def __init__(self):
            super().__init__()
            self.slider = Prismatic(axis=(1, 0, 0))
            self.cart = RigidBody(m=M_CART)
            self.motor = LinearMotor()
            self.chain = NLinkPendulum(n, m=M_ROD, l=L_ROD)
            self.connect(self.slider.frame_b, self.cart.frame_a)
            self.connect(self.slider.frame_b, self.chain.frame_a)
            self.connect(self.motor.flange_b, self.slider.axis)
            self.expose(self.slider.frame_a, "frame_a")

    return jd.Model.on_world(World(), cc=CartChain())


def jourdain_names(n: int) -> tuple[list[str], str]:
    """(states in opty's order: s, φ_1..n, v, w_1..n; input)."""
    coords = ["cc.slider.s"] + [f"cc.chain.joint{i}.phi" for i in range(1, n + 1)]
    speeds = ["cc.slider.v"] + [f"cc.chain.joint{i}.w" for i in range(1, n + 1)]
    return coords + speeds, "cc.motor.f"


def opty_eom(n: int):
    """(states, input, eom) by Lagrange's equations, eom = 0 in opty's implicit form."""
    t = sm.symbols("t")
    s = sm.Function("s")(t)
    phis = [sm.Function(f"phi{i}")(t) for i in range(1, n + 1)]
    v = sm.Function("v")(t)
    ws = [sm.Function(f"w{i}")(t) for i in range(1, n + 1)]
    f = sm.Function("f")(t)
    J = M_ROD * L_ROD**2 / 12
    T = M_CART * s.diff(t) ** 2 / 2
    V = 0
    px, py, theta = s, sm.Integer(0), 0
    for phi in phis:
        theta = theta + phi
        cx, cy = px + L_ROD / 2 * sm.sin(theta), py - L_ROD / 2 * sm.cos(theta)
        T += (M_ROD * (cx.diff(t) ** 2 + cy.diff(t) ** 2) + J * theta.diff(t) ** 2) / 2
        V += M_ROD * G * cy
        px, py = px + L_ROD * sm.sin(theta), py - L_ROD * sm.cos(theta)
    q, qd = [s] + phis, [s.diff(t)] + [p.diff(t) for p in phis]
    L = T - V
    rows = [sm.diff(sm.diff(L, qdi), t) - sm.diff(L, qi) - Q
            for qi, qdi, Q in zip(q, qd, [f] + [0] * n)]
    speeds = [v] + ws
    subs = {qi.diff(t, 2): ui.diff(t) for qi, ui in zip(q, speeds)}
    subs.update({qi.diff(t): ui for qi, ui in zip(q, speeds)})
    eom = sm.Matrix([qi.diff(t) - ui for qi, ui in zip(q, speeds)] +
                    [r.subs(subs) for r in rows])
    return q + speeds, f, eom


def drake_direct_collocation(n: int, N: int, T: float, x0, xf, f_max: float, s_max: float,
                             tol: float, m_rod: float = M_ROD, l_rod: float = L_ROD,
                             up: bool = False):
    """Drake's DirectCollocation (Hermite–Simpson, N + 1 samples, fixed T) of the same
    problem: min ∫ f² dt, boundary states, |f| ≤ f_max, |s| ≤ s_max; (program, solve
    function). States in Drake's order (positions of joints in creation order, then
    velocities) equal opty's. ``up``: the rods point up at zero angles (jourdain's CartPole,
    m_rod = 0.1 kg, l_rod = 1 m: the cart-pole swing-up) instead of hanging."""
    from pydrake.all import (DirectCollocation, IpoptSolver, MultibodyPlant, PrismaticJoint,
                             RevoluteJoint, RigidTransform, RotationalInertia, SolverOptions,
                             SpatialInertia, UnitInertia)
    plant = MultibodyPlant(0.0)
    plant.mutable_gravity_field().set_gravity_vector([0.0, -G, 0.0])
    cart = plant.AddRigidBody("cart", SpatialInertia(M_CART, np.zeros(3),
                                                      UnitInertia(0.0, 0.0, 0.0)))
    slider = plant.AddJoint(PrismaticJoint("slider", plant.world_frame(), cart.body_frame(),
                                           [1.0, 0.0, 0.0]))
    plant.AddJointActuator("force", slider)
    parent, offset = cart, np.zeros(3)
    J, sign = m_rod * l_rod**2 / 12, 1.0 if up else -1.0
    for i in range(n):
        rod = plant.AddRigidBody(f"rod{i}", SpatialInertia.MakeFromCentralInertia(
            m_rod, [0.0, sign * l_rod / 2, 0.0], RotationalInertia(J, 0.0, J)))
        frame = plant.AddFrame(_fixed(plant, parent, offset, RigidTransform))
        plant.AddJoint(RevoluteJoint(f"joint{i}", frame, rod.body_frame(), [0.0, 0.0, 1.0]))
        parent, offset = rod, np.array([0.0, sign * l_rod, 0.0])
    plant.Finalize()
    context = plant.CreateDefaultContext()
    dircol = DirectCollocation(plant, context, num_time_samples=N + 1,
                               minimum_time_step=T / N, maximum_time_step=T / N,
                               input_port_index=plant.get_actuation_input_port().get_index())
    prog = dircol.prog()
    dircol.AddEqualTimeIntervalsConstraints()
    u, x = dircol.input(), dircol.state()
    dircol.AddConstraintToAllKnotPoints(-f_max <= u[0])
    dircol.AddConstraintToAllKnotPoints(u[0] <= f_max)
    dircol.AddConstraintToAllKnotPoints(-s_max <= x[0])
    dircol.AddConstraintToAllKnotPoints(x[0] <= s_max)
    prog.AddBoundingBoxConstraint(x0, x0, dircol.initial_state())
    prog.AddBoundingBoxConstraint(xf, xf, dircol.final_state())
    dircol.AddRunningCost(u[0] * u[0])
    times = np.linspace(0.0, T, N + 1)
    guess = np.array([np.linspace(a, b, N + 1) for a, b in zip(x0, xf)])
    from pydrake.all import PiecewisePolynomial
    dircol.SetInitialTrajectory(PiecewisePolynomial.ZeroOrderHold(times, np.zeros((1, N + 1))),
                                PiecewisePolynomial.FirstOrderHold(times, guess))
    options = SolverOptions()
    for key, value in (("tol", tol), ("print_level", 0), ("mu_strategy", "adaptive")):
        options.SetOption(IpoptSolver.id(), key, value)
    solver = IpoptSolver()

    def solve():
        result = solver.Solve(prog, None, options)
        return {"cost": float(result.get_optimal_cost()), "status": str(result.is_success()),
                "iterations": result.get_solver_details().iteration_count
                if hasattr(result.get_solver_details(), "iteration_count") else None}
    return prog, solve


def _fixed(plant, body, offset, RigidTransform):
    from pydrake.all import FixedOffsetFrame
    return FixedOffsetFrame(f"{body.name()}_end", body.body_frame(), RigidTransform(offset))
