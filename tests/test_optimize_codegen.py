"""Compiled trajectory optimization (solve(codegen=True)): the mapped transcriptions
(solver/optimal/mapped.py), the NLP functions assembled from the point function's blocks
(structured.py) and the cached library (compiled.py).

References: CasADi's algorithmic derivatives of the same NLP (exact, on the virtual machine)
for the structured Jacobian and Hessian; the virtual machine's solve of the inlined
transcription for the optimum (the same NLP: same cost and trajectory to IPOPT's tolerance);
the closed-form minimum-time solution of the double integrator (T* = 2·√(d/f_max)).
"""
import shutil

import casadi as ca
import numpy as np
import pytest

import jourdain as jd
from jourdain.solver.optimal import mapped, structured
from jourdain.solver.optimal.functions import Functions
from jourdain.solver.optimal.guess import make_guess
from jourdain.solver.optimal.nlp import NLP
from jourdain.solver.simulation import codegen
from ocp_problems import double_integrator, minimum_energy, minimum_time

needs_cc = pytest.mark.skipif(shutil.which("gcc") is None, reason="no C compiler")


def _path_problem():
    """Minimum energy with a free horizon, a free mass, a path constraint on the speed and
    collocated inputs: every term of the structured Hessian (h = T/N times q, T in the
    point times, p inside P) is exercised."""
    system = double_integrator(parameters=["cart.body.m"])
    ocp = minimum_energy(system, T=jd.FreeTime(guess=1.2, lower=0.5, upper=3.0), N=6)
    ocp.free_parameter("cart.body.m", 0.5, 2.0, 1.0)
    ocp.path_constraint(lambda v: v["cart.joint.v"] ** 2, upper=4.0, name="speed")
    ocp.terminal_cost(lambda v: 0.1 * v.T)
    return ocp


def test_structured_functions_equal_the_algorithmic_derivatives():
    """Reference: CasADi's AD of the same NLP (nlpsol's own functions) at random points and
    multipliers: values, constraint Jacobian, gradient and Hessian of the Lagrangian to
    1e-12 of their scale."""
    ocp = _path_problem()
    colloc = jd.Collocation(degree=2, inputs=jd.Inputs.COLLOCATED)
    nlp = NLP(ca.MX)
    plan = mapped.transcribe_mapped(colloc, ocp, Functions.build(ocp), nlp, make_guess(ocp))
    w, g = nlp.vector(), ca.vertcat(*nlp.g)
    ours = {fn.name(): fn for fn in structured.nlp_functions(w, g, plan.cost, plan.points)}
    f_val, g_val = ours["nlp"](w, ca.MX(0, 1))
    theirs = ca.nlpsol("ad", "ipopt", {"x": w, "f": f_val, "g": g_val}, {"print_time": False})
    rng = np.random.default_rng(4)
    for _ in range(3):
        x = nlp.arrays()["x0"] + 0.3 * rng.standard_normal(w.numel())
        lam = [rng.uniform(0.5, 2.0), rng.standard_normal(g_val.numel())]
        for name in ("nlp_g", "nlp_jac_g", "nlp_grad_f", "nlp_grad", "nlp_hess_l"):
            args = [x, []] + (lam if ours[name].n_in() > 2 else [])
            for a, b in zip(ours[name].call(args), theirs.get_function(name).call(args)):
                a, b = np.array(ca.densify(a)), np.array(ca.densify(b))
                if name == "nlp_hess_l":
                    a, b = np.triu(a), np.triu(b)
                scale = max(1.0, np.abs(b).max(initial=0.0))
                np.testing.assert_allclose(a.reshape(b.shape), b, atol=1e-12 * scale)


