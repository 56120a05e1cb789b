"""Signal resolution: system inputs u, signal-block outputs and states, and the Context that
component hooks read (time, signal values, port kinematics, component states, branch voltages
and currents of the electrical network, cut forces of sensors). Signal nets without a driving
output are system inputs; every RealOutput is a system output; the states of components with
memory (filters, capacitors, inductors) are system states s. Algebraic loops are reported by
name."""
from __future__ import annotations

from dataclasses import dataclass

import casadi as ca

from jourdain.blocks.base import Composite, Context, FlangeState, FrameState
from jourdain.blocks.electrical import BranchKind
from jourdain.blocks.errors import ModelError
from jourdain.blocks.ports import Port, RealInput, RealOutput

from .flatten import FlatModel
from .kinematics import Kinematics, flange_state


@dataclass(frozen=True)
class SignalInfo:
    """A named system input or output of ``size`` entries."""

    name: str
    size: int
    unit: str = ""

    def entry_names(self) -> list[str]:
        return [self.name] if self.size == 1 else [f"{self.name}[{i}]" for i in range(self.size)]


class SignalContext(Context):
    """The solver's implementation of the block Context, with memoized, loop-checked outputs."""

    def __init__(self, flat: FlatModel, kin: Kinematics, inst: dict, t: ca.SX,
                 circuit=None, acausal=None):
        self.flat, self.kin, self.inst, self.t = flat, kin, inst, t
        self.circuit = circuit
        self.acausal_stage = acausal   # the acausal stage's solution (solver.acausal), or None
        self._by_path = {c.path: c for c in flat.components}
        self._external_value: dict = {}
        self._external_active: list = []
        self._branch_value: dict = {}
        self._resolving: list = []
        self.cuts: dict = {}   # cut sensor path -> placeholder of its reading (equations.cuts)
        self.inputs: list[SignalInfo] = []
        self._input_value: dict[int, ca.SX] = {}
        self._outputs: dict = {}
        self._active: list = []
        self._collect_inputs()
        self.u = ca.vertcat(*[self._input_value[n] for n in self._input_nets]) \
            if self.inputs else ca.SX(0, 1)
        self._collect_states()
        # placeholders for what outputs may read of the dynamics, substituted once ż is
        # known (equations.readings): the joint speeds' derivatives ẇ, the drivers'
        # reactions and the cut sensors' readings (self.cuts)
        self.wdot = ca.SX.sym("wdot", kin.w.numel()) if kin.w.numel() else ca.SX(0, 1)
        self.reactions: dict = {}   # driver path -> placeholder of its reaction
        # (path, row) -> symbol of a hybrid row's force λ, shared with the hybrid stage
        # (solver.hybrid.collect), which substitutes the solved λ (a LossyGear's heat)
        self.multipliers: dict = {}

    def _collect_states(self) -> None:
        """Symbols s of the components' own states, named ``<component>.<state>``, in
        declaration order of the components."""
        self.state_names: list[str] = []
        self._state: dict[str, ca.SX] = {}
        self.stateful = [c for c in self.flat.components if c.STATES]
        for comp in self.stateful:
            names = [f"{comp.path}.{n}" for n in comp.STATES]
            self._state[comp.path] = ca.vertcat(*[ca.SX.sym(n) for n in names])
            self.state_names += names
        parts = list(self._state.values())
        if self.acausal_stage is not None and self.acausal_stage.states:   # variables under der()
            self.state_names += [u.name for u in self.acausal_stage.states]
            parts.append(self.acausal_stage.s)
        self.s = ca.vertcat(*parts) if parts else ca.SX(0, 1)

    def state(self, block) -> ca.SX:
        return self._state[block.path]

    def attach_discrete(self, symbols: dict) -> None:
        """The discrete variables' symbols by component path (:mod:`.discrete`)."""
        self._discrete = symbols

    def discrete(self, component) -> dict:
        return getattr(self, "_discrete", {}).get(component.path, {})

    def state_derivatives(self) -> ca.SX:
        """ṡ of all component states, in the order of ``state_names``."""
        parts = []
        for comp in self.stateful:
            rates = ca.vertcat(*[ca.SX(r) for r in self.inst[comp].derivatives(self)])
            if rates.numel() != len(comp.STATES):
                raise ModelError(f"{comp.path}: derivatives() returned {rates.numel()} "
                                 f"values for the {len(comp.STATES)} STATES "
                                 f"{', '.join(comp.STATES)}")
            parts.append(rates)
        if self.acausal_stage is not None and self.acausal_stage.states:
            parts.append(self.resolve(self.acausal_stage.sdot))
        return ca.vertcat(*parts) if parts else ca.SX(0, 1)

    def start_values(self) -> list[float]:
        """Default initial values of s (each component's ``start()``)."""
        own = [float(v) for comp in self.stateful for v in comp.start()]
        return own + ([u.start for u in self.acausal_stage.states] if self.acausal_stage else [])

    def initial_residuals(self) -> tuple[ca.SX, list[int]]:
        """The components' initial equations and the indices (into s) of the states they
        fix (Component.initial_equations)."""
        rows, index, offset = [], [], 0
        for comp in self.stateful:
            res = self.inst[comp].initial_equations(self)
            n = len(comp.STATES)
            if res is not None:
                res = ca.vertcat(*[ca.SX(r) for r in res])
                if res.numel() != n:
                    raise ModelError(f"{comp.path}: initial_equations() returned "
                                     f"{res.numel()} residuals for the {n} STATES")
                rows.append(res)
                index += list(range(offset, offset + n))
            offset += n
        return (ca.vertcat(*rows) if rows else ca.SX(0, 1)), index

    def total(self, hook: str) -> ca.SX:
        """Σ over all components of ``stored_energy``, ``dissipated_power`` or
        ``supplied_power`` (Component hooks)."""
        owners = self.acausal_stage.owners if self.acausal_stage is not None else set()
        own = sum((ca.SX(getattr(self.inst[c], hook)(self)) for c in self.flat.components
                   if id(c) not in owners), ca.SX(0))
        return own + (self.resolve(self.acausal_stage.energy[hook]) if self.acausal_stage else 0)

    # ---- the acausal equations (solver.acausal) ------------------------------------------
    def acausal(self, component) -> "AcausalValues":
        """The solved acausal variables of ``component``: ``.get(name)`` or ``.name``."""
        return AcausalValues(self, component)

    def acausal_original(self, component):
        """The flattened component of a hook's parameterized copy (same path)."""
        return self._by_path[component.path]

    def resolve(self, expr) -> ca.SX:
        """An expression of the acausal solution or the circuit with the quantities they
        read from the rest of the model (branch values, inputs, flanges, time) filled in."""
        expr = ca.SX(expr)
        if self.circuit is not None:
            expr = self._resolve(expr)
        if self.acausal_stage is None:
            return expr
        ext = self.acausal_stage.table.externals
        found = [ext[s.element_hash()] for s in ca.symvar(expr) if s.element_hash() in ext]
        if not found:
            return expr
        return ca.substitute(expr, ca.vertcat(*[e.sym for e in found]),
                             ca.vertcat(*[self._external(e) for e in found]))

    def _external(self, ext) -> ca.SX:
        key = ext.sym.element_hash()
        if key in self._external_value:
            return self._external_value[key]
        if key in self._external_active:
            raise ModelError(f"algebraic loop through the acausal equations: {ext.sym.name()} "
                             "depends on itself instantaneously (e.g. a sensor's reading fed "
                             "back to a prescribed source without a state between)")
        self._external_active.append(key)
        target = ext.target
        value = {"time": lambda: self.t, "input": lambda: self.value(target),
                 "s": lambda: self.flange(target).s, "w": lambda: self.flange(target).w,
                 "voltage": lambda: self.voltage(target),
                 "current": lambda: self.current(target),
                 "rate": lambda: self._rate(target),
                 "loss": lambda: self.inst[target].loss_power(self)}[ext.kind]()
        self._external_active.pop()
        self._external_value[key] = self.resolve(value)
        return self._external_value[key]

    def _rate(self, sym: ca.SX) -> ca.SX:
        """d/dt of a quantity the acausal index reduction differentiates (a source's value,
        an input's signal): its value's partial derivative in time, which is its derivative
        when the value moves with nothing else (states, inputs, coordinates, speeds)."""
        value = self.resolve(sym)
        moving = ca.vertcat(self.s, self.u, self.kin.y, self.kin.w)
        if moving.numel() and ca.depends_on(value, moving):
            raise ModelError(
                f"index reduction of the acausal equations needs the time derivative of "
                f"{sym.name()}, whose value depends on the model's states, inputs or motion "
                "and is not differentiated; put a component with a state between (a "
                "resistor, a conductor, a damper) or drive it by a signal of time")
        return ca.densify(ca.jacobian(value, self.t))   # a constant: 0, not a structural 0

    # ---- the electrical network (compiled by solver.acausal) -----------------------------------------
    def voltage(self, branch) -> ca.SX:
        return self.resolve(self._circuit("voltage")[branch.path])

    def current(self, branch) -> ca.SX:
        return self.resolve(self._circuit("current")[branch.path])

    def potential(self, pin) -> ca.SX:
        return self.resolve(self._circuit("potential")[self.flat.net_of[pin]])

    def _circuit(self, what: str) -> dict:
        if self.circuit is None:
            raise ModelError("an electrical quantity was read but the model has no circuit")
        return getattr(self.circuit, what)

    def _resolve(self, expr: ca.SX) -> ca.SX:
        """Substitute the branch values the expression depends on (and only those)."""
        expr = ca.SX(expr)
        if getattr(self, "_placeholder_of", None) is None:   # symbol -> (order, branch)
            self._placeholder_of = {h.element_hash(): (k, b) for k, (b, h) in
                                    enumerate(self.circuit.placeholders.items())}
        # the expression's symbols looked up, not each placeholder tested (a test per
        # placeholder and read was n² in an RC ladder: 52 of 61 s at 300 sections)
        found = (self._placeholder_of.get(v.element_hash()) for v in ca.symvar(expr))
        used = [b for _, b in sorted(f for f in found if f is not None)]
        if not used:
            return expr
        values = [self._value_of(b) for b in used]
        return ca.substitute(expr, ca.vertcat(*[self.circuit.placeholders[b] for b in used]),
                             ca.vertcat(*values))

    def _value_of(self, path: str) -> ca.SX:
        """A voltage or current branch's value from its hook, memoized, loop-checked."""
        if path in self._branch_value:
            return self._branch_value[path]
        if path in self._resolving:
            loop = self._resolving[self._resolving.index(path):] + [path]
            raise ModelError("algebraic loop through the circuit: " + " -> ".join(loop) +
                             "; the value of a source depends on itself instantaneously (e.g. a "
                             "sensor reading fed back to the source without a state between)")
        self._resolving.append(path)
        branch = self.circuit.branches[path]
        self._active.append(branch)   # so a signal loop through the source names it too
        comp = self.inst[branch]
        value = comp.voltage(self) if branch.KIND is BranchKind.VOLTAGE else comp.current(self)
        self._active.pop()
        self._resolving.pop()
        self._branch_value[path] = ca.SX(value)
        return self._branch_value[path]

    def cut_force(self, sensor) -> ca.SX:
        """A placeholder for the sensor's reading, replaced once the accelerations are known
        (equations.cuts, equations.readings); forces that depend on it make an algebraic loop,
        refused there."""
        if sensor.path not in self.cuts:
            self.cuts[sensor.path] = ca.SX.sym(f"cut_{sensor.path}")
        return self.cuts[sensor.path]

    def _collect_inputs(self) -> None:
        self._input_nets = []
        for comp in self.flat.components:
            for port in comp.ports():
                net = self.flat.net_of[port]
                if not isinstance(port, RealInput) or net in self._input_value:
                    continue
                if any(isinstance(p, RealOutput) and not isinstance(p.owner, Composite)
                       for p in self.flat.nets[net]):
                    continue
                name = min((p.path for p in self.flat.nets[net]), key=lambda s: (len(s), s))
                self.inputs.append(SignalInfo(name, port.size, port.unit))
                self._input_value[net] = ca.SX.sym(name, port.size)
                self._input_nets.append(net)

    def value(self, port: Port):
        net = self.flat.net_of[port]
        if net in self._input_value:
            return self._input_value[net]
        driver = next(p for p in self.flat.nets[net] if isinstance(p, RealOutput)
                      and not isinstance(p.owner, Composite))
        return self.block_outputs(driver.owner)[driver]

    def block_outputs(self, block) -> dict:
        if block in self._outputs:
            return self._outputs[block]
        if block in self._active:
            loop = self._active[self._active.index(block):] + [block]
            raise ModelError("algebraic loop through signal blocks " +
                             " -> ".join(b.path for b in loop) +
                             "; break it with a block that has state or remove a connection")
        self._active.append(block)
        outs = self.inst[block].outputs(self)
        self._active.pop()
        self._outputs[block] = {port: ca.SX(expr) for port, expr in outs.items()}
        return self._outputs[block]

    def frame(self, port: Port) -> FrameState:
        return self.kin.frames[self.flat.net_of[port]]

    def derivative(self, expr) -> ca.SX:
        """d/dt = ∂/∂t + ∂/∂y·ẏ + ∂/∂w·ẇ (ẇ: placeholders ``wdot``) of a vector expression of
        time and the kinematics; inputs and block states have no known derivative."""
        e = ca.reshape(ca.SX(expr), -1, 1)
        if ca.depends_on(e, ca.vertcat(self.u, self.s, self.placeholders())):
            raise ModelError("a derivative of a signal input, a component state or a dynamic "
                             "reading (acceleration, reaction, cut force) was asked for (e.g. a "
                             "velocity sensor on a driven reference); only positions and "
                             "velocities of the mechanism can be differentiated")
        kin, out = self.kin, ca.jacobian(e, self.t)
        if kin.y.numel():
            out += ca.jtimes(e, kin.y, kin.ydot) + ca.jtimes(e, kin.w, self.wdot)
        return out

    def acceleration(self, port: Port) -> tuple:
        frame = self.frame(port)
        return self.derivative(frame.v), self.derivative(frame.w)

    def reaction(self, block) -> ca.SX:
        # keyed by path: hooks run on the parameterized copies of the blocks
        if block.path not in self.reactions:
            self.reactions[block.path] = ca.SX.sym(f"reaction_{block.path}")
        return self.reactions[block.path]

    def multiplier(self, component, row: str) -> ca.SX:
        """The symbol of the force λ of a hybrid row (``lambda:<path>.<row>``)."""
        key = (component.path, row)
        if key not in self.multipliers:
            self.multipliers[key] = ca.SX.sym(f"lambda:{component.path}.{row}")
        return self.multipliers[key]

    def placeholders(self) -> ca.SX:
        """All dynamic placeholders, in this order: ẇ, the drivers' reactions, the cut
        sensors' readings (equations.readings gives their values)."""
        return ca.vertcat(self.wdot, *self.reactions.values(), *self.cuts.values())

    def flange(self, port: Port) -> FlangeState:
        return flange_state(self.kin, self.flat.net_of[port])

    def outputs(self) -> tuple[list[SignalInfo], ca.SX]:
        """All system outputs (every RealOutput of every signal block) and their expressions."""
        infos, exprs = [], []
        for block in self.flat.signals:
            for port, expr in self.block_outputs(block).items():
                infos.append(SignalInfo(port.path, port.size, port.unit))
                exprs.append(ca.reshape(expr, port.size, 1))
        return infos, (ca.vertcat(*exprs) if exprs else ca.SX(0, 1))


class AcausalValues:
    """Solved acausal variables of one component, read by its other hooks (a FlangeForce's
    ``force`` of an acausal element, a sensor's output)."""

    def __init__(self, ctx: SignalContext, component):
        self._ctx, self._component = ctx, component

    def get(self, name: str) -> ca.SX:
        if self._ctx.acausal_stage is None:
            raise ModelError(f"{self._component.path}: acausal values were read but the model "
                             "has no acausal equations")
        original = self._ctx.acausal_original(self._component)
        return self._ctx.resolve(self._ctx.acausal_stage.lookup(original, name))

    def __getattr__(self, name: str) -> ca.SX:
        if name.startswith("_"):
            raise AttributeError(name)
        return self.get(name)
