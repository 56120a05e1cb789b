"""Joint assemblies of the MSL's ``MultiBody.Joints.Assemblies`` with their names, parameter
names, frames and flanges: :class:`JointRRR`, :class:`JointRRP` (planar loops),
:class:`JointSSP`, :class:`JointUPS` (spatial), and the rod joint
:class:`UniversalSpherical` of ``MultiBody.Joints``.

The MSL solves the loop through an assembly analytically inside the assembly. Here each is a
composite of plain joints and rods: the loop it closes is cut by the topology stage and its
closure equations are solved by Newton (coordinate partitioning, docs/constraints.md), so the
assemblies behave like the MSL's (the same frames fixed in the same rods, the same flanges)
while the solution method differs. Each declares its middle (or ball) joint last, so the
topology stage cuts the loop there and the joints with the MSL's flanges stay in the tree.
The branch is the one nearest the reference configuration (all frames parallel, every
joint at 0, which is how the MSL asks to define the parameters); another one is chosen
with ``system.initialize(guess={...})`` on the assembly's joints (the MSL's
``phi_guess``/``s_guess`` choose it with one value; here the outer joints' angles are
guessed, see tests/test_msl_assemblies.py).

The rods are massless (as in the MSL); a spherical–spherical rod would add a massless spin
about its own axis, a singular mass matrix, so :class:`JointSSP`'s first ball joint is a
universal joint whose axis ``n1_a`` must never be parallel to rod 1 (the MSL's own
``UniversalSpherical`` choice, which removes that spin without changing the motion).
"""
from __future__ import annotations

import numpy as np

from ..base import Composite, as_scalar, as_vector3
from ..errors import ModelError
from ..geometry import normal_pair, unit_axis
from ..joints import FixedTranslation, Prismatic, Revolute, Spherical
from .joints import Universal
from .parts import PointMass


def _vector(owner: str, name: str, value, nonzero: bool = True) -> np.ndarray:
    v = np.asarray(as_vector3(value, owner, name), dtype=float)
    if nonzero and not np.linalg.norm(v) > 0:
        raise ModelError(f"{owner}: {name} must not be the zero vector (a rod of length 0 "
                         "joins nothing); give the rod's vector in its frame")
    return v


class JointRRR(Composite):
    """Three revolute joints with parallel axes joined by two rods (MSL
    ``Joints.Assemblies.JointRRR``), for planar loops.

    n_a : axis of the three revolutes in frame_a (all frames parallel in the reference
        configuration, so the same vector in frame_ia, frame_im, frame_ib and frame_b).
    rRod1_ia : [m] from frame_a's origin to the middle joint, in frame_ia (rod 1).
    rRod2_ib : [m] from frame_b's origin (= frame_ib's) to the middle joint, in frame_ib.

    Joints ``revolute_a`` (frame_a → frame_ia), ``revolute_m`` (middle, → frame_im) and
    ``revolute_b`` (frame_b → frame_ib, whose angle and flanges are the MSL's ``phi``,
    ``axis`` and ``bearing``). ``revolute_m`` is declared last, so a loop through the
    assembly is cut there (the outer joints and their flanges stay in the tree) unless a
    joint declared later closes it. Branch: ``guess={"<name>.revolute_b.phi": ...,
    "<name>.revolute_a.phi": ...}`` (the MSL's phi_guess, in radians). No phi_offset.
    """

    def __init__(self, n_a=(0.0, 0.0, 1.0), rRod1_ia=(1.0, 0.0, 0.0), rRod2_ib=(-1.0, 0.0, 0.0)):
        super().__init__()
        self.n_a = tuple(unit_axis(n_a, "JointRRR", "n_a"))
        self.rRod1_ia = tuple(_vector("JointRRR", "rRod1_ia", rRod1_ia))
        self.rRod2_ib = tuple(_vector("JointRRR", "rRod2_ib", rRod2_ib))
        self.revolute_a, self.revolute_b = Revolute(n=self.n_a), Revolute(n=self.n_a)
        self.rod1 = FixedTranslation(r=self.rRod1_ia)
        self.rod2 = FixedTranslation(r=tuple(-np.asarray(self.rRod2_ib)))
        self.revolute_m = Revolute(n=self.n_a)
        _wire_planar(self, self.revolute_a, self.revolute_m, self.revolute_b)


