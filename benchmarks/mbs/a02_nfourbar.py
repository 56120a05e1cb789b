"""IFToMM A02, the N-four-bar: n four-bar windows of 2n + 1 uniform rods (1 m, 1 kg) under
gravity 9.81 m/s² (−y), all rods vertical at the start and point B0 (the top of the first
rod) moving at 1 m/s along +x; 20 s (n = 40 in the statement). Every time the rods lie flat
the mechanism is singular: its DOF jump from 1 to n + 1, and the motion must go on on the
physical branch (all rods parallel). The error is measured on B0's position and velocity (x
and y) at 400 output steps (common.iftomm_error).

Reference: on the physical branch every rod has the same angle φ from the vertical and the
couplers translate, so Lagrange's equations reduce to one degree of freedom:
T = ½·((n + 1)·m·l²/3 + n·m·l²)·φ̇², V = g·((n + 1)·m·l/2 + n·m·l)·cos φ, hence
a·φ̈ = b·g·sin φ with a = (n + 1)/3 + n, b = (n + 1)/2 + n (m = l = 1), φ(0) = 0,
φ̇(0) = −1 rad/s; integrated by scipy's DOP853 at rtol = atol = 1e-13. B0 = (−sin φ, cos φ).
No plain-CasADi peer: the reduced equation is the reference itself.
"""
from __future__ import annotations

import time

import numpy as np
from scipy.integrate import solve_ivp

from common import cpu, iftomm_error, row

import jourdain as jd
from jourdain.blocks import World
from jourdain.library.mbs_benchmarks import NFourBar

G, T_END, N_OUT = 9.81, 20.0, 401


def reference(n: int, t) -> dict:
    """B0's position and velocity on the reduced equation (module docstring)."""
    a, b = (n + 1) / 3 + n, (n + 1) / 2 + n
    sol = solve_ivp(lambda _, x: [x[1], b * G / a * np.sin(x[0])], (t[0], t[-1]),
                    [0.0, -1.0], method="DOP853", t_eval=t, rtol=1e-13, atol=1e-13)
    phi, w = sol.y
    return {"x": -np.sin(phi), "y": np.cos(phi), "vx": -np.cos(phi) * w,
            "vy": -np.sin(phi) * w}


def compile_n(n: int, method=jd.ConstraintMethod.PARTITIONING):
    model = jd.Model.on_world(World(), m=NFourBar(n))
    if method is jd.ConstraintMethod.PARTITIONING:   # the first rod's speed independent
        return jd.compile(model, constraints=method, speeds={"z0": "m.pivot0.w"})
    return jd.compile(model, constraints=method)


def jourdain_run(system, t_end: float = T_END, n_out: int = N_OUT, **options):
    speed = "z0" if system.method is jd.ConstraintMethod.PARTITIONING else "m.pivot0.w"
    res = system.simulate(t_end, z0={speed: -1.0}, n_out=n_out, **options)
    phi, w = res["m.pivot0.phi"], res["m.pivot0.w"]
    return res, {"x": -np.sin(phi), "y": np.cos(phi), "vx": -np.cos(phi) * w,
                 "vy": -np.sin(phi) * w}


# The defaults before issue 29's change (BDF for every closed loop, rtol = atol = 1e-8), which
# drifted in phase through the 20 flat crossings (n = 40: 2.4e-3); the defaults now run Adams
# (AUTO: the loops are not stiff) at 1e-9 (the default of loops solved by partitioning).
# Results in docs/performance.md
FORMER = {"method": jd.Method.BDF, "rtol": 1e-8, "atol": 1e-8}


def run(sizes=(1, 2, 4), methods=tuple(jd.ConstraintMethod), repeat: int = 3,
        t_end: float = T_END, options: dict | None = None) -> list[dict]:
    rows = []
    options = options or {}
    settings = ", ".join(f"{k}={getattr(v, 'value', v)}" for k, v in options.items())
    for n in sizes:
        t = np.linspace(0.0, t_end, N_OUT)
        ref = reference(n, t)
        for method in methods:
            start = time.process_time()
            system = compile_n(n, method)
            t_compile = time.process_time() - start
            try:
                t_cpu, (res, values) = cpu(lambda: jourdain_run(system, t_end, **options),
                                           repeat, warm_up=repeat > 1)
            except jd.SimulationError as exc:
                rows.append(row(f"A02 {n}-four-bar {t_end:g} s", f"jourdain {method.value}",
                                float("nan"), float("nan"), compile=t_compile,
                                settings=settings or "defaults",
                                refused=str(exc).splitlines()[0][:160]))
                continue
            err = iftomm_error(values, ref)
            steps = int(res.stats.get("steps", 0))
            rows.append(row(f"A02 {n}-four-bar {t_end:g} s", f"jourdain {method.value}",
                            err["error"], t_cpu, rel_error=err["rel"], compile=t_compile,
                            settings=settings or "defaults", steps=steps,
                            us_per_step_per_window=(1e6 * t_cpu / steps / n) if steps else
                            float("nan"),
                            switches=len(getattr(res, "switches", []) or []),
                            parallel=_parallel(res, n)))
    return rows


def _parallel(res, n: int) -> float:
    """[rad] the largest angle between a rod and the first over the run: ~0 on the physical
    branch through every flat crossing."""
    phi = res["m.pivot0.phi"]
    return float(max(np.abs(res[f"m.pivot{i}.phi"] - phi).max() for i in range(1, n + 1)))


def scaling(sizes=(5, 10, 20, 40, 80), repeat: int = 3) -> list[dict]:
    """Partitioning at the defaults for growing n (CPU per step and window should stay flat:
    cost per step linear in n), and at the former defaults (FORMER) up to n = 40."""
    part = (jd.ConstraintMethod.PARTITIONING,)
    return (run(sizes, part, repeat) +
            run(tuple(n for n in sizes if n <= 40), part, repeat, options=FORMER))


if __name__ == "__main__":
    import sys
    sizes = tuple(int(a) for a in sys.argv[1:]) or (5, 10, 20, 40, 80)
    for r in scaling(sizes, repeat=1):
        print(r)
