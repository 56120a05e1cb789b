"""The frames' kinematics of a System as one CasADi function, for the time-stepping mode's
contact kinematics: frames(x, p) → R (3 × 3k), r, v, w (3 × k each), world axes, in the
state x = (y, z, s); ``index`` maps every frame port's path to its column k (ports on one
net share it). Built on first use (System._lazy), since only this mode needs it."""
from __future__ import annotations

from dataclasses import dataclass

import casadi as ca

from jourdain.blocks.ports import Frame

from ..equations.projection import to_speeds


@dataclass
class FrameKinematics:
    function: ca.Function
    index: dict          # frame port path -> column


def frame_kinematics(mech, sp) -> FrameKinematics:
    """frames(x, p) of every frame port that has a pose (module docstring)."""
    nets, index = [], {}
    for port, net in sorted(mech.flat.net_of.items(), key=lambda kv: kv[0].path):
        if not isinstance(port, Frame) or net not in mech.kin.frames:
            continue
        if net not in nets:
            nets.append(net)
        index[port.path] = nets.index(net)
    states = [mech.kin.frames[n] for n in nets]
    x = ca.vertcat(mech.kin.y, sp.z, mech.ctx.s)

    def stack(attr, columns=1):
        parts = [ca.reshape(ca.SX(getattr(f, attr)), 3, columns) for f in states]
        return to_speeds(ca.horzcat(*parts), mech, sp) if parts else ca.SX(3, 0)
    fn = ca.Function("frames", [x, mech.params.p],
                     [stack("R", 3), stack("r"), stack("v"), stack("w")],
                     ["x", "p"], ["R", "r", "v", "w"])
    return FrameKinematics(fn, index)
