"""The catalogue of bad inputs a new user tries at every public entry point, each with the
jourdain error it must get and the names that error must contain (the component's instance
path, the port, variable or argument at fault).

Used by tests/test_bad_input.py (one test per case) and tests/bad_input_census.py (counts of
named errors, unnamed errors, raw exceptions, silent acceptance and hangs, with a time limit
per case). Each case is a callable that performs the bad call; the systems it needs are built
once and shared (functools.cache), problems and models afresh per case.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

import jourdain as jd
from jourdain.blocks import (PID, Add, AttitudeError, Composite, CoulombFriction, Demux,
                             FixedRotation, FixedTranslation, Gain, Motor, Mux, Prismatic,
                             Revolute, RigidBody, Saturation, Sine, Spherical, StateFeedback,
                             Step, Table, ViscousFriction, World)
from jourdain.library import CubeOnEdge, FourBar, NLinkPendulum, Pendulum

ModelError, SimulationError = jd.ModelError, jd.SimulationError
NAN, INF = float("nan"), float("inf")
PHI, W, TAU, MASS = "cube.edge.phi", "cube.edge.w", "cube.motor.tau", "cube.housing.m"


@dataclass(frozen=True)
class Case:
    """A bad call, the error family it must raise and the names its message must contain."""

    id: str
    call: object
    error: type
    names: tuple


CASES: list[Case] = []


def case(id: str, error: type, *names: str):
    def register(call):
        CASES.append(Case(id, call, error, names))
        return call
    return register


# ---- shared systems ------------------------------------------------------------------------
def cube_model():
    return jd.Model.on_world(World(), cube=CubeOnEdge())


@functools.cache
def cube():
    """The reaction-wheel cube with a symbolic housing mass: 2 coordinates, 1 input."""
    return jd.compile(cube_model(), parameters=[MASS])


@functools.cache
def cube_lin():
    return jd.linearize(cube())


@functools.cache
def pendulum_lin():
    """A linearization without inputs."""
    return jd.linearize(jd.compile(jd.Model.on_world(World(), pendulum=Pendulum())))


@functools.cache
def four_bar():
    return jd.compile(jd.Model.on_world(World(), fb=FourBar()))


def pendulum_model(**body):
    model = jd.Model(world=World())
    model.joint = Revolute()
    model.bob = RigidBody(**({"m": 1.0, "r_cm": (0, -1, 0)} | body))
    model.connect(model.world.frame_b, model.joint.frame_a)
    model.connect(model.joint.frame_b, model.bob.frame_a)
    return model


def problem():
    return jd.TrajectoryProblem(cube(), 1.0, intervals=5)


# ---- models, wiring and compile ------------------------------------------------------------
@case("joint frames connected to each other", ModelError, "joint", "frame_a", "frame_b")
def _():
    model = pendulum_model()
    model.connect(model.joint.frame_a, model.joint.frame_b)
    jd.compile(model)


class _Mismatched(Composite):
    def __init__(self):
        super().__init__()
        self.state = Mux(1, 1)
        self.controller = StateFeedback(np.ones((1, 3)))
        self.connect(self.state.y, self.controller.x)


@case("connect in a composite names instances, not classes", ModelError, "state.y",
      "controller.x")
def _():
    _Mismatched()


@case("connect frame to flange names instances", ModelError, "bob.frame_a", "joint.axis")
def _():
    model = pendulum_model()
    model.connect(model.bob.frame_a, model.joint.axis)


@case("connect a string", ModelError, "connect", "joint.axis")
def _():
    model = pendulum_model()
    model.connect("joint.axis", model.joint.axis)


@case("expose under a name that is no identifier", ModelError, "frame a")
def _():
    model = pendulum_model()
    model.expose(model.joint.frame_b, "frame a")


@case("expose under a non-string name", ModelError, "expose")
def _():
    model = pendulum_model()
    model.expose(model.joint.frame_b, 5)


@case("expose twice under one name", ModelError, "tip")
def _():
    model = pendulum_model()
    model.expose(model.joint.frame_b, "tip")
    model.expose(model.bob.frame_a, "tip")


@case("expose a non-port", ModelError, "expose")
def _():
    pendulum_model().expose("joint.frame_b", "tip")


@case("a component class instead of an instance", ModelError, "cube", "CubeOnEdge()")
def _():
    jd.Model(world=World(), cube=CubeOnEdge)


@case("a string as a child", ModelError, "world")
def _():
    jd.Model(world="earth")


@case("add a non-component", ModelError, "spring")
def _():
    pendulum_model().add("spring", 5.0)


@case("add under a dotted name", ModelError, "a.b")
def _():
    pendulum_model().add("a.b", RigidBody())


@case("two children under one name", ModelError, "bob")
def _():
    model = pendulum_model()
    model.bob = RigidBody()


@case("one instance used twice", ModelError, "a", "b")
def _():
    body = RigidBody()
    model = jd.Model(world=World(), a=body)
    model.b = body
    jd.compile(model)


@case("on_world without a World", ModelError, "on_world", "world")
def _():
    jd.Model.on_world(Pendulum(), p=Pendulum())


@case("on_world child without frame_a", ModelError, "motor", "frame_a")
def _():
    jd.Model.on_world(World(), motor=Motor())


@case("a model without World", ModelError, "World")
def _():
    jd.compile(jd.Model(p=Pendulum()))


@case("an empty model", ModelError, "World")
def _():
    jd.compile(jd.Model())


@case("two Worlds", ModelError, "world", "other")
def _():
    model = jd.Model.on_world(World(), p=Pendulum())
    model.other = World()
    jd.compile(model)


@case("compile None", ModelError, "compile")
def _():
    jd.compile(None)


@case("compile the Model class", ModelError, "compile")
def _():
    jd.compile(jd.Model)


@case("compile a primitive", ModelError, "compile")
def _():
    jd.compile(World())


@case("dangling frame", ModelError, "extra.frame_b")
def _():
    model = pendulum_model()
    model.extra = Revolute()
    model.connect(model.joint.frame_b, model.extra.frame_a)
    jd.compile(model)


@case("speeds as a list", ModelError, "speeds")
def _():
    jd.compile(cube_model(), speeds=[W])


@case("speeds as a string", ModelError, "speeds")
def _():
    jd.compile(cube_model(), speeds=W)


@case("speeds with a non-string key", ModelError, "speeds", "1")
def _():
    jd.compile(cube_model(), speeds={1: W})


@case("speeds with a non-string definition", ModelError, "u1")
def _():
    jd.compile(cube_model(), speeds={"u1": 5})


@case("affine speed (constant)", ModelError, "u1", "cube.edge.w + 1")
def _():
    jd.compile(cube_model(), speeds={"u1": "cube.edge.w + 1"})


@case("affine speed (coordinate term)", ModelError, "u1")
def _():
    jd.compile(cube_model(), speeds={"u1": "cube.edge.w + sin(cube.edge.phi)"})


@case("speed named like a coordinate", ModelError, PHI)
def _():
    jd.compile(cube_model(), speeds={PHI: W})


@case("speed named like a completing joint speed", ModelError, "cube.bearing.w")
def _():
    jd.compile(cube_model(), speeds={"cube.bearing.w": W})


@case("speed named like an input", ModelError, TAU)
def _():
    jd.compile(cube_model(), speeds={TAU: W})


@case("speed with an empty name", ModelError, "speeds")
def _():
    jd.compile(cube_model(), speeds={"": W})


@case("nonlinear speed", ModelError, "u1")
def _():
    jd.compile(cube_model(), speeds={"u1": "cube.edge.w**2"})


@case("dependent speeds", ModelError, "u1", "u2")
def _():
    jd.compile(cube_model(), speeds={"u1": W, "u2": "2*cube.edge.w"})


@case("parameters as a bare string", ModelError, "parameters", MASS)
def _():
    jd.compile(cube_model(), parameters=MASS)


@case("parameters with a non-string entry", ModelError, "parameters")
def _():
    jd.compile(cube_model(), parameters=[1.0])


@case("parameters as a dict of values", ModelError, "parameters", "params")
def _():
    jd.compile(cube_model(), parameters={MASS: 2.0})


@case("unknown parameter", ModelError, "cube.hosing")
def _():
    jd.compile(cube_model(), parameters=["cube.hosing"])


@case("formulation as a string", ModelError, "formulation")
def _():
    jd.compile(cube_model(), formulation="lagrange")


@case("backend as a string", ModelError, "backend", "Backend")
def _():
    jd.compile(cube_model(), backend="recursive")


@case("constraints as a string on a tree", ModelError, "constraints")
def _():
    jd.compile(cube_model(), constraints="dae")


@case("constraints as a string on a loop", ModelError, "constraints")
def _():
    jd.compile(jd.Model.on_world(World(), fb=FourBar()), constraints="dae")


@case("baumgarte not a pair", ModelError, "baumgarte")
def _():
    jd.compile(cube_model(), baumgarte=5.0)


@case("codegen not a bool", ModelError, "codegen")
def _():
    jd.compile(cube_model(), codegen="yes")


@case("unknown compile keyword", ModelError, "parameter", "parameters")
def _():
    jd.compile(cube_model(), parameter=[MASS])


@case("negative mass", ModelError, "bob", "m")
def _():
    jd.compile(pendulum_model(m=-2.0))


@case("massless joint", ModelError, "idle.w")
def _():
    model = pendulum_model()
    model.idle = Revolute()
    model.connect(model.bob.frame_a, model.idle.frame_a)
    model.tip = RigidBody(m=1.0)
    model.connect(model.idle.frame_b, model.tip.frame_a)
    jd.compile(model)


@case("negative damping", ModelError, "damper", "d")
def _():
    model = pendulum_model()
    model.damper = ViscousFriction(d=-1.0)
    model.connect(model.damper.flange_b, model.joint.axis)
    jd.compile(model)


@case("zero Coulomb regularization", ModelError, "friction", "w_eps")
def _():
    model = pendulum_model()
    model.friction = CoulombFriction(mu=0.1, N=1.0, w_eps=0.0)
    model.connect(model.friction.flange_b, model.joint.axis)
    jd.compile(model)


# ---- component constructors ----------------------------------------------------------------
@case("axis as a string", ModelError, "Revolute", "axis")
def _():
    Revolute(axis="z")


@case("zero axis", ModelError, "Prismatic", "axis")
def _():
    Prismatic(axis=(0, 0, 0))


@case("inertia as a string", ModelError, "RigidBody", "I")
def _():
    RigidBody(I="large")


@case("inertia with NaN", ModelError, "RigidBody", "I")
def _():
    RigidBody(I=(NAN, 1.0, 1.0))


@case("mass NaN", ModelError, "RigidBody", "m")
def _():
    RigidBody(m=NAN)


@case("center of mass of two entries", ModelError, "RigidBody", "r_cm")
def _():
    RigidBody(r_cm=(1.0, 2.0))


@case("gravity as a string", ModelError, "World", "g")
def _():
    World(g="down")


@case("damping as a string", ModelError, "ViscousFriction", "d")
def _():
    ViscousFriction(d="some")


@case("fixed translation with inf", ModelError, "FixedTranslation", "r")
def _():
    FixedTranslation(r=(INF, 0, 0))


@case("fixed rotation angle as a string", ModelError, "FixedRotation", "angle")
def _():
    FixedRotation(angle="right")


@case("table with NaN time", ModelError, "Table", "t")
def _():
    Table([0.0, NAN, 2.0], [1.0, 2.0, 3.0])


@case("table with NaN value", ModelError, "Table", "y")
def _():
    Table([0.0, 1.0], [1.0, NAN])


@case("table of strings", ModelError, "Table")
def _():
    Table("abc", "def")


@case("step at NaN", ModelError, "Step", "t_step")
def _():
    Step(t_step=NAN)


@case("ragged gain", ModelError, "Gain", "K")
def _():
    Gain([[1.0, 2.0], [3.0]])


@case("mux size as a string", ModelError, "Mux")
def _():
    Mux("a")


@case("mux size zero", ModelError, "Mux")
def _():
    Mux(0)


@case("demux fractional size", ModelError, "Demux")
def _():
    Demux(1.5)


@case("add gain as a string", ModelError, "Add", "k1")
def _():
    Add(k1="x")


@case("add of size zero", ModelError, "Add", "size")
def _():
    Add(size=0)


@case("saturation of size zero", ModelError, "Saturation", "size")
def _():
    Saturation(1.0, size=0)


@case("saturation lower above upper", ModelError, "Saturation", "lower")
def _():
    Saturation(1.0, lower=2.0)


@case("PID filter time zero", ModelError, "PID", "T_f")
def _():
    PID(T_f=0.0)


@case("state feedback reference of wrong size", ModelError, "StateFeedback", "x_ref")
def _():
    StateFeedback(np.ones((1, 3)), x_ref=[1.0, 2.0])


@case("attitude reference not a rotation", ModelError, "AttitudeError", "R_ref")
def _():
    AttitudeError(R_ref=np.eye(2))


@case("chain of zero links", ModelError, "NLinkPendulum", "n")
def _():
    NLinkPendulum(0)


@case("free time as a string", ModelError, "FreeTime", "guess")
def _():
    jd.FreeTime("two")


@case("free time NaN", ModelError, "FreeTime")
def _():
    jd.FreeTime(NAN)


# ---- System.state, parameters, numeric ----------------------------------------------------
@case("state y0 as an array", ModelError, "y0")
def _():
    cube().state(np.array([0.1, 0.0]))


@case("state y0 as a list", ModelError, "y0")
def _():
    cube().state([0.1])


@case("state y0 with NaN", ModelError, PHI)
def _():
    cube().state({PHI: NAN})


@case("state y0 value as a string", ModelError, PHI)
def _():
    cube().state({PHI: "small"})


@case("state z0 with inf", ModelError, W)
def _():
    cube().state(z0={W: INF})


@case("state y0 with a non-string key", ModelError, "y0")
def _():
    cube().state({0: 0.1})


@case("state y0 unknown name", ModelError, "cube.edge.ph", PHI)
def _():
    cube().state({"cube.edge.ph": 0.1})


@case("params NaN", ModelError, MASS)
def _():
    cube().parameters({MASS: NAN})


@case("params value as a string", ModelError, MASS)
def _():
    cube().parameters({MASS: "heavy"})


@case("params as a list", ModelError, "params")
def _():
    cube().parameters([1.0])


@case("params of a constant", ModelError, "cube.wheel.m")
def _():
    cube().parameters({"cube.wheel.m": 1.0})


@case("numeric of an unknown function", ModelError, "g")
def _():
    cube().numeric("g")


# ---- simulate ------------------------------------------------------------------------------
@case("simulate('5')", ModelError, "t_end")
def _():
    cube().simulate("5")


@case("simulate(inf) (hang)", ModelError, "t_end")
def _():
    cube().simulate(INF)


@case("simulate(NaN)", ModelError, "t_end")
def _():
    cube().simulate(NAN)


@case("simulate(None)", ModelError, "t_end")
def _():
    cube().simulate(None)


@case("t_end before t0", ModelError, "t_end")
def _():
    cube().simulate(-1.0)


@case("t0 NaN", ModelError, "t0")
def _():
    cube().simulate(1.0, t0=NAN)


@case("NaN in t_out (hang)", ModelError, "t_out")
def _():
    cube().simulate(1.0, t_out=[0.0, NAN, 1.0])


@case("inf in t_out", ModelError, "t_out")
def _():
    cube().simulate(1.0, t_out=[0.0, 1.0, INF])


@case("t_out as a string", ModelError, "t_out")
def _():
    cube().simulate(1.0, t_out="0 1 2")


@case("t_out decreasing", ModelError, "t_out")
def _():
    cube().simulate(1.0, t_out=[1.0, 0.0])


@case("n_out = 2.5", ModelError, "n_out")
def _():
    cube().simulate(1.0, n_out=2.5)


@case("n_out as a string", ModelError, "n_out")
def _():
    cube().simulate(1.0, n_out="10")


@case("n_out = 1", ModelError, "n_out")
def _():
    cube().simulate(1.0, n_out=1)


@case("negative rtol", ModelError, "rtol")
def _():
    cube().simulate(1.0, rtol=-1e-6)


@case("rtol = 2.5", ModelError, "rtol")
def _():
    cube().simulate(1.0, rtol=2.5)


@case("rtol NaN", ModelError, "rtol")
def _():
    cube().simulate(1.0, rtol=NAN)


@case("rtol as a string", ModelError, "rtol")
def _():
    cube().simulate(1.0, rtol="1e-6")


@case("negative atol", ModelError, "atol")
def _():
    cube().simulate(1.0, atol=-1.0)


@case("max_steps = 0", ModelError, "max_steps")
def _():
    cube().simulate(1.0, max_steps=0)


@case("max_steps = 2.5", ModelError, "max_steps")
def _():
    cube().simulate(1.0, max_steps=2.5)


@case("method as a string", ModelError, "method")
def _():
    cube().simulate(1.0, method="bdf")


@case("method AUTO as a string", ModelError, "method", "Method.AUTO")
def _():
    cube().simulate(1.0, method="auto")


@case("stiff as a string", ModelError, "stiff")
def _():
    cube().simulate(1.0, stiff="yes")


@case("linear_solver as a string", ModelError, "linear_solver", "LinearSolver.DENSE")
def _():
    cube().simulate(1.0, linear_solver="lapacklu")


@case("linear_solver a Method", ModelError, "linear_solver")
def _():
    cube().simulate(1.0, method=jd.Method.BDF, linear_solver=jd.Method.BDF)


@case("x0 of length 1", ModelError, "x0")
def _():
    cube().simulate(1.0, x0=[0.1])


@case("x0 with NaN", ModelError, "cube.bearing.w")
def _():
    cube().simulate(1.0, x0=[0.1, 0.0, 0.0, NAN])


@case("x0 together with y0", ModelError, "x0", "y0")
def _():
    cube().simulate(1.0, x0=[0.1, 0.0, 0.0, 0.0], y0={PHI: 0.2})


@case("x0 as a string", ModelError, "x0")
def _():
    cube().simulate(1.0, x0="zero")


@case("y0 as an array", ModelError, "y0")
def _():
    cube().simulate(1.0, y0=np.array([0.1, 0.0]))


@case("y0 with NaN", ModelError, PHI)
def _():
    cube().simulate(1.0, y0={PHI: NAN})


@case("inputs as a number", ModelError, "inputs")
def _():
    cube().simulate(1.0, inputs=0.5)


@case("input NaN", ModelError, TAU)
def _():
    cube().simulate(1.0, inputs={TAU: NAN})


@case("input callable returning NaN later", ModelError, TAU)
def _():
    cube().simulate(1.0, inputs={TAU: lambda t: 0.0 if t < 0.5 else NAN})


@case("input table with NaN", ModelError, TAU)
def _():
    cube().simulate(1.0, inputs={TAU: ([0.0, 1.0], [0.0, NAN])})


@case("input as a string", ModelError, TAU)
def _():
    cube().simulate(1.0, inputs={TAU: "fast"})


@case("input callable failing", ModelError, TAU)
def _():
    cube().simulate(1.0, inputs={TAU: lambda t: 1 / 0})


@case("unknown input", ModelError, "cube.motor.torque")
def _():
    cube().simulate(1.0, inputs={"cube.motor.torque": 0.1})


@case("params NaN in simulate", ModelError, MASS)
def _():
    cube().simulate(1.0, params={MASS: NAN})


@case("negative symbolic mass", ModelError, "cube.housing", "m", "positive")
def _():
    cube().simulate(1.0, params={MASS: -1.0})


@case("unknown simulate keyword", ModelError, "y_0", "y0")
def _():
    cube().simulate(1.0, y_0={PHI: 0.1})


@case("user speed singular at the initial state", ModelError, "u1")
def _():
    system = jd.compile(cube_model(), speeds={"u1": "cos(cube.edge.phi)*cube.edge.w"})
    system.simulate(1.0, y0={PHI: np.pi / 2})


@case("user speed singular during the motion", SimulationError, "u1")
def _():
    system = jd.compile(cube_model(), speeds={"u1": "cos(cube.edge.phi)*cube.edge.w"})
    system.simulate(3.0, y0={PHI: 0.3}, n_out=31)


@case("integrator gives up", SimulationError, "t = ", PHI)
def _():
    cube().simulate(2.0, y0={PHI: 0.1}, max_steps=20, n_out=5)


# ---- constrained systems -------------------------------------------------------------------
@case("four-bar state y0 with NaN", ModelError, "fb.crank.phi")
def _():
    four_bar().state({"fb.crank.phi": NAN})


@case("four-bar state y0 as a list", ModelError, "y0")
def _():
    four_bar().state([1.0])


@case("four-bar state z0 value as a string", ModelError, "fb.crank.w")
def _():
    four_bar().state(z0={"fb.crank.w": "fast"})


@case("four-bar assemble y0 as a string", ModelError, "y0")
def _():
    four_bar().assemble("fb.crank.phi")


@case("four-bar assemble params as a list", ModelError, "params")
def _():
    four_bar().assemble(params=[1.0])


@case("four-bar simulate(inf)", ModelError, "t_end")
def _():
    four_bar().simulate(INF)


@case("four-bar negative rtol", ModelError, "rtol")
def _():
    four_bar().simulate(1.0, rtol=-1.0)


@case("four-bar x0 of wrong length", ModelError, "x0")
def _():
    four_bar().simulate(1.0, x0=[1.0])


@case("four-bar x0 with NaN", ModelError, "fb.crank.w")
def _():
    four_bar().simulate(1.0, x0=[1.0, 0.0, 0.0, NAN])


@case("four-bar unknown keyword", ModelError, "z_0")
def _():
    four_bar().simulate(1.0, z_0={"fb.crank.w": 1.0})


@case("four-bar dependent coordinate out of reach", ModelError, "fb.rocker.phi")
def _():
    four_bar().state({"fb.rocker.phi": 3.0, "fb.crank.phi": 0.0})


# ---- linearize, lqr, place -----------------------------------------------------------------
@case("linearize an uncompiled Model", ModelError, "linearize", "jd.compile")
def _():
    jd.linearize(cube_model())


@case("linearize a string", ModelError, "linearize")
def _():
    jd.linearize("cube")


@case("linearize x0 with NaN", ModelError, W)
def _():
    jd.linearize(cube(), x0=[0.0, 0.0, NAN, 0.0])


@case("linearize y0 with NaN", ModelError, PHI)
def _():
    jd.linearize(cube(), y0={PHI: NAN})


@case("linearize u0 NaN", ModelError, TAU)
def _():
    jd.linearize(cube(), u0={TAU: NAN})


@case("linearize u0 as a list", ModelError, "u0")
def _():
    jd.linearize(cube(), u0=[0.0])


@case("linearize u0 unknown", ModelError, "cube.motor.torque")
def _():
    jd.linearize(cube(), u0={"cube.motor.torque": 0.0})


@case("linearize t NaN", ModelError, "linearize", "t")
def _():
    jd.linearize(cube(), t=NAN)


@case("linearize params NaN", ModelError, MASS)
def _():
    jd.linearize(cube(), params={MASS: NAN})


@case("linearize x0 too short", ModelError, "x0")
def _():
    jd.linearize(cube(), x0=[0.0])


@case("linearize unknown keyword", ModelError, "u_0", "u0")
def _():
    jd.linearize(cube(), u_0={TAU: 0.0})


@case("lqr without inputs", ModelError, "lqr", "inputs")
def _():
    jd.lqr(pendulum_lin(), 1.0, 1.0)


@case("place without inputs", ModelError, "place", "inputs")
def _():
    jd.place(pendulum_lin(), [-1.0, -2.0])


@case("lqr on a System", ModelError, "lqr", "LinearSystem")
def _():
    jd.lqr(cube(), 1.0, 1.0)


@case("lqr Q with NaN", ModelError, "Q")
def _():
    jd.lqr(cube_lin(), [1.0, NAN, 1.0, 1.0], 1.0)


@case("lqr Q of wrong shape", ModelError, "Q")
def _():
    jd.lqr(cube_lin(), np.eye(3), 1.0)


@case("lqr R zero", ModelError, "R")
def _():
    jd.lqr(cube_lin(), 1.0, 0.0)


@case("lqr R dict with a string", ModelError, TAU)
def _():
    jd.lqr(cube_lin(), 1.0, {TAU: "cheap"})


@case("lqr Q dict unknown name", ModelError, "cube.edge.psi")
def _():
    jd.lqr(cube_lin(), {"cube.edge.psi": 1.0}, 1.0)


@case("place poles as a string", ModelError, "place", "poles")
def _():
    jd.place(cube_lin(), "fast")


@case("place poles with NaN", ModelError, "place", "poles")
def _():
    jd.place(cube_lin(), [NAN, -2.0, -3.0])


@case("place wrong number of poles", ModelError, "place")
def _():
    jd.place(cube_lin(), [-1.0])


@case("place on a System", ModelError, "place", "LinearSystem")
def _():
    jd.place(cube(), [-1.0, -2.0, -3.0])


# ---- trajectory optimization ---------------------------------------------------------------
@case("trajectory problem on a Model", ModelError, "TrajectoryProblem", "jd.compile")
def _():
    jd.TrajectoryProblem(cube_model(), 1.0)


@case("horizon NaN", ModelError, "horizon")
def _():
    jd.TrajectoryProblem(cube(), NAN)


@case("horizon negative", ModelError, "horizon")
def _():
    jd.TrajectoryProblem(cube(), -1.0)


@case("intervals 2.5", ModelError, "intervals")
def _():
    jd.TrajectoryProblem(cube(), 1.0, intervals=2.5)


@case("intervals as a string", ModelError, "intervals")
def _():
    jd.TrajectoryProblem(cube(), 1.0, intervals="10")


@case("trajectory t0 inf", ModelError, "t0")
def _():
    jd.TrajectoryProblem(cube(), 1.0, t0=INF)


@case("trajectory params NaN", ModelError, MASS)
def _():
    jd.TrajectoryProblem(cube(), 1.0, params={MASS: NAN})


@case("bound with a non-string name", ModelError, "bound", "5")
def _():
    problem().bound(5, 0.0, 1.0)


@case("bound unknown name", ModelError, "cube.motor.torque")
def _():
    problem().bound("cube.motor.torque", -1.0, 1.0)


@case("bound lower as a string", ModelError, TAU)
def _():
    problem().bound(TAU, "low", 1.0)


@case("bound lower above upper", ModelError, TAU)
def _():
    problem().bound(TAU, 1.0, -1.0)


@case("bound a parameter", ModelError, MASS, "free_parameter")
def _():
    problem().bound(MASS, 0.0, 1.0)


@case("initial as a list", ModelError, "initial")
def _():
    problem().initial([0.0, 0.0])


@case("initial with a non-string key", ModelError, "initial", "0")
def _():
    problem().initial({0: 0.0})


@case("initial NaN", ModelError, PHI)
def _():
    problem().initial({PHI: NAN})


@case("final value as a string", ModelError, PHI)
def _():
    problem().final({PHI: "up"})


@case("final unknown name", ModelError, "cube.edge.ph")
def _():
    problem().final({"cube.edge.ph": 0.0})


@case("free_parameter with a non-string name", ModelError, "free_parameter")
def _():
    problem().free_parameter(3)


@case("free_parameter unknown", ModelError, "cube.housing.mass")
def _():
    problem().free_parameter("cube.housing.mass", 0.1, 1.0)


@case("free_parameter guess outside its bounds", ModelError, MASS)
def _():
    problem().free_parameter(MASS, 0.5, 1.0, guess=2.0)


@case("path_constraint not callable", ModelError, "path_constraint")
def _():
    problem().path_constraint(TAU, -1.0, 1.0)


@case("path_constraint with a non-string name", ModelError, "path_constraint", "name")
def _():
    problem().path_constraint(lambda v: v[TAU], -1.0, 1.0, name=3)


@case("integral_cost not callable", ModelError, "integral_cost")
def _():
    problem().integral_cost(1.0)


@case("path constraint returning a string", ModelError, "path_constraint 'limit'")
def _():
    ocp = problem()
    ocp.path_constraint(lambda v: "tau", -1.0, 1.0, name="limit")
    ocp.solve()


@case("integral cost with an unknown name", ModelError, "cube.motor.torque")
def _():
    ocp = problem()
    ocp.integral_cost(lambda v: v["cube.motor.torque"] ** 2)
    ocp.solve()


@case("terminal cost of an input", ModelError, "terminal cost", TAU)
def _():
    ocp = problem()
    ocp.terminal_cost(lambda v: v[TAU] ** 2)
    ocp.solve()


@case("solve with a string transcription", ModelError, "transcription")
def _():
    problem().solve("collocation")


@case("solve with a string guess", ModelError, "guess")
def _():
    problem().solve(guess="zero")


@case("solve with a NaN guess", ModelError, "guess", PHI)
def _():
    problem().solve(guess={PHI: NAN})


@case("solve tol negative", ModelError, "tol")
def _():
    problem().solve(tol=-1.0)


@case("solve max_iter 0", ModelError, "max_iter")
def _():
    problem().solve(max_iter=0)


@case("solve ipopt options as a string", ModelError, "ipopt")
def _():
    problem().solve(ipopt="mumps")


@case("solve unknown keyword", ModelError, "tolerance", "tol")
def _():
    problem().solve(tolerance=1e-6)


@case("solve progress negative", ModelError, "progress")
def _():
    problem().solve(progress=-1)


@case("collocation degree 0", ModelError, "Collocation", "degree")
def _():
    jd.Collocation(degree=0)


@case("collocation degree as a string", ModelError, "Collocation", "degree")
def _():
    jd.Collocation(degree="3")


@case("collocation scheme as a string", ModelError, "Collocation", "scheme", "Scheme")
def _():
    jd.Collocation(scheme="radau")


@case("shooting integrator as a string", ModelError, "MultipleShooting", "integrator")
def _():
    jd.MultipleShooting(integrator="rk")


@case("shooting steps 0", ModelError, "MultipleShooting", "steps")
def _():
    jd.MultipleShooting(steps=0)


@case("initial condition outside its bound", ModelError, PHI)
def _():
    ocp = problem()
    ocp.bound(PHI, -0.1, 0.1)
    ocp.initial({PHI: 1.0})
    ocp.solve()


# ---- code generation -----------------------------------------------------------------------
@case("codegen compiler not a string", ModelError, "codegen", "compiler")
def _():
    jd.compile(cube_model()).codegen(compiler=5)


@case("codegen flags not strings", ModelError, "codegen", "flags")
def _():
    jd.compile(cube_model()).codegen(flags=5)


@case("codegen cache_dir not a path", ModelError, "codegen", "cache_dir")
def _():
    jd.compile(cube_model()).codegen(cache_dir=5)


# ---- second round: results, linear systems, solutions, options ------------------------------
@functools.cache
def solution():
    ocp = problem()
    ocp.initial({PHI: 0.1, "cube.bearing.phi": 0.0, W: 0.0, "cube.bearing.w": 0.0})
    ocp.integral_cost(lambda v: v[TAU] ** 2)
    return ocp.solve()


@case("check_consistent with a short state", ModelError, "x0")
def _():
    four_bar().check_consistent(np.zeros(2), four_bar().p_default)


@case("select a bare string", ModelError, "LinearSystem", PHI)
def _():
    cube_lin().select(PHI)


@case("to_state with NaN", ModelError, "to_state", PHI)
def _():
    cube_lin().to_state({PHI: NAN})


@case("to_state of wrong length", ModelError, "to_state")
def _():
    cube_lin().to_state([0.1])


@case("modes with a string count", ModelError, "modes", "n_dominant")
def _():
    cube_lin().modes("3")


@case("lqr allow_nonstationary as a string", ModelError, "lqr", "allow_nonstationary")
def _():
    jd.lqr(cube_lin(), 1.0, 1.0, allow_nonstationary="yes")


@case("unknown lqr keyword", ModelError, "lqr", "q")
def _():
    jd.lqr(cube_lin(), q=1.0, R=1.0)


@case("collocation inline as a string", ModelError, "Collocation", "inline")
def _():
    jd.Collocation(inline="yes")


@case("shooting rtol as a string", ModelError, "MultipleShooting", "rtol")
def _():
    jd.MultipleShooting(rtol="1e-6")


@case("solution check with negative rtol", ModelError, "check", "rtol")
def _():
    solution().check(rtol=-1.0)


@case("solution check with zero samples", ModelError, "check", "samples")
def _():
    solution().check(samples=0)


@case("solution unknown series", ModelError, "cube.edge.ph")
def _():
    solution()["cube.edge.ph"]


@case("result unknown series", ModelError, "cube.edge.ph")
def _():
    cube().simulate(0.1, n_out=3)["cube.edge.ph"]


@case("empty gain", ModelError, "Gain", "K")
def _():
    Gain([])


@case("empty state feedback", ModelError, "StateFeedback", "K")
def _():
    StateFeedback([])


@case("equations with symbols as a list", ModelError, "equations", "symbols")
def _():
    cube().equations(symbols=["phi"])


@case("on_world with an unnamed mechanism", ModelError, "on_world", "by name")
def _():
    jd.Model.on_world(World(), Pendulum())


@case("numeric call with a short state", ModelError, "f", "x")
def _():
    cube().numeric("f")(0.0, [1.0, 2.0], [0.0], [0.4])


@case("frequency inf", ModelError, "Sine", "f")
def _():
    Sine(f=INF)


@functools.cache
def ball():
    """A body on a ball joint: a unit quaternion among the coordinates."""
    model = jd.Model(world=World())
    model.ball = Spherical()
    model.body = RigidBody(m=1.0, r_cm=(0, 0.5, 0), I=(0.1, 0.05, 0.1))
    model.connect(model.world.frame_b, model.ball.frame_a)
    model.connect(model.ball.frame_b, model.body.frame_a)
    return jd.compile(model)


@case("zero quaternion", ModelError, "ball.q0")
def _():
    ball().simulate(1.0, y0={"ball.q0": 0.0})


@case("zero quaternion in x0", ModelError, "ball.q0")
def _():
    ball().simulate(1.0, x0=np.zeros(7))


@case("a bool as a coordinate", ModelError, "ball.q1")
def _():
    ball().state({"ball.q1": True})


@case("a child named like a Composite method", ModelError, "connect")
def _():
    pendulum_model().connect = RigidBody()


@case("a child named like a private attribute", ModelError, "_children")
def _():
    setattr(pendulum_model(), "_children", RigidBody())


# ---- controllers in the loop, tracking, sweeps, estimation (issue 17) -----------------------
@functools.cache
def cube_gain():
    """An LQR gain of the cube on its edge (the wheel angle dropped: it is cyclic)."""
    return jd.lqr(cube_lin().select([PHI, W, "cube.bearing.w"]), Q=[100.0, 1.0, 1e-3], R=1e3)


@case("simulate with a string as controller", ModelError, "simulate", "controller")
def _():
    cube().simulate(1.0, controller="lqr")


@case("simulate with a negative period", ModelError, "simulate", "period")
def _():
    cube().simulate(1.0, controller=cube_gain(), period=-0.01)


@case("simulate with a period but no controller", ModelError, "period", "controller")
def _():
    cube().simulate(1.0, period=0.01)


@case("controller returning too many values", ModelError, "controller", TAU)
def _():
    cube().simulate(1.0, controller=lambda t, x: [0.0, 1.0])


@case("controller returning NaN", ModelError, "controller", TAU, "non-finite")
def _():
    cube().simulate(1.0, controller=lambda t, x: {TAU: float("nan")})


@case("controller returning an unknown input", ModelError, "controller", "cube.motor.f")
def _():
    cube().simulate(1.0, controller=lambda t, x: {"cube.motor.f": 0.0})


@case("controller failing during the run", ModelError, "controller", "ZeroDivisionError")
def _():
    cube().simulate(1.0, controller=lambda t, x: [1.0 / (t - t) if t > 0.1 else 0.0])


@case("controller and inputs drive the same input", ModelError, "inputs", TAU)
def _():
    cube().simulate(1.0, controller=cube_gain(), inputs={TAU: 0.1})


@case("controller run with an unknown keyword", ModelError, "simulate", "keyword", "rtl")
def _():
    cube().simulate(1.0, controller=cube_gain(), rtl=1e-6)


@case("sampled controller on a DAE", ModelError, "sampled", "DAE")
def _():
    system = jd.compile(jd.Model.on_world(World(), fb=FourBar()),
                        constraints=jd.ConstraintMethod.DAE)
    system.simulate(0.1, controller=lambda t, x: [], period=0.01)


@case("close_loop with a Python function", ModelError, "close_loop", "Python function")
def _():
    jd.close_loop(cube(), lambda t, x: [0.0])


@case("close_loop of a model", ModelError, "close_loop", "compile")
def _():
    jd.close_loop(cube_model(), cube_gain())


@case("close_loop limits of an unknown input", ModelError, "limits", "cube.motor.f")
def _():
    jd.close_loop(cube(), cube_gain(), limits={"cube.motor.f": 1.0})


@case("close_loop limits lower above upper", ModelError, "limits", TAU)
def _():
    jd.close_loop(cube(), cube_gain(), limits={TAU: (1.0, -1.0)})


@case("close_loop limits as a string", ModelError, "limits", TAU)
def _():
    jd.close_loop(cube(), cube_gain(), limits={TAU: "0.1"})


@case("feedback designed on another system", ModelError, "Feedback", TAU, "jd.linearize")
def _():
    jd.close_loop(jd.compile(pendulum_model()), cube_gain())


@case("tracking controller with Q of the wrong size", ModelError, "tracking_controller", "Q")
def _():
    solution().tracking_controller(np.eye(2), 1.0)


@case("tracking controller with a zero R", ModelError, "tracking_controller", "R")
def _():
    solution().tracking_controller(1.0, 0.0)


@case("tracking controller with zero samples", ModelError, "tracking_controller", "samples")
def _():
    solution().tracking_controller(1.0, 1.0, samples=0)


@case("solution check with t_end but no controller", ModelError, "check", "controller")
def _():
    solution().check(t_end=2.0)


@case("solution check with an unknown initial state", ModelError, "check", "initial",
      "cube.edge.ph")
def _():
    solution().check(controller=cube_gain(), initial={"cube.edge.ph": 0.1})


@case("sweep of an unknown parameter", ModelError, "sweep", "params", "cube.housing.mass")
def _():
    jd.sweep(cube(), params={"cube.housing.mass": [1.0, 2.0]}, t_end=1.0)


@case("sweep with a task string", ModelError, "sweep", "task", "Task.SIMULATE")
def _():
    jd.sweep(cube(), params={MASS: [1.0]}, t_end=1.0, task="simulate")


@case("sweep without t_end", ModelError, "sweep", "t_end")
def _():
    jd.sweep(cube(), params={MASS: [1.0, 2.0]})


@case("sweep with samples but no distribution", ModelError, "sweep", "samples")
def _():
    jd.sweep(cube(), params={MASS: [1.0, 2.0]}, t_end=1.0, samples=10)


@case("sweep with a distribution but no samples", ModelError, "sweep", "samples")
def _():
    jd.sweep(cube(), params={MASS: jd.Uniform(0.3, 0.5)}, t_end=1.0)


@case("sweep with zero workers", ModelError, "sweep", "workers")
def _():
    jd.sweep(cube(), params={MASS: [1.0]}, t_end=1.0, workers=0)


@case("sweep with a NaN grid value", ModelError, "sweep", MASS)
def _():
    jd.sweep(cube(), params={MASS: [1.0, NAN]}, t_end=1.0)


@case("sweep with metrics as a string", ModelError, "sweep", "metrics")
def _():
    jd.sweep(cube(), params={MASS: [1.0]}, t_end=1.0, metrics=PHI)


@case("sweep with y0 in options", ModelError, "sweep", "options", "y0")
def _():
    jd.sweep(cube(), params={MASS: [1.0]}, t_end=1.0, options={"y0": {PHI: 0.1}})


@case("sweep with a bad client", ModelError, "sweep", "client")
def _():
    jd.sweep(cube(), params={MASS: [1.0]}, t_end=1.0, client=42)


@case("sweep with cases and a grid", ModelError, "sweep", "cases")
def _():
    jd.sweep(cube(), params={MASS: [1.0, 2.0]}, t_end=1.0, cases=[{PHI: 0.1}])


@case("sweep case of an unknown name", ModelError, "sweep", "cases", "cube.edge.ph")
def _():
    jd.sweep(cube(), t_end=1.0, cases=[{"cube.edge.ph": 0.1}])


@case("Uniform with low above high", ModelError, "Uniform", "low")
def _():
    jd.Uniform(2.0, 1.0)


@case("Normal with a negative std", ModelError, "Normal", "std")
def _():
    jd.Normal(1.0, -0.1)


def _samples(n=21, **signals):
    t = np.linspace(0.0, 1.0, n)
    return {"t": t, PHI: 0.1 * np.cos(t), **signals}


@case("estimate of an unknown parameter", ModelError, "estimate", "parameters",
      "cube.housing.mass")
def _():
    jd.estimate(cube(), _samples(), parameters=["cube.housing.mass"])


@case("estimate with parameters as a string", ModelError, "estimate", "parameters")
def _():
    jd.estimate(cube(), _samples(), parameters=MASS)


@case("estimate with data without times", ModelError, "estimate", "'t'")
def _():
    jd.estimate(cube(), {PHI: np.zeros(5)}, parameters=[MASS])


@case("estimate with unequally spaced samples", ModelError, "estimate", "equally spaced")
def _():
    jd.estimate(cube(), {"t": [0.0, 0.1, 0.3, 0.4], PHI: np.zeros(4)}, parameters=[MASS])


@case("estimate with data of an unknown signal", ModelError, "estimate", "data",
      "cube.edge.ph")
def _():
    jd.estimate(cube(), {"t": np.linspace(0, 1, 5), "cube.edge.ph": np.zeros(5)},
                parameters=[MASS])


@case("estimate with data of the wrong length", ModelError, "estimate", PHI, "samples")
def _():
    jd.estimate(cube(), {"t": np.linspace(0, 1, 5), PHI: np.zeros(4)}, parameters=[MASS])


@case("estimate with a zero weight", ModelError, "estimate", "weights", PHI)
def _():
    jd.estimate(cube(), _samples(), parameters=[MASS], weights={PHI: 0.0})


@case("estimate with bounds lower above upper", ModelError, "estimate", "bounds", MASS)
def _():
    jd.estimate(cube(), _samples(), parameters=[MASS], bounds={MASS: (1.0, 0.1)})


@case("estimate with level 95", ModelError, "estimate", "level")
def _():
    jd.estimate(cube(), _samples(), parameters=[MASS], level=95)


@case("estimate with a transcription string", ModelError, "estimate", "transcription")
def _():
    jd.estimate(cube(), _samples(), parameters=[MASS], transcription="collocation")


@case("estimate of an unknown initial state", ModelError, "estimate", "initial_states",
      "cube.edge.ph")
def _():
    jd.estimate(cube(), _samples(), parameters=[MASS], initial_states=["cube.edge.ph"])


# ---- player ----
@case("animate with a trace of an unknown frame", ModelError, "animate", "traces",
      "cube.edge.frame_bb", "cube.edge.frame_b")
def _():
    import tempfile
    res = cube().simulate(0.1, n_out=3)
    with tempfile.TemporaryDirectory() as tmp:
        res.animate(f"{tmp}/a.html", traces=["cube.edge.frame_bb"])
