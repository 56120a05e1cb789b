"""Integration segments of the event loop: CVODES (or IDAS) over [t_a, t_a + h] in normalized
time τ ∈ [0, 1], t = t_a + τ·h, with (t_a, h, p, u_held) as the integrator's parameters.

One integrator object thus serves every segment with the same relative output pattern (the
objects are cached by their τ-grid), each call restarts SUNDIALS from the given state (the
proper restart after an event: order 1, a fresh step size), and the outputs inside a segment
come from SUNDIALS' dense output, so sampling the guards densely costs no extra steps.

Inputs driven by sampled callbacks (``u_held``) replace the interpolated inputs while they are
held: u(t) = mask·u_held + (1 − mask)·u_interp(t).

Two methods (``open_opts``): a hybrid model is stiff while a row is a constraint (a resting
contact's Baumgarte stabilization, a stuck clutch), not while every row is open (a ball in
flight). With ``open_opts`` given (Adams), segments in modes where no row is active run on
them, the others on ``opts`` (BDF): a ball's flight costs 0.26 ms per segment on Adams
against 5.5 ms on BDF, whose Jacobian of the contact solve is evaluated at every step of the
restart. Should Adams fail on a segment, it is run again on ``opts``, and so are all later
ones.
"""
from __future__ import annotations

from collections import OrderedDict

import casadi as ca
import numpy as np

from .integrators import Method, right_hand_side

CACHE_SIZE = 64   # integrator objects kept per simulation
STALL_STEPS = 5000   # CVODES steps between two samples at most (the caller's max_steps if less)


