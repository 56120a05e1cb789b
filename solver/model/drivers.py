"""Kinematic drivers and 1-D supports (the MSL's ``Rotational/Translational.Sources`` and
``MultiBody.Parts.Mounting1D``): which coordinate each driver prescribes and how.

A driver sits on a flange whose position is a coordinate y_i and whose rate is a joint speed
w_j (a joint's axis flange, or the flange of a free Inertia or Mass that owns its coordinate in
the 1-D network). Its support is free (the joint's support, position 0), a Fixed or a
Mounting1D (a constant angle phi0 in the body that carries the joint's frame_a). Per driver
the stage returns the prescribed position and speed (exact drivers, functions of t and p only)
and the acceleration ẇ_j(t, y, w, u, p, s) (the reference's derivative, a filter law, or the
reference itself).
"""
from __future__ import annotations

from dataclasses import dataclass

import casadi as ca

from jourdain.blocks.drivers.base import Driver, Level
from jourdain.blocks.errors import ModelError
from jourdain.blocks.forces import FlangeForce

from .flatten import FlatModel
from .kinematics import Kinematics, flange_state


@dataclass
class Driven:
    """A prescribed coordinate y_i with joint speed w_j."""

    path: str
    driver: Driver
    coordinate: int
    speed: int
    position: ca.SX | None       # exact Position: y_i(t) (with the support's offset)
    velocity: ca.SX | None       # exact Position or Speed: w_j(t)
    acceleration: ca.SX          # ẇ_j
    initial: ca.SX | None        # filtered Position: y_i at the start time, = reference


def check_mounts(flat: FlatModel, kin: Kinematics) -> None:
    """Mounting1D flanges are placed by the 1-D network (:mod:`.flanges`, a source at phi0
    like Fixed); the elements and drivers between a mounting and a joint's axis must react on
    the joint's frame_a (:func:`_check_mounts`)."""
    _check_mounts(flat, kin)


def find_driven(flat: FlatModel, kin: Kinematics, ctx, inst: dict) -> list[Driven]:
    """The driven coordinates, in declaration order of the drivers."""
    out: list[Driven] = []
    for driver in (b for b in flat.signals if isinstance(b, Driver)):
        i, j = _coordinate_of(flat, kin, driver)
        taken = [d.path for d in out if d.coordinate == i]
        if taken:
            raise ModelError(f"{driver.path} and {taken[0]} both drive {kin.coordinates[i].name};"
                             " a coordinate can be prescribed once")
        support = flange_state(kin, flat.net_of[driver.support])
        if ca.depends_on(support.s, ca.vertcat(kin.y, kin.w)):
            raise ModelError(f"{driver.path}: the support flange moves "
                             f"({flat.describe_net(driver.support)}); connect it to nothing (the "
                             "joint's support) or to a Mounting1D")
        out.append(_law(driver, inst[driver], ctx, kin, i, j, support.s))
    return out


def _coordinate_of(flat: FlatModel, kin: Kinematics, driver) -> tuple[int, int]:
    """(i, j) with the flange at y_i moving with w_j, or a ModelError."""
    state = kin.flanges.get(flat.net_of[driver.flange])
    hits = [] if state is None else \
        [i for i in range(kin.y.numel()) if ca.is_equal(state.s, kin.y[i])]
    speeds = [] if state is None else \
        [j for j in range(kin.w.numel()) if ca.is_equal(state.w, kin.w[j])]
    if not hits or not speeds:
        raise ModelError(f"{driver.path}: its flange must sit on a coordinate, e.g. a tree "
                         f"joint's axis flange (connected to {flat.describe_net(driver.flange)});"
                         " a joint that closes a loop or a line force flange cannot be driven")
    return hits[0], speeds[0]


def _law(driver, hooks, ctx, kin: Kinematics, i: int, j: int, offset) -> Driven:
    """Position, velocity and acceleration of the driven coordinate."""
    t = ctx.t
    ref = ca.SX(ctx.value(driver.reference_port))
    if hooks.exact and ca.depends_on(ref, ca.vertcat(kin.y, kin.w, ctx.u, ctx.s)):
        raise ModelError(f"{driver.path}: exact=True needs a reference that is a known function "
                         f"of time (a signal source such as Sine or Table), but "
                         f"{driver.reference_port.path} depends on inputs or states; use "
                         "exact=False (the MSL's filter with f_crit) instead")
    d1 = ca.jacobian(ref, t)
    s, w = kin.y[i] - offset, kin.w[j]
    if hooks.LEVEL is Level.ACCELERATION:
        return Driven(driver.path, driver, i, j, None, None, ref, None)
    if not hooks.exact:
        initial = ref + offset if hooks.LEVEL is Level.POSITION else None
        return Driven(driver.path, driver, i, j, None, None,
                      ca.SX(hooks.filtered_acceleration(ref, s, w)), initial)
    if hooks.LEVEL is Level.SPEED:
        return Driven(driver.path, driver, i, j, None, ref, d1, None)
    return Driven(driver.path, driver, i, j, ref + offset, d1, ca.jacobian(d1, t), None)


def _check_mounts(flat: FlatModel, kin: Kinematics) -> None:
    """A 1-D element or driver between a Mounting1D and a joint's axis reacts on the joint's
    frame_a: the mounting must sit on that body (frames joined by rigid offsets only)."""
    if not flat.mounts:
        return
    group = _rigid_groups(flat)
    mount_of = {flat.net_of[m.flange_b]: m for m in flat.mounts}
    axis_of = {flat.net_of[j.axis]: j for j in flat.joints if hasattr(j, "axis")
               and j.axis in flat.net_of}
    for elem in flat.forces + [b for b in flat.signals if isinstance(b, Driver)]:
        a, b = (elem.flange_a, elem.flange_b) if isinstance(elem, FlangeForce) \
            else (elem.support, elem.flange)
        for m_port, j_port in ((a, b), (b, a)):
            mount, joint = mount_of.get(flat.net_of[m_port]), axis_of.get(flat.net_of[j_port])
            if mount and joint and group[flat.net_of[mount.frame_a]] != \
                    group[flat.net_of[joint.frame_a]]:
                raise ModelError(f"{mount.path} is not on the body of {joint.path}.frame_a, "
                                 f"where the reaction of {elem.path} acts; mount it there "
                                 "(reactions on other bodies are not modelled)")


def _rigid_groups(flat: FlatModel) -> dict:
    """Frame net -> representative of the nets joined to it by rigid offsets."""
    parent = {n: n for n in range(len(flat.nets))}

    def find(n):
        while parent[n] != n:
            n = parent[n]
        return n
    for joint in flat.joints:
        if not joint.COORDINATES:
            parent[find(flat.net_of[joint.frame_a])] = find(flat.net_of[joint.frame_b])
    return {n: find(n) for n in parent}