class JointRRP(Composite):
    """Two revolute joints with parallel axes and a prismatic joint orthogonal to them,
    joined by two rods (MSL ``Joints.Assemblies.JointRRP``), for planar loops.

    n_a : axis of both revolutes in frame_a.   n_b : axis of the prismatic joint in frame_b
        (orthogonal to n_a).   rRod1_ia : [m] frame_a's origin → middle joint, in frame_ia.
    rRod2_ib : [m] frame_ib's origin → middle joint, in frame_ib (parallel to frame_b).
    s_offset : [m] the distance between frame_b and frame_ib along n_b is s + s_offset.

    Joints ``revolute_a``, ``prismatic`` (from frame_b to frame_ib: its s, ``axis`` and
    ``bearing`` are the MSL's; branch by ``guess={"<name>.prismatic.s": ...}``, the MSL's
    s_guess) and ``revolute_m`` (declared last: loops are cut there). frame_b, frame_ib and
    frame_im stay parallel.
    """

    def __init__(self, n_a=(0.0, 0.0, 1.0), n_b=(-1.0, 0.0, 0.0), rRod1_ia=(1.0, 0.0, 0.0),
                 rRod2_ib=(-1.0, 0.0, 0.0), s_offset=0.0):
        super().__init__()
        self.n_a = tuple(unit_axis(n_a, "JointRRP", "n_a"))
        self.n_b = tuple(unit_axis(n_b, "JointRRP", "n_b"))
        if abs(np.dot(self.n_a, self.n_b)) > 1e-9:
            raise ModelError(f"JointRRP: n_b = {self.n_b} must be orthogonal to the revolute "
                             f"axes n_a = {self.n_a} (a planar loop)")
        self.rRod1_ia = tuple(_vector("JointRRP", "rRod1_ia", rRod1_ia))
        self.rRod2_ib = tuple(_vector("JointRRP", "rRod2_ib", rRod2_ib, nonzero=False))
        self.s_offset = as_scalar(s_offset, "JointRRP", "s_offset")
        self.revolute_a, self.prismatic = Revolute(n=self.n_a), Prismatic(n=self.n_b)
        self.rod1 = FixedTranslation(r=self.rRod1_ia)
        self.rod2 = FixedTranslation(r=tuple(-np.asarray(self.rRod2_ib)))
        self.offset = FixedTranslation(r=tuple(self.s_offset * np.asarray(self.n_b)))
        self.revolute_m = Revolute(n=self.n_a)
        _wire_planar(self, self.revolute_a, self.revolute_m, self.prismatic)


def _wire_planar(assembly, first, middle, last) -> None:
    """frame_a —first— rod1 —middle— rod2 — frame_ib —last— frame_b: the last joint's frame_a
    is frame_b, as in the MSL (an ``offset`` rod, if any, sits between it and frame_ib); the
    last joint's axis and support are the MSL's ``axis`` and ``bearing``."""
    c = assembly.connect
    c(first.frame_b, assembly.rod1.frame_a)
    c(assembly.rod1.frame_b, middle.frame_a)
    c(middle.frame_b, assembly.rod2.frame_a)
    frame_ib = last.frame_b
    offset = getattr(assembly, "offset", None)
    if offset is not None:
        c(last.frame_b, offset.frame_a)
        frame_ib = offset.frame_b
    c(assembly.rod2.frame_b, frame_ib)
    assembly.expose(first.frame_a, "frame_a")
    assembly.expose(first.frame_b, "frame_ia")
    assembly.expose(middle.frame_b, "frame_im")
    assembly.expose(frame_ib, "frame_ib")
    assembly.expose(last.frame_a, "frame_b")
    assembly.expose(last.axis, "axis")
    assembly.expose(last.support, "bearing")


