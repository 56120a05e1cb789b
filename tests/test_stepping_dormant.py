"""Dormant contacts in the stepping mode (solver/stepping/dormant.py): the body–body pairs
left out of the steps on which they stay open. Reference: the full step, every contact in
every step (``run.DORMANT = False``) — the two formulations of the same step agree where
the pair touches, holds and separates again; and the split of the dm_control cheetah's
contacts from its MJCF file (stops and ground contacts near, its links' pairs far)."""
import warnings
from pathlib import Path

import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import FreeJoint, RigidBody, World
from jourdain.blocks.visual import Plane, Sphere
from jourdain.solver.stepping import dormant, run

R = 0.05


def _stacked_balls():
    """A ball (0.2 kg) at rest on the world's plane and a second one (0.4 kg) on it
    (STARTS), e = 0.3, μ = 0.4: the ball–ball pair is far, the balls on the plane near."""
    model = jd.Model(world=World())
    for k in (1, 2):
        model.add(f"j{k}", FreeJoint())
        body = model.add(f"b{k}", RigidBody(m=0.2 * k, I=(0.4 * 0.2 * k * R * R,) * 3))
        model.connect(model.world.frame_b, model.children[f"j{k}"].frame_a)
        model.connect(model.children[f"j{k}"].frame_b, body.frame_a)
        body.collide(Sphere(radius=R), mu=0.4, e=0.3)
    model.world.collide(Plane(normal=(0, 1, 0)))
    return jd.compile(model)


# the upper ball dropped from 4·R (an impact, e = 0.3), and placed on the lower one 0.2 rad
# off its top (the pair holds while it rolls over, then opens)
STARTS = {"dropped": {"j1.y": R, "j2.y": 4 * R, "j2.x": 0.4 * R},
          "touching": {"j1.y": R, "j2.y": R + 2 * R * np.cos(0.2), "j2.x": 2 * R * np.sin(0.2)}}


def _run(system, start, dormant_on, monkeypatch):
    monkeypatch.setattr(run, "DORMANT", dormant_on)
    return system.simulate(1.5, contact="stepping", dt=1e-3, n_out=1501, y0=STARTS[start])


@pytest.mark.parametrize("start, held", [("dropped", 1), ("touching", 50)])
def test_dormant_pair_agrees_with_the_full_step(start, held, monkeypatch):
    """The stacked balls with the pair dormant and with every contact in every step: the
    same trajectories to 1e-9 m and 1e-9 m/s and the same ledger (the near step is kept
    only where its result solves the full step's law with the pair's impulse zero); the
    pair did touch (the centres 2·R apart to 2e-6 m, on at least ``held`` outputs 1 ms
    apart) and separated (the upper ball ends on the plane away from the lower one), and
    neither run sinks (ledger ≤ 1e-6 m)."""
    system = _stacked_balls()
    full, tiered = (_run(system, start, on, monkeypatch) for on in (False, True))
    for name in ("j1.x", "j1.y", "j2.x", "j2.y", "j2.z", "j2.vx", "j2.vy", "j1.vx"):
        assert np.max(np.abs(tiered[name] - full[name])) <= 1e-9, name
    for key in ("max_penetration", "complementarity", "max_step_gain", "energy_taken"):
        assert getattr(tiered.ledger, key) == pytest.approx(getattr(full.ledger, key),
                                                            rel=1e-6, abs=1e-9), key
    gap = np.sqrt(sum((tiered[f"j2.{c}"] - tiered[f"j1.{c}"]) ** 2 for c in "xyz")) - 2 * R
    assert np.sum(gap <= 2e-6) >= held
    assert gap[-1] > 0.1 and tiered["j2.y"][-1] == pytest.approx(R, abs=1e-6)
    assert tiered.ledger.max_penetration <= 1e-6
    assert tiered.stats["contacts"] == full.stats["contacts"] == 3


def test_cheetah_contacts_split_into_near_and_far():
    """The dm_control cheetah from its MJCF file: its 6 stops (two sides each) and its 8
    capsules on the floor (two end caps each: 28 contacts) are near, its links' 19 capsule
    pairs are far: the floor's frame is fixed to the world (it does not move with the
    state), the links' frames all move."""
    data = Path(__file__).resolve().parent / "data" / "dm_control" / "cheetah.xml"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        robot = jd.from_mjcf(data, contacts=True, stops=True)
    system = jd.compile(jd.Model.on_world(World(g=robot.gravity), r=robot))
    near, far = dormant.split(system, run._specs(system, ()))
    from jourdain.solver.stepping.scene import ContactSpec, RowSpec
    assert sum(isinstance(s, RowSpec) for s in near) == 12
    assert sum(isinstance(s, ContactSpec) for s in near) == 8
    assert len(far) == 19 and all(isinstance(s, ContactSpec) for s in far)


def test_no_split_without_both_kinds():
    """A scene of world contacts only (a ball on the plane) or of body–body pairs only has
    nothing to leave out or nothing else to run: no split, the full step as before."""
    model = jd.Model(world=World())
    model.add("j", FreeJoint())
    model.add("ball", RigidBody(m=1.0, I=(0.4 * R * R,) * 3))
    model.connect(model.world.frame_b, model.j.frame_a)
    model.connect(model.j.frame_b, model.ball.frame_a)
    model.ball.collide(Sphere(radius=R))
    model.world.collide(Plane(normal=(0, 1, 0)))
    system = jd.compile(model)
    assert dormant.split(system, run._specs(system, ())) is None


def test_tiered_step_keeps_the_near_step_only_where_the_pair_stays_open():
    """The tiered step itself (CasADi's virtual machine, no compiler): with the balls 5·R
    apart it returns the near step's result with the pair's impulses zero, bitwise; with the
    upper ball 1 mm above the lower one falling at 2 m/s (the pair closes within the step)
    it returns the full step's, bitwise, with an impulse on the pair."""
    from jourdain.solver.stepping.step import LEDGER, build_parts
    system = _stacked_balls()
    specs = run._specs(system, ())
    parts, compose, nc = run._tiered_parts(system, specs, run.ITERATIONS, True)
    assert [p.name() for p in parts] == ["kinematics", "sweep", "finish", "kinematics_near",
                                         "sweep_near", "finish_near"]
    tiered, _ = compose(*parts)
    near, far = dormant.split(system, specs)
    full, _ = build_parts(system, near + far, run.ITERATIONS, True)[1](*parts[:3])
    near_step, _ = build_parts(system, near, run.ITERATIONS, True, "_near")[1](*parts[3:])
    u, p, h = np.zeros(0), system.parameters(None), 1e-3
    nx, nl = system.nx, len(LEDGER)

    def acc(y0, z0):
        return np.concatenate([[0.0], system.state(y0, z0), np.zeros(3 * nc + nl)])
    apart = acc({"j1.y": R, "j2.y": 6 * R}, {})
    out = np.asarray(tiered(apart, u, p, h)).ravel()
    short = np.concatenate([apart[:1 + nx + 3 * (nc - 1)], apart[-nl:]])
    ref = np.asarray(near_step(short, u, p, h)).ravel()
    assert np.array_equal(out, np.concatenate([ref[:-nl], np.zeros(3), ref[-nl:]]))
    falling = acc({"j1.y": R, "j2.y": 3 * R + 1e-3}, {"j2.vy": -2.0})
    out = np.asarray(tiered(falling, u, p, h)).ravel()
    assert np.array_equal(out, np.asarray(full(falling, u, p, h)).ravel())
    assert out[1 + nx + 3 * (nc - 1)] > 0          # the pair's normal impulse
