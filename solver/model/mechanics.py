"""The symbolic model shared by both formulations: stages 1–4 run in order (flatten, parameters,
topology, kinematics with the 1-D network, the electrical network, signals) and the physical
terms collected in (t, y, ẏ, u, p, s): body velocities, 1-D inertias, gravity, flange force
elements, energies (mechanical and stored in component states) and the dissipation function."""
from __future__ import annotations

from dataclasses import dataclass

import casadi as ca
import numpy as np

from jourdain.blocks.base import Component

from .flatten import FlatModel, flatten
from .kinematics import Kinematics, build_kinematics, flange_state
from .networks import build_circuit
from .parameters import ParameterSet, instantiate
from .signals import SignalContext
from .topology import Topology, build_topology


@dataclass
class BodyTerms:
    """A body's inertia, the velocity of its center of mass and its angular velocity, both in
    body axes, in terms of y and the joint speeds w."""

    path: str
    m: object
    I: object
    R: ca.SX          # body axes → world
    r_cm: ca.SX       # position of the center of mass in world coordinates [m]
    v: ca.SX          # velocity of the center of mass in body axes [m/s]
    w: ca.SX          # angular velocity in body axes [rad/s]
    w_axes: ca.SX     # angular velocity of the axes of v and w (transport terms; = w mostly)


@dataclass
class FlangeTerms:
    """A 1-D force element with its relative position s and rate w (in y, ẏ) and its force."""

    path: str
    s: ca.SX
    w: ca.SX
    potential: ca.SX
    dissipation: ca.SX
    force: ca.SX      # residual (non-potential, non-dissipative) force on flange_b
    spring_force: ca.SX   # −∂V/∂s
    damping_force: ca.SX  # −∂D/∂w


@dataclass
class InertiaTerms:
    """A 1-D body (Inertia J [kg·m²], Mass m [kg]) and the rate of its flange net (in y, w)."""

    path: str
    J: object
    net: int
    w: ca.SX


@dataclass
class Mechanics:
    flat: FlatModel
    topo: Topology
    params: ParameterSet
    kin: Kinematics
    ctx: SignalContext
    t: ca.SX
    gravity: ca.SX
    bodies: list[BodyTerms]
    elements: list[FlangeTerms]
    inst: dict = None   # component -> its parameterized copy (for the constraint hooks)
    inertias: list[InertiaTerms] = None   # 1-D bodies

    @property
    def constrained(self) -> bool:
        """True when cut joints, contacts or coupling loops add constraints (DESIGN.md §3.4)."""
        return bool(self.topo.cut_joints or self.flat.contacts or
                    self.kin.network.closure.numel())

    def signal_names(self) -> list[str]:
        """Names of the inputs, outputs and signal-block states (they share a Result's
        namespace with the coordinates and speeds)."""
        outputs, _ = self.ctx.outputs()
        return [n for s in self.ctx.inputs + outputs for n in s.entry_names()] + \
            list(self.ctx.state_names)

    def kinetic_energy(self) -> ca.SX:
        """T = Σ ½·m·v·v + ½·ωᵀ·I·ω + Σ_1-D ½·J·ω² (in y, ẏ)."""
        return sum((0.5 * b.m * ca.dot(b.v, b.v) + 0.5 * ca.dot(b.w, ca.mtimes(b.I, b.w))
                    for b in self.bodies), ca.SX(0)) + \
            sum((0.5 * i.J * i.w ** 2 for i in self.inertias), ca.SX(0))

    def stored_energy(self) -> ca.SX:
        """W = Σ energy stored in component states (½·C·v², ½·L·i²) [J], in s and p."""
        return self.ctx.total("stored_energy")

    def supplied_power(self) -> ca.SX:
        """Σ power delivered by sources [W] (in t, y, ẏ, u, s, p)."""
        return self.ctx.total("supplied_power")

    def potential_energy(self) -> ca.SX:
        """V = Σ −m·g·r_cm + Σ spring potentials (in y)."""
        gravity = sum((-b.m * ca.dot(self.gravity, b.r_cm) for b in self.bodies), ca.SX(0))
        return gravity + sum((e.potential for e in self.elements), ca.SX(0))

    def dissipation_function(self) -> ca.SX:
        """D = Σ D_e(w_e) (Rayleigh's dissipation function), in y, ẏ."""
        return sum((e.dissipation for e in self.elements), ca.SX(0))

    def dissipated_power(self) -> ca.SX:
        """P = Σ ∂D_e/∂w·w + Σ component losses (R·i²) ≥ 0, the power the dissipative elements
        remove [W]."""
        return sum((-e.damping_force * e.w for e in self.elements), ca.SX(0)) + \
            self.ctx.total("dissipated_power")


