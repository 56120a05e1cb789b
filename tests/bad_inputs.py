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


@case("negative symbolic mass", ModelError, "cube.housing", "m", "≥ 0")
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


# ---- fmu ------------------------------------------------------------------------------------
@functools.cache
def _scratch() -> str:
    """One scratch folder for the FMU cases (none of them writes an FMU)."""
    import tempfile
    return tempfile.mkdtemp(prefix="jd-bad-fmu-")


@case("export_fmu to an existing directory as the file", ModelError, "export_fmu", "path",
      "directory")
def _():
    import os
    folder = os.path.join(_scratch(), "folder.fmu")
    os.makedirs(folder, exist_ok=True)
    cube().export_fmu(folder)


@case("export_fmu to a path under an existing file", ModelError, "export_fmu", "path",
      "is a file")
def _():
    import os
    with open(os.path.join(_scratch(), "notes"), "w") as f:
        f.write("x")
    cube().export_fmu(os.path.join(_scratch(), "notes", "cube.fmu"))


@case("export_fmu with path None", ModelError, "export_fmu", "path")
def _():
    cube().export_fmu(None)


@case("export_fmu with model_name=123", ModelError, "export_fmu", "model_name", "123")
def _():
    import os
    cube().export_fmu(os.path.join(_scratch(), "cube.fmu"), model_name=123)


@case("export_fmu with an empty model_name", ModelError, "export_fmu", "model_name")
def _():
    import os
    cube().export_fmu(os.path.join(_scratch(), "cube.fmu"), model_name="")


@case("export_fmu with NaN in x0", ModelError, "export_fmu", "x0", "cube.edge.phi")
def _():
    import os
    x0 = np.zeros(cube().nx)
    x0[cube().x_names.index(PHI)] = NAN
    cube().export_fmu(os.path.join(_scratch(), "cube.fmu"), x0=x0)


@case("export_fmu with x0 of the wrong length", ModelError, "export_fmu", "x0", "entries")
def _():
    import os
    cube().export_fmu(os.path.join(_scratch(), "cube.fmu"), x0=[0.1])


@case("export_fmu with a misspelt keyword modelname", ModelError, "export_fmu", "modelname",
      "model_name")
def _():
    import os
    cube().export_fmu(os.path.join(_scratch(), "cube.fmu"), modelname="cube")


@case("export_fmu with a misspelt keyword tolerence", ModelError, "export_fmu", "tolerence",
      "tolerance")
def _():
    import os
    cube().export_fmu(os.path.join(_scratch(), "cube.fmu"), tolerence=1e-6)


@case("export_fmu with step=True", ModelError, "export_fmu", "step")
def _():
    import os
    cube().export_fmu(os.path.join(_scratch(), "cube.fmu"), step=True)


@case("export_fmu with flags as one string", ModelError, "export_fmu", "flags")
def _():
    import os
    cube().export_fmu(os.path.join(_scratch(), "cube.fmu"), flags="-O2")


@case("export_fmu of a bouncing ball (a Stop: state events)", ModelError, "export_fmu",
      "floor", "Stop")
def _():
    import os

    from hybrid_models import ball
    jd.compile(ball(e=0.9)).export_fmu(os.path.join(_scratch(), "ball.fmu"))


# ---- zeno ----------------------------------------------------------------------------------
# events, samplers, resets and drivers of hybrid simulation (issue 30)
@functools.cache
def _bouncing_ball():
    """A 0.5 kg ball on a vertical slide over a rigid floor (Stop lower = 0, e = 0.5)."""
    from hybrid_models import ball
    return jd.compile(ball(e=0.5))


@functools.cache
def _pushed_mass():
    """A 1 kg mass on a horizontal slide pushed by a LinearMotor (input motor.f)."""
    model = jd.Model(world=World())
    model.slide, model.mass = Prismatic(axis=(1, 0, 0)), RigidBody(m=1.0)
    model.motor = jd.blocks.LinearMotor()
    model.connect(model.world.frame_b, model.slide.frame_a)
    model.connect(model.slide.frame_b, model.mass.frame_a)
    model.connect(model.motor.flange_b, model.slide.axis)
    return jd.compile(model)


def _ball_run(**options):
    return _bouncing_ball().simulate(1.0, y0={"slide.s": 1.0}, n_out=11, **options)


def _mass_run(**options):
    return _pushed_mass().simulate(1.0, y0={"slide.s": 1.0}, n_out=11, **options)


def _control(callback, period=0.1, label="ctl"):
    return jd.SampledCallback(period, callback, ["motor.f"], label=label)


@case("Event guard with math.sin", ModelError, "Event 'wave'", "guard", "CasADi")
def _():
    import math
    _ball_run(events=[jd.Event(lambda v: math.sin(v["slide.s"]), name="wave")])


@case("Event guard with a Python if", ModelError, "Event 'branch'", "guard", "if_else")
def _():
    def guard(v):
        return v["slide.s"] - 0.5 if v["slide.s"] > 0.2 else v["slide.v"]
    _ball_run(events=[jd.Event(guard, name="branch")])


@case("Event reset with math.fabs", ModelError, "Event 'up'", "reset", "CasADi")
def _():
    import math
    _ball_run(events=[jd.Event(lambda v: v["slide.s"] - 0.5, name="up",
                               reset=lambda v: {"slide.v": math.fabs(v["slide.v"])})])


@case("simulate events= a single Event, not a list", ModelError, "simulate: events", "list")
def _():
    _ball_run(events=jd.Event(lambda v: v["slide.s"] - 0.5))


@case("simulate samplers= a single callback, not a list", ModelError, "simulate: samplers",
      "list")
def _():
    _mass_run(samplers=_control(lambda t, x, u, p: [0.0]))


@case("TimeEvent('soon')", ModelError, "TimeEvent", "times")
def _():
    jd.TimeEvent("soon")


@case("Event terminal='no'", ModelError, "Event", "terminal")
def _():
    jd.Event(lambda v: v["slide.s"], terminal="no")


@case("Event name=3", ModelError, "Event", "name")
def _():
    jd.Event(lambda v: v["slide.s"], name=3)


@case("simulate event_step=1e-12 (MemoryError)", ModelError, "event_step", "guard samples")
def _():
    _bouncing_ball().simulate(20.0, y0={"slide.s": 1.0}, event_step=1e-12)


@case("sampled callback period=1e-9 (hang)", ModelError, "ctl", "period")
def _():
    _mass_run(samplers=[_control(lambda t, x, u, p: [0.0], period=1e-9)])


@case("sampled callback period making 1e8 samples (hang)", ModelError, "ctl", "period",
      "samples")
def _():
    _mass_run(samplers=[_control(lambda t, x, u, p: [0.0], period=1e-8)])


@case("ZeroOrderHold sample_period=1e-9 (hang)", ModelError, "zoh", "sample_period")
def _():
    from jourdain.blocks.hybrid import ZeroOrderHold
    model = jd.Model(world=World())
    model.slide, model.mass = Prismatic(axis=(1, 0, 0)), RigidBody(m=1.0)
    model.motor, model.zoh = jd.blocks.LinearMotor(), ZeroOrderHold(sample_period=1e-9)
    model.connect(model.world.frame_b, model.slide.frame_a)
    model.connect(model.slide.frame_b, model.mass.frame_a)
    model.connect(model.motor.flange_b, model.slide.axis)
    model.connect(model.zoh.y, model.motor.f)
    jd.compile(model).simulate(1.0)


@case("sampled controller period=1e-9 (hang)", ModelError, "simulate: period")
def _():
    _pushed_mass().simulate(1.0, controller=lambda t, x: {"motor.f": -x[0]}, period=1e-9)


@case("DiscretePID y_max='big'", ModelError, "DiscretePID", "y_max")
def _():
    from jourdain.blocks.hybrid import DiscretePID
    DiscretePID(y_max="big")


@case("DiscretePID y_min=NaN", ModelError, "DiscretePID", "y_min")
def _():
    from jourdain.blocks.hybrid import DiscretePID
    DiscretePID(y_min=NAN)


@case("sampled callback that raises", SimulationError, "ctl", "t = 0.1", "ZeroDivisionError")
def _():
    _mass_run(samplers=[_control(lambda t, x, u, p: [0.0] if t < 0.05 else [1 / 0])])


@case("sampled callback that returns NaN", SimulationError, "ctl", "motor.f", "t = 0.2")
def _():
    _mass_run(samplers=[_control(lambda t, x, u, p: [0.0] if t < 0.15 else [NAN])])


@case("sampled callback that returns a string", SimulationError, "ctl", "t = 0")
def _():
    _mass_run(samplers=[_control(lambda t, x, u, p: ["push"])])


@case("TimeEvent before t0 (silently dropped)", ModelError, "TimeEvent 'early'", "t0")
def _():
    _ball_run(events=[jd.TimeEvent([-0.5, 0.5], name="early")])


@case("sampler overriding inputs=", ModelError, "ctl", "motor.f", "inputs")
def _():
    _mass_run(inputs={"motor.f": 1.0}, samplers=[_control(lambda t, x, u, p: [0.0])])


@case("two samplers on one input", ModelError, "other", "motor.f", "ctl")
def _():
    _mass_run(samplers=[_control(lambda t, x, u, p: [0.0]),
                        _control(lambda t, x, u, p: [1.0], 0.2, "other")])


@case("Event reset into a rigid Stop", ModelError, "Event 'sink'", "floor", "0.3 m")
def _():
    _ball_run(events=[jd.Event(lambda v: v["slide.s"] - 0.5, jd.Direction.FALLING,
                               reset=lambda v: {"slide.s": -0.3}, name="sink")])


@case("TimeEvent reset into a rigid Stop", ModelError, "TimeEvent 'sink'", "floor")
def _():
    _ball_run(events=[jd.TimeEvent([0.2], reset=lambda v: {"slide.s": -0.3}, name="sink")])


@case("Position driver into a rigid Stop", ModelError, "floor", "kinematic driver")
def _():
    from jourdain.blocks.drivers import translational
    from jourdain.blocks.hybrid import Stop
    model = jd.Model(world=World())
    model.slide, model.ball = Prismatic(axis=(0, 1, 0)), RigidBody(m=1.0)
    model.drive, model.ref = translational.Position(exact=True), Sine(amplitude=1.0, f=0.5)
    model.floor = Stop(lower=-0.5, e=0.5)
    model.connect(model.world.frame_b, model.slide.frame_a)
    model.connect(model.slide.frame_b, model.ball.frame_a)
    model.connect(model.floor.flange_b, model.slide.axis)
    model.connect(model.drive.flange, model.slide.axis)
    model.connect(model.ref.y, model.drive.s_ref)
    jd.compile(model).simulate(2.0)


