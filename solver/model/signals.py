"""Signal resolution: system inputs u, signal-block outputs and states, and the Context that
component hooks read (time, signal values, port kinematics, block states). Signal nets without a
driving output are system inputs; every RealOutput is a system output; the internal states of
blocks with memory are system states s. Algebraic loops are reported by name."""
from __future__ import annotations

from dataclasses import dataclass

import casadi as ca

from jourdain.blocks.base import Composite, Context, FlangeState, FrameState
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

    def __init__(self, flat: FlatModel, kin: Kinematics, inst: dict, t: ca.SX):
        self.flat, self.kin, self.inst, self.t = flat, kin, inst, t
        self.inputs: list[SignalInfo] = []
        self._input_value: dict[int, ca.SX] = {}
        self._outputs: dict = {}
        self._active: list = []
        self._collect_inputs()
        self.u = ca.vertcat(*[self._input_value[n] for n in self._input_nets]) \
            if self.inputs else ca.SX(0, 1)
        self._collect_states()

    def _collect_states(self) -> None:
        """Symbols s of the signal blocks' internal states, named ``<block>.<state>``."""
        self.state_names: list[str] = []
        self._state: dict[str, ca.SX] = {}
        for block in self.flat.signals:
            names = [f"{block.path}.{n}" for n in block.STATES]
            if names:
                self._state[block.path] = ca.vertcat(*[ca.SX.sym(n) for n in names])
                self.state_names += names
        self.s = ca.vertcat(*self._state.values()) if self._state else ca.SX(0, 1)

    def state(self, block) -> ca.SX:
        return self._state[block.path]

    def state_derivatives(self) -> ca.SX:
        """ṡ of all signal-block states, in the order of ``state_names``."""
        parts = []
        for block in self.flat.signals:
            if block.STATES:
                rates = ca.vertcat(*[ca.SX(r) for r in self.inst[block].derivatives(self)])
                if rates.numel() != len(block.STATES):
                    raise ModelError(f"{block.path}: derivatives() returned {rates.numel()} "
                                     f"values for the {len(block.STATES)} STATES "
                                     f"{', '.join(block.STATES)}")
                parts.append(rates)
        return ca.vertcat(*parts) if parts else ca.SX(0, 1)

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
