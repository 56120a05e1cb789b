"""The MSL's start values of loops and free bodies, from library parts. (1) Branch choice by a
guess of a coordinate that a closed loop solves: the MSL's s_guess of a JointRRP's slider
(docs/constraints.md, "Branch guesses of any quantity"); reference: the closed form of the
crank–slider's two assemblies, s = r·cos φ ± √(l² − r²·sin² φ) − (r + l). (2) A free body's
angles_start as FreeJoint quaternion start values (``quaternion_from_angles``); reference:
FixedRotation's sequence form."""
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


@pytest.mark.parametrize("sequence", [(1, 2, 3), (3, 1, 3), (2, 3, 1)])
def test_quaternion_from_angles_is_the_fixed_rotation_of_the_sequence(sequence):
    """Reference: agreement of two formulations. The quaternion of the MSL's angles_start
    (rotations about the turned body axes in turn) rotates as FixedRotation's sequence form
    (the product of the axis rotations) to round-off, and is a unit quaternion."""
    import casadi as ca
    from jourdain.blocks import FixedRotation, quaternion_from_angles
    from jourdain.blocks.geometry import quaternion_rotation
    from jourdain.blocks.joints import _sequence_rotation
    angles = np.array([0.3, -1.1, 2.0])
    q = quaternion_from_angles(angles, sequence)
    R = np.array(ca.DM(quaternion_rotation(ca.DM(q))))
    fr = FixedRotation(sequence=sequence, angles=angles)
    assert np.linalg.norm(q) == pytest.approx(1.0, abs=1e-15)
    assert np.abs(R - _sequence_rotation(fr)).max() < 1e-14