@case("Zeno user Event (a bounce as a reset)", jd.ChatteringError, "Event 'bounce'", "Zeno")
def _():
    model = jd.Model(world=World())
    model.slide, model.ball = Prismatic(axis=(0, 1, 0)), RigidBody(m=0.5)
    model.connect(model.world.frame_b, model.slide.frame_a)
    model.connect(model.slide.frame_b, model.ball.frame_a)
    jd.compile(model).simulate(
        10.0, y0={"slide.s": 1.0}, events=[jd.Event(
            lambda v: v["slide.s"], jd.Direction.FALLING, name="bounce",
            reset=lambda v: {"slide.v": -0.8 * v["slide.v"]})])


# ---- friction ----------------------------------------------------------------------------------
# Stick–slip seams and physical checks of the hybrid elements (issues 23 and 30).
def _hybrid_ball(**compile_options):
    """A ball on a vertical slider above a rigid floor Stop (tests/hybrid_models.ball)."""
    from hybrid_models import ball
    return jd.compile(ball(e=0.5), **compile_options)


@functools.cache
def hybrid_ball():
    return _hybrid_ball(parameters=["floor.e"])


def _clutch_shafts(symbolic=()):
    """Two 1-D shafts joined by a Clutch engaged by a constant normal force."""
    from jourdain.blocks import Constant, Inertia
    from jourdain.blocks.hybrid import Clutch
    model = jd.Model(world=World())
    model.a, model.b = Inertia(J=1.0), Inertia(J=2.0)
    model.clutch = Clutch(mu_pos=[[0.0, 0.4]], fn_max=10.0)
    model.f = Constant(k=1.0)
    model.connect(model.clutch.flange_a, model.a.flange_b)
    model.connect(model.clutch.flange_b, model.b.flange_a)
    model.connect(model.f.y, model.clutch.f_normalized)
    return jd.compile(model, parameters=list(symbolic))


@functools.cache
def clutch_shafts():
    return _clutch_shafts(["clutch.fn_max", "clutch.peak"])


@case("simulate with params of a stop mode that is not a mode (floor.mode = 7)", ModelError,
      "floor.mode", "7", "LOWER", "FREE", "UPPER")
def _():
    hybrid_ball().simulate(1.0, y0={"slide.s": 1.0}, params={"floor.mode": 7})


@case("linearize with params of a stop mode between modes (floor.mode = 0.5)", ModelError,
      "floor.mode", "0.5", "LOWER")
def _():
    jd.linearize(hybrid_ball(), params={"floor.mode": 0.5})


@case("trajectory problem with params of a stop mode that is not a mode", ModelError,
      "floor.mode", "-2", "UPPER")
def _():
    jd.TrajectoryProblem(hybrid_ball(), 1.0, 10, params={"floor.mode": -2})


@case("simulate with params of a friction mode that is not a mode (clutch.mode = 5)",
      ModelError, "clutch.mode", "5", "STUCK", "FREE")
def _():
    clutch_shafts().simulate(1.0, params={"clutch.mode": 5})


@case("simulate with params of a contact mode that is not a mode", ModelError, "contact.mode",
      "OPEN", "STICK", "SLIDE")
def _():
    from jourdain.blocks.hybrid import GroundContact
    model = jd.Model(world=World())
    model.slide, model.ball = Prismatic(axis=(0, 1, 0)), RigidBody(m=0.5)
    model.contact = GroundContact(radius=0.1)
    model.connect(model.world.frame_b, model.slide.frame_a)
    model.connect(model.slide.frame_b, model.ball.frame_a)
    model.connect(model.ball.frame_a, model.contact.frame_a)
    jd.compile(model).simulate(0.5, y0={"slide.s": 1.0}, params={"contact.mode": 3})


@case("simulate with params of a stop restitution e = 2", ModelError, "params", "floor",
      "restitution", "2")
def _():
    hybrid_ball().simulate(1.0, y0={"slide.s": 1.0}, params={"floor.e": 2.0})


@case("simulate with params of a clutch fn_max < 0", ModelError, "params", "clutch", "fn_max")
def _():
    clutch_shafts().simulate(1.0, params={"clutch.fn_max": -5.0})


@case("simulate with params of a clutch peak < 1", ModelError, "params", "clutch", "peak")
def _():
    clutch_shafts().simulate(1.0, params={"clutch.peak": 0.5})


def _across_motions(element):
    """``element`` between a revolute's axis and a prismatic's axis."""
    model = jd.Model(world=World())
    model.hinge, model.wheel = Revolute(axis=(0, 0, 1)), RigidBody(m=1.0, I=(1, 1, 1))
    model.slide, model.block = Prismatic(axis=(1, 0, 0)), RigidBody(m=1.0)
    model.connect(model.world.frame_b, model.hinge.frame_a)
    model.connect(model.hinge.frame_b, model.wheel.frame_a)
    model.connect(model.world.frame_b, model.slide.frame_a)
    model.connect(model.slide.frame_b, model.block.frame_a)
    model.el = element
    model.connect(model.el.flange_a, model.hinge.axis)
    model.connect(model.el.flange_b, model.slide.axis)
    jd.compile(model)


@case("compile a Stop between a rotational and a translational axis", ModelError, "el",
      "hinge.axis", "slide.axis", "rotational", "translational")
def _():
    from jourdain.blocks.hybrid import Stop
    _across_motions(Stop(lower=-1.0, upper=1.0))


@case("compile a Brake between a rotational and a translational axis", ModelError, "el",
      "hinge.axis", "slide.axis")
def _():
    from jourdain.blocks.hybrid import Brake
    _across_motions(Brake())


@case("compile an Inertia locked by a gear to a Fixed flange, with a friction", ModelError,
      "gear", "a", "no freedom of motion")
def _():
    from jourdain.blocks import Fixed, IdealGear, Inertia
    from jourdain.blocks.hybrid import BearingFriction
    model = jd.Model(world=World())
    model.a, model.gear, model.fix = Inertia(J=1.0), IdealGear(ratio=2.0), Fixed()
    model.fric = BearingFriction()
    model.connect(model.a.flange_b, model.gear.flange_a)
    model.connect(model.gear.flange_b, model.fix.flange)
    model.connect(model.fric.flange_b, model.a.flange_a)
    jd.compile(model)


@case("compile an Inertia geared back onto its own flange", ModelError, "gear",
      "no freedom of motion")
def _():
    from jourdain.blocks import IdealGear, Inertia
    model = jd.Model(world=World())
    model.a, model.gear = Inertia(J=1.0), IdealGear(ratio=2.0)
    model.connect(model.a.flange_b, model.gear.flange_a)
    model.connect(model.gear.flange_b, model.a.flange_a)
    jd.compile(model)


@case("BoxContact with an edge of size 0", ModelError, "BoxContact", "size", "positive")
def _():
    from jourdain.blocks.hybrid import BoxContact
    BoxContact(size=(0.1, 0.0, 0.1))


@case("BoxContact with a negative edge", ModelError, "BoxContact", "size", "positive")
def _():
    from jourdain.blocks.hybrid import BoxContact
    BoxContact(size=(0.1, -0.2, 0.1))


@case("compile a compliant GroundContact with c = 0", ModelError, "contact", "c > 0")
def _():
    from jourdain.blocks.hybrid import ContactLaw, GroundContact
    model = jd.Model(world=World())
    model.slide, model.ball = Prismatic(axis=(0, 1, 0)), RigidBody(m=0.5)
    model.contact = GroundContact(law=ContactLaw.COMPLIANT, c=0.0)
    model.connect(model.world.frame_b, model.slide.frame_a)
    model.connect(model.slide.frame_b, model.ball.frame_a)
    model.connect(model.ball.frame_a, model.contact.frame_a)
    jd.compile(model)


@case("compile a compliant Stop with c = 0", ModelError, "floor", "c > 0")
def _():
    from jourdain.blocks.hybrid import Stop, StopLaw
    model = jd.Model(world=World())
    model.slide, model.ball = Prismatic(axis=(0, 1, 0)), RigidBody(m=0.5)
    model.floor = Stop(lower=0.0, law=StopLaw.COMPLIANT, c=0.0)
    model.connect(model.world.frame_b, model.slide.frame_a)
    model.connect(model.slide.frame_b, model.ball.frame_a)
    model.connect(model.floor.flange_b, model.slide.axis)
    jd.compile(model)


# ---- loops ----
@case("four-bar locked stretched along one line", ModelError, "fb.pin", "vouched",
      "link lengths")
def _():
    jd.compile(jd.Model.on_world(World(), fb=FourBar(l0=1.5, l1=0.2, l2=0.8, l3=0.5)))


@case("Baumgarte parallelogram through its flat configuration", SimulationError, "fb.pin",
      "singular configuration", "PARTITIONING")
def _():
    system = jd.compile(jd.Model.on_world(World(), fb=FourBar(l0=1.0, l1=0.5, l2=1.0, l3=0.5)),
                        constraints=jd.ConstraintMethod.BAUMGARTE)
    system.simulate(1.0, y0={"fb.crank.phi": 1.0, "fb.rocker.phi": 1.0 - np.pi / 2},
                    z0={"fb.crank.w": 5.0})


# ---- energy ----
@functools.cache
def _pendulum_result():
    system = jd.compile(jd.Model.on_world(World(), m=Pendulum(J=0.01)))
    return system.simulate(0.1, y0={"m.joint.phi": 0.5}, n_out=11)


@case("res.check with a negative rtol", ModelError, "check", "rtol")
def _():
    _pendulum_result().check(rtol=-1e-3)


@case("res.check with a string constraint_tol", ModelError, "check", "constraint_tol")
def _():
    _pendulum_result().check(constraint_tol="1e-6")


