"""Problem factories for the trajectory-optimization tests: every transcription solves the same
problem statements (rockit's pattern)."""
from __future__ import annotations

import numpy as np

import jourdain as jd
from jourdain.blocks import Composite, LinearMotor, Prismatic, RigidBody, World
from jourdain.library import CartPole

X, V, F = "cart.joint.s", "cart.joint.v", "cart.motor.f"


class Slider(Composite):
    """A body of mass m [kg] on a horizontal prismatic joint pushed by a force f [N]: the double
    integrator m·ẍ = f."""

    def __init__(self, m: float = 1.0):
        super().__init__()
        self.joint = Prismatic(axis=(1, 0, 0))
        self.body = RigidBody(m=m)
        self.motor = LinearMotor()
        self.connect(self.joint.frame_b, self.body.frame_a)
        self.connect(self.motor.flange_b, self.joint.axis)
        self.expose(self.joint.frame_a, "frame_a")


def double_integrator(parameters=()) -> jd.System:
    return jd.compile(jd.Model.on_world(World(), cart=Slider()), parameters=parameters)


def minimum_energy(system: jd.System, T: float = 1.0, N: int = 20, distance: float = 1.0):
    """min ∫ f² dt, rest to rest over ``distance`` [m] in T [s]; closed form for m = 1:
    f(t) = 6d/T² − 12d·t/T³, x(t) = d·(3(t/T)² − 2(t/T)³), cost 12·d²/T³."""
    ocp = jd.TrajectoryProblem(system, T, intervals=N)
    ocp.initial({X: 0.0, V: 0.0})
    ocp.final({X: distance, V: 0.0})
    ocp.integral_cost(lambda v: v[F] ** 2)
    return ocp


def minimum_time(system: jd.System, N: int = 20, distance: float = 1.0, f_max: float = 1.0):
    """min T, rest to rest over ``distance`` [m] with |f| ≤ f_max [N], T free in [0.5, 5] s
    (guess 3 s); closed form for m = 1: bang-bang, T* = 2·√(d/f_max)."""
    ocp = jd.TrajectoryProblem(system, jd.FreeTime(guess=3.0, lower=0.5, upper=5.0), intervals=N)
    ocp.initial({X: 0.0, V: 0.0})
    ocp.final({X: distance, V: 0.0})
    ocp.bound(F, -f_max, f_max)
    ocp.terminal_cost(lambda v: v.T)
    return ocp


def zero_order_hold_optimum(T: float, N: int, distance: float = 1.0) -> float:
    """Closed-form minimum of h·Σ f_k² for piecewise-constant f_k (m = 1) under
    v(T) = h·Σ f_k = 0 and x(T) = h²·Σ f_k·(N − k − ½) = d: the least-norm solution
    f = Aᵀ(AAᵀ)⁻¹b of the two linear conditions."""
    h = T / N
    k = np.arange(N)
    A = np.vstack([h * np.ones(N), h**2 * (N - k - 0.5)])
    f = A.T @ np.linalg.solve(A @ A.T, np.array([0.0, distance]))
    return float(h * f @ f)


CARTPOLE = ("cartpole.slider.s", "cartpole.hinge.phi", "cartpole.slider.v", "cartpole.hinge.w")


def cartpole_swingup(N: int = 40, T: float = 2.0, f_max: float = 20.0, track: float = 1.0,
                     system: jd.System | None = None):
    """Cart-pole from hanging (φ = π) to upright (φ = 0) at rest in T [s], min ∫ f² dt with
    |f| ≤ f_max [N] and |s| ≤ track [m]; ``system``: a compiled CartPole variant named
    ``cartpole`` (default: the library's CartPole)."""
    system = system or jd.compile(jd.Model.on_world(World(), cartpole=CartPole()))
    ocp = jd.TrajectoryProblem(system, T, intervals=N)
    ocp.initial(dict(zip(CARTPOLE, (0.0, np.pi, 0.0, 0.0))))
    ocp.final(dict(zip(CARTPOLE, (0.0, 0.0, 0.0, 0.0))))
    ocp.bound("cartpole.motor.f", -f_max, f_max)
    ocp.bound("cartpole.slider.s", -track, track)
    ocp.integral_cost(lambda v: v["cartpole.motor.f"] ** 2)
    return ocp
