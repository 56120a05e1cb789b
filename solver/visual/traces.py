"""Traces: the path a chosen point of the machine draws over the motion (a foot of the
Strandbeest, a robot's tool flange), shown by the player as a line that grows with time.

A point is a frame port by name (``"w.leg1.foot.frame_b"``; ``"...frame_b.r_0"`` also
accepted); its origin in world coordinates comes from the System's ``quantities`` function,
the one ``System.initialize`` reads ``r_0[i]`` from, so the traced point is where the
equations put the frame, not where a shape happens to be drawn.
"""
from __future__ import annotations

import difflib

import numpy as np

from jourdain.blocks.errors import ModelError


def frame_paths(system, t: np.ndarray, x: np.ndarray, p: np.ndarray, names) -> dict:
    """name → origin of that frame (n × 3) [m] at the samples t with states x (nx × n)."""
    if isinstance(names, str):
        names = [names]
    names = [str(n) for n in (names or ())]
    if not names:
        return {}
    quantity_names = list(getattr(system, "quantity_names", []) or [])
    frames = sorted({n[:-len(".r_0[0]")] for n in quantity_names if n.endswith(".r_0[0]")})
    rows = {}
    for name in names:
        frame = name[:-len(".r_0")] if name.endswith(".r_0") else name
        if frame not in frames:
            close = difflib.get_close_matches(frame, frames, n=3, cutoff=0.5)
            hint = f" (did you mean {', '.join(close)}?)" if close else \
                f" (frames: {', '.join(frames[:8])}{', ...' if len(frames) > 8 else ''})"
            raise ModelError(f"animate: traces names {name!r}, which is not a frame port of "
                             f"this model{hint}; give frame ports such as 'arm.link.frame_a'")
        rows[name] = [quantity_names.index(f"{frame}.r_0[{i}]") for i in range(3)]
    fn = system.quantities
    n = x.shape[1]
    P = np.asarray(p, dtype=float)
    P = np.repeat(P.reshape(-1, 1), n, axis=1) if P.ndim == 1 else P
    U = np.zeros((fn.size1_in(2), n))
    values = np.array(fn.map(n)(np.asarray(t, float).reshape(1, -1), x, U, P), dtype=float)
    return {name: values[idx, :].T.copy() for name, idx in rows.items()}
