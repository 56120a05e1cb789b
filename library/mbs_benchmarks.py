"""The multibody community's benchmark mechanisms, built from blocks as a user would: the
IFToMM/Coruña library's simple pendulum (A01) and N-four-bar (A02), and Andrews' squeezing
mechanism (IFToMM A03; the Test Set for IVP Solvers' index-3 DAE), with the data of their
public problem statements. benchmarks/mbs/ runs them against their references."""
from __future__ import annotations

import math

from jourdain.blocks import (Composite, Constant, FixedRotation, FixedTranslation, Motor,
                             Revolute, RigidBody)
from jourdain.blocks.multibody.forces import Spring

from .linkages import rod

Z = (0, 0, 1)


class SimplePendulum(Composite):
    """IFToMM A01: a point mass m [kg] on a massless bar of length l [m] about a revolute
    ``joint`` (axis z, gravity −y): ``joint.phi`` = 0 is the bar along +x (the benchmark's
    start, horizontal with P1 at x = +l)."""

    def __init__(self, m: float = 1.0, l: float = 1.0):
        super().__init__()
        self.joint = Revolute(axis=Z)
        self.mass = RigidBody(m=m, r_cm=(l, 0, 0))
        self.connect(self.joint.frame_b, self.mass.frame_a)
        self.expose(self.joint.frame_a, "frame_a")


class NFourBar(Composite):
    """IFToMM A02: n four-bar windows in a row, 2n + 1 uniform rods of length l [m] and mass
    m [kg]. Rod i (i = 0 … n) turns about ``pivot{i}`` on the ground at (i·l, 0); ``pivot{i}.phi``
    = 0 is the rod pointing up (+y), counter-clockwise positive. Coupler i (i = 1 … n) joins
    the tops of rods i − 1 and i by the revolutes ``left{i}`` and ``right{i}``; ``left{i}.phi``
    = 0 is the coupler along +x. With every rod vertical the mechanism is at the benchmark's
    start; where all rods lie flat it is singular (its DOF jump from 1 to n + 1)."""

    def __init__(self, n: int = 2, l: float = 1.0, m: float = 1.0):
        super().__init__()
        self.ground = FixedTranslation()
        self.expose(self.ground.frame_a, "frame_a")
        tops = []
        for i in range(int(n) + 1):
            base = self.add(f"base{i}", FixedRotation(r=(i * l, 0, 0), angle=math.pi / 2))
            pivot = self.add(f"pivot{i}", Revolute(axis=Z))
            body = self.add(f"rod{i}", rod(m, l))
            top = self.add(f"top{i}", FixedTranslation(r=(l, 0, 0)))
            self.connect(self.ground.frame_b, base.frame_a)
            self.connect(base.frame_b, pivot.frame_a)
            self.connect(pivot.frame_b, body.frame_a)
            self.connect(pivot.frame_b, top.frame_a)
            tops.append(top)
        for i in range(1, int(n) + 1):
            # the coupler leaves the top of rod i − 1 along +x (the rod's frame is turned 90°)
            turn = self.add(f"turn{i}", FixedRotation(angle=-math.pi / 2))
            left = self.add(f"left{i}", Revolute(axis=Z))
            body = self.add(f"coupler{i}", rod(m, l))
            end = self.add(f"end{i}", FixedTranslation(r=(l, 0, 0)))
            right = self.add(f"right{i}", Revolute(axis=Z))
            self.connect(tops[i - 1].frame_b, turn.frame_a)
            self.connect(turn.frame_b, left.frame_a)
            self.connect(left.frame_b, body.frame_a)
            self.connect(left.frame_b, end.frame_a)
            self.connect(end.frame_b, right.frame_a)
            self.connect(right.frame_b, tops[i].frame_b)


# Andrews' squeezing mechanism: the data of the Test Set for IVP Solvers (Hairer & Wanner,
# Solving ODEs II, §VII.7; Mazzia & Magherini, problem "andrews"), SI units.
ANDREWS = dict(m1=.04325, m2=.00365, m3=.02373, m4=.00706, m5=.07050, m6=.00706, m7=.05498,
               xa=-.06934, ya=-.00227, xb=-0.03635, yb=.03273, xc=.014, yc=.072, c0=4530.0,
               i1=2.194e-6, i2=4.410e-7, i3=5.255e-6, i4=5.667e-7, i5=1.169e-5, i6=5.667e-7,
               i7=1.912e-5, d=28e-3, da=115e-4, e=2e-2, ea=1421e-5, rr=7e-3, ra=92e-5,
               l0=7785e-5, ss=35e-3, sa=1874e-5, sb=1043e-5, sc=18e-3, sd=2e-2, ta=2308e-5,
               tb=916e-5, u=4e-2, ua=1228e-5, ub=449e-5, zf=2e-2, zt=4e-2, fa=1421e-5,
               mom=33e-3)


def _disk(m: float, r_cm, i_zz: float) -> RigidBody:
    """A planar body: mass m, center of mass r_cm, central moment i_zz about z (the others
    are irrelevant in the plane and set equal, which keeps the tensor physical)."""
    return RigidBody(m=m, r_cm=r_cm, I=(i_zz, i_zz, i_zz))