@case("a rigid stop on a joint a driver prescribes", ModelError, "stop", "driver")
def _():
    from jourdain.blocks.drivers import rotational
    from jourdain.blocks.hybrid import Stop
    model = jd.Model(world=World())
    model.joint, model.bob = Revolute(), RigidBody(m=1.0, r_cm=(0.0, -0.5, 0.0))
    model.connect(model.world.frame_b, model.joint.frame_a)
    model.connect(model.joint.frame_b, model.bob.frame_a)
    model.drive, model.ref = rotational.Speed(exact=True), Sine(amplitude=2.0, f=1.0)
    model.connect(model.drive.flange, model.joint.axis)
    model.connect(model.ref.y, model.drive.w_ref)
    model.stop = Stop(lower=-0.3, upper=0.3)
    model.connect(model.stop.flange_b, model.joint.axis)
    jd.compile(model)


# ---- inputs ----
@case("simulate with max_step 0", ModelError, "simulate", "max_step")
def _():
    cube().simulate(1.0, max_step=0.0)


@case("simulate with a NaN max_step", ModelError, "simulate", "max_step")
def _():
    cube().simulate(1.0, max_step=NAN)


@case("simulate with max_step as a string", ModelError, "simulate", "max_step")
def _():
    cube().simulate(1.0, max_step="1e-3")


@case("an input function returning a list", ModelError, "inputs", TAU, "one number")
def _():
    cube().simulate(1.0, inputs={TAU: lambda t: [t, t]})


@case("an input function returning NaN inside the integration", ModelError, "inputs", TAU,
      "finite")
def _():
    cube().simulate(1.0, inputs={TAU: lambda t: 0.0 if t < 0.5 else NAN}, n_out=3)


@case("estimate with an input function its samples cannot follow", ModelError, "inputs",
      TAU, "sampled")
def _():
    jd.estimate(cube(), _samples(), parameters=[MASS],
                inputs={TAU: lambda t: np.sin(2 * np.pi * 997.0 * t)})


@case("jd.options.progress as a string", ModelError, "jd.options.progress")
def _():
    jd.options.progress = "no"


@case("JOURDAIN_PROGRESS not a switch", ModelError, "JOURDAIN_PROGRESS")
def _():
    import os
    old = os.environ.get("JOURDAIN_PROGRESS")
    os.environ["JOURDAIN_PROGRESS"] = "maybe"
    try:
        cube().simulate(0.1, n_out=3)
    finally:
        if old is None:
            del os.environ["JOURDAIN_PROGRESS"]
        else:
            os.environ["JOURDAIN_PROGRESS"] = old


class _BadTimes(jd.blocks.Constant):
    def time_events(self, t0, t_end):
        return [float("nan")]


@case("a block whose time_events returns NaN", ModelError, "late", "time_events")
def _():
    model = cube_model()
    model.late = _BadTimes(k=0.0)
    model.connect(model.late.y, model.cube.motor.tau)
    jd.compile(model).simulate(0.1, n_out=3)


# ---- matrix ----
def _pendulum_on_a_stop():
    from jourdain.blocks.hybrid import Stop
    model = jd.Model.on_world(World(), p=Pendulum())
    model.limit = Stop(lower=-0.3, upper=0.3)
    model.connect(model.limit.flange_b, model.p.joint.axis)
    return jd.compile(model)


@case("TrajectoryProblem on a model with a stop, its mode not stated", ModelError,
      "TrajectoryProblem", "limit", "limit.mode", "params")
def _():
    jd.TrajectoryProblem(_pendulum_on_a_stop(), 1.0, intervals=5)


@case("close_loop with a sampling period", ModelError, "close_loop", "sampled", "period")
def _():
    gain = jd.lqr(jd.linearize(cube()), 1.0, 1.0)
    jd.close_loop(cube(), gain, period=0.01)


@case("linearize of a model with a stop, its mode not stated", ModelError, "linearize",
      "limit", "limit.mode", "params")
def _():
    jd.linearize(_pendulum_on_a_stop(), y0={"p.joint.phi": 0.1})


@case("animate a circuit (nothing to draw)", ModelError, "animate", "nothing to draw")
def _():
    from jourdain.blocks import ConstantVoltage, Ground, Resistor
    model = jd.Model(world=World())
    model.src, model.R, model.ground = ConstantVoltage(V=1.0), Resistor(R=1.0), Ground()
    model.connect(model.src.p, model.R.p)
    model.connect(model.R.n, model.src.n)
    model.connect(model.ground.p, model.src.n)
    jd.compile(model).simulate(0.1, n_out=3).animate()


# ---- checks ----
# Issue 30: estimation without information, sweeps' names and options, initialize, the
# importers, electrical shorts, plots of runs without states, impacts, opacities, booleans.
URDF_NAN = """<robot name="r"><link name="base"/>
<link name="l1"><inertial><mass value="1"/>
<inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
<joint name="j1" type="revolute"><parent link="base"/><child link="l1"/>
<origin xyz="0 0 {z}" rpy="0 0 0"/><axis xyz="0 0 1"/></joint></robot>"""


@functools.cache
def _ratio_oscillator():
    """A mass on a spring released from rest: its motion depends on c/m only."""
    from jourdain.blocks import TranslationalSpring
    model = jd.Model(world=World(g=(0, 0, 0)))
    model.slider = Prismatic(axis=(1, 0, 0))
    model.mass = RigidBody(m=1.0)
    model.spring = TranslationalSpring(c=4.0)
    model.connect(model.world.frame_b, model.slider.frame_a)
    model.connect(model.slider.frame_b, model.mass.frame_a)
    model.connect(model.spring.flange_b, model.slider.axis)
    return jd.compile(model, parameters=["spring.c", "mass.m"])


@case("estimate of a ratio's two parameters", jd.UnidentifiableWarning, "spring.c", "mass.m",
      "rank 1 of 2")
def _():
    import warnings
    t = np.linspace(0.0, 5.0, 51)
    with warnings.catch_warnings():
        warnings.simplefilter("error", jd.UnidentifiableWarning)
        jd.estimate(_ratio_oscillator(), {"t": t, "slider.s": np.cos(2.0 * t)},
                    parameters=["spring.c", "mass.m"], y0={"slider.s": 1.0},
                    guess={"spring.c": 3.0, "mass.m": 1.0})


@case("sweep with an unknown metric", ModelError, "sweep", "metrics", "cube.edge.ph",
      "did you mean", PHI)
def _():
    jd.sweep(cube(), params={MASS: [0.4, 0.5]}, t_end=1.0, metrics=["cube.edge.ph"])


@case("sweep with an unknown series", ModelError, "sweep", "series", "cube.edge.ww", W)
def _():
    jd.sweep(cube(), params={MASS: [0.4, 0.5]}, t_end=1.0, series=["cube.edge.ww"])


@case("sweep with a negative rtol", ModelError, "sweep", "options", "rtol")
def _():
    jd.sweep(cube(), params={MASS: [0.4, 0.5]}, t_end=1.0, options={"rtol": -1e-8})


@case("sweep with n_out 1", ModelError, "sweep", "options", "n_out")
def _():
    jd.sweep(cube(), params={MASS: [0.4, 0.5]}, t_end=1.0, options={"n_out": 1})


@case("sweep of linearizations with metric names", ModelError, "sweep", "metrics")
def _():
    jd.sweep(cube(), params={MASS: [0.4, 0.5]}, task=jd.Task.LINEARIZE, metrics=[PHI])


@case("initialize with a string fix value", ModelError, "initialize", "fix", PHI)
def _():
    cube().initialize(fix={PHI: "upright"})


@case("initialize with fix a number", ModelError, "initialize", "fix", "dict")
def _():
    cube().initialize(fix=0.1)


@case("initialize with fix a list", ModelError, "initialize", "fix", "by name")
def _():
    cube().initialize(fix=[0.1])


@case("initialize with u0 of the wrong length", ModelError, "initialize", "u0", TAU)
def _():
    cube().initialize(y0={PHI: 0.1}, u0=[1.0, 2.0])


@case("initialize with u0 a string", ModelError, "initialize", "u0")
def _():
    cube().initialize(u0="zero")


@case("initialize with u0 a boolean", ModelError, "initialize", "u0", "booleans")
def _():
    cube().initialize(u0=[True])


@case("initialize with a coordinate in y0 and fix", ModelError, "initialize", PHI, "y0", "fix")
def _():
    cube().initialize(y0={PHI: 0.1}, fix={PHI: 0.2})


@case("initialize with a speed in z0 and fix", ModelError, "initialize", W, "z0", "fix")
def _():
    cube().initialize(z0={W: 0.0}, fix={W: 1.0})


@case("from_urdf of None", ModelError, "from_urdf", "source", "None")
def _():
    jd.from_urdf(None)


@case("from_urdf of a number", ModelError, "from_urdf", "source", "int")
def _():
    jd.from_urdf(42)


@case("from_urdf with a NaN joint origin", ModelError, "joint 'j1'", "<origin>", "NaN")
def _():
    jd.from_urdf(URDF_NAN.format(z="nan"))


@case("from_urdf with a NaN inertial origin", ModelError, "link 'l1'", "<inertial><origin>")
def _():
    jd.from_urdf(URDF_NAN.format(z="0").replace("<mass", '<origin xyz="nan 0 0"/><mass'))


@case("from_mjcf of None", ModelError, "from_mjcf", "source", "None")
def _():
    jd.from_mjcf(None)


def _shorted(source):
    """A two-pin component whose pins p and n are wired to one grounded node."""
    from jourdain.blocks import Ground

    class Shorted(jd.Composite):
        def __init__(self):
            super().__init__()
            self.part, self.ground = source, Ground()
            self.connect(self.part.p, self.part.n)
            self.connect(self.part.n, self.ground.p)
    return jd.Model(World(), c=Shorted())


@case("an EMF with shorted pins", ModelError, "c.part", "short circuit", "pins p and n")
def _():
    from jourdain.blocks import EMF
    jd.compile(_shorted(EMF(k=0.1)))


@case("a voltage source with shorted pins", ModelError, "c.part", "short circuit")
def _():
    from jourdain.blocks import ConstantVoltage
    jd.compile(_shorted(ConstantVoltage(V=1.0)))


@case("plot of a run without states", ModelError, "plot", "no coordinates", "energy.total")
def _():
    model = jd.Model(world=World())
    model.rod = FixedTranslation(r=(0, 1, 0))
    model.body = RigidBody(m=1.0)
    model.connect(model.world.frame_b, model.rod.frame_a)
    model.connect(model.rod.frame_b, model.body.frame_a)
    jd.compile(model).simulate(1.0, n_out=5).plot()


