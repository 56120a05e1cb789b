"""Sensors in any frame (the MSL's ``MultiBody.Sensors.AbsoluteSensor`` and
``RelativeSensor``, same names and output names).

Outputs exist only when asked for (``get_r_rel=True`` ...), like the MSL's conditional
connectors; here positions, velocities and angular velocities are on by default and the
accelerations off (every acceleration output makes the outputs depend on the dynamics:
they are computed from ż = f(t, x, u, p), never by numerical differentiation).
"""
from __future__ import annotations

import casadi as ca

from ..errors import ModelError
from ..ports import Frame, RealOutput
from ..signals import SignalBlock
from .interfaces import ResolveInFrame, check_resolve, make_resolve_port, resolve_rotation

_AB = (ResolveInFrame.WORLD, ResolveInFrame.FRAME_A, ResolveInFrame.FRAME_B,
       ResolveInFrame.FRAME_RESOLVE)
_A = (ResolveInFrame.WORLD, ResolveInFrame.FRAME_A, ResolveInFrame.FRAME_RESOLVE)


def _outputs(block, flags: dict) -> None:
    block.selected = tuple(name for name, wanted in flags.items() if wanted)
    for name in block.selected:
        setattr(block, name, RealOutput(block, name, 3))
    if not any(flags.values()):
        raise ModelError(f"{type(block).__name__}: no output selected; set one of "
                         + ", ".join(f"get_{n}" for n in flags) + " to True")


class RelativeSensor(SignalBlock):
    """Relative kinematics of frame_b with respect to frame_a (MSL
    ``Sensors.RelativeSensor``).

    r_rel [m]: frame_b.r_0 − frame_a.r_0 resolved in ``resolveInFrame`` (default frame_a);
    v_rel [m/s], a_rel [m/s²]: first and second derivative of r_rel's coordinates (the
    derivative taken in resolveInFrame, as in the MSL), resolved in
    ``resolveInFrameAfterDifferentiation`` (default: the same frame);
    w_rel [rad/s]: angular velocity of frame_b relative to frame_a, z_rel [rad/s²] the
    derivative of its coordinates, resolved likewise.
    """

    def __init__(self, resolveInFrame: ResolveInFrame = ResolveInFrame.FRAME_A,
                 resolveInFrameAfterDifferentiation: ResolveInFrame | None = None, *,
                 get_r_rel=True, get_v_rel=True, get_a_rel=False, get_w_rel=True,
                 get_z_rel=False):
        after = resolveInFrameAfterDifferentiation or resolveInFrame
        self.resolveInFrame = check_resolve("RelativeSensor", resolveInFrame, _AB)
        self.resolveInFrameAfterDifferentiation = check_resolve("RelativeSensor", after, _AB)
        self.frame_a = Frame(self, "frame_a")
        self.frame_b = Frame(self, "frame_b")
        if ResolveInFrame.FRAME_RESOLVE in (self.resolveInFrame, after):
            make_resolve_port(self, ResolveInFrame.FRAME_RESOLVE)
        _outputs(self, {"r_rel": get_r_rel, "v_rel": get_v_rel, "a_rel": get_a_rel,
                        "w_rel": get_w_rel, "z_rel": get_z_rel})

    def outputs(self, ctx) -> dict:
        a, b = ctx.frame(self.frame_a), ctx.frame(self.frame_b)
        R_in = resolve_rotation(self, ctx, self.resolveInFrame)
        R_out = resolve_rotation(self, ctx, self.resolveInFrameAfterDifferentiation)
        after = ca.mtimes(R_out.T, R_in)    # resolveInFrame axes -> the output's axes
        r_rel = ca.mtimes(R_in.T, b.r - a.r)
        w_rel = ca.mtimes(R_in.T, b.w - a.w)
        out = {"r_rel": lambda: r_rel,
               "v_rel": lambda: ca.mtimes(after, ctx.derivative(r_rel)),
               "a_rel": lambda: ca.mtimes(after, ctx.derivative(ctx.derivative(r_rel))),
               "w_rel": lambda: ca.mtimes(after, w_rel),
               "z_rel": lambda: ca.mtimes(after, ctx.derivative(w_rel))}
        return {getattr(self, name): out[name]() for name in self.selected}


class AbsoluteSensor(SignalBlock):
    """Absolute kinematics of frame_a (MSL ``Sensors.AbsoluteSensor``), resolved in
    ``resolveInFrame`` (WORLD, FRAME_A (default, as in the MSL) or FRAME_RESOLVE):

    r [m]: position of frame_a's origin; v [m/s], a [m/s²]: its velocity and acceleration
    (derivatives in the world frame); w [rad/s], z [rad/s²]: angular velocity and
    acceleration of frame_a (``AbsoluteSensor(get_w=True)`` on a body's frame gives the
    body's angular velocity in its own axes).
    """

    def __init__(self, resolveInFrame: ResolveInFrame = ResolveInFrame.FRAME_A, *,
                 get_r=True, get_v=True, get_a=False, get_w=True, get_z=False):
        self.resolveInFrame = check_resolve("AbsoluteSensor", resolveInFrame, _A)
        self.frame_a = Frame(self, "frame_a")
        make_resolve_port(self, self.resolveInFrame)
        _outputs(self, {"r": get_r, "v": get_v, "a": get_a, "w": get_w, "z": get_z})

    def outputs(self, ctx) -> dict:
        frame = ctx.frame(self.frame_a)
        R = resolve_rotation(self, ctx, self.resolveInFrame)
        world = {"r": lambda: frame.r, "v": lambda: frame.v,
                 "a": lambda: ctx.acceleration(self.frame_a)[0], "w": lambda: frame.w,
                 "z": lambda: ctx.acceleration(self.frame_a)[1]}
        return {getattr(self, name): ca.mtimes(R.T, world[name]()) for name in self.selected}
