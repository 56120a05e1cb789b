"""Branch choice by a guess of a coordinate that a closed loop solves: the MSL's s_guess of a
JointRRP's slider (docs/constraints.md, "Branch guesses of any quantity"). Reference: the
closed form of the crank–slider's two assemblies, s = r·cos φ ± √(l² − r²·sin² φ) − (r + l)."""
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import FixedTranslation, JointRRP, Revolute, RigidBody, World

R, L, PHI = 0.1, 0.3, 2.0


def _crank_slider():
    model = jd.Model(world=World(g=(0, 0, -9.81)))
    model.crank = Revolute()
    model.crankRod = FixedTranslation(r=(R, 0, 0))
    model.crankBody = RigidBody(m=2, r_cm=(0.05, 0, 0), I=(0.01, 0.01, 0.01))
    model.jointRRP = JointRRP(n_b=(1, 0, 0), rRod1_ia=(L, 0, 0), rRod2_ib=(0, 0, 0),
                              s_offset=R + L)
    model.piston = RigidBody(m=0.5, I=(0.001, 0.001, 0.001))
    c = model.connect
    c(model.world.frame_b, model.crank.frame_a)
    c(model.crank.frame_b, model.crankRod.frame_a)
    c(model.crank.frame_b, model.crankBody.frame_a)
    c(model.crankRod.frame_b, model.jointRRP.frame_a)
    c(model.world.frame_b, model.jointRRP.frame_b)
    c(model.jointRRP.frame_ib, model.piston.frame_a)
    return jd.compile(model)


@pytest.mark.parametrize("s_guess, sign", [(0.0, 1.0), (-0.8, -1.0)])
def test_slider_guess_chooses_the_branch(s_guess, sign):
    """Reference: closed form. With the crank at φ = 2 rad the slider's coordinate guessed
    near 0 (the MSL's default s_guess) gives the assembly with the piston beyond the crank
    (+√), guessed at −0.8 m the folded one (−√); each to 1e-9 m, and the guess is not held."""
    system = _crank_slider()
    init = system.initialize(y0={"crank.phi": PHI}, guess={"jointRRP.prismatic.s": s_guess})
    s = init.x0[system.x_names.index("jointRRP.prismatic.s")]
    root = np.sqrt(L**2 - (R * np.sin(PHI))**2)
    assert s == pytest.approx(R * np.cos(PHI) + sign * root - (R + L), abs=1e-9)
    assert "jointRRP.prismatic.s" in init.solved