@case("Impact with a restitution string", ModelError, "Impact", "restitution", "elastic")
def _():
    jd.Impact("ball.floor.lower", e="elastic")


@case("Impact with restitution True", ModelError, "Impact", "restitution", "True")
def _():
    jd.Impact("ball.floor.lower", e=True)


@case("animate with opacity 2", ModelError, "animate", "opacity", "[0, 1]")
def _():
    run = jd.compile(jd.Model.on_world(World(), pendulum=Pendulum())).simulate(0.1, n_out=3)
    jd.animate(run, opacity=2)


@case("a shape with opacity True", ModelError, "Sphere", "opacity", "True")
def _():
    from jourdain.blocks.visual.shapes import Sphere
    Sphere(radius=0.1, opacity=True)


@case("trajectory problem with horizon True", ModelError, "horizon", "True")
def _():
    jd.TrajectoryProblem(cube(), True)


@case("a body with mass True", ModelError, "RigidBody", "m", "True")
def _():
    RigidBody(m=True)


@case("a body with mass '5'", ModelError, "RigidBody", "m", "'5'")
def _():
    RigidBody(m="5")


@case("a body with a boolean r_cm", ModelError, "RigidBody", "r_cm")
def _():
    RigidBody(r_cm=(True, 0, 0))


@case("simulate with x0 of booleans", ModelError, "simulate", "x0", "booleans")
def _():
    cube().simulate(1.0, x0=[True, False, False, False], n_out=3)


# ---- player ----
@case("animate with a trace of an unknown frame", ModelError, "animate", "traces",
      "cube.edge.frame_bb", "cube.edge.frame_b")
def _():
    import tempfile
    res = cube().simulate(0.1, n_out=3)
    with tempfile.TemporaryDirectory() as tmp:
        res.animate(f"{tmp}/a.html", traces=["cube.edge.frame_bb"])


# ---- mslinit ----
@case("initialize with der() of an unknown state", ModelError, "initialize", "fix",
      "der(cube.edge.ph)", "der(cube.edge.phi)")
def _():
    cube().initialize(fix={"der(cube.edge.ph)": 0.0})


@case("initialize with steady='yes'", ModelError, "initialize", "steady", "'yes'")
def _():
    cube().initialize(steady="yes")


@case("initialize with steady naming an unknown state", ModelError, "steady",
      "cube.edge.omega", "cube.edge.w")
def _():
    cube().initialize(steady=["cube.edge.omega"])


@case("initialize with der() in both fix and steady", ModelError, "der(cube.edge.w)",
      "fix", "steady")
def _():
    cube().initialize(fix={"der(cube.edge.w)": 0.0}, steady=["cube.edge.w"])


@case("initialize with der() = NaN", ModelError, "der(cube.edge.w)", "nan")
def _():
    cube().initialize(fix={"der(cube.edge.w)": NAN})


@case("initialize solving a misspelt parameter", ModelError, "solve", "cube.housing.mm",
      "cube.housing.m")
def _():
    cube().initialize(steady=True, solve=["cube.housing.mm"])


@case("initialize solving a constant parameter", ModelError, "solve", "cube.wheel.m",
      "parameters=['cube.wheel.m']")
def _():
    cube().initialize(steady=True, solve=["cube.wheel.m"])


@case("initialize with solve given as a string", ModelError, "solve", "list")
def _():
    cube().initialize(steady=True, solve="cube.housing.m")


@case("initialize solving a parameter no equation involves", ModelError, "solve",
      "cube.housing.m", "no initial equation")
def _():
    cube().initialize(y0={PHI: 0.1}, z0={W: 0.0}, fix={"der(cube.edge.phi)": 0.0},
                      solve=["cube.housing.m"])


@case("initialize with a steady state that does not exist", ModelError, "der(cube.edge.w)",
      "cannot be met", "cube.edge.phi")
def _():
    # the cube on its edge with a constant wheel torque 5 N·m: the housing cannot rest
    cube().initialize(y0={"cube.bearing.phi": 0.0}, z0={"cube.bearing.w": 0.0},
                      steady=["cube.edge.phi", "cube.edge.w", "cube.bearing.w"], u0=[50.0])


@case("initialize guessing a velocity-level quantity", ModelError, "guess",
      "cube.bearing.frame_a.v_0[0]", "positions")
def _():
    cube().initialize(guess={"cube.bearing.frame_a.v_0[0]": 1.0})


@case("initialize with der() on a Baumgarte system", ModelError, "initialize",
      "PARTITIONING", "BAUMGARTE")
def _():
    system = jd.compile(jd.Model.on_world(World(), fb=FourBar()),
                        constraints=jd.ConstraintMethod.BAUMGARTE)
    system.initialize(steady=True)

