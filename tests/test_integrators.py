"""The integrator choice (solver/simulation/integrators.py) and BDF's Jacobian
(solver/simulation/jacobian.py): Method.AUTO picks Adams on non-stiff chains and BDF on stiff
ones, reports what it did, and every Jacobian form equals CasADi's algorithmic derivative.

References: agreement of two methods (Adams vs BDF, each linear solver, the virtual machine vs
compiled C) to the integration tolerance; the expanded Jacobian of CasADi's AD (exact) for the
analytic and forward-mode forms; the eigenvalues of the linearized spring chain for the
stiffness ratio (closed-form reasoning in the docstrings).
"""
import shutil

import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import World
from jourdain.library import ElasticJointArm, NLinkPendulum, Pendulum, RandomTree, SpringDamperChain
from jourdain.solver.simulation import codegen, jacobian

needs_cc = pytest.mark.skipif(shutil.which("gcc") is None, reason="no C compiler")


def _system(part, **options):
    return jd.compile(jd.Model.on_world(World(), part=part), **options)


def test_auto_picks_adams_on_a_chain_and_bdf_on_stiff_systems():
    """A pendulum chain has no damping (all eigenvalues of ∂f/∂x on the imaginary axis:
    ratio 0): Adams. Stiff joint springs with dampers (c = 1e4, d = 100: overdamped modes at
    |λ| ≈ c/d·… ≈ 4e3 1/s beside the swing at ≈ 15 1/s) and a compliant gear (rotor mode
    ≈ 3e3 1/s, link swing ≈ 5 1/s): BDF. Each Result says what ran and why."""
    chain = _system(NLinkPendulum(4)).simulate(1.0, y0={"part.joint1.phi": 0.5}, n_out=5)
    assert chain.method is jd.Method.ADAMS and chain.stats["jacobian_evaluations"] == 0
    assert "stiffness ratio 0 " in chain.stats["method_reason"]
    springs = _system(SpringDamperChain(4)).simulate(1.0, y0={"part.chain.joint1.phi": 0.1},
                                                      n_out=5)
    assert springs.method is jd.Method.BDF and springs.stats["newton_setups"] > 0
    arm = _system(ElasticJointArm()).simulate(1.0, inputs={"part.motor.tau": 0.2}, n_out=5)
    assert arm.method is jd.Method.BDF and ">" in arm.stats["method_reason"]
    for res in (chain, springs, arm):
        assert res.stats["steps"] > 0 and res.stats["cpu_time"] >= 0.0


def test_auto_agrees_with_the_methods_it_chooses_between():
    """Reference: agreement of Adams and BDF to the tolerance (rtol = atol = 1e-9, 2 s)."""
    system = _system(SpringDamperChain(3))
    y0 = {"part.chain.joint1.phi": 0.4, "part.chain.joint3.phi": -0.2}
    runs = {m: system.simulate(2.0, y0=y0, method=m, rtol=1e-9, atol=1e-9, n_out=21)
            for m in (jd.Method.AUTO, jd.Method.ADAMS, jd.Method.BDF)}
    assert runs[jd.Method.AUTO].method is jd.Method.BDF
    for m in (jd.Method.ADAMS, jd.Method.BDF):
        assert runs[m].method is m and runs[m].stats["method_reason"] == "chosen by the caller"
        np.testing.assert_allclose(runs[m].x, runs[jd.Method.AUTO].x, atol=1e-6)


def test_stiffness_declared_or_given_overrides_the_test():
    """A component flagged ``stiff`` (an electrical time constant, a compliant contact) makes
    AUTO use BDF, named in the reason; ``stiff=`` overrides both ways."""
    part = Pendulum(d=0.1)
    part.damper.stiff = True
    system = _system(part)
    assert system.structure.stiff == ["part.damper"]
    res = system.simulate(0.5, y0={"part.joint.phi": 0.3}, n_out=3)
    assert res.method is jd.Method.BDF and "part.damper" in res.stats["method_reason"]
    assert system.simulate(0.5, n_out=3, stiff=False).method is jd.Method.ADAMS
    springs = _system(SpringDamperChain(2))
    assert springs.simulate(0.5, n_out=3, stiff=False).method is jd.Method.ADAMS
    assert _system(NLinkPendulum(2)).simulate(0.5, n_out=3, stiff=True).method is \
        jd.Method.BDF


