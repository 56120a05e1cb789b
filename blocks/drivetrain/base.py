"""Contracts of the 1-D drive-train family: rigid 1-D bodies on flanges, holonomic couplings
between flanges, and sensors that cut a flange connection to measure what it transmits.

A flange net's position is a joint coordinate (a joint's ``axis``), a coordinate of its own
(a net carrying an Inertia or a Mass), a position fixed by a coupling with other nets (a gear,
a rack and pinion), or the reference 0 (``support`` flanges and free flanges of force elements;
``Fixed`` sets another constant). The solver resolves the 1-D network beside the frame tree
(:mod:`jourdain.solver.model.flanges`, docs/domains.md).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..base import Component, as_scalar, param
from ..errors import ModelError
from ..joints import Coordinate, Speed
from ..ports import Flange, Motion
from ..signals import SignalBlock


class FlangeMass(Component):
    """Contract of a 1-D rigid body: ``flange_a`` and ``flange_b`` rigidly joined (one
    position) and its inertia ``inertia()`` (J [kg·m²] or m [kg]).

    When the body's net has no joint flange and no coupling fixes it, the body owns the
    net's coordinate (``COORDINATES``, ``SPEEDS``: named ``<path>.phi``, ``<path>.w`` for an
    Inertia); otherwise its kinetic energy ½·J·ω² rides on the coordinates that move the net
    (a rotor on a joint axis, a motor behind a gear: reflected inertia r²·J).
    """

    MOTION: ClassVar[Motion] = Motion.ROTATIONAL
    COORDINATES: ClassVar[tuple] = ()
    SPEEDS: ClassVar[tuple] = ()
    RATES_ARE_DERIVATIVES: ClassVar[bool] = True
    UNIT_QUATERNION: ClassVar = None
    RIGID: ClassVar[tuple] = (("flange_a", "flange_b"),)   # port pairs joined in one net

    def _make_flanges(self) -> None:
        self.flange_a = Flange(self, "flange_a", self.MOTION)
        self.flange_b = Flange(self, "flange_b", self.MOTION)

    def inertia(self):
        """The 1-D inertia: J [kg·m²] of a rotational, m [kg] of a translational body."""
        raise NotImplementedError

    def body_flange(self) -> Flange:
        """The port whose net moves with the body's coordinate (its center): ``flange_a``
        unless the body has a length (a ``Mass`` with L ≠ 0: an internal ``center``)."""
        return self.flange_a

    def coordinate_rates(self, q, w):
        return w


class Coupling(Component):
    """Contract of an ideal (massless, lossless) 1-D coupling between flanges: the linear
    holonomic relations ``relations()`` → [{flange: coefficient, ...}, ...], each meaning
    Σ coefficient·position + b = 0 with the constant b from ``offsets()`` (0 unless
    overridden; IdealGear: φ_a − φ_s = ratio·(φ_b − φ_s); LinearCoupling: φ_a = ratio·φ_b +
    offset).

    The ports named in ``SUPPORTS`` are housings: left unconnected they sit at the reference 0
    (Modelica's ``useSupport = false``). Ideal couplings do no work: their reaction torques
    follow from the relations by the principle of virtual work, so they need no force hook.
    """

    SUPPORTS: ClassVar[tuple[str, ...]] = ()
    FOLLOWER: ClassVar[str | None] = None   # flange whose joint the constraint stage solves

    def relations(self) -> list[dict]:
        """[{flange: coefficient, ...}, ...]: each relation Σ coefficient·position = 0."""
        raise NotImplementedError

    def offsets(self) -> list:
        """The constant term b of each relation, read Σ coefficient·position + b = 0 [rad or
        m]; zero for the ideal gears, which couple positions measured from their supports."""
        return [0.0] * len(self.relations())

    def _check_nonzero(self, **values) -> None:
        for name, value in values.items():
            if value == 0:
                raise ModelError(f"{self.path}: {name} must be non-zero, got {value} (a zero "
                                 "ratio would lock one flange and leave the other free)")


class CutSensor(Coupling, SignalBlock):
    """Contract of a sensor that rigidly joins ``flange_a`` and ``flange_b`` (φ_b = φ_a) and
    outputs the torque or force it transmits from flange_a to flange_b (Modelica's
    ``TorqueSensor``: tau = flange_a.tau), computed from the equations of motion of the side
    that moves when the cut is opened (Kane's auxiliary speed, docs/domains.md).

    The measured value depends on accelerations: it may feed outputs and signal blocks with
    states (a filter), but not back into the forces of the same mechanism (an algebraic
    loop; put a filter between).
    """

    MOTION: ClassVar[Motion] = Motion.ROTATIONAL
    OUTPUT: ClassVar[str] = "tau"

    def _make_ports(self, output) -> None:
        self.flange_a = Flange(self, "flange_a", self.MOTION)
        self.flange_b = Flange(self, "flange_b", self.MOTION)
        setattr(self, self.OUTPUT, output)

    def relations(self) -> list[dict]:
        return [{self.flange_b: 1.0, self.flange_a: -1.0}]

    def outputs(self, ctx) -> dict:
        return {getattr(self, self.OUTPUT): ctx.cut_force(self)}


@dataclass(eq=False)
class Fixed(Component):
    """A flange held at the constant position ``s0`` (Modelica ``Rotational.Components.Fixed``
    phi0 [rad], ``Translational.Components.Fixed`` s0 [m]): the housing of a gear or a motor
    somewhere other than the reference 0.

    s0 : [rad] or [m] position of ``flange``.
    """

    s0: float = param(0.0, "rad", "position of the flange")

    def __post_init__(self):
        self.s0 = as_scalar(self.s0, "Fixed", "s0")
        self.flange = Flange(self, "flange", Motion.ANY)


__all__ = ["Coordinate", "Coupling", "CutSensor", "Fixed", "FlangeMass", "Speed"]