# ---- stepper ----
@functools.cache
def dropped_ball():
    """A free ball (r = 0.1 m) over the ground: one GroundContact."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).parent))
    from stepping_models import ball_on_ground
    return jd.compile(ball_on_ground())


@case("simulate with an unknown contact mode", ModelError, "contact", "'stepper'",
      "stepping")
def _():
    dropped_ball().simulate(0.1, contact="stepper")


@case("stepping with dt = 0", ModelError, "dt", "0")
def _():
    dropped_ball().simulate(0.1, contact="stepping", dt=0.0)


@case("stepping with a negative dt", ModelError, "dt", "-0.001")
def _():
    dropped_ball().simulate(0.1, contact="stepping", dt=-1e-3)


@case("dt given to the event-driven mode", ModelError, "dt", "contact='stepping'")
def _():
    dropped_ball().simulate(0.1, dt=1e-3)


@case("stepping with an event-loop keyword", ModelError, "contact='stepping'", "events")
def _():
    dropped_ball().simulate(0.1, contact="stepping", events=[])


@case("stepping with a box–box pair", ModelError, "box–box", "a|b")
def _():
    from jourdain.blocks.visual import Box
    from jourdain.solver.collision import Collider, CollisionPair
    pair = CollisionPair(Collider("ball.frame_a", Box(size=(0.1,) * 3), name="a"),
                         Collider("ball.frame_a", Box(size=(0.1,) * 3), name="b"))
    dropped_ball().simulate(0.1, contact="stepping", pairs=[pair])


@case("stepping with a collider on an unknown frame", ModelError, "bal.frame_a", "c")
def _():
    from jourdain.blocks.visual import Sphere
    from jourdain.solver.collision import Collider, CollisionPair
    from jourdain.blocks.visual import Plane
    pair = CollisionPair(Collider("bal.frame_a", Sphere(radius=0.1), name="c"),
                         Collider("world", Plane(normal=(0, 1, 0))))
    dropped_ball().simulate(0.1, contact="stepping", pairs=[pair])


@case("stepping with a pair that is not a CollisionPair", ModelError, "pairs",
      "CollisionPair")
def _():
    dropped_ball().simulate(0.1, contact="stepping", pairs=[("ball", "world")])

# ---- mslmb ----
@case("a JointRRR with a rod of length zero", ModelError, "JointRRR", "rRod2_ib")
def _():
    from jourdain.blocks import JointRRR
    JointRRR(rRod2_ib=(0, 0, 0))


@case("a JointRRP whose prismatic axis is not orthogonal to the revolutes", ModelError,
      "JointRRP", "n_b", "orthogonal")
def _():
    from jourdain.blocks import JointRRP
    JointRRP(n_a=(0, 0, 1), n_b=(0, 1, 1))


@case("a JointSSP with rod1Length 0", ModelError, "JointSSP", "rod1Length")
def _():
    from jourdain.blocks import JointSSP
    JointSSP(rod1Length=0.0)


@case("a JointUPS whose line lies along the universal's first axis", ModelError, "JointUPS",
      "nAxis_ia", "n1_a")
def _():
    from jourdain.blocks import JointUPS
    JointUPS(n1_a=(1, 0, 0), nAxis_ia=(2, 0, 0))


@case("a SpringDamperSeries without damping", ModelError, "sds", "d", "Spring")
def _():
    from jourdain.blocks import SpringDamperSeries
    model = jd.Model(world=World())
    model.slide, model.body = Prismatic(n=(0, -1, 0)), RigidBody(m=1)
    model.sds = SpringDamperSeries(c=10, d=0)
    model.connect(model.world.frame_b, model.slide.frame_a)
    model.connect(model.slide.frame_b, model.body.frame_a)
    model.connect(model.world.frame_b, model.sds.frame_a)
    model.connect(model.body.frame_a, model.sds.frame_b)
    jd.compile(model)


@case("a RollingWheelSet with track 0", ModelError, "RollingWheelSet", "track")
def _():
    from jourdain.blocks import RollingWheelSet
    RollingWheelSet(track=0.0)


@case("a UniversalSpherical asked to compute its rod length", ModelError,
      "UniversalSpherical", "computeRodLength")
def _():
    from jourdain.blocks import UniversalSpherical
    UniversalSpherical(computeRodLength=True)


@case("a RollingWheel with radius 0", ModelError, "RollingWheel", "radius")
def _():
    from jourdain.blocks import RollingWheel
    RollingWheel(radius=0.0)


@case("a GearConstraint with ratio 0", ModelError, "GearConstraint", "ratio")
def _():
    from jourdain.blocks import GearConstraint
    GearConstraint(ratio=0)


@case("a BevelGear1D with ratio 0", ModelError, "BevelGear1D", "ratio")
def _():
    from jourdain.blocks import BevelGear1D
    BevelGear1D(ratio=0)


@case("a KinematicPTP2 with 2 speed limits for 3 axes", ModelError, "KinematicPTP2", "qd_max")
def _():
    from jourdain.blocks import KinematicPTP2
    KinematicPTP2(q_begin=(0, 0, 0), q_end=(1, 1, 1), qd_max=(1, 1))

# ---- msl1d ----
@case("a LossyGear with a 4-column lossTable", ModelError, "LossyGear", "lossTable", "5 columns")
def _():
    from jourdain.blocks import LossyGear
    LossyGear(ratio=2.0, lossTable=[[0, 0.5, 0.5, 0]])


@case("a LossyGear with mesh efficiency 0", ModelError, "LossyGear", "eta_mf1", "(0, 1]")
def _():
    from jourdain.blocks import LossyGear
    LossyGear(lossTable=[[0, 0.0, 0.5, 0, 0]])


@case("an ElastoBacklash with c = 0", ModelError, "gap", "spring constant c", "positive")
def _():
    from jourdain.blocks import ElastoBacklash, Inertia
    model = jd.Model(world=World())
    model.inertia, model.gap = Inertia(J=1.0), ElastoBacklash(c=0.0, b=0.1)
    model.connect(model.gap.flange_b, model.inertia.flange_a)
    jd.compile(model)


@case("a CombiTimeTable with decreasing times", ModelError, "CombiTimeTable", "decrease")
def _():
    from jourdain.blocks import CombiTimeTable
    CombiTimeTable([[0, 1], [1, 2], [0.5, 3]])


@case("a CombiTimeTable with a spline smoothness", ModelError, "CombiTimeTable",
      "ContinuousDerivative", "LinearSegments")
def _():
    from jourdain.blocks import CombiTimeTable, Smoothness
    CombiTimeTable([[0, 1], [1, 2]], smoothness=Smoothness.ContinuousDerivative)


@case("a CombiTimeTable column out of range", ModelError, "CombiTimeTable", "columns", "2 … 2")
def _():
    from jourdain.blocks import CombiTimeTable
    CombiTimeTable([[0, 1], [1, 2]], columns=[3])


@case("a run beyond a CombiTimeTable without extrapolation", SimulationError, "table",
      "NoExtrapolation", "[0, 1]")
def _():
    from jourdain.blocks import CombiTimeTable, Extrapolation, Inertia, Motor
    model = jd.Model(world=World())
    model.table = CombiTimeTable([[0, 1], [1, 2]], extrapolation=Extrapolation.NoExtrapolation)
    model.inertia, model.motor = Inertia(J=1.0), Motor()
    model.connect(model.motor.flange_b, model.inertia.flange_a)
    model.connect(model.table.y, model.motor.tau)
    jd.compile(model).simulate(2.0, n_out=3)


@case("a Ramp with a negative duration", ModelError, "Ramp", "duration", "-1")
def _():
    from jourdain.blocks import Ramp
    Ramp(duration=-1.0)


@case("QuadraticSpeedDependentTorque with TorqueDirection 'no'", ModelError,
      "QuadraticSpeedDependentTorque", "TorqueDirection", "'no'")
def _():
    from jourdain.blocks import QuadraticSpeedDependentTorque
    QuadraticSpeedDependentTorque(TorqueDirection="no")

# ---- acausal ----
def acausal_model(build):
    """A Model whose composite ``net`` is wired by ``build(net)``."""
    class Net(Composite):
        def __init__(self):
            super().__init__()
            build(self)
    return jd.Model(World(), net=Net())


@case("a heat capacitor with negative capacity", ModelError, "net.cap", "C")
def _():
    from jourdain.blocks.thermal import FixedTemperature, HeatCapacitor

    def build(n):
        n.cap, n.amb = HeatCapacitor(C=-1.0), FixedTemperature()
        n.connect(n.cap.port, n.amb.port)
    jd.compile(acausal_model(build))


@case("a heat capacitor with capacity '5'", ModelError, "HeatCapacitor", "C", "'5'")
def _():
    from jourdain.blocks.thermal import HeatCapacitor
    HeatCapacitor(C="5")


@case("a heat port connected to a pin", ModelError, "HeatPort", "Pin")
def _():
    from jourdain.blocks import Resistor
    from jourdain.blocks.thermal import HeatCapacitor

    def build(n):
        n.cap, n.r = HeatCapacitor(), Resistor()
        n.connect(n.cap.port, n.r.p)
    jd.compile(acausal_model(build))


@case("an unconnected heat flow sensor", ModelError, "net.flow", "missing")
def _():
    from jourdain.blocks.thermal import FixedTemperature, HeatCapacitor, HeatFlowSensor

    def build(n):   # its temperature floats: nothing fixes the sensor's ports
        n.cap, n.amb, n.flow = HeatCapacitor(), FixedTemperature(), HeatFlowSensor()
        n.connect(n.cap.port, n.amb.port)
    jd.compile(acausal_model(build))


@case("a thermal loop of conductors that nothing anchors", ModelError, "net.g1", "net.g2",
      "singular")
def _():
    from jourdain.blocks.thermal import ThermalConductor

    def build(n):
        n.g1, n.g2 = ThermalConductor(), ThermalConductor()
        n.connect(n.g1.port_b, n.g2.port_a)
        n.connect(n.g2.port_b, n.g1.port_a)
    jd.compile(acausal_model(build))


@case("an op-amp without feedback", ModelError, "net.op", "net.r", "redundant")
def _():
    from jourdain.blocks import ConstantVoltage, Ground, Resistor
    from jourdain.blocks.electrical import IdealOpAmp

    def build(n):
        n.src, n.r, n.op, n.g = ConstantVoltage(V=1.0), Resistor(), IdealOpAmp(), Ground()
        n.connect(n.src.p, n.r.p)
        n.connect(n.r.n, n.op.in_n)
        n.connect(n.op.in_p, n.g.p)
        n.connect(n.src.n, n.g.p)
    jd.compile(acausal_model(build))


@case("a diode with Vt = 0", ModelError, "net.d", "Vt")
def _():
    from jourdain.blocks import ConstantVoltage, Ground
    from jourdain.blocks.electrical import Diode

    def build(n):
        n.src, n.d, n.g = ConstantVoltage(V=1.0), Diode(Vt=0.0), Ground()
        n.connect(n.src.p, n.d.p)
        n.connect(n.d.n, n.src.n)
        n.connect(n.src.n, n.g.p)
    jd.compile(acausal_model(build))


class _NoEquations(jd.blocks.AcausalComponent):
    def __init__(self):
        self.port = jd.blocks.HeatPort(self, "port")


@case("an acausal component without equations", ModelError, "net.x", "equations(v)")
def _():
    from jourdain.blocks.thermal import FixedTemperature

    def build(n):
        n.x, n.amb = _NoEquations(), FixedTemperature()
        n.connect(n.x.port, n.amb.port)
    jd.compile(acausal_model(build))


class _Misnamed(_NoEquations):
    def equations(self, v):
        return [v.port.Q_flow - v.temperature]


@case("acausal equations reading an unknown name", ModelError, "net.x", "temperature", "port")
def _():
    from jourdain.blocks.thermal import FixedTemperature

    def build(n):
        n.x, n.amb = _Misnamed(), FixedTemperature()
        n.connect(n.x.port, n.amb.port)
    jd.compile(acausal_model(build))


class _NotAList(_NoEquations):
    def equations(self, v):
        return v.port.Q_flow


@case("acausal equations not returned as a list", ModelError, "net.x", "list")
def _():
    from jourdain.blocks.thermal import FixedTemperature

    def build(n):
        n.x, n.amb = _NotAList(), FixedTemperature()
        n.connect(n.x.port, n.amb.port)
    jd.compile(acausal_model(build))


class _DerOfInput(_NoEquations):
    def __init__(self):
        super().__init__()
        self.u = jd.blocks.RealInput(self, "u")

    def equations(self, v):
        return [v.port.Q_flow - v.der(v.u)]


@case("der() of a signal input", ModelError, "net.x", "der()", "net.x.u")
def _():
    from jourdain.blocks.thermal import FixedTemperature

    def build(n):
        n.x, n.amb = _DerOfInput(), FixedTemperature()
        n.connect(n.x.port, n.amb.port)
    jd.compile(acausal_model(build))


@case("a temperature fed back to its own prescribed source", ModelError, "algebraic loop",
      "net.sensor", "net.gain")
def _():
    from jourdain.blocks.thermal import HeatCapacitor, PrescribedTemperature, TemperatureSensor

    def build(n):
        n.src, n.sensor, n.gain = PrescribedTemperature(), TemperatureSensor(), Gain(K=1.0)
        n.cap = HeatCapacitor()
        n.connect(n.src.port, n.sensor.port)
        n.connect(n.sensor.T, n.gain.u)
        n.connect(n.gain.y, n.src.T)
    jd.compile(acausal_model(build))


@case("two heat capacitors on one node with different start temperatures", ModelError,
      "net.a.T", "net.b.T", "start")
def _():
    from jourdain.blocks.thermal import HeatCapacitor

    def build(n):
        n.a, n.b = HeatCapacitor(T_start=300.0), HeatCapacitor(T_start=350.0)
        n.connect(n.a.port, n.b.port)
    jd.compile(acausal_model(build))


class _BadStart(_Misnamed):
    VARIABLES = {"temperature": "K"}

    def start(self):
        return {"temprature": 300.0}


@case("start() naming an unknown variable", ModelError, "net.x", "temprature", "temperature")
def _():
    from jourdain.blocks.thermal import FixedTemperature

    def build(n):
        n.x, n.amb = _BadStart(), FixedTemperature()
        n.connect(n.x.port, n.amb.port)
    jd.compile(acausal_model(build))


class _Cycling(_NoEquations):
    VARIABLES = {"x": "1"}

    def equations(self, v):   # x/|x|^½ = 0: Newton from x = 1 jumps to −1, 1, −1, … forever
        return [v.port.Q_flow - v.x, v.x / (v.x ** 2 + 1e-30) ** 0.25 + 0.0 * v.port.T]

    def start(self):
        return {"x": 1.0}


@case("acausal equations whose Newton iteration cycles", SimulationError, "Newton",
      "net_x", "start()")
def _():
    from jourdain.blocks.thermal import HeatCapacitor

    def build(n):
        n.x, n.cap = _Cycling(), HeatCapacitor()
        n.connect(n.x.port, n.cap.port)
    jd.compile(acausal_model(build)).simulate(1.0, n_out=3)


class _NoRoot(_NoEquations):
    VARIABLES = {"x": "1"}

    def equations(self, v):   # x² + 1 = 0 has no real root: Newton's iterate is not finite
        return [v.port.Q_flow - v.x, v.x ** 2 + 1.0 + 0.0 * v.port.T]


@case("acausal equations without a real solution", ModelError, "net.cap.T", "not finite")
def _():
    from jourdain.blocks.thermal import HeatCapacitor

    def build(n):
        n.x, n.cap = _NoRoot(), HeatCapacitor()
        n.connect(n.x.port, n.cap.port)
    jd.compile(acausal_model(build)).simulate(1.0, n_out=3)


@case("an eddy current brake with w_nominal = 0", ModelError, "net.brake", "nominal speed")
def _():
    from jourdain.blocks import EddyCurrentTorque, Inertia

    def build(n):
        n.j, n.brake = Inertia(), EddyCurrentTorque(w_nominal=0.0)
        n.connect(n.j.flange_b, n.brake.flange)
    jd.compile(acausal_model(build))

# ---- ocp ----
def _target_problem():
    """The cube held at its edge towards a problem parameter 'target' [rad]."""
    ocp = jd.TrajectoryProblem(cube(), 1.0, intervals=4)
    ocp.parameter("target", 0.1)
    ocp.least_squares(lambda v: v[PHI] - v["target"])
    return ocp


@case("re-solve with an undeclared problem parameter", ModelError, "params", "targt", "target")
def _():
    _target_problem().build(jd.MultipleShooting()).solve(params={"targt": 0.2})


@case("re-solve with a problem parameter of the wrong shape", ModelError, "params", "target")
def _():
    _target_problem().build(jd.MultipleShooting()).solve(params={"target": [0.1, 0.2]})


@case("problem parameter named like a state", ModelError, "parameter", PHI)
def _():
    jd.TrajectoryProblem(cube(), 1.0).parameter(PHI, 0.0)


@case("fatrop on collocation (no stage structure)", ModelError, "fatrop", "stage",
      "MultipleShooting")
def _():
    _target_problem().solve(jd.Collocation(), solver="fatrop")


@case("Gauss-Newton with a cost that is not least squares", ModelError, "gauss-newton",
      "least_squares")
def _():
    ocp = _target_problem()
    ocp.integral_cost(lambda v: v[TAU] ** 2)
    ocp.solve(jd.MultipleShooting(), hessian="gauss-newton")


@case("re-solve with x0 of the wrong length", ModelError, "x0", PHI)
def _():
    _target_problem().build(jd.MultipleShooting()).solve(x0=[0.1, 0.0])


@case("an unknown NLP solver", ModelError, "solver", "snopt")
def _():
    _target_problem().solve(solver="snopt")


@case("frame target on an unknown frame", ModelError, "frame", "cube.housing.frame_aa")
def _():
    ocp = jd.TrajectoryProblem(cube(), 1.0, intervals=4)
    ocp.least_squares(lambda v: v.frame("cube.housing.frame_aa"), terminal=True)
    ocp.solve()

# ---- contact ----
@case("collide with a non-shape", ModelError, "collide", "collision shapes", "'ball'")
def _():
    RigidBody(m=1.0).collide("ball")


@case("collide with an unknown material keyword", ModelError, "collide", "friction", "mu")
def _():
    from jourdain.blocks.visual import Sphere
    RigidBody(m=1.0).collide(Sphere(radius=0.1), friction=0.3)


@case("collide with negative collision bits", ModelError, "collide", "group", "-1")
def _():
    from jourdain.blocks.visual import Sphere
    RigidBody(m=1.0).collide(Sphere(radius=0.1), group=-1)


@case("collide with a cylinder", ModelError, "collide", "Cylinder", "Capsule")
def _():
    from jourdain.blocks.visual import Cylinder
    RigidBody(m=1.0).collide(Cylinder(radius=0.1, length=0.2))


@case("two colliding boxes in the event-driven mode", ModelError, "Box and a Box",
      "Spheres")
def _():
    from jourdain.blocks import FreeJoint
    from jourdain.blocks.visual import Box
    model = jd.Model(world=World())
    for k in (1, 2):
        joint, body = model.add(f"j{k}", FreeJoint()), model.add(f"b{k}", RigidBody(m=1.0))
        model.connect(model.world.frame_b, joint.frame_a)
        model.connect(joint.frame_b, body.frame_a)
        body.collide(Box(size=(0.1, 0.1, 0.1)))
    jd.compile(model)


@case("a plane with a zero normal", ModelError, "Plane", "normal")
def _():
    from jourdain.blocks.visual import Plane
    Plane(normal=(0, 0, 0))


@case("from_mjcf with contacts='yes'", ModelError, "from_mjcf", "contacts", "'yes'")
def _():
    jd.from_mjcf('<mujoco><worldbody><body><freejoint/><geom size="0.1"/></body>'
                 '</worldbody></mujoco>', contacts="yes")


@case("robot.add_contacts with an unknown option", ModelError, "add_contacts", "friction",
      "mu")
def _():
    robot = jd.from_mjcf('<mujoco><worldbody><body><freejoint/><geom size="0.1"/></body>'
                         '</worldbody></mujoco>')
    robot.add_contacts(friction=0.3)


@case("URDF with a negative armature", ModelError, "hinge", "armature", "-0.1")
def _():
    jd.from_urdf('<robot name="r"><link name="a"/><link name="b"><inertial><mass value="1"/>'
                 '<inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>'
                 '<joint name="hinge" type="continuous"><parent link="a"/><child link="b"/>'
                 '<dynamics armature="-0.1"/></joint></robot>')


@case("a collision shape declared after the first compile", ModelError, "declared after",
      "compile")
def _():
    from jourdain.blocks import FreeJoint
    from jourdain.blocks.visual import Plane, Sphere
    model = jd.Model(world=World())
    model.j, model.b = FreeJoint(), RigidBody(m=1.0, I=(0.01,) * 3)
    model.connect(model.world.frame_b, model.j.frame_a)
    model.connect(model.j.frame_b, model.b.frame_a)
    model.world.collide(Plane())
    model.b.collide(Sphere(radius=0.1))
    jd.compile(model)
    model.b.collide(Sphere(radius=0.2, center=(0.3, 0, 0)))
    jd.compile(model)


# ---- mslrobot ----
@case("a Surface whose function returns arrays of the wrong size", ModelError, "Surface",
      "X, Y, Z", "nu × nv")
def _():
    from jourdain.blocks.visual import Surface
    Surface(surfaceCharacteristic=lambda u, v: (u, v, np.zeros(7)), nu=4, nv=5)


@case("a Surface with a single grid point along u", ModelError, "Surface", "nu", "≥ 2")
def _():
    from jourdain.blocks.visual import Surface
    Surface(surfaceCharacteristic=lambda u, v: (u, v, u), nu=1, nv=5)


@case("a VoluminousWheel too narrow for a rim", ModelError, "VoluminousWheel", "rTire")
def _():
    from jourdain.blocks.visual import VoluminousWheel
    VoluminousWheel(rTire=0.001, rCurvature=0.5, width=0.1)
# ---- mslrot ----
def _on_inertia(path: str, part, port: str = "flange"):
    """A model with ``part`` (a source or a two-flange element) on an Inertia, compiled."""
    from jourdain.blocks import Inertia
    model = jd.Model(world=World())
    model.shaft = Inertia(J=1.0)
    setattr(model, path, part)
    model.connect(getattr(part, port), model.shaft.flange_a)
    return jd.compile(model)


@case("SignTorque with w0 = 0", ModelError, "brake", "w0")
def _():
    from jourdain.blocks import SignTorque
    _on_inertia("brake", SignTorque(tau_nominal=-1.0, w0=0.0))


@case("SignTorque with reg given as a string", ModelError, "brake", "reg", "Regularization")
def _():
    from jourdain.blocks import SignTorque
    _on_inertia("brake", SignTorque(tau_nominal=-1.0, reg="Linear"))


@case("LinearSpeedDependentTorque with a negative w_nominal", ModelError, "load", "w_nominal",
      "-2")
def _():
    from jourdain.blocks import LinearSpeedDependentTorque
    _on_inertia("load", LinearSpeedDependentTorque(tau_nominal=-1.0, w_nominal=-2.0))


@case("LinearSpeedDependentTorque with TorqueDirection = 'no'", ModelError,
      "LinearSpeedDependentTorque", "TorqueDirection", "'no'")
def _():
    from jourdain.blocks import LinearSpeedDependentTorque
    LinearSpeedDependentTorque(tau_nominal=-1.0, TorqueDirection="no")


@case("InverseSpeedDependentTorque with a negative w0", ModelError, "load", "w0", "-0.1")
def _():
    from jourdain.blocks import InverseSpeedDependentTorque
    _on_inertia("load", InverseSpeedDependentTorque(tau_nominal=-1.0, w_nominal=1.0, w0=-0.1))


@case("FreeWheel with a negative wRes", ModelError, "freeWheel", "wRes", "-1")
def _():
    from jourdain.blocks.hybrid import FreeWheel
    _on_inertia("freeWheel", FreeWheel(wRes=-1.0), "flange_b")


@case("FreeWheel with the MSL's regularized lock tauRes = 1e-5", ModelError, "FreeWheel",
      "tauRes", "rigid")
def _():
    from jourdain.blocks.hybrid import FreeWheel
    FreeWheel(tauRes=1e-5)


@case("FreeWheel on a translational Mass", ModelError, "freeWheel", "flange_b", "mass")
def _():
    from jourdain.blocks import Mass
    from jourdain.blocks.hybrid import FreeWheel
    model = jd.Model(world=World())
    model.mass, model.freeWheel = Mass(m=1.0), FreeWheel()
    model.connect(model.freeWheel.flange_b, model.mass.flange_a)
    jd.compile(model)


@case("RotationalMultiSensor between translational flanges", ModelError, "multiSensor",
      "flange_a", "mass")
def _():
    from jourdain.blocks import Mass, RotationalMultiSensor
    model = jd.Model(world=World())
    model.mass, model.multiSensor = Mass(m=1.0), RotationalMultiSensor()
    model.connect(model.multiSensor.flange_a, model.mass.flange_b)
    jd.compile(model)


@case("initialize holding both speeds of a LossyGear against its ratio", ModelError,
      "initialize", "gear.mesh")
def _():
    from jourdain.blocks import Inertia, LossyGear
    model = jd.Model(world=World())
    model.a, model.b = Inertia(J=1.0), Inertia(J=1.0)
    model.gear = LossyGear(ratio=2.0, lossTable=[[0.0, 0.5, 0.5, 0.0, 0.0]])
    model.connect(model.a.flange_b, model.gear.flange_a)
    model.connect(model.gear.flange_b, model.b.flange_a)
    jd.compile(model).initialize(z0={"a.w": 1.0, "b.w": 1.0})


@case("initialize holding both angles of a LossyGear against its ratio", ModelError,
      "gear.mesh", "Inertia1.phi")
def _():
    from jourdain.blocks import Inertia, LossyGear
    model = jd.Model(world=World())
    model.Inertia1, model.Inertia2 = Inertia(J=1.0), Inertia(J=1.0)
    model.gear = LossyGear(ratio=2.0, lossTable=[[0.0, 0.5, 0.5, 0.0, 0.0]])
    model.connect(model.Inertia1.flange_b, model.gear.flange_a)
    model.connect(model.gear.flange_b, model.Inertia2.flange_a)
    jd.compile(model).initialize(y0={"Inertia1.phi": 0.0, "Inertia2.phi": 0.7})
# ---- acausal2 ----
class _TempOffset(jd.blocks.AcausalComponent):
    """A fixed temperature difference port_a.T − port_b.T = 5 (a constraint between states
    when both ports carry heat capacitors)."""

    def __init__(self):
        from jourdain.blocks import HeatPort
        self.port_a, self.port_b = HeatPort(self, "port_a"), HeatPort(self, "port_b")

    def equations(self, v):
        return [v.port_a.T - v.port_b.T - 5.0, v.port_a.Q_flow + v.port_b.Q_flow]


@case("two contradictory temperature differences between two heat capacitors", ModelError,
      "net.o1", "net.o2", "d/dt", "contradict")
def _():
    from jourdain.blocks.thermal import HeatCapacitor

    def build(n):
        n.a, n.b, n.o1, n.o2 = HeatCapacitor(), HeatCapacitor(), _TempOffset(), _TempOffset()
        n.connect(n.a.port, n.o1.port_a)
        n.connect(n.o1.port_b, n.b.port)
        n.connect(n.b.port, n.o2.port_a)
        n.connect(n.o2.port_b, n.a.port)
    jd.compile(acausal_model(build))


@case("a temperature difference to a prescribed temperature fed by the model's input",
      ModelError, "time derivative", "net.src.T", "inputs")
def _():
    from jourdain.blocks.thermal import HeatCapacitor, PrescribedTemperature, HeatFlowSensor

    def build(n):   # the capacitor's temperature follows the input: its heat flow needs dT/dt
        n.cap, n.o, n.src, n.q = HeatCapacitor(), _TempOffset(), PrescribedTemperature(), \
            HeatFlowSensor()
        n.connect(n.cap.port, n.q.port_a)
        n.connect(n.q.port_b, n.o.port_a)
        n.connect(n.o.port_b, n.src.port)
    jd.compile(acausal_model(build))
# ---- ocpfast ----
@case("codegen neither a bool nor 'knot'", ModelError, "codegen", "knot", "knots")
def _():
    _target_problem().build(jd.MultipleShooting(jd.Integrator.RK4), codegen="knots")


@case("codegen='knot' on collocation (no RK4 knot to compile)", ModelError, "codegen='knot'",
      "MultipleShooting", "RK4")
def _():
    _target_problem().build(jd.Collocation(), codegen="knot")


@case("fatrop with codegen=True on collocation (no stage structure)", ModelError, "fatrop",
      "stage", "MultipleShooting")
def _():
    _target_problem().build(jd.Collocation(), solver="fatrop", codegen=True)


@case("fatrop with a path constraint on state and input (the last stage has no input)",
      ModelError, "fatrop", "power, node 4", "ocp.bound", "solver='ipopt'")
def _():
    ocp = _target_problem()
    ocp.path_constraint(lambda v: v[W] * v[TAU], -1.0, 1.0, name="power")
    ocp.build(jd.MultipleShooting(jd.Integrator.RK4), solver="fatrop")


@case("plan_tol not positive", ModelError, "plan_tol")
def _():
    _target_problem().build(jd.MultipleShooting(jd.Integrator.RK4), plan_tol=-1.0)
# ---- heatloss ----
@case("an element with useHeatPort=True whose heatPort is left unconnected", ModelError,
      "damper.heatPort", "useHeatPort")
def _():
    from jourdain.blocks import Inertia, ViscousFriction
    model = jd.Model(world=World())
    model.J = Inertia(J=1.0)
    model.damper = ViscousFriction(d=1.0, useHeatPort=True)
    model.connect(model.J.flange_b, model.damper.flange_b)
    jd.compile(model)


@case("a hybrid brake with useHeatPort=True and its heatPort unconnected", ModelError,
      "brake.heatPort", "useHeatPort")
def _():
    from jourdain.blocks import Constant, Inertia
    from jourdain.blocks.hybrid import Brake
    model = jd.Model(world=World())
    model.J, model.brake, model.press = Inertia(J=1.0), Brake(useHeatPort=True), Constant()
    model.connect(model.J.flange_b, model.brake.flange_a)
    model.connect(model.press.y, model.brake.f_normalized)
    jd.compile(model)


@case("a LossyGear with useHeatPort=True and its heatPort unconnected", ModelError,
      "gear.heatPort", "useHeatPort")
def _():
    from jourdain.blocks import Inertia, LossyGear
    model = jd.Model(world=World())
    model.J1, model.J2 = Inertia(J=1.0), Inertia(J=1.0)
    model.gear = LossyGear(ratio=2.0, lossTable=[[0, 0.8, 0.8, 1, 1]], useHeatPort=True)
    model.connect(model.J1.flange_b, model.gear.flange_a)
    model.connect(model.gear.flange_b, model.J2.flange_a)
    jd.compile(model)
# ---- msltrans ----
def _mass_with(element, flange="flange"):
    """A Mass driven by one translational element on its flange (compiled)."""
    from jourdain.blocks import Mass
    model = jd.Model(world=World())
    model.mass, model.load = Mass(m=1.0), element
    model.connect(getattr(model.load, flange), model.mass.flange_a)
    return jd.compile(model)


@case("a SignForce with reg='linear' (a string)", ModelError, "load", "reg", "Regularization")
def _():
    from jourdain.blocks import SignForce
    _mass_with(SignForce(f_nominal=-1.0, reg="linear"))


@case("a SignForce with v0 = 0", ModelError, "load", "v0", "positive")
def _():
    from jourdain.blocks import Regularization, SignForce
    _mass_with(SignForce(f_nominal=-1.0, reg=Regularization.Linear, v0=0.0))


@case("an InverseSpeedDependentForce with v0 < 0", ModelError, "load", "v0", "-0.1")
def _():
    from jourdain.blocks import InverseSpeedDependentForce
    _mass_with(InverseSpeedDependentForce(f_nominal=-1.0, v_nominal=1.0, v0=-0.1))


@case("a LinearSpeedDependentForce with ForceDirection='no'", ModelError,
      "LinearSpeedDependentForce", "ForceDirection", "'no'")
def _():
    from jourdain.blocks import LinearSpeedDependentForce
    LinearSpeedDependentForce(f_nominal=-1.0, ForceDirection="no")


@case("a RollingResistance with a negative wheel load", ModelError, "load", "fWeight", "-5")
def _():
    from jourdain.blocks import RollingResistance
    _mass_with(RollingResistance(fWeight=-5.0))


@case("a translational IdealGear with ratio 0", ModelError, "load", "ratio", "non-zero")
def _():
    from jourdain.blocks import TranslationalIdealGear
    _mass_with(TranslationalIdealGear(ratio=0.0), "flange_b")


@case("a Vehicle with m = 0", ModelError, "Vehicle", "total mass m", "positive")
def _():
    from jourdain.blocks import Vehicle
    Vehicle(m=0.0, J=0.0, R=0.25)


@case("a Vehicle with useInclinationInput='yes'", ModelError, "Vehicle", "useInclinationInput",
      "True or False")
def _():
    from jourdain.blocks import Vehicle
    Vehicle(m=100.0, J=0.0, R=0.25, useInclinationInput="yes")
# ---- contactfast ----
@case("a compliant Stop in the stepping mode", ModelError, "floor", "compliant stop",
      "contact='events'")
def _():
    from jourdain.blocks import Prismatic
    from jourdain.blocks.hybrid import Stop, StopLaw
    model = jd.Model(world=World())
    model.slide, model.ball = Prismatic(axis=(0, 1, 0)), RigidBody(m=0.5)
    model.floor = Stop(lower=0.0, law=StopLaw.COMPLIANT)
    model.connect(model.world.frame_b, model.slide.frame_a)
    model.connect(model.slide.frame_b, model.ball.frame_a)
    model.connect(model.floor.flange_b, model.slide.axis)
    jd.compile(model).simulate(0.1, contact="stepping")
# ---- lossyheat ----
@case("a LossyGear with useHeatPort=True in a model with a closed loop", ModelError, "gear",
      "useHeatPort", "closed loops")
def _():
    from jourdain.blocks import Inertia, LossyGear
    from jourdain.blocks.thermal import HeatCapacitor
    model = jd.Model.on_world(World(), fb=FourBar())
    model.gear = LossyGear(ratio=2.0, lossTable=[[0, 0.8, 0.8, 1, 1]], useHeatPort=True)
    model.J, model.cap = Inertia(J=0.1), HeatCapacitor(C=1.0)
    model.connect(model.fb.crank.axis, model.gear.flange_a)
    model.connect(model.gear.flange_b, model.J.flange_a)
    model.connect(model.gear.heatPort, model.cap.port)
    jd.compile(model)
# ---- mbsnew ----
@case("a SpatialSliderCrank whose rod cannot reach the slider's line", ModelError,
      "SpatialSliderCrank", "rod = 0.1", "longer rod")
def _():
    from jourdain.library.mbs_spatial import SpatialSliderCrank
    SpatialSliderCrank(rod=0.1)


@case("a misspelt FlyballGovernor data name", ModelError, "FlyballGovernor", "'kk'",
      "did you mean k")
def _():
    from jourdain.library.mbs_spatial import FlyballGovernor
    FlyballGovernor(kk=1e5)


@case("a Bricard mechanism with l = 0", ModelError, "Bricard", "l must be a positive number")
def _():
    from jourdain.library.mbs_spatial import Bricard
    Bricard(l=0.0)
# ---- ddp ----
def _ddp_problem():
    """The cube from rest at its edge, every initial state given, least squares to a target:
    a problem solver='fddp' takes."""
    ocp = jd.TrajectoryProblem(cube(), 1.0, intervals=4)
    ocp.initial({**dict.fromkeys(cube().x_names, 0.0), PHI: 0.1})
    ocp.least_squares(lambda v: [v[PHI], v[TAU]])
    return ocp


RK4_SHOOTING = jd.MultipleShooting(jd.Integrator.RK4)


@case("solver='fddp' on collocation", ModelError, "fddp", "RK4", "collocation")
def _():
    _ddp_problem().build(jd.Collocation(3), solver="fddp")


@case("solver='fddp' with a path constraint", ModelError, "fddp", "path constraints", "wall",
      "least_squares")
def _():
    ocp = _ddp_problem()
    ocp.path_constraint(lambda v: v[PHI], upper=0.5, name="wall")
    ocp.build(RK4_SHOOTING, solver="fddp")


@case("solver='fddp' with a state bound", ModelError, "fddp", "state bounds", PHI)
def _():
    ocp = _ddp_problem()
    ocp.bound(PHI, -1.0, 1.0)
    ocp.build(RK4_SHOOTING, solver="fddp")


@case("solver='fddp' with a final condition", ModelError, "fddp", "final conditions", PHI,
      "terminal=True")
def _():
    ocp = _ddp_problem()
    ocp.final({PHI: 0.0})
    ocp.build(RK4_SHOOTING, solver="fddp")


@case("solver='fddp' with a free horizon", ModelError, "fddp", "free horizon", "FreeTime")
def _():
    ocp = jd.TrajectoryProblem(cube(), jd.FreeTime(1.0), intervals=4)
    ocp.initial(dict.fromkeys(cube().x_names, 0.0))
    ocp.least_squares(lambda v: v[TAU])
    ocp.build(RK4_SHOOTING, solver="fddp")


@case("solver='fddp' without every initial state", ModelError, "fddp", "free initial states",
      "ocp.initial")
def _():
    ocp = jd.TrajectoryProblem(cube(), 1.0, intervals=4)
    ocp.least_squares(lambda v: v[TAU])
    ocp.build(RK4_SHOOTING, solver="fddp")


@case("solver='fddp' with IPOPT options", ModelError, "fddp", "no solver options",
      "mu_strategy")
def _():
    _ddp_problem().build(RK4_SHOOTING, solver="fddp", options={"mu_strategy": "monotone"})


@case("fddp re-solve with a negative shift", ModelError, "shift")
def _():
    _ddp_problem().build(RK4_SHOOTING, solver="fddp").solve(shift=-1)


@case("fddp re-solve with a guess that is not its Solution", ModelError, "guess", "Solution")
def _():
    _ddp_problem().build(RK4_SHOOTING, solver="fddp").solve(guess={PHI: 0.0})


# ---- msl26 ----

# ---- balls ----
@case("stepping with broad='yes'", ModelError, "broad must be None", "True or False")
def _():
    dropped_ball().simulate(0.1, contact="stepping", broad="yes")


@case("broad given to the event-driven mode", ModelError, "broad=", "contact='stepping'")
def _():
    dropped_ball().simulate(0.1, broad=True)


@case("a broad phase with an infinite bounding radius", ModelError, "broad phase",
      "finite")
def _():
    from jourdain.solver.collision.broad import BroadPhase
    BroadPhase([0.1, float("inf")])
# ---- tower ----
@case("exact= not a bool in the stepping mode", ModelError, "exact=", "True", "False")
def _():
    from jourdain.blocks import Prismatic
    from jourdain.blocks.hybrid import Stop
    model = jd.Model(world=World())
    model.slide, model.ball = Prismatic(axis=(0, 1, 0)), RigidBody(m=0.5)
    model.floor = Stop(lower=0.0)
    model.connect(model.world.frame_b, model.slide.frame_a)
    model.connect(model.slide.frame_b, model.ball.frame_a)
    model.connect(model.floor.flange_b, model.slide.axis)
    jd.compile(model).simulate(0.1, contact="stepping", exact="yes")


# ---- lossy ----
def _lossy_gear_into_clutch(model, load: bool = True):
    """A LossyGear whose flange_b goes straight into a Clutch (the MSL's HeatLosses wiring),
    driven by a constant torque; ``load``: an Inertia on flange_a."""
    from jourdain.blocks import Constant, Inertia, LossyGear, Motor
    from jourdain.blocks.hybrid import Clutch
    model.inertia5 = Inertia(J=2.0)
    model.lossyGear = LossyGear(ratio=2.0, lossTable=[[0, 0.8, 0.8, 1, 1]])
    model.clutch, model.pressed = Clutch(fn_max=10.0), Constant(k=1.0)
    model.motor, model.tau = Motor(), Constant(k=10.0)
    model.connect(model.tau.y, model.motor.tau)
    if load:
        model.inertia4 = Inertia(J=2.0)
        model.connect(model.motor.flange_b, model.inertia4.flange_a)
        model.connect(model.inertia4.flange_b, model.lossyGear.flange_a)
    else:
        model.connect(model.motor.flange_b, model.lossyGear.flange_a)
    model.connect(model.lossyGear.flange_b, model.clutch.flange_a)
    model.connect(model.clutch.flange_b, model.inertia5.flange_a)
    model.connect(model.pressed.y, model.clutch.f_normalized)
    return model


@case("a LossyGear with no inertia on either flange (the KKT system is singular)",
      ModelError, "lossyGear.flange_a", "motor.flange_b", "carries no inertia",
      "teeth of lossyGear", "saddle-point")
def _():
    jd.compile(_lossy_gear_into_clutch(jd.Model(world=World()), load=False))


@case("a LossyGear's flange without inertia behind a kinematic driver", ModelError,
      "lossyGear.flange_b", "clutch.flange_a", "carries no inertia", "kinematic drivers")
def _():
    from jourdain.blocks import Constant
    from jourdain.blocks.drivers import rotational
    model = _lossy_gear_into_clutch(jd.Model(world=World()))
    model.drive, model.w_ref = rotational.Speed(exact=True), Constant(k=1.0)
    model.connect(model.drive.flange, model.inertia4.flange_b)
    model.connect(model.w_ref.y, model.drive.w_ref)
    jd.compile(model)


@case("an EddyCurrentTorque whose useTau_nominalInput is not a bool", ModelError,
      "EddyCurrentTorque", "useTau_nominalInput", "True or False")
def _():
    from jourdain.blocks import EddyCurrentTorque
    EddyCurrentTorque(w_nominal=10.0, useTau_nominalInput="yes")


@case("quaternion_from_angles with a sequence of two axes", ModelError,
      "quaternion_from_angles", "sequence", "three axes")
def _():
    from jourdain.blocks import quaternion_from_angles
    quaternion_from_angles([0.1, 0.2, 0.3], sequence=(1, 2))


# ---- warmmpc ----
@case("build(newton=...) with IPOPT", ModelError, "newton", "fddp", "hessian=")
def _():
    _ddp_problem().build(RK4_SHOOTING, newton=True)


@case("solver='fddp' with newton not a bool", ModelError, "newton", "True or False")
def _():
    _ddp_problem().build(RK4_SHOOTING, solver="fddp", newton="yes")


@case("solver='fddp' with a negative budget", ModelError, "budget")
def _():
    _ddp_problem().build(RK4_SHOOTING, solver="fddp", budget=-1.0)


@case("build(budget=...) with IPOPT", ModelError, "budget", "fddp", "max_cpu_time")
def _():
    _ddp_problem().build(RK4_SHOOTING, budget=0.01)
# ---- boxslots ----
@case("exact=True with contacts partly in slots and partly compiled pair by pair", ModelError,
      "exact=True", "partly in slots", "broad=False")
def _():
    from jourdain.blocks import FreeJoint
    from jourdain.blocks.visual import Plane, Sphere
    from jourdain.solver.collision import Collider, CollisionPair, ContactMaterial
    model = jd.Model(world=World(g=(0.0, 0.0, 0.0)))
    for k in range(2):
        model.add(f"j{k}", FreeJoint())
        model.add(f"b{k}", RigidBody(m=1.0, I=(0.004,) * 3))
        model.connect(model.world.frame_b, getattr(model, f"j{k}").frame_a)
        model.connect(getattr(model, f"j{k}").frame_b, getattr(model, f"b{k}").frame_a)
    ball = Sphere(radius=0.1)
    pairs = [CollisionPair(Collider("b0.frame_a", ball), Collider("b1.frame_a", ball),
                           ContactMaterial(mu=0.3)),
             CollisionPair(Collider("b0.frame_a", ball),
                           Collider("b1.frame_a", Plane(normal=(0, 1, 0))),
                           ContactMaterial(mu=0.3))]
    jd.compile(model).simulate(0.1, contact="stepping", pairs=pairs, broad=True, exact=True,
                               y0={"j1.x": 0.5})
# ---- recderiv ----
@case("solver='fddp' with an unknown derivatives form", ModelError, "derivatives",
      "'recursive'", "'forward'", "'reverse'")
def _():
    _ddp_problem().build(RK4_SHOOTING, solver="fddp", derivatives="reverse")


@case("solver='fddp' with derivatives='recursive' on a model with a component state",
      ModelError, "derivatives='recursive'", "component states", "derivatives='forward'")
def _():
    from jourdain.blocks import FirstOrder

    class LaggedPendulum(Composite):
        def __init__(self):
            super().__init__()
            self.joint = Revolute(axis=(0, 0, 1))
            self.bob = RigidBody(m=1.0, r_cm=(0, -1.0, 0))
            self.motor, self.lag = Motor(), FirstOrder(T=0.1)
            self.connect(self.joint.frame_b, self.bob.frame_a)
            self.connect(self.motor.flange_b, self.joint.axis)
            self.connect(self.lag.y, self.motor.tau)
            self.expose(self.joint.frame_a, "frame_a")

    system = jd.compile(jd.Model.on_world(World(), p=LaggedPendulum()))
    ocp = jd.TrajectoryProblem(system, 1.0, intervals=4)
    ocp.initial(dict.fromkeys(system.x_names, 0.0))
    ocp.least_squares(lambda v: [v[system.x_names[0]] - 1.0])
    ocp.build(RK4_SHOOTING, solver="fddp", derivatives="recursive")


# ---- ocpnewton ----
@case("solver='fddp' with clock neither 'cpu' nor 'wall'", ModelError, "clock", "'cpu'",
      "'wall'")
def _():
    _ddp_problem().build(RK4_SHOOTING, solver="fddp", budget=0.01, clock="real")


@case("solver='fddp' with clock='wall' and no budget", ModelError, "clock", "budget=")
def _():
    _ddp_problem().build(RK4_SHOOTING, solver="fddp", clock="wall")


@case("build(clock=...) with IPOPT", ModelError, "clock", "fddp", "max_wall_time")
def _():
    _ddp_problem().build(RK4_SHOOTING, clock="wall")
