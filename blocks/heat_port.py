"""The MSL's ``useHeatPort`` of lossy elements (Modelica
``Thermal.HeatTransfer.Interfaces.PartialElementaryConditionalHeatPortWithoutT``): with
``useHeatPort=True`` the element gets a :class:`HeatPort` ``heatPort`` and its dissipated
power ``lossPower`` [W] leaves through it, heatPort.Q_flow = −lossPower; without the flag
nothing changes (the losses only count as dissipated, as the MSL's internal port held at a
fixed temperature). The port's temperature does not act back on these elements.

``lossPower`` is the power the energy balance already counts as dissipated by the element:
w_rel·∂D/∂w_rel of its dissipation function D (dampers), its ``dissipated_power`` hook (the
bounded dampers of ElastoBacklash and ElastoGap), and for a hybrid element the power
−λ·γ of its sliding rows (a slipping clutch or brake: its friction torque times the slip
speed; stuck or free: zero; a LossyGear's own hook reads its loss row's solved force).
The solver reads it through ``v.loss_power()`` in the element's
acausal equation (docs/acausal.md, "Heat ports of lossy elements").
"""
from __future__ import annotations

import casadi as ca

from .ports import HeatPort


class ConditionalHeatPort:
    """Mixin of an element with the MSL's ``useHeatPort`` (module docstring). The element
    declares the dataclass field ``useHeatPort: bool = False`` last (so positional
    parameters keep their MSL order) and calls ``_make_heat_port()`` in ``__post_init__``."""

    useHeatPort: bool = False

    def _make_heat_port(self) -> None:
        if self.useHeatPort:
            self.heatPort = HeatPort(self, "heatPort")

    def equations(self, v) -> list:
        """heatPort.Q_flow = −lossPower (read only with useHeatPort: the solver takes an
        element into the acausal equations only when it owns the heat port)."""
        return [v.heatPort.Q_flow + v.loss_power()]

    def loss_power(self, ctx):
        """lossPower [W] ≥ 0 (module docstring), in the terms of the signal context."""
        return _rate_loss(self, ctx) + ca.SX(self.dissipated_power(ctx)) + _row_loss(self, ctx)


def _rate_loss(elem, ctx):
    """w·∂D/∂w of the dissipation function at the element's relative speed (a flange pair's
    w_b − w_a, a line force's ṡ)."""
    w_sym = ca.SX.sym("w_rel")
    D = ca.SX(elem.dissipation(w_sym))
    if not ca.depends_on(D, w_sym):
        return ca.SX(0)
    return ca.substitute(w_sym * ca.jacobian(D, w_sym), w_sym, _relative_speed(elem, ctx))


def _relative_speed(elem, ctx):
    if hasattr(elem, "frame_a"):   # a line force: ṡ = e·(v_b − v_a)
        from .multibody.interfaces import S_SMALL   # here: multibody imports the 1-D forces
        a, b = ctx.frame(elem.frame_a), ctx.frame(elem.frame_b)
        r = b.r - a.r
        return ca.dot(r / ca.fmax(ca.sqrt(ca.dot(r, r)), S_SMALL), b.v - a.v)
    return ctx.flange(elem.flange_b).w - ctx.flange(elem.flange_a).w


def _row_loss(elem, ctx):
    """−Σ (1 − active)·force·velocity over a hybrid element's rows: the power of its sliding
    rows, which the hybrid dynamics counts as dissipated (a stuck row does no work)."""
    rows = getattr(elem, "rows", None)
    if rows is None:
        return ca.SX(0)
    return -sum((ca.SX(1 - r.active) * ca.SX(r.force) * ca.SX(r.velocity) for r in rows(ctx)),
                ca.SX(0))
