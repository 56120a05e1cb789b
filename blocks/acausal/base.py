"""The contract of a user-written acausal component (Modelica's ``model`` with equations):
connectors with a potential and a flow variable, variables of its own, and equations written
as residuals (implicit, nonlinear, with ``der()`` of any variable). See docs/acausal.md.

A component declares

* its connectors in ``__post_init__`` (``HeatPort``, ``Pin``, ``FluidPort``, any
  :class:`~jourdain.blocks.ports.Connector`), signal ``RealInput``/``RealOutput`` ports and
  1-D ``Flange`` ports as every component does;
* ``VARIABLES``: {name: unit} of its own variables (Modelica's ``Real T(unit="K")``);
* parameters as dataclass fields with :func:`~jourdain.blocks.base.param`;
* ``equations(v)``: a list of residuals, each an expression that is zero on the solution.
  ``v`` gives every quantity by name: ``v.T`` (a variable), ``v.port.T``, ``v.port.Q_flow``
  (a connector's potential and flow, by the connector's names), ``v.u`` (the value of a
  RealInput ``u``), ``v.y`` (a RealOutput ``y`` is a variable that an equation must fix),
  ``v.flange.s``/``v.flange.w`` (position and speed of a 1-D flange), ``v.time``, and
  ``v.der(expr)`` (the time derivative of any expression of variables);
* ``start()``: {variable: value} of initial values of the variables that become states
  (Modelica's ``start``/``fixed``) and guesses of Newton's iterations in nonlinear loops;
* the energy hooks ``stored_energy(v)``, ``dissipated_power(v)``, ``supplied_power(v)``,
  with the same ``v``: they enter the System's energy balance as the other components' do.

The compiler (:mod:`jourdain.solver.acausal`) makes the variables under ``der()`` states and
solves the rest (matching, blocks of the BLT form, symbolic elimination of linear blocks,
Newton inside f for nonlinear ones). Other hooks (a FlangeForce's ``force``) read solved
values with ``ctx.acausal(self).name``.
"""
from __future__ import annotations

from typing import ClassVar

from ..ports import RealOutput
from ..signals import SignalBlock


class AcausalComponent(SignalBlock):
    """Base of acausal components (module docstring). It is a SignalBlock so its RealOutput
    ports (sensors) are system outputs; their values are the variables of the same name."""

    VARIABLES: ClassVar[dict] = {}

    def equations(self, v) -> list:
        """Residuals r with r = 0 on the solution (one list entry per scalar equation)."""
        raise NotImplementedError

    def start(self) -> dict:
        """{variable name: initial value / Newton guess} (zeros for those not given)."""
        return {}

    def stored_energy(self, v):
        """Energy stored [J] (in the variables that are states)."""
        return 0

    def dissipated_power(self, v):
        """Power turned into heat that leaves the model [W], ≥ 0."""
        return 0

    def supplied_power(self, v):
        """Power delivered into the model [W] (a source; negative where it absorbs)."""
        return 0

    def outputs(self, ctx) -> dict:
        # vars(), not ports(): hooks run on a parameterized copy, whose ports' owner is
        # the original
        return {port: ctx.acausal(self).get(port.name) for port in vars(self).values()
                if isinstance(port, RealOutput)}
