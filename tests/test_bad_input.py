"""Every public entry point checks its input (docs/errors.md).

Reference: the catalogue in tests/bad_inputs.py of bad inputs a new user tries (issue 10's
list and more: wrong types, shapes, NaN and inf, out-of-range numbers, unknown names and
enum strings, empty models); each must raise its error family (ModelError for models and
arguments, SimulationError for integration) with a message containing the instance path,
port, variable or argument at fault. ``python tests/bad_input_census.py`` counts the outcomes
with a time limit per case (hangs included). The valid requests of the catalogue (a model
without states, code generation without a working compiler, trajectory optimization of a
compiled System) are tested against their references below.
"""
import shutil
import warnings

import numpy as np
import pytest
from bad_inputs import CASES, PHI, TAU, cube_model

import jourdain as jd
from jourdain.blocks import FixedTranslation, Gain, RigidBody, Sine, World


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_input_gets_a_named_error(case):
    with pytest.raises(case.error) as caught:
        case.call()
    message = str(caught.value)
    missing = [name for name in case.names if name not in message]
    assert not missing, f"the message does not name {missing}: {message}"


def test_catalogue_covers_every_entry_point():
    """The catalogue has cases for each public entry point the issue lists."""
    ids = " ".join(c.id for c in CASES).lower()
    for word in ("compile", "speed", "parameters", "simulate", "state", "assemble", "x0",
                 "linearize", "lqr", "place", "bound", "initial", "final", "free_parameter",
                 "path_constraint", "solve", "codegen", "connect", "expose", "table", "mux",
                 "on_world", "trajectory problem", "collocation", "shooting"):
        assert word in ids, word
    assert len(CASES) >= 200


def test_model_without_states_simulates_its_outputs():
    """A model with no degrees of freedom (a body on a fixed offset, a sine source and a gain
    on a free input) gives a Result of its outputs and energies, as Modelica tools do.
    Reference: closed forms y = 2·sin(2π·t), gain output 3·u(t), V = m·g·h."""
    model = jd.Model(world=World())
    model.rod = FixedTranslation(r=(0, 1.5, 0))
    model.body = RigidBody(m=2.0)
    model.src = Sine(amplitude=2.0, f=1.0)
    model.gain = Gain(3.0)
    model.connect(model.world.frame_b, model.rod.frame_a)
    model.connect(model.rod.frame_b, model.body.frame_a)
    system = jd.compile(model)
    assert system.nx == 0 and system.u_names == ["gain.u"]
    result = system.simulate(1.0, n_out=11, inputs={"gain.u": lambda t: t})
    np.testing.assert_allclose(result["src.y"], 2 * np.sin(2 * np.pi * result.t), atol=1e-12)
    np.testing.assert_allclose(result["gain.y"], 3 * result.t, atol=1e-12)
    np.testing.assert_allclose(result["energy.potential"], 2.0 * 9.81 * 1.5, rtol=1e-12)
    np.testing.assert_allclose(result["energy.kinetic"], 0.0, atol=1e-15)


def test_singular_speeds_during_the_motion_keep_the_result():
    """u1 = cos(φ)·φ̇ loses rank at φ = π/2, which the falling cube passes: the integrator
    steps over it, so the error names u1 and the interval and carries the result.
    Reference: the joint-speed model's φ(t) agrees before the crossing."""
    system = jd.compile(cube_model(), speeds={"u1": "cos(cube.edge.phi)*cube.edge.w"})
    with pytest.raises(jd.SimulationError, match=r"u1 became singular between t = ") as caught:
        system.simulate(1.0, y0={PHI: 0.3}, n_out=21)
    result = caught.value.result
    reference = jd.compile(cube_model()).simulate(1.0, y0={PHI: 0.3}, n_out=21)
    early = result[PHI] < 1.0   # well before φ = π/2
    np.testing.assert_allclose(result[PHI][early], reference[PHI][early], atol=1e-6)


def test_codegen_with_a_compiler_that_builds_nothing_falls_back(tmp_path):
    """A "compiler" that exits 0 without writing a library (``true``) gives the documented
    warning and keeps CasADi's virtual machine. Reference: the uncompiled f."""
    fake = shutil.which("true")
    if fake is None:
        pytest.skip("no `true` executable")
    system = jd.compile(cube_model())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        system.codegen(compiler=fake, cache_dir=tmp_path)
    assert system.library is None and system.f is system.functions["f"]
    assert any("wrote no library" in str(w.message) for w in caught)


@pytest.mark.skipif(shutil.which("gcc") is None, reason="no C compiler")
def test_trajectory_optimization_of_a_compiled_system(tmp_path):
    """TrajectoryProblem on a System compiled with codegen uses the symbolic f kept in
    system.functions (CasADi graphs cannot inline the compiled one). Reference: the same
    problem on the uncompiled System reaches the same cost and trajectory."""
    def solve(system):
        ocp = jd.TrajectoryProblem(system, 1.0, intervals=10)
        ocp.initial({PHI: 0.1, "cube.bearing.phi": 0.0, "cube.edge.w": 0.0,
                     "cube.bearing.w": 0.0})
        ocp.final({PHI: 0.0, "cube.edge.w": 0.0})
        ocp.integral_cost(lambda v: v[TAU] ** 2)
        return ocp.solve(jd.MultipleShooting())

    compiled = jd.compile(cube_model())
    compiled.codegen(cache_dir=tmp_path)
    assert compiled.library is not None
    plain, fast = solve(jd.compile(cube_model())), solve(compiled)
    assert fast.success
    np.testing.assert_allclose(fast.cost, plain.cost, rtol=1e-8)
    np.testing.assert_allclose(fast[TAU], plain[TAU], rtol=1e-6, atol=1e-9)
    assert fast.check().max_local < 1e-3