def test_auto_on_partitioned_loops_follows_the_stiffness_test():
    """Closed loops solved by partitioning take the stiffness test too (reference: the
    stiffness estimate, integrators.stiffness, against its limit STIFF_RATIO·rtol^(−1/10) at
    the loops' default rtol 1e-9). The IFToMM N-four-bar (n = 2) starts inverted at λ = ±3.4
    1/s, ratio 1: Adams. A four-bar whose crank carries a spring of 1e4 N·m/rad and a
    damper of 100 N·m·s/rad has an overdamped mode of ~5e3 1/s beside the swing, ratio ≫ 10:
    BDF, and Adams agrees with it over 0.5 s to the tolerance (1e-6 rad)."""
    from jourdain.blocks import RotationalSpring, ViscousFriction
    from jourdain.library import FourBar
    from jourdain.library.mbs_benchmarks import NFourBar
    from jourdain.solver.simulation.integrators import STIFF_RATIO, stiffness
    limit = STIFF_RATIO * 1e-9 ** -0.1
    bars = jd.compile(jd.Model.on_world(World(), m=NFourBar(2)), speeds={"z0": "m.pivot0.w"})
    x0 = bars.state(None, {"z0": -1.0})
    ratio, _ = stiffness(bars, 0.0, x0, np.zeros(len(bars.u_names)), bars.parameters(None), 1.0)
    assert ratio < limit
    res = bars.simulate(1.0, z0={"z0": -1.0}, n_out=11)
    assert res.method is jd.Method.ADAMS and res.stats["jacobian_evaluations"] == 0
    assert res.stats["method_reason"].startswith("closed loops by partitioning, stiffness "
                                                 "ratio")
    m = jd.Model(World(), fb=FourBar(), spring=RotationalSpring(c=1e4),
                 damper=ViscousFriction(d=100.0))
    m.connect(m.world.frame_b, m.fb.frame_a)
    m.connect(m.spring.flange_b, m.fb.crank.axis)
    m.connect(m.damper.flange_b, m.fb.crank.axis)
    stiff = jd.compile(m)
    x0 = stiff.state({"fb.crank.phi": 0.3}, None)
    ratio, _ = stiffness(stiff, 0.0, x0, np.zeros(len(stiff.u_names)),
                         stiff.parameters(None), 0.5)
    assert ratio > 10 * limit
    runs = {meth: stiff.simulate(0.5, y0={"fb.crank.phi": 0.3}, n_out=11, method=meth)
            for meth in (jd.Method.AUTO, jd.Method.ADAMS)}
    assert runs[jd.Method.AUTO].method is jd.Method.BDF
    assert ">" in runs[jd.Method.AUTO].stats["method_reason"]
    np.testing.assert_allclose(runs[jd.Method.AUTO]["fb.crank.phi"],
                               runs[jd.Method.ADAMS]["fb.crank.phi"], atol=1e-6)


def test_auto_uses_bdf_with_contacts_and_adams_agrees_where_it_is_chosen():
    """A block sliding to rest on a GroundContact: its stick mode, closed after the start, is
    invisible to the stiffness test at x0, so AUTO takes BDF because of the contact rows
    (Adams needed 139 s CPU here, BDF 0.06 s). Reference: the Coulomb stopping distance
    v0²/(2·μ·g) and the stop time (v0 − v_eps)/(μ·g)."""
    from jourdain.blocks import FreeJoint, RigidBody
    from jourdain.blocks.hybrid import GroundContact
    mu, v0 = 0.4, 2.0
    model = jd.Model(world=World())
    model.free, model.body = FreeJoint(), RigidBody(m=1.0, I=(1e3, 1e3, 1e3))
    model.contact = GroundContact(mu=mu)
    model.connect(model.world.frame_b, model.free.frame_a)
    model.connect(model.free.frame_b, model.body.frame_a)
    model.connect(model.contact.frame_a, model.body.frame_a)
    res = jd.compile(model).simulate(1.0, y0={"free.y": 0.0}, z0={"free.vx": v0}, rtol=1e-10,
                                     atol=1e-10)
    assert res.method is jd.Method.BDF and "contacts" in res.stats["method_reason"]
    assert res.events.select("contact", "stop")[0].t == pytest.approx((v0 - 1e-4) / (mu * 9.81),
                                                                     rel=1e-7)
    assert res["free.x"][-1] == pytest.approx(v0**2 / (2 * mu * 9.81), abs=1e-6)