class JointSSP(Composite):
    """Ball joint at frame_a, rod 1 of length rod1Length, ball joint in the middle, rod 2 and
    a prismatic joint at frame_b (MSL ``Joints.Assemblies.JointSSP``).

    rod1Length : [m] distance between the two ball joints.   rod1Mass : [kg] point mass in the
        middle of rod 1 (default 0: no mass).   n_b : axis of the prismatic joint in frame_b.
    rRod2_ib : [m] frame_ib's origin → middle ball joint, in frame_ib.
    s_offset : [m] distance between frame_b and frame_ib along n_b is s + s_offset.
    n1_a : axis, fixed in frame_a, of the universal joint ``universal`` that stands for the
        first ball joint (not an MSL parameter): rod 1's spin about itself is massless, so
        it is left out; rod 1 must never point along n1_a (where the universal locks).

    frame_ib (at frame_b's origin) and frame_im (at the middle joint) are fixed in rod 2 and
    parallel. Joints ``universal``, ``prismatic`` (the MSL's s, ``axis``, ``bearing``; branch
    by ``guess={"<name>.prismatic.s": ...}``) and ``spherical`` (declared last: the loop is
    cut there, 3 equations).
    """

    def __init__(self, rod1Length=1.0, rod1Mass=0.0, n_b=(0.0, 0.0, 1.0),
                 rRod2_ib=(1.0, 0.0, 0.0), s_offset=0.0, n1_a=(0.0, 0.0, 1.0)):
        super().__init__()
        self.rod1Length = as_scalar(rod1Length, "JointSSP", "rod1Length")
        self.rod1Mass = as_scalar(rod1Mass, "JointSSP", "rod1Mass")
        if not self.rod1Length > 0 or not self.rod1Mass >= 0:
            raise ModelError(f"JointSSP: rod1Length must be positive and rod1Mass not "
                             f"negative, got {self.rod1Length} m and {self.rod1Mass} kg")
        self.n_b = tuple(unit_axis(n_b, "JointSSP", "n_b"))
        self.n1_a = tuple(unit_axis(n1_a, "JointSSP", "n1_a"))
        self.rRod2_ib = tuple(_vector("JointSSP", "rRod2_ib", rRod2_ib, nonzero=False))
        self.s_offset = as_scalar(s_offset, "JointSSP", "s_offset")
        e_rod = np.asarray(normal_pair(self.n1_a)[0], dtype=float)   # rod 1 ⟂ n1_a at 0
        self.universal = Universal(n_a=self.n1_a, n_b=tuple(np.cross(self.n1_a, e_rod)))
        self.rod1 = FixedTranslation(r=tuple(self.rod1Length * e_rod))
        if self.rod1Mass > 0:
            self.rod1Middle = FixedTranslation(r=tuple(0.5 * self.rod1Length * e_rod))
            self.rod1PointMass = PointMass(m=self.rod1Mass)
            self.connect(self.universal.frame_b, self.rod1Middle.frame_a)
            self.connect(self.rod1Middle.frame_b, self.rod1PointMass.frame_a)
        self.prismatic = Prismatic(n=self.n_b)
        self.offset = FixedTranslation(r=tuple(self.s_offset * np.asarray(self.n_b)))
        self.rod2 = FixedTranslation(r=self.rRod2_ib)
        self.spherical = Spherical()
        c = self.connect
        c(self.universal.frame_b, self.rod1.frame_a)
        c(self.rod1.frame_b, self.spherical.frame_a)
        c(self.prismatic.frame_b, self.offset.frame_a)
        c(self.offset.frame_b, self.rod2.frame_a)
        c(self.rod2.frame_b, self.spherical.frame_b)
        self.expose(self.universal.frame_a, "frame_a")
        self.expose(self.prismatic.frame_a, "frame_b")
        self.expose(self.offset.frame_b, "frame_ib")
        self.expose(self.rod2.frame_b, "frame_im")
        self.expose(self.prismatic.axis, "axis")
        self.expose(self.prismatic.support, "bearing")


