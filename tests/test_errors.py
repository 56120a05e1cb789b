"""Bad input gets a clear error naming the component, port or variable (DESIGN.md §5).
Reference: the message text (each test asserts the name of the part at fault appears)."""
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import (AngleSensor, Constant, Motor, Prismatic,
                             Revolute, RigidBody, SignalBlock, RealInput, RealOutput,
                             ViscousFriction, World)
from jourdain.library import CubeOnEdge, Pendulum

ModelError = jd.ModelError


def _pendulum_model(**body):
    model = jd.Model(world=World())
    model.joint = Revolute()
    model.bob = RigidBody(**({"m": 1.0, "r_cm": (0, -1, 0)} | body))
    model.connect(model.world.frame_b, model.joint.frame_a)
    model.connect(model.joint.frame_b, model.bob.frame_a)
    return model


@pytest.mark.parametrize("body, pattern", [
    ({"m": 0.0}, r"bob: a body with mass m = 0 and inertia I = 0 carries nothing"),
    ({"m": -2.0}, r"bob: mass m must be ≥ 0"),
    ({"I": [[1, 0.5, 0], [0, 1, 0], [0, 0, 1]]}, r"bob: inertia I must be symmetric"),
    ({"I": (1.0, 1.0, -0.1)}, r"bob: inertia I must be positive semi-definite"),
    ({"I": (1.0, 1.0, 3.0)}, r"bob: inertia I violates the triangle inequality"),
])
def test_bad_body_parameters(body, pattern):
    with pytest.raises(ModelError, match=pattern):
        jd.compile(_pendulum_model(**body))


def test_non_numeric_parameter_names_the_parameter():
    with pytest.raises(ModelError, match="RigidBody: m must be a number"):
        RigidBody(m="heavy")


@pytest.mark.parametrize("axis", [(0, 0, 0), (np.nan, 0, 1)])
def test_zero_joint_axis(axis):
    with pytest.raises(ModelError, match="Revolute: axis must be a non-zero"):
        Revolute(axis=axis)
    with pytest.raises(ModelError, match="Prismatic: axis must be a non-zero"):
        Prismatic(axis=axis)


def test_dangling_frame_is_named():
    model = _pendulum_model()
    model.extra = Revolute()
    model.connect(model.joint.frame_b, model.extra.frame_a)
    with pytest.raises(ModelError, match=r"extra\.frame_b is not connected"):
        jd.compile(model)


def test_no_world_and_two_worlds():
    model = jd.Model(p=Pendulum())
    with pytest.raises(ModelError, match="no World"):
        jd.compile(model)
    model = jd.Model.on_world(World(), p=Pendulum())
    model.other = World()
    with pytest.raises(ModelError, match=r"2 World components \(world, other\)"):
        jd.compile(model)


def test_body_without_path_to_world():
    model = _pendulum_model()
    model.floating = RigidBody(m=1.0)
    model.hinge = Revolute()
    model.connect(model.hinge.frame_b, model.floating.frame_a)
    model.lonely = RigidBody(m=1.0)
    model.connect(model.hinge.frame_a, model.lonely.frame_a)
    with pytest.raises(ModelError, match=r"(floating|hinge|lonely) has no chain of joints to the "
                                         r"world"):
        jd.compile(model)


def test_doubled_hinge_loop_is_explained():
    """Two coaxial hinges between the world and one body close a loop whose 5 closure
    equations are all redundant; the report names the cut joint and says so."""
    model = _pendulum_model()
    model.second = Revolute()
    model.connect(model.world.frame_b, model.second.frame_a)
    model.connect(model.second.frame_b, model.bob.frame_a)
    report = jd.compile(model).report()
    assert "closing the loop joint, second" in report
    assert "5 equations are redundant" in report


def test_incompatible_ports():
    model = _pendulum_model()
    model.slider = Prismatic()
    with pytest.raises(ModelError, match=r"cannot connect .*frame_a to .*axis"):
        model.connect(model.bob.frame_a, model.joint.axis)
    with pytest.raises(ModelError, match="rotational flange cannot be connected to a translational"):
        model.connect(model.joint.axis, model.slider.axis)
    with pytest.raises(ModelError, match="expected port objects"):
        model.connect("joint.axis", model.joint.axis)


def test_same_instance_twice_and_foreign_ports():
    body = RigidBody(m=1.0)
    model = jd.Model(world=World(), a=body)
    model.b = body
    with pytest.raises(ModelError, match="appears twice, as 'a' and 'b'"):
        jd.compile(model)
    model = _pendulum_model()
    stranger = Revolute()
    model.connect(model.bob.frame_a, stranger.frame_a)
    with pytest.raises(ModelError, match="not part of the model"):
        jd.compile(model)


def test_force_element_with_no_flange_connected():
    model = _pendulum_model()
    model.damper = ViscousFriction(d=1.0)
    with pytest.raises(ModelError, match="damper: neither flange_a nor flange_b is connected"):
        jd.compile(model)


def test_negative_damping():
    model = _pendulum_model()
    model.damper = ViscousFriction(d=-1.0)
    model.connect(model.damper.flange_b, model.joint.axis)
    with pytest.raises(ModelError, match="damper: d must be non-negative"):
        jd.compile(model)


