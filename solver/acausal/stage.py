"""The acausal stage: the components' equations and the connection equations, solved into
state derivatives and values of every variable (docs/acausal.md).

Participants are the :class:`~jourdain.blocks.acausal.AcausalComponent` instances and any
other component that owns a non-electrical connector and writes ``equations(v)`` (a lossy
element's heat port: a Resistor's or a damper's ``useHeatPort``). When an acausal component
has an electrical Pin, the whole circuit is compiled here: each two-pin component of the
electrical domain (``OnePort``) contributes v = p.v − n.v, p.i + n.i = 0 and its branch law
(v = R·i, or its voltage or current as a placeholder that the signal context fills from the
component's hook), a Ground p.v = 0; the result is handed to the signal context as branch
voltages, currents and node potentials, which the electrical components read. Every circuit
is compiled here (the modified nodal analysis that did it before is gone: the same f to the
instruction, benchmarks/acausal.py); a circuit of two-pin parts only is first checked in
circuit terms (:mod:`.circuits`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import casadi as ca

from jourdain.blocks.acausal import AcausalComponent
from jourdain.blocks.electrical import BranchKind, Ground, OnePort
from jourdain.blocks.errors import ModelError
from jourdain.blocks.heat_port import ConditionalHeatPort
from jourdain.blocks.ports import Connector, HeatPort, Pin

from .aliases import eliminate_aliases
from .circuits import check_circuit
from .eliminate import jacobian_structure, resolve, solve_all
from .solve import substitute_known
from .index import reduce_index, states_after
from .structure import Equation, blt, matching
from .variables import Table, View

HOOKS = ("stored_energy", "dissipated_power", "supplied_power")


@dataclass
class CircuitValues:
    """Branch voltages, currents and node potentials (the nodal analysis' Circuit shape)."""

    voltage: dict
    current: dict
    potential: dict
    placeholders: dict
    branches: dict


@dataclass
class AcausalSolution:
    """States, their derivatives and every solved value, in terms of the states, the
    externals (table.externals), the circuit placeholders and the parameters."""

    table: Table
    states: list                     # Unknown of each state, in the order of s
    sdot: ca.SX
    value: dict                      # element hash -> solved expression
    energy: dict                     # hook -> expression
    owners: set = field(default_factory=set)   # ids of components whose hooks are in energy
    circuit: CircuitValues | None = None

    @property
    def s(self) -> ca.SX:
        return ca.vertcat(*[u.sym for u in self.states]) if self.states else ca.SX(0, 1)

    def lookup(self, comp, name: str) -> ca.SX:
        """The solved value of a variable or output ``name`` of ``comp``."""
        sym = self.table.local.get((comp, name))
        if sym is None:
            known = [n for (c, n) in self.table.local if c is comp]
            raise ModelError(f"{comp.path}: no acausal variable '{name}' (its variables: "
                             f"{', '.join(known) or 'none'})")
        return self.value.get(sym.element_hash(), sym)


def participants(flat) -> list:
    return [c for c in flat.components if isinstance(c, AcausalComponent) or (
        hasattr(c, "equations") and any(isinstance(p, Connector) and not isinstance(p, Pin)
                                        for p in c.ports()))]


def build_acausal(flat, inst: dict, original_of=None) -> AcausalSolution | None:
    """Solve the acausal equations of ``flat`` (module docstring); None when it has none."""
    comps = participants(flat)
    legacy = [c for c in flat.electrical if isinstance(c, (OnePort, Ground))]
    if not comps and not legacy:
        return None
    if not any(isinstance(p, Pin) for c in comps for p in c.ports()):
        check_circuit(flat)   # a circuit of two-pin parts only: named in circuit terms
    table = Table(flat)
    equations = []
    for comp in comps:
        equations += _component_equations(table, comp, inst[comp])
    circuit_eqs, holder = _circuit_equations(table, legacy, inst)
    equations += circuit_eqs
    equations += _connection_equations(table, flat, comps + legacy)
    equations, alias = eliminate_aliases(table, equations)
    _start_values(table, comps, alias)
    value, states = _solve(table, equations)
    for h, rep in alias.items():   # members of an alias class read their representative
        value[h] = rep if rep.is_constant() else value.get(rep.element_hash(), rep)
    sdot = ca.vertcat(*[value.get(table.der[h].element_hash(), table.der[h]) for h in states]
                      ) if states else ca.SX(0, 1)
    energy, owners = _energy(table, comps, inst, value, states)
    solution = AcausalSolution(table, list(states.values()), sdot, value, energy, owners)
    if legacy:
        solution.circuit = _circuit_values(table, flat, legacy, holder, value)
    return solution


def _start_values(table: Table, comps: list, alias: dict) -> None:
    """Each variable's start value (a state's initial value, a Newton guess) from its
    component's ``start()``; a name that is no variable of the component is refused, and
    so are different start values of variables that aliases made one."""
    given: dict = {}   # representative hash -> (value, variable name)
    for comp in comps:
        if not isinstance(comp, AcausalComponent):
            continue
        for name, value in comp.start().items():
            sym = table.local.get((comp, name))
            if sym is None and name not in getattr(comp, "VARIABLES", {}):
                raise ModelError(f"{comp.path}: start() names '{name}', which is not one of "
                                 f"its VARIABLES ({', '.join(comp.VARIABLES) or 'none'})")
            if sym is None:
                continue
            rep = alias.get(sym.element_hash(), sym)
            if rep.is_constant():
                continue   # fixed by an equation x = c: its start is no guess anyone needs
            rep = rep.element_hash()
            here = f"{comp.path}.{name}"
            if rep in given and abs(given[rep][0] - float(value)) > 1e-12 * max(
                    1.0, abs(float(value))):
                raise ModelError(f"{given[rep][1]} and {here} are one variable (connected "
                                 f"without anything between them) but start at {given[rep][0]}"
                                 f" and {float(value)}; give them the same start value")
            given[rep] = (float(value), here)
            if rep in table.unknowns:
                table.unknowns[rep].start = float(value)
                table.started.add(rep)


def _component_equations(table: Table, comp, instance) -> list:
    try:
        residuals = instance.equations(View(table, instance, comp))
    except NotImplementedError:
        raise ModelError(f"{comp.path}: an AcausalComponent must define equations(v), the "
                         "list of its residuals (docs/acausal.md)") from None
    if not isinstance(residuals, (list, tuple)):
        raise ModelError(f"{comp.path}: equations(v) must return a list of residuals, got "
                         f"{type(residuals).__name__}")
    out = []
    for k, r in enumerate(residuals):
        try:
            expr = ca.SX(r)
        except (NotImplementedError, TypeError, RuntimeError):
            raise ModelError(f"{comp.path}: equation {k + 1} is not an expression of the "
                             f"variables (got {r!r:.60}); write it as a residual, lhs − rhs"
                             ) from None
        for i in range(expr.numel()):
            out.append(Equation(expr[i], comp, f"equation {k + 1}"))
    return out


def _circuit_equations(table: Table, legacy: list, inst: dict) -> tuple[list, dict]:
    """The two-pin components' and grounds' equations (module docstring)."""
    equations, holder = [], {}
    for b in legacy:
        if isinstance(b, Ground):
            equations.append(Equation(table.potential_of(b.p), b, "p.v = 0"))
            table.flow_of(b.p)
            continue
        v = table.potential_of(b.p) - table.potential_of(b.n)
        i = table.flow_of(b.p)
        equations.append(Equation(i + table.flow_of(b.n), b, "p.i + n.i = 0"))
        if b.KIND is BranchKind.RESISTIVE:
            equations.append(Equation(v - inst[b].resistance() * i, b, "v = R·i"))
        elif b.KIND is BranchKind.VOLTAGE:
            holder[b] = ca.SX.sym(f"{b.path}.v")
            table.placeholders[holder[b].element_hash()] = holder[b]
            equations.append(Equation(v - holder[b], b, "v = its voltage"))
        else:
            holder[b] = ca.SX.sym(f"{b.path}.i")
            table.placeholders[holder[b].element_hash()] = holder[b]
            equations.append(Equation(i - holder[b], b, "i = its current"))
    return equations, holder


def _connection_equations(table: Table, flat, comps: list) -> list:
    """Σ flows = 0 per net of connectors (potentials are shared symbols already)."""
    nets: dict = {}
    seen = set()
    for comp in comps:
        for port in comp.ports():
            if isinstance(port, Connector) and port not in seen:
                seen.add(port)
                nets.setdefault(flat.net_of[port], []).append(port)
    out = []
    for ports in nets.values():
        _check_heat_port(ports)
        flows = ca.vertcat(*[table.flow_of(p) for p in ports])
        names = ", ".join(p.path for p in ports[:6]) + (" …" if len(ports) > 6 else "")
        text = (f"the flows into {{{names}}} sum to zero" if len(ports) > 1 else
                f"the unconnected {ports[0].path} has flow 0")
        out.append(Equation(ca.sum1(flows), None, text))
    return out


def _check_heat_port(ports: list) -> None:
    """An element's heat port (useHeatPort=True) left unconnected: its losses would have
    nowhere to go and its temperature no equation (the MSL's model is structurally singular
    then); refused by name before the structural analysis says it in general terms."""
    port = ports[0]
    if len(ports) == 1 and isinstance(port.owner, ConditionalHeatPort) and \
            port is getattr(port.owner, "heatPort", None):
        raise ModelError(f"{port.path} is not connected, but {port.owner.path} has "
                         "useHeatPort=True: connect it to a thermal network (a "
                         "FixedTemperature as an ambient, a HeatCapacitor, a Convection) or "
                         "set useHeatPort=False (the losses then only count as dissipated)")


def _solve(table: Table, equations: list) -> tuple[dict, dict]:
    """{unknown hash: value} and the states {hash: Unknown}, after index reduction when a
    constraint between states needs it (:mod:`.index`)."""
    states = states_after(table)
    unknowns = {h: u for h, u in table.unknowns.items() if h not in states}
    structure, inc, column = _structure(equations, unknowns)
    match = matching(equations, unknowns, inc)
    reduced = reduce_index(table, equations, match)
    if reduced is not None:
        equations, states = reduced, states_after(table)
        unknowns = {h: u for h, u in table.unknowns.items() if h not in states}
        structure, inc, column = _structure(equations, unknowns)
        match = None
    order = blt(equations, unknowns, states, inc, match)
    return solve_all(equations, unknowns, order, structure, column), states


def _structure(equations: list, unknowns: dict):
    column = {h: j for j, h in enumerate(unknowns)}
    structure = jacobian_structure(equations, [u.sym for u in unknowns.values()])
    hashes = list(unknowns)
    inc = [[hashes[j] for j, _ in row] for row in structure[1]]
    return structure, inc, column


def _energy(table: Table, comps: list, inst: dict, value: dict, states: dict):
    """The energy hooks of the acausal components (with the View) and the heat that the heat
    ports of other participants hand to the thermal network (supplied power)."""
    energy = {hook: ca.SX(0) for hook in HOOKS}
    owners = set()
    for comp in comps:
        if isinstance(comp, AcausalComponent):
            owners.add(id(comp))
            view = View(table, inst[comp], comp)
            for hook in HOOKS:
                energy[hook] += ca.SX(getattr(inst[comp], hook)(view))
        else:
            for port in comp.ports():
                if isinstance(port, HeatPort):
                    energy["supplied_power"] -= table.flow_of(port)
    for hook in HOOKS:
        energy[hook] = substitute_known(energy[hook], value)
        left = [s.name() for s in ca.symvar(energy[hook]) if s.element_hash() in
                table.unknowns and s.element_hash() not in states]
        if left:
            raise ModelError(f"{hook}() of an acausal component reads {', '.join(left)}, "
                             "which no equation determines; use the component's variables")
    return energy, owners


def _circuit_values(table: Table, flat, legacy: list, holder: dict, value: dict):
    branches = [b for b in legacy if not isinstance(b, Ground)]
    exprs = [table.potential_of(b.p) - table.potential_of(b.n) for b in branches] + \
        [table.flow_of(b.p) for b in branches]
    solved = resolve(exprs, value)
    voltage = {b.path: solved[k] for k, b in enumerate(branches)}
    current = {b.path: solved[len(branches) + k] for k, b in enumerate(branches)}
    potential = {}
    for net, sym in table.potential.items():
        potential[net] = value.get(sym.element_hash(), sym)
    return CircuitValues(voltage, current, potential,
                         {b.path: h for b, h in holder.items()},
                         {b.path: b for b in legacy if not isinstance(b, Ground)})
