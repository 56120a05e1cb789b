"""Benchmark: closed loops at machine scale (issue 11).

Three families, each timed in one run, CPU time (the machine is shared), medians of
``--repeat`` runs after a warm-up:

1. Stacked four-bars (jourdain.library.StackedFourBars, k = 1, 2, 4, 8, 16): bar i+1 rides on
   the coupler of bar i, so every loop is coupled to all below it through the tree. Side by
   side: MuJoCo on the same stack (hinge joints, the loops closed by ``connect`` equality
   constraints, RK4 at 1e-4 s; its loop-closure error and energy drift reported).
2. Jansen walkers (jourdain.library.JansenWalker, 1 … 12 legs on one crank).
3. The MSL's EngineV6 (jourdain.library.EngineV6): the 1.01 s experiment at rtol 1e-8.

Columns: compile [s]; instructions of f; one evaluation of f from Python through
``System.numeric`` (virtual machine and compiled C) [µs]; the C build with a cold cache [s]
(the partition's watch and its Jacobian); the simulation's CPU time per simulated second on
the virtual machine and on the C (CVODES Adams, rtol = atol = 1e-8, the partition's watch
included; CVODES' steps per simulated second beside it), measured as the difference of a 3 s and a 1 s run divided by 2 s, so that the
fixed cost of a run (building the integrator, results on the output grid) is reported
apart as "setup" [s]; and that rate's ratio to the smallest case. The symbolic elimination
that came before (Backend.PROJECTION) is timed for the small stacks as a reference
(``--no-projection`` skips it). The engine, which speeds up over its run, is reported by
the CPU time of the MSL's whole 1.01 s experiment.

Prints tables and writes benchmarks/results/loops.json.

    python benchmarks/loops.py [--quick] [--repeat 3]
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import casadi
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import jourdain as jd  # noqa: E402
from jourdain.blocks import World  # noqa: E402
from jourdain.library import EngineV6, JansenWalker, StackedFourBars  # noqa: E402

RTOL = 1e-8


def cpu(fn, repeat: int) -> tuple[float, object]:
    """Median CPU time [s] of ``fn`` over ``repeat`` runs after one warm-up, and its result."""
    out = fn()
    times = []
    for _ in range(repeat):
        start = time.process_time()
        out = fn()
        times.append(time.process_time() - start)
    return float(np.median(times)), out


def eval_us(system) -> float:
    """One evaluation of f through System.numeric [µs] (median of 2000 calls)."""
    f = system.numeric("f")
    x = system.state()
    u, p = np.zeros(len(system.u_names)), system.p_default
    f(0.0, x, u, p)
    start = time.process_time()
    for _ in range(2000):
        f(0.0, x, u, p)
    return (time.process_time() - start) / 2000 * 1e6


def measure(model_fn, start: dict, t_end: float, repeat: int, codegen: bool = True,
            backend=jd.Backend.AUTO) -> dict:
    """Compile, evaluate, simulate (virtual machine, then compiled C) one model."""
    begin = time.process_time()
    system = jd.compile(model_fn(), backend=backend)
    row = {"compile_s": time.process_time() - begin,
           "f_instructions": system.functions["f"].n_instructions(),
           "states": system.nx, "speeds": len(system.z_names), "f_vm_us": eval_us(system)}
    x0 = system.state(**start)
    opts = dict(x0=x0, rtol=RTOL, atol=RTOL, method=jd.Method.ADAMS, progress=False)
    row.update(_rates(system, opts, t_end, repeat, "vm"))
    row["steps_per_s"] = steps_per_second(system, opts, t_end)
    res = system.simulate(t_end, n_out=101, **opts)
    row["closure"] = max(float(np.abs(v).max()) for k, v in res.series.items()
                         if k.startswith("residual.position"))
    if codegen:
        with tempfile.TemporaryDirectory() as cache:
            begin = time.time()
            system.codegen(cache_dir=cache)
            row["c_build_s"] = time.time() - begin
            row["f_c_us"] = eval_us(system)
            row.update(_rates(system, opts, t_end, repeat, "c"))
    return row


def steps_per_second(system, opts: dict, t_end: float) -> float:
    """CVODES' steps per simulated second over a run of 3·t_end (its own statistics, read
    from the integrators the simulation builds: casadi.integrator is wrapped for the run)."""
    built, original = [], casadi.integrator

    def spy(*args, **kwargs):
        built.append(original(*args, **kwargs))
        return built[-1]
    casadi.integrator = spy
    try:
        system.simulate(3 * t_end, n_out=301, **opts)
    finally:
        casadi.integrator = original
    return sum(f.stats().get("nsteps", 0) for f in built) / (3 * t_end)


def _rates(system, opts: dict, t_end: float, repeat: int, tag: str) -> dict:
    """CPU of a run of t_end and of 3·t_end: the rate per simulated second (their
    difference over 2·t_end) and the setup (the rest of the short run)."""
    short, _ = cpu(lambda: system.simulate(t_end, n_out=101, **opts), repeat)
    long, _ = cpu(lambda: system.simulate(3 * t_end, n_out=301, **opts), repeat)
    rate = max(long - short, 0.0) / (2 * t_end)
    return {f"sim_{tag}_s": short, f"sim_{tag}_per_s": rate,
            f"setup_{tag}_s": max(short - rate * t_end, 0.0)}


# ---- MuJoCo: the same stack of four-bars ---------------------------------------------------

def _rod(m: float, l: float) -> str:
    J = m * l * l / 12
    return f'<inertial pos="{l / 2} 0 0" mass="{m}" diaginertia="{1e-9 * J} {J} {J}"/>'


def stack_mjcf(k: int, y_ref: np.ndarray, dt: float) -> str:
    """MJCF of k stacked FourBar()s (defaults: l0 0.8, l1 0.2, l2 0.8, l3 0.5; m 0.5, 1, 0.8)
    assembled at jourdain's reference y_ref (MuJoCo's connect holds where qpos = 0)."""
    deg = np.degrees
    l0, l1, l2, l3 = 0.8, 0.2, 0.8, 0.5

    def bar(i: int) -> str:
        crank, coupler, rocker = y_ref[3 * i:3 * i + 3]
        inner = bar(i + 1) if i + 1 < k else ""
        return (f'<body name="crank{i}" euler="0 0 {deg(crank)}">'
                f'<joint name="crank{i}" type="hinge" axis="0 0 1"/>{_rod(0.5, l1)}'
                f'<body name="coupler{i}" pos="{l1} 0 0" euler="0 0 {deg(coupler)}">'
                f'<joint name="coupler{i}" type="hinge" axis="0 0 1"/>{_rod(1.0, l2)}'
                f'{inner}</body></body>'
                f'<body name="rocker{i}" pos="{l0} 0 0" euler="0 0 {90 + deg(rocker)}">'
                f'<joint name="rocker{i}" type="hinge" axis="0 0 1"/>{_rod(0.8, l3)}</body>')
    equality = "".join(f'<connect body1="coupler{i}" body2="rocker{i}" anchor="{l2} 0 0"/>'
                       for i in range(k))
    return (f'<mujoco><option gravity="0 -9.81 0" timestep="{dt}" integrator="RK4">'
            f'<flag energy="enable"/></option><worldbody>{bar(0)}</worldbody>'
            f'<equality>{equality}</equality></mujoco>')


def mujoco_stack(k: int, system, x0: np.ndarray, t_end: float, repeat: int,
                 dt: float = 1e-4) -> dict:
    """MuJoCo on the same stack from the same state: CPU per simulated second, the largest
    distance between the connected points and the energy drift."""
    import mujoco
    ny = len(system.y_names)
    w = np.array(system.G(x0[:ny], system.p_default)) @ x0[ny:ny + len(system.z_names)]
    model = mujoco.MjModel.from_xml_string(stack_mjcf(k, system.y_ref, dt))
    data = mujoco.MjData(model)
    order = [model.joint(f"{kind}{i}").qposadr[0] for i in range(k)
             for kind in ("crank", "coupler", "rocker")]

    def run():
        mujoco.mj_resetData(model, data)
        data.qpos[order] = x0[:ny] - system.y_ref
        data.qvel[order] = w.ravel()
        mujoco.mj_forward(model, data)
        energy, gap = [data.energy.sum()], 0.0
        for _ in range(int(round(t_end / dt))):
            mujoco.mj_step(model, data)
            gap = max(gap, float(np.abs(data.efc_pos[:3 * k]).max()) if data.nefc else 0.0)
            energy.append(data.energy.sum())
        return gap, float(np.ptp(energy))
    seconds, (gap, drift) = cpu(run, repeat)
    return {"sim_per_s": seconds / t_end, "closure": gap, "energy_drift": drift, "dt": dt}


def stacks(sizes, repeat: int, t_end: float, projection: bool) -> list[dict]:
    rows = []
    for k in sizes:
        def model(k=k):
            return jd.Model.on_world(World(), st=StackedFourBars(k))
        start = {"z0": {f"st.bar{i + 1}.crank.w": 1.0 for i in range(k)}}
        row = {"loops": k, **measure(model, start, t_end, repeat)}
        system = jd.compile(model())
        row["mujoco"] = mujoco_stack(k, system, system.state(**start), t_end, repeat)
        if projection and k <= 4:
            begin = time.process_time()
            old = measure(model, start, t_end, 1, codegen=False,
                          backend=jd.Backend.PROJECTION)
            row["projection"] = {key: old[key] for key in
                                 ("compile_s", "f_instructions", "sim_vm_per_s")}
            row["projection"]["total_s"] = time.process_time() - begin
        rows.append(row)
        print(f"  stack k = {k}: done", flush=True)
    return rows


def walkers(sizes, repeat: int, t_end: float) -> list[dict]:
    rows = []
    for legs in sizes:
        def model(legs=legs):
            return jd.Model.on_world(World(), w=JansenWalker(legs=legs))
        rows.append({"legs": legs, **measure(model, {"z0": {"w.crank.w": 6.0}}, t_end,
                                              repeat)})
        print(f"  walker legs = {legs}: done", flush=True)
    return rows


def engine(repeat: int) -> dict:
    def model():
        return jd.Model.on_world(World(), engine=EngineV6())
    start = {"y0": {"engine.bearing.phi": 0.0}, "z0": {"engine.bearing.w": 10.0}}
    row = measure(model, start, 1.01, repeat)
    system = jd.compile(model())
    opts = dict(rtol=RTOL, atol=RTOL, n_out=1011, progress=False, **start)
    row["sim_vm_bdf_s"], res = cpu(lambda: system.simulate(1.01, **opts), repeat)
    row["w_end"] = float(res["engine.bearing.w"][-1])
    with tempfile.TemporaryDirectory() as cache:
        system.codegen(cache_dir=cache)
        row["sim_c_bdf_s"], _ = cpu(lambda: system.simulate(1.01, **opts), repeat)
    return row


def _table(title: str, key: str, rows: list[dict], peer: bool = False) -> None:
    print(f"\n{title}")
    head = (f"{key:>6} {'compile':>8} {'instr f':>8} {'f VM':>7} {'f C':>6} {'C build':>8} "
            f"{'sim/s VM':>9} {'sim/s C':>8} {'× 1st C':>8} {'setup C':>8} {'steps/s':>8}")
    if peer:
        head += f" {'MuJoCo/s':>9} {'closure':>9} {'MJ gap':>8}"
    print(head)
    first = rows[0].get("sim_c_per_s", rows[0]["sim_vm_per_s"])
    for r in rows:
        line = (f"{r[key]:>6} {r['compile_s']:>8.2f} {r['f_instructions']:>8} "
                f"{r['f_vm_us']:>7.1f} {r.get('f_c_us', float('nan')):>6.1f} "
                f"{r.get('c_build_s', float('nan')):>8.1f} {r['sim_vm_per_s']:>9.3f} "
                f"{r.get('sim_c_per_s', float('nan')):>8.3f} "
                f"{r.get('sim_c_per_s', r['sim_vm_per_s']) / first:>8.1f} "
                f"{r.get('setup_c_s', float('nan')):>8.3f} {r['steps_per_s']:>8.0f}")
        if peer:
            mj = r["mujoco"]
            line += f" {mj['sim_per_s']:>9.3f} {r['closure']:>9.1e} {mj['closure']:>8.1e}"
        print(line)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes, one repeat")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-projection", action="store_true")
    args = parser.parse_args(argv)
    repeat = 1 if args.quick else args.repeat
    stack_sizes = (1, 2, 4) if args.quick else (1, 2, 4, 8, 16)
    leg_sizes = (1, 2, 4) if args.quick else (1, 2, 4, 8, 12)
    results = {"rtol": RTOL, "method": "CVODES Adams (BDF for the engine's second column)",
               "stacks": stacks(stack_sizes, repeat, 1.0, not args.no_projection),
               "walkers": walkers(leg_sizes, repeat, 1.0),
               "engine_v6": engine(repeat)}
    _table("Stacked four-bars (cranks at 1 rad/s; times CPU [s], f [µs])", "loops",
           results["stacks"], peer=True)
    old = [r for r in results["stacks"] if "projection" in r]
    if old:
        print("\nThe symbolic elimination (Backend.PROJECTION) on the same stacks:")
        for r in old:
            p = r["projection"]
            print(f"  k = {r['loops']}: compile {p['compile_s']:.2f} s, f {p['f_instructions']} "
                  f"instructions, {p['sim_vm_per_s']:.3f} s per simulated second")
    _table("Jansen walkers (from 6 rad/s)", "legs", results["walkers"])
    e = results["engine_v6"]
    print(f"\nEngineV6, 1.01 s at rtol {RTOL:g}: compile {e['compile_s']:.2f} s, f "
          f"{e['f_instructions']} instructions, C build {e['c_build_s']:.1f} s; simulation "
          f"Adams {e['sim_vm_s']:.2f} s (VM) / {e['sim_c_s']:.2f} s (C), BDF "
          f"{e['sim_vm_bdf_s']:.2f} s (VM) / {e['sim_c_bdf_s']:.2f} s (C); speed at 1.01 s "
          f"{e['w_end']:.1f} rad/s ({e['w_end'] * 30 / np.pi:.0f} rpm)")
    out = ROOT / "benchmarks" / "results" / ("loops_quick.json" if args.quick else "loops.json")
    out.write_text(json.dumps(results, indent=1))
    print(f"\nwritten to {out}")


if __name__ == "__main__":
    main()