def test_two_outputs_driving_one_input():
    model = jd.Model.on_world(World(), cube=CubeOnEdge())
    model.c1, model.c2 = Constant(k=1.0), Constant(k=2.0)
    model.connect(model.c1.y, model.cube.motor.tau)
    model.connect(model.c2.y, model.cube.motor.tau)
    with pytest.raises(ModelError, match=r"signal outputs c1\.y, c2\.y are connected together"):
        jd.compile(model)


class _Echo(SignalBlock):
    """y = u: a direct feedthrough used to build an algebraic loop."""

    def __init__(self):
        self.u, self.y = RealInput(self, "u"), RealOutput(self, "y")

    def outputs(self, ctx):
        return {self.y: ctx.value(self.u)}


def test_algebraic_loop_is_named():
    model = _pendulum_model()
    model.a, model.b = _Echo(), _Echo()
    model.connect(model.a.y, model.b.u)
    model.connect(model.b.y, model.a.u)
    with pytest.raises(ModelError, match=r"algebraic loop through signal blocks (a -> b -> a|b -> a -> b)"):
        jd.compile(model)


def test_singular_mass_matrix_names_the_speed():
    model = _pendulum_model()
    model.idle = Revolute()
    model.connect(model.bob.frame_a, model.idle.frame_a)
    model.tip = RigidBody(m=1.0)  # on the idle joint's axis: no inertia about it
    model.connect(model.idle.frame_b, model.tip.frame_a)
    with pytest.raises(ModelError, match=r"mass matrix is singular: speed\(s\) idle\.w"):
        jd.compile(model)


def test_unknown_names():
    system = jd.compile(jd.Model.on_world(World(), cube=CubeOnEdge()))
    with pytest.raises(ModelError, match=r"y0: unknown name 'cube.edge.ph'; did you mean cube.edge.phi"):
        system.simulate(1.0, y0={"cube.edge.ph": 0.1})
    with pytest.raises(ModelError, match=r"z0: unknown name 'cube.edge.phi'"):
        system.simulate(1.0, z0={"cube.edge.phi": 0.1})
    with pytest.raises(ModelError, match=r"inputs: unknown name 'cube.motor.torque'"):
        system.simulate(1.0, inputs={"cube.motor.torque": 0.1})
    with pytest.raises(ModelError, match=r"'cube.housing.m' was compiled as a constant"):
        system.simulate(1.0, params={"cube.housing.m": 0.1})
    with pytest.raises(ModelError, match=r"parameters: no parameter or component named 'cube.hosing'"):
        jd.compile(jd.Model.on_world(World(), cube=CubeOnEdge()), parameters=["cube.hosing"])


@pytest.mark.parametrize("speeds, pattern", [
    ({"u1": "cube.edge.phii.der"}, r"'u1' uses unknown name 'cube.edge.phii.der'"),
    ({"u1": "cube.edge.phi.der**2"}, r"'u1' .* is not linear in the speeds"),
    ({"u1": "cube.edge.phi"}, r"'u1' .* involves no speed"),
    ({"u1": "cube.edge.w", "u2": "2*cube.edge.w"}, r"u1, u2 are not independent"),
    ({"u1": "cube.edge.w", "u2": "cube.bearing.w", "u3": "cube.edge.w"}, r"3 speeds given"),
    ({"u1": "import os"}, r"'u1' .* is not a valid expression"),
    ({"u1": "cube.edge.w[0]"}, r"unsupported syntax"),
])
def test_bad_speed_definitions(speeds, pattern):
    with pytest.raises(ModelError, match=pattern):
        jd.compile(jd.Model.on_world(World(), cube=CubeOnEdge()), speeds=speeds)


def test_bad_input_specifications():
    system = jd.compile(jd.Model.on_world(World(), cube=CubeOnEdge()))
    with pytest.raises(ModelError, match="inputs: 'cube.motor.tau' must be a finite number"):
        system.simulate(1.0, inputs={"cube.motor.tau": "fast"})
    with pytest.raises(ModelError, match="the table for 'cube.motor.tau' needs increasing times"):
        system.simulate(1.0, inputs={"cube.motor.tau": ([0, 0], [1, 2])})
    with pytest.raises(ModelError, match="calling the function given for 'cube.motor.tau' failed"):
        system.simulate(1.0, inputs={"cube.motor.tau": lambda t: 1 / 0})
    with pytest.raises(ModelError, match="t_end"):
        system.simulate(-1.0)


def test_integrator_failure_reports_time_state_and_cause():
    """A huge motor torque spins the wheel up beyond what CVODES can follow in max_steps."""
    system = jd.compile(jd.Model.on_world(World(), cube=CubeOnEdge()))
    with pytest.raises(jd.SimulationError, match=r"integration failed after t = .* s \(last good "
                                                 r"state: cube.edge.phi=.*likely cause"):
        system.simulate(2.0, y0={"cube.edge.phi": 0.1}, max_steps=20, n_out=5)


def test_sensor_must_be_connected():
    model = _pendulum_model()
    model.sensor = AngleSensor()
    with pytest.raises(ModelError, match=r"sensor\.flange is not connected"):
        jd.compile(model)


def test_motor_input_wired_to_a_source_is_not_a_system_input():
    model = jd.Model.on_world(World(), cube=CubeOnEdge())
    model.source = Constant(k=0.01)
    model.connect(model.source.y, model.cube.motor.tau)
    assert jd.compile(model).u_names == []
    assert isinstance(Motor().tau, RealInput)
