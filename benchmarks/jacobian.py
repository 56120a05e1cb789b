"""Jacobian benchmark: ∂f/∂x of chains and random trees in every form jourdain can build, the
form its measured choice takes (solver/simulation/jacobian.py), and Pinocchio's analytic ABA
derivatives (computeABADerivatives), in one run.

Models: jourdain.library.NLinkPendulum(n) and RandomTree(n, seed=n) (the models of
benchmarks/scale.py; Pinocchio's versions from benchmarks/peers/rigid_body_peers.py), n = 20,
50, 100, at joints 0.3 rad and speeds 0.5 rad/s. Columns, time of one evaluation [µs]
(CPU time, median of batches, through Function.buffer: no conversions):
  expanded VM   CasADi's expanded Jacobian of f on its virtual machine (built when affordable)
  analytic VM   −M⁻¹·∂ID/∂ξ (RNEA derivatives, sparse LDLᵀ; Carpentier & Mansard 2018)
  forward VM    n forward derivatives of f (the fallback)
  compiled      the chosen form compiled to C (when it has at most jacobian.COMPILE_OPS
                instructions)
  chosen        what BDF then uses: the compiled form if it timed faster than the virtual
                machine's, else the virtual machine's (jacobian._keep_faster)
  before        (--before) the compiled Jacobian codegen built before issue 18: expanded
                below 100k instructions, else forward derivatives mapped over the columns
  pinocchio     pinocchio.computeABADerivatives (q, v, τ)
Also the compile time of the chosen form (gcc -O1, CPU of the compiler processes) and the
ratios chosen/pinocchio and chosen/(best VM form) (never above 1 by construction).

    python benchmarks/jacobian.py [--sizes 20 50 100] [--before]

Writes benchmarks/results/jacobian.json and jacobian.png.
"""
from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import jourdain as jd  # noqa: E402
from jourdain.blocks import World  # noqa: E402
from jourdain.library import NLinkPendulum, RandomTree  # noqa: E402
from jourdain.solver.simulation import codegen, jacobian  # noqa: E402
from jourdain.solver.simulation.numeric import buffered  # noqa: E402

from benchmarks.peers import rigid_body_peers as peers  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"


def median_us(call, budget: float = 0.3) -> float:
    """Median over 5 batches of the CPU time of one call [µs], batches sized to ``budget``."""
    call()
    start, count = time.process_time(), 0
    while time.process_time() - start < 0.02 or count < 3:
        call()
        count += 1
    per = max((time.process_time() - start) / count, 1e-7)
    repeat = max(1, int(budget / 5 / per))
    samples = []
    for _ in range(5):
        start = time.process_time()
        for _ in range(repeat):
            call()
        samples.append((time.process_time() - start) / repeat * 1e6)
    return float(np.median(samples))



def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def case(kind: str, n: int, before: bool, cache: str) -> dict:
    part = NLinkPendulum(n) if kind == "chain" else RandomTree(n, seed=n)
    system = jd.compile(jd.Model.on_world(World(), part=part))
    f = system.functions["f"]
    x = np.concatenate([np.full(n, 0.3), np.full(n, 0.5)])
    args = [np.zeros(1), x, np.zeros(0), system.p_default, np.zeros(f.nnz_out(0))]
    start = time.process_time()
    choice = jacobian.choose(system)
    row = {"choose_s": time.process_time() - start, "chosen_form": choice.form.value,
           "f_instructions": f.n_instructions()}
    forms = {"expanded": jacobian._expanded(f), "forward": jacobian.forward(f)}
    if "inverse_dynamics" in system.functions:
        forms["analytic"] = jacobian.analytic(system)
    for name, fn in forms.items():
        if fn is not None:
            row[f"{name}_vm_us"] = median_us(buffered(fn, args))
            row[f"{name}_instructions"] = jacobian.instructions(fn)
    system.codegen(cache_dir=cache)
    cpu, wall = children_cpu(), time.perf_counter()
    jacobian.attach_jacobian(system, choice)
    row["chosen_build_wall_s"] = time.perf_counter() - wall
    row["chosen_build_cpu_s"] = children_cpu() - cpu
    if choice.compiled is not None:
        row["compiled_us"] = median_us(buffered(choice.compiled, args))
    jacobian._keep_faster(system, choice)     # as simulate does: a slower C form is dropped
    row["vm_kept"] = choice.vm_kept
    chosen = choice.compiled if choice.compiled is not None else choice.function
    row["chosen_compiled"] = choice.compiled is not None
    row["chosen_us"] = median_us(buffered(chosen, args))
    if before:
        old = codegen.jacobian_function(f)
        path = codegen.build_library(f, codegen.CodegenOptions(cache_dir=cache),
                                     functions=[f, old], name=f"before_{kind}{n}.so")
        import casadi as ca
        row["before_us"] = median_us(buffered(ca.external("jac_f", str(path)), args))
    model = peers.pinocchio_chain(n) if kind == "chain" else \
        peers.pinocchio_tree(RandomTree(n, seed=n))
    import pinocchio as pin
    data = model.model.createData()
    q, v = np.full(n, 0.3)[model.index], np.full(n, 0.5)[model.index]
    tau = model.torque(q, v)
    row["pinocchio_us"] = median_us(lambda: pin.computeABADerivatives(model.model, data, q, v,
                                                                        tau))
    vm_best = min(row[f"{k}_vm_us"] for k in forms if f"{k}_vm_us" in row)
    row["chosen_over_pinocchio"] = row["chosen_us"] / row["pinocchio_us"]
    row["chosen_over_best_vm"] = row["chosen_us"] / vm_best
    print(f"{kind} {n:3d} ({choice.form.value}): " + ", ".join(f"{k} {v:.3g}" for k, v in row.items()
                                           if isinstance(v, float)), flush=True)
    return row


def figure(rows: dict, path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, kind in zip(axes, ("chain", "tree")):
        keys = sorted((k for k in rows if k.startswith(kind)), key=lambda k: int(k.split()[1]))
        ns = [int(k.split()[1]) for k in keys]
        for column, style in (("expanded_vm_us", "o-"), ("analytic_vm_us", "s-"),
                              ("forward_vm_us", "v:"), ("chosen_us", "D-"),
                              ("before_us", "x--"), ("pinocchio_us", "k^-")):
            pts = [(n, rows[k][column]) for n, k in zip(ns, keys) if column in rows[k]]
            if pts:
                ax.plot(*zip(*pts), style, label=column.removesuffix("_us"))
        ax.set(xscale="log", yscale="log", xlabel="bodies n", title=f"{kind}s: ∂f/∂x")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel("one evaluation [µs]")
    axes[1].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[20, 50, 100])
    parser.add_argument("--before", action="store_true", help="also the pre-issue-18 form")
    args = parser.parse_args()
    rows = {}
    with tempfile.TemporaryDirectory() as cache:
        for kind in ("chain", "tree"):
            for n in args.sizes:
                rows[f"{kind} {n}"] = case(kind, n, args.before, cache)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "jacobian.json").write_text(json.dumps(rows, indent=1))
    figure(rows, RESULTS / "jacobian.png")
    print(f"wrote {RESULTS / 'jacobian.json'}")


if __name__ == "__main__":
    main()
