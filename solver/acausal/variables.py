"""The unknowns of the acausal equations and what components' ``equations(v)`` read.

* one potential symbol per net of connectors (connection equations "potentials equal" are
  satisfied by sharing the symbol), one flow symbol per connector; the stage adds "flows sum
  to zero" per net;
* the components' own VARIABLES and their RealOutput ports;
* ``der()`` symbols, made on demand: the variables under ``der()`` become states;
* externals: quantities read from the rest of the model (time, signal inputs, flange
  positions and speeds, voltages and currents of the electrical network, the power a lossy
  element dissipates in the mechanics), placeholders that
  the signal context substitutes (as the circuit's branch values).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import casadi as ca

from jourdain.blocks.errors import ModelError
from jourdain.blocks.ports import Connector, Flange, RealInput, RealOutput


@dataclass
class Unknown:
    """A scalar variable of the acausal equations."""

    sym: ca.SX
    name: str
    owner: object          # the component (for a net potential: the first one on the net)
    unit: str = ""
    start: float = 0.0


@dataclass
class External:
    """A quantity read from outside the acausal equations (module docstring)."""

    sym: ca.SX
    kind: str              # "time", "input", "s", "w", "voltage", "current", "loss"
    target: object         # the port or component it belongs to


@dataclass
class Table:
    """Every symbol of the acausal equations, by what it stands for."""

    flat: object
    unknowns: dict = field(default_factory=dict)    # element hash -> Unknown
    potential: dict = field(default_factory=dict)   # net -> symbol
    flow: dict = field(default_factory=dict)        # port -> symbol
    local: dict = field(default_factory=dict)       # (component, name) -> symbol
    der: dict = field(default_factory=dict)         # element hash of a variable -> its der
    externals: dict = field(default_factory=dict)   # element hash -> External
    ext_key: dict = field(default_factory=dict)     # (kind, target) -> External
    rates: set = field(default_factory=set)         # element hashes of the der symbols
    started: set = field(default_factory=set)       # hashes of variables given a start()
    placeholders: dict = field(default_factory=dict)   # hash -> a circuit branch's value
    dummies: set = field(default_factory=set)       # der symbols made algebraic (index.py)

    def add(self, name: str, owner, unit: str = "") -> ca.SX:
        sym = ca.SX.sym(name)
        self.unknowns[sym.element_hash()] = Unknown(sym, name, owner, unit)
        return sym

    def potential_of(self, port: Connector) -> ca.SX:
        net = self.flat.net_of[port]
        if net not in self.potential:
            name, unit = port.POTENTIAL
            self.potential[net] = self.add(f"{port.path}.{name}", port.owner, unit)
        return self.potential[net]

    def flow_of(self, port: Connector) -> ca.SX:
        if port not in self.flow:
            name, unit = port.FLOW
            self.flow[port] = self.add(f"{port.path}.{name}", port.owner, unit)
        return self.flow[port]

    def local_of(self, comp, name: str, unit: str) -> ca.SX:
        key = (comp, name)
        if key not in self.local:
            self.local[key] = self.add(f"{comp.path}.{name}", comp, unit)
        return self.local[key]

    def external(self, kind: str, target, name: str) -> ca.SX:
        key = (kind, target)
        if key not in self.ext_key:
            ext = External(ca.SX.sym(name), kind, target)
            self.ext_key[key] = ext
            self.externals[ext.sym.element_hash()] = ext
        return self.ext_key[key].sym

    def rate_of(self, key) -> ca.SX:
        """The der symbol of the unknown of hash ``key``, made on first use (a der symbol's
        own der too: index reduction differentiates equations more than once)."""
        if key not in self.der:
            var = self.unknowns[key]
            d = ca.SX.sym(f"der({var.name})")
            self.der[key] = d
            self.rates.add(d.element_hash())
            self.unknowns[d.element_hash()] = Unknown(d, f"der({var.name})", var.owner,
                                                      f"{var.unit}/s", 0.0)
        return self.der[key]

    def rate_of_external(self, sym: ca.SX) -> ca.SX:
        """d/dt of a quantity read from outside (an External or a circuit placeholder): 1 for
        time, the flange's speed for its position, else a "rate" external that the signal
        context fills with the time derivative of the quantity's value (refused there by
        name when that value moves with the states or inputs)."""
        ext = self.externals.get(sym.element_hash())
        if ext is not None and ext.kind == "time":
            return ca.SX(1)
        if ext is not None and ext.kind == "s":
            return self.external("w", ext.target, f"{ext.target.path}.w")
        key = ("rate", sym.element_hash())
        if key not in self.ext_key:
            ext = External(ca.SX.sym(f"der({sym.name()})"), "rate", sym)
            self.ext_key[key] = ext
            self.externals[ext.sym.element_hash()] = ext
        return self.ext_key[key].sym

    def derivative(self, expr, comp) -> ca.SX:
        """d/dt of an expression of unknowns, time and parameters (chain rule over the
        unknowns, each getting a der symbol)."""
        expr = ca.SX(expr)
        syms, rates = [], []
        for s in ca.symvar(expr):
            key = s.element_hash()
            if key in self.rates:
                raise ModelError(f"{comp.path}: der() of a derivative ({s.name()}); introduce "
                                 "a variable for the first derivative and an equation for it")
            if key in self.unknowns:
                syms.append(s)
                rates.append(self.rate_of(key))
            elif key in self.externals:
                ext = self.externals[key]
                if ext.kind != "time":
                    raise ModelError(
                        f"{comp.path}: der() of {s.name()}, a quantity read from outside the "
                        "acausal equations (an input, a flange position or speed, a branch "
                        "value), is not available; use the flange's speed w for der(s), or "
                        "give the component a variable and an equation for it")
                syms.append(s)
                rates.append(ca.SX(1))
        if not syms:
            return ca.SX.zeros(expr.shape)
        return ca.jtimes(expr, ca.vertcat(*syms), ca.vertcat(*rates))


class PortView:
    """A connector's potential and flow by the connector's names (``v.port.T``)."""

    def __init__(self, table: Table, port: Connector):
        self._table, self._port = table, port

    def __getattr__(self, name: str):
        port = self._port
        if name == port.POTENTIAL[0]:
            return self._table.potential_of(port)
        if name == port.FLOW[0]:
            return self._table.flow_of(port)
        raise ModelError(f"{port.path}: a {type(port).__name__} has the variables "
                         f"{port.POTENTIAL[0]} and {port.FLOW[0]}, not '{name}'")


class FlangeView:
    """A 1-D flange's position (``s`` or ``phi``) and speed ``w``, read from the mechanics."""

    def __init__(self, table: Table, port: Flange):
        self._table, self._port = table, port

    def __getattr__(self, name: str):
        kind = {"s": "s", "phi": "s", "w": "w"}.get(name)
        if kind is None:
            raise ModelError(f"{self._port.path}: a flange gives s (or phi) and w, not '{name}'")
        return self._table.external(kind, self._port, f"{self._port.path}.{kind}")