class JointUPS(Composite):
    """Universal joint at frame_a, prismatic joint along the line from frame_a's origin to
    frame_b's, ball joint at frame_b (MSL ``Joints.Assemblies.JointUPS``).

    n1_a : first axis of the universal joint, in frame_a.
    nAxis_ia : the line's direction in frame_ia (the universal's frame_b); in the reference
        configuration (frames parallel) it is the direction from frame_a to frame_b.
    s_offset : [m] the distance between frame_a and frame_b is s + s_offset.

    frame_ia (at frame_a's origin) and frame_ib (at frame_b's origin) are fixed in the
    cylinder's two parts; the second universal axis is n1_a × nAxis_ia (as in the MSL, so
    the line must not point along n1_a). Joints ``universal``, ``prismatic`` (the MSL's s,
    ``axis`` and ``bearing``; branch by ``guess={"<name>.prismatic.s": ...}``) and
    ``spherical`` (declared last: the loop is cut there, 3 equations).
    """

    def __init__(self, n1_a=(0.0, 0.0, 1.0), nAxis_ia=(1.0, 0.0, 0.0), s_offset=0.0):
        super().__init__()
        self.n1_a = tuple(unit_axis(n1_a, "JointUPS", "n1_a"))
        self.nAxis_ia = tuple(unit_axis(nAxis_ia, "JointUPS", "nAxis_ia"))
        n2 = np.cross(self.n1_a, self.nAxis_ia)
        if not np.linalg.norm(n2) > 1e-9:
            raise ModelError(f"JointUPS: nAxis_ia = {self.nAxis_ia} is parallel to n1_a = "
                             f"{self.n1_a}: the universal joint would lock; choose n1_a "
                             "orthogonal to the line")
        self.s_offset = as_scalar(s_offset, "JointUPS", "s_offset")
        self.universal = Universal(n_a=self.n1_a, n_b=tuple(n2 / np.linalg.norm(n2)))
        self.prismatic = Prismatic(n=self.nAxis_ia)
        self.offset = FixedTranslation(r=tuple(self.s_offset * np.asarray(self.nAxis_ia)))
        self.spherical = Spherical()
        c = self.connect
        c(self.universal.frame_b, self.prismatic.frame_a)
        c(self.prismatic.frame_b, self.offset.frame_a)
        c(self.offset.frame_b, self.spherical.frame_a)
        self.expose(self.universal.frame_a, "frame_a")
        self.expose(self.spherical.frame_b, "frame_b")
        self.expose(self.universal.frame_b, "frame_ia")
        self.expose(self.offset.frame_b, "frame_ib")
        self.expose(self.prismatic.axis, "axis")
        self.expose(self.prismatic.support, "bearing")


class UniversalSpherical(Composite):
    """A massless rod between a universal joint at frame_a and a ball joint at frame_b (MSL
    ``Joints.UniversalSpherical``).

    n1_a : first universal axis, in frame_a.   rRod_ia : [m] from frame_a's origin to frame_b's,
        in frame_ia (the rod's frame at frame_a's origin, parallel to frame_a in the
        reference configuration); the second universal axis is n1_a × rRod_ia, so the rod
        must not point along n1_a.
    computeRodLength : the MSL's option to solve the rod's length at initialization is not
        supported (a ModelError): give rRod_ia with its length.

    Joints ``universal`` and ``spherical`` (declared last: the loop is cut there, 3
    equations); ports frame_a, frame_b, frame_ia.
    """

    def __init__(self, n1_a=(0.0, 0.0, 1.0), rRod_ia=(1.0, 0.0, 0.0),
                 computeRodLength=False):
        super().__init__()
        if computeRodLength is not False:
            raise ModelError("UniversalSpherical: computeRodLength=True (the rod's length "
                             "solved at initialization) is not supported; give rRod_ia with "
                             "the rod's length")
        self.n1_a = tuple(unit_axis(n1_a, "UniversalSpherical", "n1_a"))
        self.rRod_ia = tuple(_vector("UniversalSpherical", "rRod_ia", rRod_ia))
        n2 = np.cross(self.n1_a, self.rRod_ia)
        if not np.linalg.norm(n2) > 1e-9 * np.linalg.norm(self.rRod_ia):
            raise ModelError(f"UniversalSpherical: rRod_ia = {self.rRod_ia} is parallel to "
                             f"n1_a = {self.n1_a}: the universal joint would lock; choose "
                             "n1_a orthogonal to the rod")
        self.universal = Universal(n_a=self.n1_a, n_b=tuple(n2 / np.linalg.norm(n2)))
        self.rod = FixedTranslation(r=self.rRod_ia)
        self.spherical = Spherical()
        self.connect(self.universal.frame_b, self.rod.frame_a)
        self.connect(self.rod.frame_b, self.spherical.frame_a)
        self.expose(self.universal.frame_a, "frame_a")
        self.expose(self.spherical.frame_b, "frame_b")
        self.expose(self.universal.frame_b, "frame_ia")