def test_mapped_transcription_is_the_inlined_nlp():
    """Reference: the inlined transcription's constraints and cost at random decision
    vectors, row by row with the same labels."""
    ocp = _path_problem()
    colloc = jd.Collocation(degree=3)
    fns, guess = Functions.build(ocp), make_guess(ocp)
    a, b = NLP(ca.SX), NLP(ca.MX)
    plan_a = colloc.transcribe(ocp, fns, a, guess)
    plan_b = mapped.transcribe_mapped(colloc, ocp, fns, b, guess)
    labels = [[lab for blk in n.con_blocks for lab in blk.labels] for n in (a, b)]
    assert labels[0] == labels[1] and a.sizes == b.sizes
    inline = ca.Function("a", [a.vector()], [plan_a.cost, ca.vertcat(*a.g)])
    values = ca.substitute([plan_b.cost, ca.vertcat(*b.g)], [ca.vec(plan_b.points.q)],
                           [ca.vec(plan_b.points.values())])
    mapped_fn = ca.Function("b", [b.vector()], values)
    x = a.arrays()["x0"] + np.random.default_rng(1).standard_normal(a.sizes[0])
    for u, v in zip(inline(x), mapped_fn(x)):
        np.testing.assert_allclose(np.array(u), np.array(v), atol=1e-12, rtol=1e-12)


@needs_cc
def test_compiled_solve_finds_the_same_optimum_and_is_cached(tmp_path, monkeypatch):
    """Reference: the closed-form minimum time 2·√(d/f_max) = 2 s of the double integrator
    and the virtual machine's solve (cost to 1e-8, same iterations). The second solve loads
    the cached library (the build is not called)."""
    monkeypatch.setenv("JOURDAIN_CACHE", str(tmp_path))
    ocp = minimum_time(double_integrator(), N=20)
    vm = ocp.solve(jd.Collocation(degree=3))
    fast = ocp.solve(jd.Collocation(degree=3), codegen=True)
    assert fast.stats["compiled"] and not vm.stats["compiled"]
    assert fast.T == pytest.approx(2.0, abs=1e-6) and fast.cost == pytest.approx(vm.cost,
                                                                                  rel=1e-8)
    assert fast.stats["iterations"] == vm.stats["iterations"]
    np.testing.assert_allclose(fast.X, vm.X, atol=1e-6)
    assert len(list(tmp_path.glob("jd_nlp_*.so"))) == 1
    monkeypatch.setattr(codegen, "_build", lambda *a: pytest.fail("rebuilt a cached NLP"))
    again = ocp.solve(jd.Collocation(degree=3), codegen=True)
    assert again.stats["compiled"] and again.cost == pytest.approx(vm.cost, rel=1e-10)


@needs_cc
def test_compiled_multiple_shooting(tmp_path, monkeypatch):
    """Fixed-step multiple shooting (RK4) through the mapped interval function. Reference:
    the virtual machine's solve of the same transcription."""
    monkeypatch.setenv("JOURDAIN_CACHE", str(tmp_path))
    ocp = minimum_energy(double_integrator(), N=10)
    shooting = jd.MultipleShooting(jd.Integrator.RK4, steps=2)
    vm = ocp.solve(shooting)
    fast = ocp.solve(shooting, codegen=True)
    assert fast.stats["compiled"]
    assert fast.cost == pytest.approx(vm.cost, rel=1e-8)
    np.testing.assert_allclose(fast.X, vm.X, atol=1e-6)


def test_compiled_solve_without_a_compiler_uses_the_virtual_machine(tmp_path, monkeypatch):
    """No compiler: a warning, and the mapped NLP solved on the virtual machine (the same
    optimum as the inlined one)."""
    monkeypatch.setenv("JOURDAIN_CACHE", str(tmp_path))
    options = codegen.CodegenOptions
    monkeypatch.setattr(codegen, "CodegenOptions",
                        lambda: options(compiler="no-such-cc-jourdain", cache_dir=str(tmp_path)))
    ocp = minimum_energy(double_integrator(), N=10)
    with pytest.warns(RuntimeWarning, match="virtual machine"):
        sol = ocp.solve(jd.Collocation(degree=2), codegen=True)
    assert not sol.stats["compiled"]
    assert sol.cost == pytest.approx(ocp.solve(jd.Collocation(degree=2)).cost, rel=1e-8)
