"""Dynamics derivatives by the recursive algorithms against CasADi's forward mode (issue 27,
"Cheaper derivatives"): the FDDP knot of jourdain (solver="fddp", codegen=True) built with
``derivatives="forward"`` (forward-mode AD of the expanded forward dynamics, the former
default) and ``derivatives="recursive"`` (∂a/∂ξ = −M⁻¹·∂ID/∂ξ: AD of one RNEA pass, M⁻¹ by
the tree's LTDL; solver/optimal/dynamics_derivatives.py), side by side in one run.

Problems: the Talos arm reach of ocp_vs_crocoddyl.py (robot_ocp.py's problem, the arm with
0.1 kg·m² of armature per joint and no joint damping, N = 100, RK4 one step per knot, the
quasi-static guess) and the UR5 point to point of ocp_vs_crocoddyl.py with its torque limits
(FDDP boxes them; the joint-limit bounds, which FDDP cannot state, left out; the optimum of
the bounded problem lies inside them). Per form: SX operations of the stage Jacobian fj and
of the whole knot-derivative function D (counted inside the functions it calls), the C of
the knot library (D, roll-out step, terminal cost) and its gcc CPU time on a fresh cache,
and FDDP's solve (median of --repeat CPU times, iterations, cost), with recursive / forward
ratios; on the Talos arm also the NLP's knot library (codegen="knot": K, its Jacobian and
gradient) both ways; the knots' derivatives (D mapped over the N knots, once per FDDP iteration) timed
compiled and on CasADi's virtual machine. Solves and timings alternate between the forms.
Metric: CPU time (time.process_time; gcc: the children's CPU).

    python benchmarks/dynamics_derivatives.py [--repeat 3] [--problems talos ur5]

Writes benchmarks/results/dynamics_derivatives.json.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import casadi as ca
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
# a fresh cache: every library of this run is compiled here, so gcc's time is measured
os.environ["JOURDAIN_CACHE"] = tempfile.mkdtemp(prefix="jourdain-derivatives-")

import jourdain as jd  # noqa: E402
import ocp_vs_crocoddyl as ovc  # noqa: E402
import robot_ocp  # noqa: E402
from jourdain.solver.optimal import compiled as compiled_c  # noqa: E402
from jourdain.solver.optimal import ddp_backward, ddp_model  # noqa: E402
from jourdain.solver.optimal.dynamics_derivatives import stage_jacobian  # noqa: E402
from jourdain.solver.simulation.jacobian import instructions  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"
FORMS = ("forward", "recursive")
TOL = 1e-9          # crocoddyl's th_stop, as ocp_vs_crocoddyl.py's FDDP rows


def talos():
    """(system, problem, guess) of the Talos arm reach (module docstring)."""
    _, system = robot_ocp.talos_arm(ovc.TALOS_ARMATURE, joint_damping=False)
    nq = len(system.y_names)
    x0 = np.concatenate([robot_ocp.Q0[:nq], np.zeros(system.nx - nq)])
    return system, robot_ocp.reach(system, 100), robot_ocp.quasi_static(system, x0)


def ur5():
    """(system, problem, guess) of the UR5 point to point, torque limits only."""
    spec = dict(ovc.PROBLEMS["UR5 point to point"], joint_limits=False)
    arm, system, _ = ovc.robot(spec)
    return system, ovc.statement(arm, system, spec), None


PROBLEMS = {"talos": ("Talos arm reach (N = 100, armature 0.1)", talos),
            "ur5": ("UR5 point to point (N = 50, torque limits)", ur5)}


def _children_cpu() -> float:
    import resource
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime + \
        resource.getrusage(resource.RUSAGE_CHILDREN).ru_stime


def form_row(system, prob, guess, form: str) -> tuple:
    """(row, compiled problem, virtual-machine problem) of one form: sizes, gcc, builds."""
    fns = prob.functions()
    fj = stage_jacobian(system, form)
    D = ddp_model.knot_derivatives(prob, fns, 1, form)
    functions = [D, ddp_model.rollout_step(prob, fns, 1), ddp_model.terminal_derivatives(prob,
                                                                                         fns)]
    with tempfile.TemporaryDirectory() as tmp:
        c_bytes = Path(compiled_c._write(functions, Path(tmp))).stat().st_size
    transcription = jd.MultipleShooting(jd.Integrator.RK4, steps=1)
    gcc = _children_cpu()
    cpu = time.process_time()
    built = prob.build(transcription, solver="fddp", codegen=True, tol=TOL, guess=guess,
                       derivatives=form, raise_on_failure=False)
    row = {"stage_jacobian_ops": fj.n_instructions(), "knot_derivatives_ops": instructions(D),
           "knot_c_bytes": c_bytes, "build_cpu_s": time.process_time() - cpu,
           "gcc_cpu_s": _children_cpu() - gcc, "compiled": built.compiled}
    vm = prob.build(transcription, solver="fddp", tol=TOL, guess=guess, derivatives=form,
                    raise_on_failure=False)
    return row, built, vm


def timings(entry: dict, problems: dict, repeat: int) -> None:
    """Solves and knot calls of both forms, interleaved (the machine's load drifts)."""
    solves = {form: [] for form in FORMS}
    knots = {form: [] for form in FORMS}
    vm = {form: [] for form in FORMS}
    for _ in range(repeat):
        for form in FORMS:
            built, on_vm = problems[form]
            sol = built.solve(warm=False)
            solves[form].append(sol)
            knots[form].append(_knots_ms(built, sol))
            vm[form].append(_knots_ms(on_vm, sol, 2))
    for form in FORMS:
        sol = solves[form][-1]
        t = float(np.median([s.stats["solve_cpu_time"] for s in solves[form]]))
        entry[form].update(knot_derivatives_call_ms=float(np.median(knots[form])),
                           knot_derivatives_vm_ms=float(np.median(vm[form])),
                           solve_cpu_s=t, iterations=sol.stats["iterations"],
                           cost=float(sol.cost),
                           per_iteration_ms=1e3 * t / max(sol.stats["iterations"], 1),
                           status=sol.stats["status"])
        print(form, {k: (round(v, 5) if isinstance(v, float) else v)
                     for k, v in entry[form].items()}, flush=True)


def _knots_ms(built, sol, batch: int = 20) -> float:
    """CPU time [ms] of one call of the knot derivatives mapped over the N knots (what each
    FDDP iteration evaluates once) at the optimum, the best of 5 batches."""
    X, U = sol.X.T.copy(), sol.U[:, :, 0].T.copy()
    args = (X[:-1], U, built._p(None), np.array([built.T]), built._k)
    built._D(*args)
    best = np.inf
    for _ in range(5):
        cpu = time.process_time()
        for _ in range(batch):
            built._D(*args)
        best = min(best, (time.process_time() - cpu) / batch)
    return 1e3 * best


def nlp_knot_row(system, prob, form: str) -> dict:
    """The NLP's knot library (codegen="knot": K, its Jacobian and gradient, one RK4 step;
    the Gauss–Newton set) for ``form``: operations, C, gcc -O0 CPU, and the compiled
    Jacobian's call time [µs]; plus the operations of the exact Hessian's jac_adj1_K."""
    import subprocess
    from jourdain.solver.optimal import knots
    from jourdain.solver.simulation.numeric import buffered
    fns = prob.functions()
    K = knots.knot_function(prob, fns, 1, form)
    functions = knots.library_functions(K, False)
    row = {f"{fn.name()}_ops": instructions(fn) for fn in functions}
    row["jac_adj1_K_ops"] = instructions(functions[-1].jacobian())
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(compiled_c._write(functions, Path(tmp)))
        row["c_bytes"] = source.stat().st_size
        gcc = _children_cpu()
        subprocess.run(["gcc", *knots.KNOT_FLAGS, "-shared", "-fPIC", str(source), "-o",
                        f"{tmp}/knot.so"], check=True)
        row["gcc_cpu_s"] = _children_cpu() - gcc
        jac = ca.external(functions[1].name(), f"{tmp}/knot.so")
        rng = np.random.default_rng(0)
        args = [rng.uniform(-0.5, 0.5, jac.sparsity_in(i).shape) for i in range(jac.n_in())]
        call = buffered(jac, args)
        best = np.inf
        for _ in range(5):
            cpu = time.process_time()
            for _ in range(200):
                call()
            best = min(best, (time.process_time() - cpu) / 200)
        row["jac_K_call_us"] = 1e6 * best
    print("NLP knot", form, row, flush=True)
    return row


RATIOS = ("stage_jacobian_ops", "knot_derivatives_ops", "knot_c_bytes", "gcc_cpu_s",
          "knot_derivatives_call_ms", "knot_derivatives_vm_ms", "solve_cpu_s",
          "per_iteration_ms")


def knot_table(record: dict) -> None:
    entry = record["problems"].get("talos", {}).get("nlp_knot")
    if not entry:
        return
    print("\nThe NLP's knot library (codegen=\"knot\", Talos arm, one RK4 step, gcc -O0):")
    print("| derivatives | K ops | jac_K ops | adj1_K ops | jac_adj1_K ops | C [kB] | gcc [s] "
          "| jac_K call [µs] |")
    print("|---" * 8 + "|")
    for form in (*FORMS, "ratio"):
        r = entry[form]
        cells = [r["K_ops"], r["jac_K_ops"], r["adj1_K_ops"], r["jac_adj1_K_ops"],
                 r["c_bytes"] / (1 if form == "ratio" else 1e3), r["gcc_cpu_s"],
                 r["jac_K_call_us"]]
        label = "recursive / forward" if form == "ratio" else form
        print(f"| {label} | " + " | ".join(f"{c:.3g}" if isinstance(c, float) else str(c)
                                           for c in cells) + " |")


def table(record: dict) -> None:
    head = ("| problem | derivatives | fj ops | knot D ops | knot C [kB] | gcc [s] | "
            "knots' D, C [ms] | knots' D, VM [ms] | solve [s] | iterations | per iteration [ms] | cost |")
    print(head)
    print("|---" * 12 + "|")
    for key, entry in record["problems"].items():
        for form in (*FORMS, "ratio"):
            r = entry[form]
            if form == "ratio":
                print(f"| {entry['label']} | recursive / forward | {r['stage_jacobian_ops']:.2f}"
                      f" | {r['knot_derivatives_ops']:.2f} | {r['knot_c_bytes']:.2f} | "
                      f"{r['gcc_cpu_s']:.2f} | {r['knot_derivatives_call_ms']:.2f} | "
                      f"{r['knot_derivatives_vm_ms']:.2f} | "
                      f"{r['solve_cpu_s']:.2f} | "
                      f"{entry['same_iterations']} | {r['per_iteration_ms']:.2f} | "
                      f"{entry['cost_rel_diff']:.1e} |")
                continue
            print(f"| {entry['label']} | {form} | {r['stage_jacobian_ops']} | "
                  f"{r['knot_derivatives_ops']} | {r['knot_c_bytes'] / 1e3:.0f} | "
                  f"{r['gcc_cpu_s']:.1f} | {r['knot_derivatives_call_ms']:.2f} | "
                  f"{r['knot_derivatives_vm_ms']:.1f} | "
                  f"{r['solve_cpu_s']:.3f} | {r['iterations']} | "
                  f"{r['per_iteration_ms']:.2f} | {r['cost']:.10g} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--problems", nargs="+", default=list(PROBLEMS), choices=PROBLEMS)
    args = parser.parse_args()
    record = {"date": time.strftime("%Y-%m-%d"), "repeat": args.repeat, "tol": TOL,
              "load": os.getloadavg(), "problems": {}}
    for key in args.problems:
        label, make = PROBLEMS[key]
        system, prob, guess = make()
        entry = {"label": label}
        # the backward pass's library (the same for both forms) first, apart: the knot
        # libraries' gcc time is then each form's own
        gcc = _children_cpu()
        ddp_backward.compiled_backward(system.nx, len(system.u_names), prob.intervals,
                                       prob.u_limits.lower, prob.u_limits.upper)
        entry["backward_gcc_cpu_s"] = _children_cpu() - gcc
        built = {}
        for form in FORMS:
            entry[form], *built[form] = form_row(system, prob, guess, form)
        timings(entry, built, args.repeat)
        if key == "talos":
            entry["nlp_knot"] = {form: nlp_knot_row(system, prob, form) for form in FORMS}
            fwd, rec = entry["nlp_knot"]["forward"], entry["nlp_knot"]["recursive"]
            entry["nlp_knot"]["ratio"] = {k: rec[k] / fwd[k] for k in fwd if fwd[k]}
        fwd, rec = entry["forward"], entry["recursive"]
        entry["ratio"] = {k: rec[k] / fwd[k] for k in RATIOS if fwd[k]}
        entry["cost_rel_diff"] = abs(rec["cost"] - fwd["cost"]) / abs(fwd["cost"])
        entry["same_iterations"] = rec["iterations"] == fwd["iterations"]
        record["problems"][key] = entry
    record["load_after"] = os.getloadavg()
    table(record)
    knot_table(record)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "dynamics_derivatives.json").write_text(json.dumps(record, indent=1))


if __name__ == "__main__":
    main()
