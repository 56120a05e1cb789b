"""Fast numeric calls (system.numeric): reference — the CasADi Function called normally.
The two paths run the same operations, so they agree to round-off (conftest.ROUNDOFF, a few
dozen ulp: the order of operations may differ with the buffers); a wrong argument order or
a stale buffer would differ at O(1)."""
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import World
from jourdain.library import CubeOnEdge, NLinkPendulum

from conftest import ROUNDOFF


def _same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    np.testing.assert_allclose(a, b, rtol=ROUNDOFF, atol=ROUNDOFF * np.abs(b).max())


def test_numeric_calls_match_the_casadi_functions(rng):
    system = jd.compile(jd.Model.on_world(World(), c=NLinkPendulum(4)), parameters=["c.link1.m"])
    f, M, energy = system.numeric("f"), system.numeric("M"), system.numeric("energy")
    for _ in range(3):
        x, p = rng.uniform(-1, 1, 8), system.p_default * rng.uniform(0.5, 2)
        _same(f(0.1, x, (), p), np.array(system.f(0.1, x, [], p)).ravel())
        _same(M(x[:4], p), np.array(system.M(x[:4], p)))
        T, V, _ = energy(x, p)
        assert T == pytest.approx(float(system.energy(x, p)[0]), rel=ROUNDOFF)
    assert f(0, x.reshape(-1, 1), [], p).shape == (8,)   # column vectors are accepted
    first = f(0, x, [], p)
    f(0, 2 * x, [], p)
    _same(first, np.array(system.f(0, x, [], p)).ravel())  # results are copies, not the buffer


def test_numeric_call_errors_name_the_argument():
    system = jd.compile(jd.Model.on_world(World(), cube=CubeOnEdge()))
    f = system.numeric("f")
    with pytest.raises(jd.ModelError, match="argument 'x' needs 4 entries, got 3"):
        f(0, [1, 2, 3], [0], [])
    with pytest.raises(jd.ModelError, match=r"f takes 4 arguments \(t, x, u, p\), got 2"):
        f(0, [1, 2, 3, 4])
    with pytest.raises(jd.ModelError, match="numeric: unknown name 'g'"):
        system.numeric("g")
