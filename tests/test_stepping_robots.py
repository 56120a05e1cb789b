"""The fast contact mode (``contact="stepping"``) on joint limits and on the dm_control hopper
and cheetah from their MJCF files (issue 28). References: Newton's restitution at a rigid
stop in closed form (apex heights h·e²); MuJoCo (mj_step on the same file and the same step)
for where the robots come to rest; the ledger's bound that the contact impulses never add
kinetic energy to a step's free motion; the joint ranges as constraint residuals."""
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import Prismatic, RigidBody, World
from jourdain.blocks.hybrid import Stop

mujoco = pytest.importorskip("mujoco")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import contact_robots  # noqa: E402


def _slider_on_stop(e):
    model = jd.Model(world=World(g=(0.0, -9.81, 0.0)))
    model.slide, model.ball = Prismatic(axis=(0, 1, 0)), RigidBody(m=0.5)
    model.floor = Stop(lower=0.0, e=e)
    model.connect(model.world.frame_b, model.slide.frame_a)
    model.connect(model.slide.frame_b, model.ball.frame_a)
    model.connect(model.floor.flange_b, model.slide.axis)
    return jd.compile(model)


def test_stop_rebounds_with_newtons_restitution():
    """A mass dropped from 1 m on a rigid Stop (e = 0.5) in the stepping mode: the apex
    after the first impact is h·e² = 0.25 m (closed form), to the step's O(h·v) accuracy
    (dt = 1e-4 s: 2 mm); the stop's limit holds (s ≥ −1e-9 m); energy never rises."""
    system = _slider_on_stop(0.5)
    res = system.simulate(1.2, y0={"slide.s": 1.0}, contact="stepping", dt=1e-4,
                          n_out=1201)
    s, t = res["slide.s"], res.t
    after = t > np.sqrt(2 / 9.81) + 0.01
    assert s[after].max() == pytest.approx(0.25, abs=2e-3)
    assert s.min() > -1e-9
    assert np.diff(res["energy.total"]).max() < 1e-9
    assert res.ledger.max_step_gain < 1e-9


def test_compliant_stop_is_refused_in_stepping_mode():
    """The stepping mode is rigid: a compliant Stop is refused by name."""
    model = jd.Model(world=World(g=(0.0, -9.81, 0.0)))
    model.slide, model.ball = Prismatic(axis=(0, 1, 0)), RigidBody(m=0.5)
    model.floor = Stop(lower=0.0, law=jd.blocks.hybrid.StopLaw.COMPLIANT)
    model.connect(model.world.frame_b, model.slide.frame_a)
    model.connect(model.slide.frame_b, model.ball.frame_a)
    model.connect(model.floor.flange_b, model.slide.axis)
    with pytest.raises(jd.ModelError, match="floor.*compliant stop"):
        jd.compile(model).simulate(0.1, contact="stepping")


# compiling a robot's step takes gcc tens of seconds (cached afterwards): slow
@pytest.mark.slow
@pytest.mark.parametrize("name, tolerance", [("hopper", 2e-3), ("cheetah", 1e-2)])
def test_dm_control_robot_drop_rests_where_mujoco_does(name, tolerance):
    """The robot from its MJCF file (contacts, joint ranges as stops), dropped for 2 s in
    the stepping mode at the file's step: its root comes to rest at MuJoCo's height on the
    same file (to MuJoCo's soft-contact penetration, ≤ 1.5 cm over the run: 2 mm for the
    hopper lying on the floor, 1 cm for the cheetah standing on its feet); the contacts
    never add energy to a step's free motion (ledger); the deepest penetration at any step's
    start stays below 1e-6 m (issue 28's target: the position correction removes the step's
    second-order error, the rows holding the gaps to first order), and every joint inside
    its range to 1e-5 rad."""
    jd_row = contact_robots.jourdain_robot(name, gait=False, repeats=0)
    mj_row = contact_robots.mujoco_robot(name, gait=False, repeats=1)
    assert jd_row["height"] == pytest.approx(mj_row["height"], abs=tolerance)
    assert jd_row["max_step_gain"] < 1e-9
    assert jd_row["penetration"] < 1e-6
    assert jd_row["range_violation"] < 1e-5
