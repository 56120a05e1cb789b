"""Bad input to the hybrid blocks and to the event options of simulate gets a named error
(ModelError, naming the element, parameter or argument), never a bare CasADi or numpy
traceback. Reference: the issue's list (a stop with lower > upper, a restitution outside
[0, 1], a sample period ≤ 0) and the arguments the event loop adds."""
import numpy as np
import pytest
from hybrid_models import ball, pendulum

import jourdain as jd
from jourdain.blocks import World
from jourdain.blocks.hybrid import (
    BearingFriction,
    Clutch,
    DiscretePID,
    GroundContact,
    Latch,
    Stop,
    ZeroOrderHold,
)


@pytest.mark.parametrize("make, match", [
    (lambda: Stop(lower=0.5, upper=0.2), "lower limit .* exceeds upper"),
    (lambda: Stop(lower=0.0, e=1.2), "restitution e must lie in \\[0, 1\\]"),
    (lambda: Stop(lower=0.0, e=-0.1), "restitution e must lie in \\[0, 1\\]"),
    (lambda: Stop(lower=float("nan")), "lower must not be NaN"),
    (lambda: Stop(lower=0.0, law="rigid"), "law must be a StopLaw"),
    (lambda: GroundContact(e=2.0), "restitution"),
    (lambda: GroundContact(normal=(0, 0, 0)), "GroundContact"),
    (lambda: ZeroOrderHold(sample_period=0.0), "sample_period must be positive"),
    (lambda: ZeroOrderHold(sample_period=-1e-3), "sample_period must be positive"),
    (lambda: DiscretePID(sample_period=0), "sample_period must be positive"),
    (lambda: DiscretePID(T_f=-1.0), "T_f must be ≥ 0"),
    (lambda: BearingFriction(peak=0.5), "peak must be ≥ 1"),
    (lambda: BearingFriction(tau_pos=[[1.0, 2.0], [0.5, 3.0]]), "increase"),
    (lambda: Clutch(mu_pos=[[0.0, -0.5]]), "negative"),
    (lambda: Latch(0.0, direction="up"), "direction must be a Direction"),
    (lambda: jd.Event("not callable"), "guard must be a callable"),
    (lambda: jd.Event(lambda v: 0, direction="rising"), "Direction"),
    (lambda: jd.TimeEvent([np.nan]), "times must be finite"),
    (lambda: jd.SampledCallback(0.0, lambda *a: [0], ["u"]), "sample period"),
    (lambda: jd.Impact("floor.lower", e=-1), "restitution"),
])
def test_bad_block_input_is_named(make, match):
    with pytest.raises(jd.ModelError, match=match):
        make()


def test_bad_values_found_at_compile_name_the_element():
    model = jd.Model(world=World())
    joint, _ = pendulum(model)
    model.stop = Stop(lower=-0.5, v_rest=-1.0)
    model.connect(model.stop.flange_b, joint.axis)
    with pytest.raises(jd.ModelError, match="stop: v_rest must be non-negative"):
        jd.compile(model)


@pytest.mark.parametrize("options, match", [
    ({"event_step": 0.0}, "event_step"),
    ({"event_step": -1.0}, "event_step"),
    ({"chatter": 5}, "chatter must be a pair"),
    ({"chatter": (1, 1e-6)}, "chatter n must be at least 2"),
    ({"chatter": (10, -1.0)}, "chatter span"),
    ({"max_events": 0}, "max_events"),
    ({"events": ["apex"]}, "events must be jd.Event or jd.TimeEvent"),
    ({"samplers": [lambda t: 0]}, "SampledCallback"),
    ({"events": [jd.Event(lambda v: v["slide.q"], name="typo")]}, "unknown name 'slide.q'"),
    ({"events": [jd.TimeEvent([0.5], reset=lambda v: {"slide.vv": 0.0})]}, "slide.vv"),
    ({"samplers": [jd.SampledCallback(0.1, lambda *a: [0.0], ["floor.mode"])]}, None),
    ({"samplers": [jd.SampledCallback(0.1, lambda *a: [0.0], ["nothing"])]},
     "neither an input nor"),
])
def test_bad_event_options_are_named(options, match):
    system = jd.compile(ball())
    if match is None:      # a discrete variable may be a sampled target too: no error
        system.simulate(0.2, y0={"slide.s": 1.0}, **options)
        return
    with pytest.raises(jd.ModelError, match=match):
        system.simulate(0.2, y0={"slide.s": 1.0}, **options)


def test_hybrid_rows_refused_under_the_dae_method():
    """A stop in a closed loop needs partitioning: Baumgarte and DAE refuse it by name."""
    from jourdain.blocks import FixedTranslation, Prismatic, Revolute, RigidBody
    model = jd.Model(world=World())
    joint, _ = pendulum(model, "hinge", m=0.5, l=0.6)
    model.tip = FixedTranslation(r=(0.0, -0.6, 0.0))
    model.px, model.py = Prismatic(axis=(1, 0, 0)), Prismatic(axis=(0, 1, 0))
    model.point, model.pin = RigidBody(m=0.5), Revolute(axis=(0, 0, 1))
    model.stop = Stop(lower=-0.3)
    for a, b in ((joint.frame_b, model.tip.frame_a), (model.world.frame_b, model.px.frame_a),
                 (model.px.frame_b, model.py.frame_a), (model.py.frame_b, model.point.frame_a),
                 (model.tip.frame_b, model.pin.frame_a), (model.py.frame_b, model.pin.frame_b),
                 (model.stop.flange_b, joint.axis)):
        model.connect(a, b)
    for method in (jd.ConstraintMethod.DAE, jd.ConstraintMethod.BAUMGARTE):
        with pytest.raises(jd.ModelError, match="stop: .*need ConstraintMethod.PARTITIONING"):
            jd.compile(model, constraints=method)
    system = jd.compile(model)          # partitioning: the stop works in the loop
    res = system.simulate(1.5, x0=system.state({"hinge.phi": 0.5}), n_out=151)
    assert res["hinge.phi"].min() >= -0.3 - 1e-9
    assert len(res.events.select("stop", "hit_lower")) >= 1
