"""Closed loops at machine scale: loops that ride on loops (jourdain.library.StackedFourBars),
the articulated-body algorithm over loop nodes (solver/equations/loops.py) and the Newton
projection as fixed steps (solver/constraints/assembly.py).

References: the three constraint methods against each other, conservation of energy, the
closure residuals, the projection back end (Jourdain's equations with G substituted
symbolically), and operation counts for the linear growth of f.
"""
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import World
from jourdain.library import StackedFourBars


def _stack(k: int, **options):
    return jd.compile(jd.Model.on_world(World(), st=StackedFourBars(k)), **options)


def test_stacked_four_bars_agree_across_methods():
    """Reference: the other constraint methods and conservation of energy. Three four-bars,
    each riding on the coupler of the one below, released with every crank at 1 rad/s:
    partitioning (three nodes of the articulated-body algorithm), Baumgarte and the DAE
    agree on every coordinate to 1e-6 rad over 0.4 s at rtol 1e-9 (the stack is chaotic, so
    longer horizons separate any two integrators); the partitioned run keeps its energy to
    1e-7 of the kinetic scale and its loops closed to 1e-9."""
    z0 = {f"st.bar{i}.crank.w": 1.0 for i in (1, 2, 3)}
    runs = [_stack(3, constraints=m).simulate(0.4, z0=z0, rtol=1e-9, atol=1e-9, n_out=41)
            for m in jd.ConstraintMethod]
    names = runs[0].system.y_names
    for other in runs[1:]:
        assert max(np.abs(other[n] - runs[0][n]).max() for n in names) < 1e-6
    assert np.ptp(runs[0]["energy.total"]) < 1e-7 * max(1.0, runs[0]["energy.kinetic"].max())
    residuals = [v for k, v in runs[0].series.items() if k.startswith("residual")]
    assert max(np.abs(r).max() for r in residuals) < 1e-9


def test_recursive_equals_projection_on_the_stack():
    """Reference: the projection back end (the equations of the symbolic elimination, which
    nest with every loop). f, M and k of two stacked four-bars agree to 1e-10 at assembled
    random states."""
    rec, proj = _stack(2), _stack(2, backend=jd.Backend.PROJECTION)
    assert rec.backend is jd.Backend.RECURSIVE and proj.backend is jd.Backend.PROJECTION
    rng = np.random.default_rng(5)
    ny, p = len(rec.y_names), rec.p_default
    for _ in range(3):
        x = rec.state(y0={"st.bar1.crank.phi": rng.uniform(-1, 1),
                          "st.bar2.crank.phi": rng.uniform(-1, 1)},
                      z0={n: rng.uniform(-3, 3) for n in rec.z_names})
        scale = max(1.0, np.abs(np.array(proj.f(0, x, [], p))).max())
        assert np.abs(np.array(rec.f(0, x, [], p)) - np.array(proj.f(0, x, [], p))).max() \
            < 1e-10 * scale
        assert np.abs(np.array(rec.M(x[:ny], p)) - np.array(proj.M(x[:ny], p))).max() < 1e-12
        assert np.abs(np.array(rec.k(x[:ny], x[ny:], p)) -
                      np.array(proj.k(x[:ny], x[ny:], p))).max() < 1e-10 * scale


def test_f_grows_linearly_with_the_stack():
    """Reference: operation counts (CasADi's instructions of f). Each loop that rides on the
    stack adds the same work: the increments from 1 to 2, 2 to 4 and 4 to 8 loops are 1, 2
    and 4 times one increment (to 10 %); the symbolic elimination's f grew about tenfold per
    loop (1,106 → 11,615 instructions of k for 1 → 2 loops, issue 11)."""
    counts = {k: _stack(k).functions["f"].n_instructions() for k in (1, 2, 4, 8)}
    step = counts[2] - counts[1]
    assert counts[4] - counts[2] == pytest.approx(2 * step, rel=0.1)
    assert counts[8] - counts[4] == pytest.approx(4 * step, rel=0.1)


def test_closure_after_fixed_newton_steps():
    """Reference: the constraint residual. The projection inside f takes a fixed number of
    Newton steps from the integrated coordinates; from a state whose dependent coordinates
    are off by 1e-4 rad it closes the loops to 1e-12 and reports the residual it left."""
    system = _stack(2)
    x = system.state(z0={"st.bar1.crank.w": 0.5})
    dep = [system.y_names.index(n) for n in system.dependent_coordinates]
    off = x.copy()
    off[dep] += 1e-4
    y, residual = (np.array(v).ravel() for v in
                   system.functions["newton"](off[:len(system.y_names)], system.p_default))
    assert float(residual[0]) < 1e-12
    assert np.abs(np.array(system.c(y, system.p_default))).max() < 1e-12
    assert np.abs(y[dep] - x[dep]).max() < 1e-10
