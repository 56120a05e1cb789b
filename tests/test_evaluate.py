"""Fast numeric calls (system.numeric): reference — the CasADi Function called normally."""
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import World
from jourdain.library import CubeOnEdge, NLinkPendulum


def test_numeric_calls_match_the_casadi_functions(rng):
    system = jd.compile(jd.Model.on_world(World(), c=NLinkPendulum(4)), parameters=["c.link1.m"])
    f, M, energy = system.numeric("f"), system.numeric("M"), system.numeric("energy")
    for _ in range(3):
        x, p = rng.uniform(-1, 1, 8), system.p_default * rng.uniform(0.5, 2)
        assert np.array_equal(f(0.1, x, (), p), np.array(system.f(0.1, x, [], p)).ravel())
        assert np.array_equal(M(x[:4], p), np.array(system.M(x[:4], p)))
        T, V, _ = energy(x, p)
        assert T == pytest.approx(float(system.energy(x, p)[0]), rel=1e-15)
    assert f(0, x.reshape(-1, 1), [], p).shape == (8,)   # column vectors are accepted
    first = f(0, x, [], p)
    f(0, 2 * x, [], p)
    assert np.array_equal(first, np.array(system.f(0, x, [], p)).ravel())  # results are copies


def test_numeric_call_errors_name_the_argument():
    system = jd.compile(jd.Model.on_world(World(), cube=CubeOnEdge()))
    f = system.numeric("f")
    with pytest.raises(jd.ModelError, match="argument 'x' needs 4 entries, got 3"):
        f(0, [1, 2, 3], [0], [])
    with pytest.raises(jd.ModelError, match=r"f takes 4 arguments \(t, x, u, p\), got 2"):
        f(0, [1, 2, 3, 4])
    with pytest.raises(jd.ModelError, match="numeric: unknown name 'g'"):
        system.numeric("g")