class Segments:
    """Integrate the system's ODE (or DAE) over segments; see the module docstring."""

    def __init__(self, system, u_expr_of, held_mask: np.ndarray, opts: dict, dae=None,
                 open_opts: dict | None = None):
        """u_expr_of(t) builds the interpolated inputs as an expression of t; ``dae`` is
        (dae function, number of algebraic variables, z0_of) for IDAS — z0_of(t, x, p,
        u_held) gives consistent algebraic variables at a segment start — else None (CVODES
        on f)."""
        self.z0_of = dae[2] if dae is not None else None
        # a segment that runs past an undetected mode change into a region its mode cannot
        # continue through (measured: a sliding contact past its stick guard, 100000 steps
        # in 60 s) fails after STALL_STEPS and is retried shorter (EventLoop._integrate);
        # samples are at most event_step apart, which legitimate segments need far fewer
        # steps to cross. BDF's options only: Adams' steps are cheap, and a failure on Adams
        # would switch every later segment to BDF
        opts = dict(opts, max_num_steps=min(opts.get("max_num_steps", STALL_STEPS),
                                            STALL_STEPS))
        # simulate's max_step [s] is a step in τ of max_step/h, which depends on the segment's
        # length h: rounded down to a power of two (at most twice as tight as asked), so a
        # few integrator objects serve every segment length
        self.max_step = opts.pop("max_step_size", None)
        if open_opts is not None:
            open_opts = {k: v for k, v in open_opts.items() if k != "max_step_size"}
        # a failed segment is handled here (retried shorter, on BDF, or a named
        # SimulationError): SUNDIALS' own messages on stderr would only alarm
        opts["disable_internal_warnings"] = True
        self.system, self.opts = system, opts
        self.open_opts = None if open_opts is None or dae is not None else \
            dict(open_opts, disable_internal_warnings=True)
        self._open: dict = {}   # modes (p) -> True when no row is active
        f = system.f if dae is None else dae[0]
        if dae is None and not (f.is_a("SXFunction") or f.is_a("MXFunction")):
            # compiled C (System.codegen) has no derivatives unless its library holds jac_f
            # (small f only); BDF's Newton iterations need ∂f/∂x ("Derivatives cannot be
            # calculated for f" at t = 0 on a compiled model with a sampled block): the
            # wrapper simulate runs, with the Jacobian chosen by :mod:`.jacobian`
            f = right_hand_side(system, Method.BDF)[1]
        # MX where f is compiled or a callable input is a Callback call (:mod:`.inputs`)
        sym = ca.SX if f.is_a("SXFunction") and not getattr(u_expr_of, "needs_mx", False) \
            else ca.MX
        tau, ta, h = sym.sym("tau"), sym.sym("t_a"), sym.sym("h")
        x = sym.sym("x", f.size1_in(1))
        p = sym.sym("p", f.size1_in(4 if dae is not None else 3))
        nu = len(system.u_names)
        held = sym.sym("u_held", nu)
        t = ta + tau * h
        mask = ca.DM(held_mask.astype(float))
        u = mask * held + (1 - mask) * u_expr_of(t) if nu else u_expr_of(t)
        self.solver = "cvodes" if dae is None else "idas"
        params = ca.vertcat(ta, h, p, held)
        if dae is None:
            self.problem = {"t": tau, "x": x, "p": params, "ode": h * f(t, x, u, p)}
        else:
            lam = sym.sym("lambda", dae[1])
            ode, alg = f(t, x, lam, u, p)
            self.problem = {"t": tau, "x": x, "z": lam, "p": params, "ode": h * ode,
                            "alg": alg}
        self._cache: OrderedDict = OrderedDict()
        self.calls = 0

    def _tau_step(self, h: float) -> float | None:
        """The longest step in τ for a segment of length h (``max_step``), or None."""
        if self.max_step is None or self.max_step >= h:
            return None
        return float(2.0 ** np.floor(np.log2(self.max_step / h)))

    def _integrator(self, taus: tuple, open_mode: bool = False, tau_step=None):
        key = (taus, open_mode, tau_step)
        if key not in self._cache:
            opts = self.open_opts if open_mode else self.opts
            if tau_step is not None:
                opts = dict(opts, max_step_size=tau_step)
            self._cache[key] = ca.integrator(f"segment_{len(self._cache)}", self.solver,
                                             self.problem, 0.0, list(taus), opts)
            if len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
        self._cache.move_to_end(key)
        return self._cache[key]

    def _all_open(self, t_a: float, x0: np.ndarray, p: np.ndarray) -> bool:
        """True when no hybrid row is active in the modes p (cached per p)."""
        key = p.tobytes()
        if "impact" not in self.system.functions:   # no rows at all (a smooth island)
            return True
        if key not in self._open:
            impact = self.system.functions["impact"]
            active = impact(t_a, x0, np.zeros(impact.size1_in(2)), p)[3]
            self._open[key] = not bool(np.any(np.array(active, dtype=float) > 0.5))
        return self._open[key]

    def run(self, t_a: float, times: np.ndarray, x0: np.ndarray, p: np.ndarray,
            u_held: np.ndarray, taus: tuple | None = None):
        """States at ``times`` (all > t_a, increasing) from x0 at t_a; (X, Z) with one column
        per time (Z: algebraic variables, None for ODEs). ``taus``: the normalized times
        when the caller knows them exactly (k/n for a uniform probe: one integrator object
        for every probe, where (times − t_a)/h rounds differently on each)."""
        h = float(times[-1] - t_a)
        if taus is None:
            taus = tuple(np.round((np.asarray(times) - t_a) / h, 14))
        open_mode = self.open_opts is not None and self._all_open(t_a, x0, p)
        args = {"x0": x0, "p": np.concatenate([[t_a, h], p, u_held])}
        z0 = None
        if self.z0_of is not None:
            z0 = args["z0"] = self.z0_of(t_a, x0, p, u_held)
        self.calls += 1
        step = self._tau_step(h)
        try:
            sol = self._integrator(taus, open_mode, step)(**args)
        except RuntimeError:
            if not open_mode:
                raise
            self.open_opts = None   # Adams failed here (stiff after all): BDF from now on
            sol = self._integrator(taus, False, step)(**args)
        X = np.array(sol["xf"], dtype=float).reshape(len(x0), -1)
        Z = np.array(sol["zf"], dtype=float).reshape(-1, X.shape[1]) if z0 is not None \
            else None
        return X, Z

    def probe(self, t_a: float, dt: float, x0: np.ndarray, p: np.ndarray,
              u_held: np.ndarray):
        """The state (and algebraic variables) at t_a + dt."""
        if dt <= 0.0:
            return np.array(x0, dtype=float), None
        X, Z = self.run(t_a, np.array([t_a + dt]), x0, p, u_held)
        return X[:, -1], (None if Z is None else Z[:, -1])


def segment_times(outs: np.ndarray, t: float, t_b: float, event_step: float) -> np.ndarray:
    """Output times ``outs`` in (t, t_b], guard samples at most event_step apart, and t_b."""
    outs = outs[(outs > t) & (outs <= t_b)]
    m = max(1, int(np.ceil((t_b - t) / event_step)))
    samples = t + (t_b - t) * np.arange(1, m + 1) / m
    times = np.union1d(outs, samples)
    keep = np.concatenate([[True], np.diff(times) > 1e-14 * (1 + abs(t_b))])
    times = times[keep]
    times[-1] = t_b
    return times