def build_mechanics(model: Component, symbolic=()) -> Mechanics:
    """Run flatten → parameters → topology → kinematics → signals on ``model``."""
    flat = flatten(model)
    inst, params = instantiate(flat.components, symbolic)
    topo = build_topology(flat)
    kin = build_kinematics(flat, topo, inst, params.p, params.defaults)
    circuit = build_circuit(flat, inst, params.p, params.defaults)
    t = ca.SX.sym("t")
    ctx = SignalContext(flat, kin, inst, t, circuit)
    gravity = ca.SX(inst[flat.worlds[0]].g)
    bodies = [_body_terms(flat, kin, inst[b], b.path) for b in flat.bodies]
    elements = [_flange_terms(flat, kin, ctx, inst[e], e) for e in flat.forces]
    inertias = [InertiaTerms(m.path, inst[m].inertia(), flat.net_of[m.flange_a],
                             flange_state(kin, flat.net_of[m.flange_a]).w)
                for m in flat.inertias]
    return Mechanics(flat, topo, params, kin, ctx, t, gravity, bodies, elements, inst,
                     inertias)


def _body_terms(flat: FlatModel, kin: Kinematics, body, path: str) -> BodyTerms:
    """Velocities in body axes, or, for a body that is axisymmetric about the revolute joint
    it sits on (inertia and center of mass invariant under rotations about the axis: a
    wheel), in the joint's frame_a axes, which do not spin with the body (Kane's equations
    hold in any axes when the transport terms use the axes' angular velocity; I stays
    constant there because Q·I·Qᵀ = I for every rotation Q about the axis)."""
    net = flat.net_of[body.frame_a]
    frame = kin.frames[net]
    axes = (frame.R, frame.v_local, frame.w_local, frame.w_local)
    axial = kin.axial.get(net)
    if axial is not None and _axisymmetric(body.I, body.r_cm, np.array(axial.axis).ravel()):
        axes = (axial.R, axial.v_local, axial.w_local, axial.w_axes)
    R, v_origin, w, w_axes = axes
    return BodyTerms(path, body.m, body.I, R, frame.r + ca.mtimes(R, body.r_cm),
                     v_origin + ca.cross(w, body.r_cm), w, w_axes)


def _axisymmetric(inertia, r_cm, a: np.ndarray, tol: float = 1e-12) -> bool:
    """I = α·(1 − a·aᵀ) + β·a·aᵀ and r_cm ∥ a, for numeric (not symbolic) parameters."""
    try:
        I = np.array(ca.DM(inertia), dtype=float).reshape(3, 3)
        r = np.array(ca.DM(r_cm), dtype=float).ravel()
    except (NotImplementedError, RuntimeError, TypeError, ValueError):
        return False    # symbolic parameters: keep body axes
    beta = a @ I @ a
    alpha = 0.5 * (np.trace(I) - beta)
    scale = max(1.0, np.abs(I).max())
    expected = alpha * (np.eye(3) - np.outer(a, a)) + beta * np.outer(a, a)
    return bool(np.abs(I - expected).max() <= tol * scale and
                np.linalg.norm(r - (r @ a) * a) <= tol * max(1.0, np.linalg.norm(r)))


def _flange_terms(flat: FlatModel, kin: Kinematics, ctx, elem, original) -> FlangeTerms:
    a = flange_state(kin, flat.net_of[original.flange_a])
    b = flange_state(kin, flat.net_of[original.flange_b])
    s, w = b.s - a.s, b.w - a.w
    # Symbols stand in for s and w so each element's V(s) and D(w) are differentiated locally.
    s_sym, w_sym = ca.SX.sym("s_rel"), ca.SX.sym("w_rel")
    V, D = ca.SX(elem.potential(s_sym)), ca.SX(elem.dissipation(w_sym))
    parts = [V, D, ca.SX(elem.force(s_sym, w_sym, ctx)), -ca.jacobian(V, s_sym),
             -ca.jacobian(D, w_sym)]
    values = [ca.substitute(e, ca.vertcat(s_sym, w_sym), ca.vertcat(s, w)) for e in parts]
    return FlangeTerms(original.path, s, w, *values)
