"""The symbolic model shared by both formulations: stages 1–4 run in order (flatten, parameters,
topology, kinematics with the 1-D network, the electrical network, signals) and the physical
terms collected in (t, y, ẏ, u, p, s): body velocities, 1-D inertias, gravity, 1-D and line force
elements, loads of 3-D force elements and of non-uniform gravity, kinematic drivers, energies
(mechanical and stored in component states) and the dissipation function (:mod:`.terms`,
:mod:`.loads`, :mod:`.drivers`)."""
from __future__ import annotations

from dataclasses import dataclass, field

import casadi as ca
import numpy as np

from jourdain.blocks.base import Component

from ..acausal import build_acausal
from .discrete import DiscreteSet, collect_discrete, with_discrete
from .drivers import Driven, check_mounts, find_driven
from .flatten import FlatModel, flatten
from .junctions import add_junctions
from .kinematics import Kinematics, build_kinematics, flange_state
from .loads import frame_loads, gravity_terms, line_geometries, line_terms
from .parameters import ParameterSet, instantiate
from .signals import SignalContext
from .terms import BodyTerms, FlangeTerms, InertiaTerms, LoadTerms, element_terms
from .topology import Topology, build_topology

__all__ = ["BodyTerms", "Driven", "FlangeTerms", "InertiaTerms", "LoadTerms", "Mechanics",
           "build_mechanics"]


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
    inertias: list[InertiaTerms] = field(default_factory=list)   # 1-D bodies
    loads: list = field(default_factory=list)   # LoadTerms: 3-D forces, non-uniform gravity
    gravity_energy: ca.SX = None                # potential energy of the gravity field
    driven: list = field(default_factory=list)  # Driven: coordinates prescribed by drivers
    junctions: list = field(default_factory=list)  # massless junctions between line forces
    discrete: DiscreteSet = None  # discrete variables of hybrid elements (entries of p)

    @property
    def constrained(self) -> bool:
        """True when cut joints, contacts, coupling loops or massless junctions add
        constraints (DESIGN.md §3.4)."""
        return bool(self.topo.cut_joints or self.flat.contacts or self.junctions or
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
        """Σ power delivered by sources [W] (in t, y, ẏ, u, s, p): the components' own
        (sources, residual forces and loads) and the work of a gravity field without a
        potential."""
        return self.ctx.total("supplied_power") + \
            sum((ld.power() for ld in self.loads if ld.field and not ld.conservative), ca.SX(0))

    def potential_energy(self) -> ca.SX:
        """V = gravity's potential energy (Σ −m·g·r_cm when uniform) + Σ spring potentials
        (in y)."""
        return self.gravity_energy + sum((e.potential for e in self.elements), ca.SX(0))

    @property
    def tree_only(self) -> bool:
        """True when every mass sits on a link of the spanning tree (what the recursive back
        end handles; point masses riding on line forces do not)."""
        return all(b.on_tree for b in self.bodies)

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
    junctions = add_junctions(flat)
    inst, params = instantiate(flat.components, symbolic)
    topo = build_topology(flat)
    kin = build_kinematics(flat, topo, inst, params.p, params.defaults)
    acausal = build_acausal(flat, inst)   # the circuits too
    circuit = acausal.circuit if acausal is not None else None
    t = ca.SX.sym("t")
    ctx = SignalContext(flat, kin, inst, t, circuit, acausal)
    discrete = collect_discrete(flat.components)
    params = with_discrete(params, discrete)
    ctx.attach_discrete(discrete.symbols)
    geometry = line_geometries(flat, kin)   # places line flanges before any hook reads them
    check_mounts(flat, kin)
    bodies = [_body_terms(flat, kin, inst[b], b.path) for b in flat.bodies]
    elements = [_flange_terms(flat, kin, ctx, inst[e], e) for e in flat.forces]
    lines, masses = line_terms(flat, kin, ctx, inst, geometry)
    bodies += masses
    inertias = [InertiaTerms(m.path, inst[m].inertia(), flat.net_of[m.body_flange()],
                             flange_state(kin, flat.net_of[m.body_flange()]).w)
                for m in flat.inertias]
    gravity, gravity_loads, energy = gravity_terms(inst[flat.worlds[0]], bodies, kin.y,
                                                   params.p, params.defaults)
    loads = frame_loads(flat, kin, ctx, inst) + gravity_loads
    driven = find_driven(flat, kin, ctx, inst)
    return Mechanics(flat, topo, params, kin, ctx, t, gravity, bodies, elements + lines, inst,
                     inertias, loads, energy, driven, junctions, discrete)


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
    r_cm = body.r_cm
    if axial is not None and _axisymmetric(body.I, body.r_cm, np.array(axial.axis).ravel()):
        axes = (axial.R, axial.v_local, axial.w_local, axial.w_axes)
        # on the axis to the classification's tolerance: put it there, or the position
        # (Lagrange's V) would ignore an offset that the velocity (Kane's q) still turns
        a = np.array(axial.axis, dtype=float).ravel()
        r_cm = ca.DM(a * float(a @ np.array(ca.DM(body.r_cm), dtype=float).ravel()))
    R, v_origin, w, w_axes = axes
    return BodyTerms(path, body.m, body.I, R, frame.r + ca.mtimes(R, r_cm),
                     v_origin + ca.cross(w, r_cm), w, w_axes)


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
    return element_terms(original.path, b.s - a.s, b.w - a.w, elem, ctx)
