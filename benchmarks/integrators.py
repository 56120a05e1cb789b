"""Integrator-default benchmark: simulate's default (Method.AUTO) against every CVODES method
and Newton linear solver, on non-stiff and stiff mechanisms, in one run.

Cases (10 s, rtol = atol = 1e-8, 501 outputs, joints at 0.3 rad, at rest):
  chain 20 / chain 100   — jourdain.library.NLinkPendulum (no damping: non-stiff), f compiled
                           to C (System.codegen) as in issue 18's measurements; chain 20 also
                           on CasADi's virtual machine
  spring chain 20        — SpringDamperChain(20): c = 1e4 N·m/rad, d = 100 N·m·s/rad per joint
  elastic-joint arm      — ElasticJointArm: rotor and link coupled by a gear of 1e4 N·m/rad
  DC-motor arm           — jourdain.library.DCMotor (R = 1 Ω, L = 1 mH: L/R = 1 ms) driving a
                           link under gravity from a 2 V source
Contenders: AUTO (the default: its stiffness test included), ADAMS, and BDF with each
jd.LinearSolver (SPARSE = AUTO's choice, DENSE, QR = CasADi's default and jourdain's before
issue 18, ITERATIVE = GMRES). Metric: CPU time (time.process_time) of the whole simulate
call, median of --repeat runs, contenders alternated within each round (the machine is
shared). Runs estimated over --cap seconds are made once. The ratio is AUTO over the best
explicit choice (target ≤ 1.2).

    python benchmarks/integrators.py [--repeat 3] [--quick]

Writes benchmarks/results/integrators.json and integrators.png.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import jourdain as jd  # noqa: E402
from jourdain.blocks import Ground, Revolute, RigidBody, SignalVoltage, World  # noqa: E402
from jourdain.library import (  # noqa: E402
    DCMotor,
    ElasticJointArm,
    NLinkPendulum,
    SpringDamperChain,
)

RESULTS = ROOT / "benchmarks" / "results"
T_END, TOL = 10.0, 1e-8


class MotorArm(jd.Composite):
    """A DC motor (armature R, L; EMF k; rotor J) turning a link (0.5 kg, center of mass
    0.2 m from the axis) about z under gravity, fed by a voltage source ``source.v``."""

    def __init__(self):
        super().__init__()
        self.motor = DCMotor(R=1.0, L=1e-3, k=0.1, J=1e-4)
        self.joint = Revolute(axis=(0, 0, 1))
        self.link = RigidBody(m=0.5, r_cm=(0.2, 0, 0), I=(1e-3, 2e-3, 2e-3))
        self.source, self.ground = SignalVoltage(), Ground()
        self.connect(self.joint.frame_b, self.link.frame_a)
        self.connect(self.motor.flange, self.joint.axis)
        self.connect(self.source.p, self.motor.p)
        self.connect(self.motor.n, self.source.n)
        self.connect(self.source.n, self.ground.p)
        self.expose(self.joint.frame_a, "frame_a")


def cases(quick: bool) -> dict:
    """name: (factory of the part, compile with codegen, inputs)."""
    out = {
        "chain 20 (VM)": (lambda: NLinkPendulum(20), False, {}),
        "chain 20 (C)": (lambda: NLinkPendulum(20), True, {}),
        "chain 100 (C)": (lambda: NLinkPendulum(100), True, {}),
        "spring chain 20": (lambda: SpringDamperChain(20), False, {}),
        "elastic-joint arm": (ElasticJointArm, False, {"part.motor.tau": 0.5}),
        "DC-motor arm": (MotorArm, False, {"part.source.v": 2.0}),
    }
    if quick:
        out.pop("chain 100 (C)")
    return out


CONTENDERS = {
    "AUTO": {},
    "ADAMS": {"method": jd.Method.ADAMS},
    "BDF sparse LU": {"method": jd.Method.BDF, "linear_solver": jd.LinearSolver.SPARSE},
    "BDF dense LU": {"method": jd.Method.BDF, "linear_solver": jd.LinearSolver.DENSE},
    "BDF QR (old default)": {"method": jd.Method.BDF, "linear_solver": jd.LinearSolver.QR},
    "BDF GMRES": {"method": jd.Method.BDF, "linear_solver": jd.LinearSolver.ITERATIVE},
}


def run_case(name: str, spec, repeat: int, cap: float, cache: str) -> dict:
    factory, compiled, inputs = spec
    system = jd.compile(jd.Model.on_world(World(), part=factory()))
    if compiled:
        system.codegen(cache_dir=cache)
    y0 = {n: 0.3 for n in system.y_names}
    times = {c: [] for c in CONTENDERS}
    info = {}
    for _ in range(repeat):
        for contender, options in CONTENDERS.items():
            if times[contender] and times[contender][0] > cap:
                continue
            start = time.process_time()
            res = system.simulate(T_END, y0=y0, inputs=inputs, rtol=TOL, atol=TOL,
                                  progress=False, **options)
            times[contender].append(time.process_time() - start)
            info[contender] = {"method": res.method.name, "steps": res.stats["steps"],
                               "jacobian_evaluations": res.stats["jacobian_evaluations"],
                               "reason": res.stats["method_reason"]}
    row = {c: {"cpu_s": float(np.median(v)), "runs": len(v), **info[c]}
           for c, v in times.items()}
    best = min((c for c in row if c != "AUTO"), key=lambda c: row[c]["cpu_s"])
    row["best"] = best
    row["auto_over_best"] = row["AUTO"]["cpu_s"] / row[best]["cpu_s"]
    print(f"{name:18s} AUTO→{row['AUTO']['method']:5s} {row['AUTO']['cpu_s']:8.3f} s | best "
          f"{best} {row[best]['cpu_s']:.3f} s | ratio {row['auto_over_best']:.2f} | " +
          " ".join(f"{c} {row[c]['cpu_s']:.3g}" for c in CONTENDERS), flush=True)
    return row


def figure(rows: dict, path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = list(rows)
    fig, ax = plt.subplots(figsize=(9, 4))
    width = 0.8 / len(CONTENDERS)
    for k, contender in enumerate(CONTENDERS):
        values = [rows[n][contender]["cpu_s"] for n in names]
        ax.bar(np.arange(len(names)) + k * width, values, width, label=contender)
    ax.set_yscale("log")
    ax.set_xticks(np.arange(len(names)) + 0.4 - width / 2, names, rotation=15, fontsize=8)
    ax.set_ylabel("CPU time of simulate, 10 s [s]")
    ax.set_title("simulate's default (AUTO) vs each CVODES method")
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cap", type=float, default=5.0, help="[s] runs longer: made once")
    parser.add_argument("--quick", action="store_true", help="without the 100-link chain")
    args = parser.parse_args()
    rows = {}
    with tempfile.TemporaryDirectory() as cache:
        for name, spec in cases(args.quick).items():
            rows[name] = run_case(name, spec, args.repeat, args.cap, cache)
    RESULTS.mkdir(parents=True, exist_ok=True)
    suffix = "_quick" if args.quick else ""
    (RESULTS / f"integrators{suffix}.json").write_text(json.dumps(
        {"t_end_s": T_END, "tol": TOL, "metric": "CPU s of simulate, median", "cases": rows},
        indent=1))
    figure(rows, RESULTS / f"integrators{suffix}.png")
    print(f"wrote {RESULTS / f'integrators{suffix}.json'}")


if __name__ == "__main__":
    main()
