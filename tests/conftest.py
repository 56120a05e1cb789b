"""Shared model fixtures: every library model mounted on a World, with the parameters the
physics tests need."""
from __future__ import annotations

import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import World
from jourdain.library import CartPole, CubeOnEdge, DoublePendulum, NLinkPendulum, Pendulum

SEED_SPEEDS = {"u1": "cube.edge.phi.der", "u2": "cube.edge.phi.der + cube.bearing.phi.der"}


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
