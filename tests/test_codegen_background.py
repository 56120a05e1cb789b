"""A library compiled in the background (solver/optimal/compiled.py ``start_library``: the
FDDP backward pass's gcc beside the knot library's): the result is the library
``compiled_library`` builds itself, it is cached and reused, and a changed function gets
a library of its own."""
from __future__ import annotations

import casadi as ca
import numpy as np

from jourdain.solver.optimal.compiled import _PENDING, compiled_library, start_library
from jourdain.solver.simulation.codegen import CodegenOptions


def _function(scale: float) -> ca.Function:
    x = ca.SX.sym("x", 3)
    return ca.Function("bg_f", [x], [scale * ca.sin(x) * ca.dot(x, x)])


def test_background_build_is_the_library_and_is_cached(tmp_path):
    """Reference: CasADi's virtual machine on the same function (equal to 1e-15), and the
    cache directory's listing: the library started in the background is the one
    compiled_library returns (built now: fresh), a second request finds it cached (same
    file, not rebuilt), and a changed function is built anew."""
    options = CodegenOptions(flags=("-O0",), cache_dir=str(tmp_path))
    f = _function(2.0)
    start_library([f], options)
    assert len(_PENDING) >= 1
    path, fresh = compiled_library([f], options, None)
    assert path is not None and fresh and path.exists()
    x = np.array([0.3, -1.2, 2.0])
    got = np.array(ca.external("bg_f", str(path))(x)).ravel()
    want = np.array(f(x)).ravel()
    np.testing.assert_allclose(got, want, rtol=1e-15, atol=0)
    inode = path.stat().st_ino
    start_library([f], options)           # cached: nothing started
    again, fresh = compiled_library([f], options, None)
    assert again == path and not fresh and path.stat().st_ino == inode
    other, fresh = compiled_library([_function(3.0)], options, None)
    assert fresh and other != path
    assert len(list(tmp_path.glob("jd_nlp_*.so"))) == 2


def test_fddp_with_an_empty_cache_compiles_both_libraries(tmp_path, monkeypatch):
    """Reference: the numpy backward pass (the compiled one, built in the background beside
    the knot library from an empty cache, gives the same optimum to 1e-9 relative in the
    cost and 1e-6 in the inputs as codegen="knot", which runs the numpy pass)."""
    from test_ddp import RK4, _pendulum
    monkeypatch.setenv("JOURDAIN_CACHE", str(tmp_path))
    problem = _pendulum(tau_max=4.0)
    built = problem.build(RK4, solver="fddp", codegen=True, tol=1e-9)
    assert built.compiled and built._backward is not None
    reference = problem.build(RK4, solver="fddp", codegen="knot", tol=1e-9).solve()
    sol = built.solve()
    assert abs(sol.cost - reference.cost) <= 1e-9 * abs(reference.cost)
    np.testing.assert_allclose(sol.U, reference.U, rtol=0, atol=1e-6 * np.abs(reference.U).max())
    assert len(list(tmp_path.glob("jd_nlp_*.so"))) == 2      # knots, backward pass
