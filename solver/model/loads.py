"""3-D force elements and gravity fields as physical terms (DESIGN.md §4, "force element
(3-D)"): line forces become elements with s = distance and w = ṡ (plus point masses riding on
the line and flange positions along it), frame forces become loads, and a non-uniform
gravity field becomes a load m·g(r_cm) per body with the potential m·U(r_cm) when the field
has one."""
from __future__ import annotations

import casadi as ca
import numpy as np

from jourdain.blocks.base import FlangeState
from jourdain.blocks.errors import ModelError
from jourdain.blocks.multibody.interfaces import S_SMALL

from .flatten import FlatModel
from .kinematics import Kinematics
from .terms import BodyTerms, LoadTerms, element_terms


class LineGeometry:
    """Distance s = |r_b − r_a| [m], its rate ṡ = e·(v_b − v_a) [m/s], the direction e and the
    end positions of a line force element, in (y, w)."""

    def __init__(self, flat: FlatModel, kin: Kinematics, element):
        a = kin.frames[flat.net_of[element.frame_a]]
        b = kin.frames[flat.net_of[element.frame_b]]
        r = b.r - a.r
        self.s = ca.sqrt(ca.dot(r, r))
        self.e = r / ca.fmax(self.s, S_SMALL)
        self.sdot = ca.dot(self.e, b.v - a.v)
        self.r_a, self.r_b = a.r, b.r


def line_geometries(flat: FlatModel, kin: Kinematics) -> dict:
    """{line element: LineGeometry}; the flanges of line elements that have them are placed
    along the line (flange_a at 0, flange_b at s), so 1-D elements on them act along it."""
    out = {}
    for element in flat.lines:
        geo = out[element] = LineGeometry(flat, kin, element)
        if not element.FLANGES:
            continue
        for port, state in ((element.flange_a, FlangeState(ca.SX(0), ca.SX(0))),
                            (element.flange_b, FlangeState(geo.s, geo.sdot))):
            net = flat.net_of[port]
            if net in kin.flanges:
                raise ModelError(f"{port.path} is connected to another position-carrying "
                                 f"flange ({flat.describe_net(port)}); that would be a kinematic "
                                 "coupling: connect force elements between them instead")
            kin.flanges[net] = state
    return out


def line_terms(flat: FlatModel, kin: Kinematics, ctx, inst: dict, geometry: dict):
    """Element terms of the line forces and the point masses riding on them."""
    elements, masses = [], []
    for element, geo in geometry.items():
        hooks = inst[element]
        elements.append(element_terms(element.path, geo.s, geo.sdot, hooks, ctx))
        for k, (m, position) in enumerate(hooks.masses(geo.r_a, geo.r_b, geo.e)):
            position = ca.SX(position)
            v = ca.jtimes(position, kin.y, kin.ydot) if kin.y.numel() else ca.SX.zeros(3)
            zero = ca.SX.zeros(3)
            masses.append(BodyTerms(f"{element.path}.mass{k}", m, ca.SX.zeros(3, 3),
                                    ca.SX.eye(3), position, v, zero, zero, on_tree=False))
    return elements, masses


def frame_loads(flat: FlatModel, kin: Kinematics, ctx, inst: dict) -> list[LoadTerms]:
    """Loads of the frame force elements (their ``loads(ctx)`` hooks)."""
    out = []
    for element in flat.wrenches:
        for port, (f, t) in inst[element].loads(ctx).items():
            frame = kin.frames[flat.net_of[port]]
            out.append(LoadTerms(f"{element.path}.{port.name}", frame.v, frame.w,
                                 _vector(f, element, port, "force"),
                                 _vector(t, element, port, "torque")))
    return out


def _vector(value, element, port, what: str) -> ca.SX:
    vec = ca.SX(value)
    if vec.numel() != 3:
        raise ModelError(f"{element.path}: loads() returned a {what} of {vec.numel()} entries "
                         f"for {port.path}; a 3-vector in world coordinates is expected")
    return ca.reshape(vec, 3, 1)


def gravity_terms(world, bodies: list[BodyTerms], y: ca.SX, p: ca.SX, p0: np.ndarray):
    """(uniform g, loads, potential energy) of the gravity field on the bodies: a uniform
    field stays a vector (projected as Rᵀ·g, or −m·g·r in V); a non-uniform field gives each
    body the load m·g(r_cm) and, if the field has a potential U, the energy m·U(r_cm)."""
    if world.uniform:
        g = ca.SX(world.uniform_g())
        return g, [], sum((-b.m * ca.dot(g, b.r_cm) for b in bodies), ca.SX(0))
    loads, energy = [], ca.SX(0)
    for body in bodies:
        U = world.field_potential(body.r_cm)
        loads.append(LoadTerms(f"{body.path}.gravity", ca.mtimes(body.R, body.v),
                               ca.mtimes(body.R, body.w), body.m * world.field(body.r_cm),
                               ca.SX.zeros(3), conservative=U is not None, field=True))
        if U is not None:
            energy += body.m * ca.SX(U)
    if world.potential is not None:
        _check_field(world, bodies, y, p, p0)
    return ca.SX.zeros(3), loads, energy


def _check_field(world, bodies: list[BodyTerms], y, p, p0) -> None:
    """A user field given with its potential must satisfy g = −∇U (else the two
    formulations, and the energy balance, would disagree): checked at the bodies' centers
    of mass in three reproducible random configurations."""
    r = ca.SX.sym("r", 3)
    g_r = world.field(r)
    check = ca.Function("field_check", [r], [g_r, g_r + ca.gradient(ca.SX(world.potential(r)), r)])
    where = ca.Function("centers", [y, p], [ca.horzcat(*[b.r_cm for b in bodies])])
    rng = np.random.default_rng(3)
    for _ in range(3):
        centers = np.array(where(rng.uniform(-1, 1, y.numel()), p0)).reshape(3, -1)
        for k in range(centers.shape[1]):
            g, mismatch = (np.array(v, dtype=float).ravel() for v in check(centers[:, k]))
            err = np.abs(mismatch).max()
            if not err <= 1e-6 * max(1.0, np.abs(g).max()):
                raise ModelError(f"{world.path}: the field gravity(r) is not −∇potential(r) "
                                 f"(mismatch {err:.3g} m/s² at r = {centers[:, k].tolist()}); "
                                 "give a consistent potential, or none")