class View:
    """What a component's ``equations(v)`` and energy hooks read (blocks/acausal/base.py)."""

    def __init__(self, table: Table, comp, original):
        self._table, self._comp, self._original = table, comp, original

    @property
    def time(self) -> ca.SX:
        return self._table.external("time", None, "t")

    def der(self, expr) -> ca.SX:
        return self._table.derivative(expr, self._original)

    def voltage(self, branch) -> ca.SX:
        """Voltage of a two-pin electrical component (read from the circuit)."""
        return self._table.external("voltage", branch, f"{branch.path}.v")

    def current(self, branch) -> ca.SX:
        """Current of a two-pin electrical component (read from the circuit)."""
        return self._table.external("current", branch, f"{branch.path}.i")

    def loss_power(self) -> ca.SX:
        """The power the component dissipates in the mechanics (its ``loss_power(ctx)``
        hook: blocks/heat_port.py), for the heat port that takes it (``useHeatPort``)."""
        comp = self._original
        return self._table.external("loss", comp, f"{comp.path}.lossPower")

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        comp, table = self._original, self._table
        variables = getattr(comp, "VARIABLES", {})
        if name in variables:
            return table.local_of(comp, name, variables[name])
        port = getattr(self._comp, name, None)
        if isinstance(port, Connector):
            return PortView(table, port)
        if isinstance(port, Flange):
            return FlangeView(table, port)
        if isinstance(port, RealInput):
            if port.size != 1:
                raise ModelError(f"{port.path}: acausal equations read scalar inputs only")
            return table.external("input", port, port.path)
        if isinstance(port, RealOutput):
            return table.local_of(comp, name, port.unit)
        known = list(variables) + [p.name for p in comp.ports()]
        raise ModelError(f"{comp.path}: equations read '{name}', which is neither a variable "
                         f"(VARIABLES) nor a port of {type(comp).__name__}; known: "
                         f"{', '.join(known) or 'none'}")