def test_auto_runs_open_segments_on_adams_and_agrees_with_bdf():
    """A ball bouncing on a floor (GroundContact, e = 0.8): AUTO runs the flights, where the
    contact is open, on Adams and the resting phase on BDF. Reference: the same run on BDF
    throughout (method=BDF) — the same events, impact times within 1e-8 s — and the
    closed-form first impact time √(2·h/g)."""
    from jourdain.blocks import FreeJoint, RigidBody
    from jourdain.blocks.hybrid import GroundContact
    model = jd.Model(world=World())
    model.free, model.body = FreeJoint(), RigidBody(m=1.0, I=(0.01, 0.01, 0.01))
    model.contact = GroundContact(radius=0.1, e=0.8, v_rest=0.2)
    model.connect(model.world.frame_b, model.free.frame_a)
    model.connect(model.free.frame_b, model.body.frame_a)
    model.connect(model.contact.frame_a, model.body.frame_a)
    system = jd.compile(model)
    runs = {m: system.simulate(3.0, y0={"free.y": 1.1}, rtol=1e-10, atol=1e-10, method=m)
            for m in (jd.Method.AUTO, jd.Method.BDF)}
    auto, bdf = runs[jd.Method.AUTO], runs[jd.Method.BDF]
    assert "Adams in segments where every row is open" in auto.stats["method_reason"]
    assert len(auto.events) == len(bdf.events) > 6
    assert np.max(np.abs(auto.events.times() - bdf.events.times())) < 1e-8
    assert auto.events.times()[1] == pytest.approx(np.sqrt(2 * 1.0 / 9.81), abs=1e-9)
    assert np.max(np.abs(auto.x - bdf.x)) < 1e-6


def test_linear_solvers_agree():
    """Reference: the same BDF run with each Newton linear solver (sparse LU, dense LU, QR,
    GMRES) to the tolerance."""
    system = _system(SpringDamperChain(3))
    y0 = {"part.chain.joint2.phi": 0.3}
    runs = [system.simulate(1.0, y0=y0, method=jd.Method.BDF, linear_solver=ls, rtol=1e-9,
                            atol=1e-9, n_out=11) for ls in jd.LinearSolver]
    for res in runs[1:]:
        assert res.method is jd.Method.BDF
        np.testing.assert_allclose(res.x, runs[0].x, atol=1e-6)


@pytest.mark.parametrize("part", [RandomTree(6, seed=3), SpringDamperChain(4)],
                         ids=["random tree", "spring chain"])
def test_jacobian_forms_equal_the_algorithmic_derivative(part):
    """Reference: CasADi's expanded Jacobian of f (AD, exact). The analytic form
    −M⁻¹·∂ID/∂ξ (Carpentier & Mansard 2018) and the forward-mode columns agree with it to
    1e-10 of its largest entry, for x and the symbolic parameters' block, at random
    states."""
    params = ["part.body2.m", "part.spring3.c"] if isinstance(part, RandomTree) else \
        ["part.damper2.d"]
    system = _system(part, parameters=params, backend=jd.Backend.RECURSIVE)
    f = system.functions["f"]
    rng = np.random.default_rng(7)
    forms = [jacobian.analytic(system), jacobian.forward(f)]
    exact = f.jacobian()
    for _ in range(3):
        args = [0.0, rng.normal(size=system.nx), [], system.p_default * rng.uniform(0.8, 1.2)]
        ref = [np.array(block.full()) for block in exact(*args, 0)]
        scale = max(np.abs(b).max(initial=0.0) for b in ref)
        for form in forms:
            got = [np.array(block.full()) for block in form(*args, 0)]
            for a, b in zip(got, ref):
                np.testing.assert_allclose(a, b, atol=1e-10 * scale)


