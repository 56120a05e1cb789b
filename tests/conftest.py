"""Shared model fixtures: every library model mounted on a World, with the parameters the
physics tests need; the settings that make the suite independent of the machine, the user
and the order of the tests (hypothesis profiles, a private code-generation cache, no display)."""
from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

import jourdain as jd
from jourdain.blocks import World
from jourdain.library import CartPole, CubeOnEdge, DoublePendulum, NLinkPendulum, Pendulum

SEED_SPEEDS = {"u1": "cube.edge.phi.der", "u2": "cube.edge.phi.der + cube.bearing.phi.der"}

#: Relative tolerance for two evaluations of the same expressions that differ only in the
#: order or fusion of floating-point operations (CasADi's virtual machine vs a wrapper, FMA
#: contraction, SIMD or BLAS reduction order, thread count): each of a few dozen operations
#: adds at most ½ ulp, so 64 ulp bounds it and still catches any real mistake (O(1)).
ROUNDOFF = 64 * np.finfo(float).eps

# Hypothesis (tests/test_properties.py): "ci", the default, draws the same cases on every
# machine and run and keeps no example database; "explore" (JOURDAIN_HYPOTHESIS=explore)
# draws new cases and keeps failures in .hypothesis/ (ignored by git) to replay them first.
settings.register_profile("ci", derandomize=True, database=None, deadline=None,
                          print_blob=True, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("explore", deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("JOURDAIN_HYPOTHESIS", "ci"))
os.environ.setdefault("MPLBACKEND", "Agg")   # figures without a display, on any machine


#: File descriptor of the terminal's stderr, saved before pytest captured it: a hung case
#: (tests/test_properties.py) reports every thread's stack there before the process exits.
TERMINAL_STDERR = [2]


def pytest_configure(config):
    capman = config.pluginmanager.getplugin("capturemanager")
    saved = getattr(getattr(getattr(capman, "_global_capturing", None), "err", None),
                    "targetfd_save", None)
    if saved is not None:
        TERMINAL_STDERR[0] = os.dup(saved)


@pytest.fixture(autouse=True, scope="session")
def private_codegen_cache(tmp_path_factory):
    """Generated C goes to a fresh directory of this session, never the user's
    ~/.cache/jourdain (a stale or foreign library there must not decide a test)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("JOURDAIN_CACHE", str(tmp_path_factory.mktemp("jourdain-cache")))
        yield


def library_models() -> dict:
    """name -> model factory, for every library mechanism (with some dissipation switched on
    where the model has it, so force elements are exercised)."""
    return {
        "pendulum": lambda: jd.Model.on_world(World(), pendulum=Pendulum(m=0.7, l=0.9, J=0.01,
                                                                          d=0.05)),
        "double_pendulum": lambda: jd.Model.on_world(World(), dp=DoublePendulum(1.0, 0.5, 1.0, 0.7)),
        "chain5": lambda: jd.Model.on_world(World(), chain=NLinkPendulum(5)),
        "cartpole": lambda: jd.Model.on_world(World(), cartpole=CartPole(d=0.3)),
        "cube_on_edge": lambda: jd.Model.on_world(World(), cube=CubeOnEdge(C_phi=1.02e-3)),
    }


@pytest.fixture(params=sorted(library_models()))
def library_model(request):
    return request.param, library_models()[request.param]()


@pytest.fixture
def rng():
    return np.random.default_rng(12345)