class AndrewsMechanism(Composite):
    """Andrews' squeezing mechanism: seven planar bodies, three loops closing at the point E,
    one degree of freedom; no gravity. The joint angles are the problem's coordinates:
    ``beta`` (crank K1 about O), ``theta`` (rod K2 on the crank at F), ``gamma`` (K3 about B,
    carrying the spring to C), ``delta`` (K5 about A), ``phi`` (K4 on K5 at H), ``epsilon``
    (K7 about A), ``omega`` (K6 on K7 at G); ``motor`` drives the crank with the constant
    torque mom. Body frames are placed so that each joint angle equals the coordinate of the
    same name in the problem statement (E = F − d·e(β+Θ) = B + ss·(sin γ, −cos γ) = …)."""

    def __init__(self, **data):
        super().__init__()
        p = dict(ANDREWS, **data)
        self.ground = FixedTranslation()
        self.expose(self.ground.frame_a, "frame_a")
        # crank K1 about O, F at (rr, 0); rod K2 on the crank at F, E at (−d, 0)
        self.beta = Revolute(axis=Z)
        self.k1 = _disk(p["m1"], (p["ra"], 0, 0), p["i1"])
        self.f_point = FixedTranslation(r=(p["rr"], 0, 0))
        self.theta = Revolute(axis=Z)
        self.k2 = _disk(p["m2"], (-p["da"], 0, 0), p["i2"])
        self.e2 = FixedTranslation(r=(-p["d"], 0, 0))
        self._wire((self.ground, self.beta), (self.beta, self.k1), (self.beta, self.f_point),
                   (self.f_point, self.theta), (self.theta, self.k2), (self.theta, self.e2))
        # K3 about B: E at (0, −ss), the spring's end D at (sd, −sc) in its frame
        self.b_point = FixedTranslation(r=(p["xb"], p["yb"], 0))
        self.gamma = Revolute(axis=Z)
        self.k3 = _disk(p["m3"], (p["sa"], p["sb"], 0), p["i3"])
        self.e3 = FixedTranslation(r=(0, -p["ss"], 0))
        self.d_point = FixedTranslation(r=(p["sd"], -p["sc"], 0))
        self.c_point = FixedTranslation(r=(p["xc"], p["yc"], 0))
        self.spring = Spring(c=p["c0"], s_unstretched=p["l0"])
        self._wire((self.ground, self.b_point), (self.b_point, self.gamma),
                   (self.gamma, self.k3), (self.gamma, self.e3), (self.gamma, self.d_point),
                   (self.ground, self.c_point), (self.c_point, self.spring))
        self.connect(self.d_point.frame_b, self.spring.frame_b)
        # K5 about A, H at (zt, 0); K4 on K5 at H, E at (0, −e)
        self.a_point = FixedTranslation(r=(p["xa"], p["ya"], 0))
        self.delta = Revolute(axis=Z)
        self.k5 = _disk(p["m5"], (p["ta"], p["tb"], 0), p["i5"])
        self.h_point = FixedTranslation(r=(p["zt"], 0, 0))
        self.phi = Revolute(axis=Z)
        self.k4 = _disk(p["m4"], (0, -(p["e"] - p["ea"]), 0), p["i4"])
        self.e4 = FixedTranslation(r=(0, -p["e"], 0))
        self._wire((self.ground, self.a_point), (self.a_point, self.delta),
                   (self.delta, self.k5), (self.delta, self.h_point), (self.h_point, self.phi),
                   (self.phi, self.k4), (self.phi, self.e4))
        # K7 about A, G at (0, −u); K6 on K7 at G, E at (zf, 0)
        self.epsilon = Revolute(axis=Z)
        self.k7 = _disk(p["m7"], (p["ua"], p["ub"], 0), p["i7"])
        self.g_point = FixedTranslation(r=(0, -p["u"], 0))
        self.omega = Revolute(axis=Z)
        self.k6 = _disk(p["m6"], (p["zf"] - p["fa"], 0, 0), p["i6"])
        self.e6 = FixedTranslation(r=(p["zf"], 0, 0))
        self._wire((self.a_point, self.epsilon), (self.epsilon, self.k7),
                   (self.epsilon, self.g_point), (self.g_point, self.omega),
                   (self.omega, self.k6), (self.omega, self.e6))
        # the three loops close at E: K3, K4 and K6 are pinned to the rod's end
        self.pin3 = Revolute(axis=Z)
        self.pin4 = Revolute(axis=Z)
        self.pin6 = Revolute(axis=Z)
        for end, pin in ((self.e3, self.pin3), (self.e4, self.pin4), (self.e6, self.pin6)):
            self.connect(self.e2.frame_b, pin.frame_a)
            self.connect(end.frame_b, pin.frame_b)
        # the constant driving torque on the crank
        self.motor = Motor()
        self.torque = Constant(k=p["mom"])
        self.connect(self.torque.y, self.motor.tau)
        self.connect(self.motor.flange_b, self.beta.axis)

    def _wire(self, *pairs) -> None:
        """Connect each (a, b): a's frame_b to b's frame_a."""
        for a, b in pairs:
            self.connect(a.frame_b, b.frame_a)