def test_the_measured_choice_is_recorded_and_used_by_bdf():
    """The choice times the forms it builds and keeps the fastest; a BDF run reports it."""
    system = _system(RandomTree(14, seed=1))
    res = system.simulate(0.5, method=jd.Method.BDF, n_out=3, rtol=1e-10, atol=1e-10)
    choice = system.jacobian_choice
    assert set(choice.times_us) >= {jacobian.JacobianForm.ANALYTIC}
    assert choice.form is min(choice.times_us, key=choice.times_us.get)
    assert choice.form.value in res.stats["jacobian"]
    reference = system.simulate(0.5, method=jd.Method.ADAMS, n_out=3, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(res.x, reference.x, atol=1e-6)


@needs_cc
def test_compiled_jacobian_built_on_demand(tmp_path):
    """codegen compiles f alone for a system whose Jacobian is large (Adams needs none); a
    BDF run then compiles the chosen form into its own library. Reference: the virtual
    machine's Jacobian (to 1e-10 of its scale) and the virtual machine's BDF run (1e-6)."""
    system = _system(SpringDamperChain(8))
    vm = system.simulate(1.0, y0={"part.chain.joint1.phi": 0.2}, method=jd.Method.BDF, n_out=5)
    system.codegen(cache_dir=tmp_path)
    assert codegen.compiled_jacobian(system.f) is None   # f alone
    assert [p.name.startswith("jd_f_") for p in tmp_path.glob("*.so")] == [True]
    res = system.simulate(1.0, y0={"part.chain.joint1.phi": 0.2}, n_out=5)
    choice = system.jacobian_choice
    # C is used unless it timed slower than the virtual machine (never under normal load)
    assert res.method is jd.Method.BDF and ("compiled C" in res.stats["jacobian"]) != \
        choice.vm_kept
    assert len(list(tmp_path.glob("jd_jac_f_*.so"))) == 1
    jacobian.attach_jacobian(system, choice)    # the cached library, whatever the timing
    args = [0.0, np.random.default_rng(2).normal(size=system.nx), [], system.p_default, 0]
    blocks = [(a.full(), b.full()) for a, b in zip(choice.compiled(*args),
                                                    choice.function(*args))]
    scale = max(np.abs(b).max(initial=0.0) for _, b in blocks)
    for a, b in blocks:
        np.testing.assert_allclose(a, b, atol=1e-10 * scale)
    np.testing.assert_allclose(res.x, vm.x, atol=1e-6)
    assert jd.linearize(system).A.shape == (16, 16)   # derivatives from the virtual machine


def test_linear_solver_auto_is_dense_on_chains_and_sparse_on_trees():
    """Reference: the structural fill of ∂f/∂x. A chain's mass matrix couples every joint
    (∂ż/∂y full: more than a quarter of the entries), so BDF factorizes densely (LAPACK); a
    random tree's is sparse (branch-induced sparsity), so sparse LU (CSparse)."""
    from jourdain.solver.simulation.integrators import jacobian_fill, solver_options
    chain, tree = _system(NLinkPendulum(5)), _system(RandomTree(12, seed=2))
    assert jacobian_fill(chain) >= 0.25 * chain.nx ** 2
    assert 0 < jacobian_fill(tree) < 0.25 * tree.nx ** 2
    assert solver_options(jd.LinearSolver.AUTO, chain) == {"linear_solver": "lapacklu"}
    assert solver_options(jd.LinearSolver.AUTO, tree) == {"linear_solver": "csparse"}
    assert solver_options(jd.LinearSolver.QR, chain) == {"linear_solver": "qr"}
