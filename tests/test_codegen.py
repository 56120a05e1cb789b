"""C code generation and its on-disk cache (solver/simulation/codegen.py).

References: the CasADi virtual machine (the same functions uncompiled) for values, Jacobians
and simulations; the cache is checked by which library file a model and options map to.
"""
import shutil

import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import World
from jourdain.library import DoublePendulum, NLinkPendulum, Pendulum
from jourdain.solver.simulation import codegen as export
from jourdain.solver.simulation import csource

needs_cc = pytest.mark.skipif(shutil.which("gcc") is None, reason="no C compiler")


def _pendulum(d=0.1, m=1.0):
    return jd.Model.on_world(World(), pendulum=Pendulum(m=m, d=d))


@needs_cc
def test_compiled_matches_virtual_machine(tmp_path):
    system = jd.compile(jd.Model.on_world(World(), chain=DoublePendulum(m2=0.5)))
    system.codegen(cache_dir=tmp_path)
    assert system.library is not None and system.library.parent == tmp_path
    vm = system.functions["f"]
    assert not system.f.is_a("SXFunction")
    x = np.random.default_rng(0).normal(size=system.nx)
    p = system.p_default
    np.testing.assert_allclose(np.array(system.f(0, x, [], p)), np.array(vm(0, x, [], p)),
                               rtol=1e-13, atol=1e-13)
    jac_c, jac_vm = system.f.jacobian(), vm.jacobian()
    np.testing.assert_allclose(np.array(jac_c(0, x, [], p, 0)[1]),
                               np.array(jac_vm(0, x, [], p, 0)[1]), rtol=1e-12, atol=1e-12)
    y0 = {"chain.joint1.phi": 1.0, "chain.joint2.phi": -0.5}
    compiled = system.simulate(3.0, y0=y0, n_out=7)
    system.f = vm
    reference = system.simulate(3.0, y0=y0, n_out=7)
    np.testing.assert_allclose(compiled.x, reference.x, rtol=1e-7, atol=1e-7)


@needs_cc
def test_cache_reused_and_invalidated(tmp_path, monkeypatch):
    first = jd.compile(_pendulum(), codegen=False).codegen(cache_dir=tmp_path)
    # A second run with the same model and options must load, not build.
    monkeypatch.setattr(export, "_build", lambda *a: pytest.fail("rebuilt a cached library"))
    again = jd.compile(_pendulum()).codegen(cache_dir=tmp_path)
    assert again.library == first.library
    monkeypatch.setenv("JOURDAIN_CACHE", str(tmp_path))
    assert jd.compile(_pendulum(), codegen=True).library == first.library
    monkeypatch.undo()
    other_model = jd.compile(_pendulum(m=2.0)).codegen(cache_dir=tmp_path)
    other_flags = jd.compile(_pendulum()).codegen(cache_dir=tmp_path, flags=("-O0",))
    libraries = {first.library, other_model.library, other_flags.library}
    assert len(libraries) == 3 and all(lib.exists() for lib in libraries)


def test_no_compiler_falls_back_with_notice(tmp_path):
    system = jd.compile(_pendulum())
    with pytest.warns(RuntimeWarning, match="virtual machine"):
        system.codegen(compiler="no-such-cc-jourdain", cache_dir=tmp_path)
    assert system.library is None and system.f.is_a("SXFunction")
    assert system.simulate(0.5, y0={"pendulum.joint.phi": 0.3}, n_out=3).x.shape == (2, 3)


def test_column_jacobian_equals_expanded(monkeypatch):
    """The Jacobian built column by column from forward derivatives (used for large systems)
    equals CasADi's expanded Jacobian."""
    f = jd.compile(jd.Model.on_world(World(), chain=NLinkPendulum(3))).functions["f"]
    expanded = export.jacobian_function(f)
    monkeypatch.setattr(export, "JACOBIAN_EXPAND_LIMIT", 0)
    columns = export.jacobian_function(f)
    assert columns.is_a("MXFunction") and columns.name() == "jac_f"
    x = np.random.default_rng(1).normal(size=6)
    for a, b in zip(expanded(0, x, [], [], 0), columns(0, x, [], [], 0)):
        np.testing.assert_allclose(np.array(a), np.array(b), rtol=1e-12, atol=1e-12)


@needs_cc
def test_compiled_system_linearizes(tmp_path):
    """Reference: the virtual machine's linearization (the compiled f supplies first
    derivatives only; linearize needs no more), about an equilibrium and a steady motion."""
    from jourdain.library import CubeOnEdge

    system = jd.compile(jd.Model.on_world(World(), cube=CubeOnEdge(C_psi=0.0)))
    reference = [jd.linearize(system, z0=z0) for z0 in ({}, {"cube.bearing.w": 50.0})]
    system.codegen(cache_dir=tmp_path)
    assert not system.f.is_a("SXFunction")
    for z0, ref in zip(({}, {"cube.bearing.w": 50.0}), reference):
        lin = jd.linearize(system, z0=z0)
        assert lin.kind == ref.kind
        np.testing.assert_allclose(lin.A, ref.A, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(lin.B, ref.B, rtol=1e-12, atol=1e-12)
    assert [r.kind for r in reference] == ["equilibrium", "steady motion"]


def _vm_agrees(system):
    """The loaded C function reproduces the virtual machine (the reference)."""
    x = np.random.default_rng(2).normal(size=system.nx)
    p = system.p_default
    np.testing.assert_allclose(np.array(system.f(0, x, [], p)),
                               np.array(system.functions["f"](0, x, [], p)), rtol=1e-12,
                               atol=1e-12)


@needs_cc
def test_corrupt_cache_entry_is_rebuilt(tmp_path):
    """A truncated library under the expected name (a build killed mid-write by an older
    version, a full disk) is rebuilt, not a traceback."""
    system = jd.compile(_pendulum(d=0.3))
    key = export.library_key(system.functions["f"], export.CodegenOptions())
    planted = tmp_path / f"jd_f_{key[:24]}.so"
    planted.write_bytes(b"not a shared library")
    with pytest.warns(RuntimeWarning, match="does not load; rebuilding"):
        system.codegen(cache_dir=tmp_path)
    assert system.library == planted and planted.read_bytes()[:4] == b"\x7fELF"
    _vm_agrees(system)


@needs_cc
def test_foreign_cache_entry_is_rebuilt(tmp_path):
    """A loadable library of another model under this model's name is detected by its values
    and replaced."""
    other = jd.compile(_pendulum(d=0.9)).codegen(cache_dir=tmp_path / "a")
    system = jd.compile(_pendulum(d=0.2))
    key = export.library_key(system.functions["f"], export.CodegenOptions())
    planted = tmp_path / "b" / f"jd_f_{key[:24]}.so"
    planted.parent.mkdir()
    shutil.copy(other.library, planted)
    with pytest.warns(RuntimeWarning, match="does not reproduce f .*rebuilding"):
        system.codegen(cache_dir=tmp_path / "b")
    assert system.library == planted and planted.read_bytes() != other.library.read_bytes()
    _vm_agrees(system)


@needs_cc
def test_unwritable_cache_dir_compiles_into_a_temporary_one(tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a directory")
    system = jd.compile(_pendulum())
    with pytest.warns(RuntimeWarning, match="not writable") as record:
        system.codegen(cache_dir=blocker / "cache")
    assert record[0].filename == __file__  # the notice points at the user's line
    assert system.library is not None and not system.f.is_a("SXFunction")
    _vm_agrees(system)


@needs_cc
def test_flags_given_as_a_string(tmp_path):
    system = jd.compile(_pendulum()).codegen(cache_dir=tmp_path, flags="-O0 -g")
    assert system.library is not None
    _vm_agrees(system)
    with pytest.raises(jd.ModelError, match="flags"):
        jd.compile(_pendulum()).codegen(cache_dir=tmp_path, flags=2)


@needs_cc
def test_helpers_inlined_with_the_virtual_machines_values(tmp_path):
    """csource.write_source makes CasADi's helpers static inline and fmax/fmin comparisons
    (no call through the PLT or into libm). Reference: the virtual machine, bitwise, on the
    cases where fmax's C99 semantics are subtle: NaN on either side or both (the other
    argument; NaN), infinities, equal values, -0 and +0 (either may be returned: compared
    as numbers), and fabs, sq, if_else, a dense product (casadi_mtimes). Every value is a
    small integer, an infinity or NaN, exact in binary: equality holds on any machine."""
    import casadi as ca
    from jourdain.solver.simulation.ccall import CCall
    a, b = ca.SX.sym("a"), ca.SX.sym("b")
    M = ca.SX.sym("M", 2, 2)
    f = ca.Function("helpers", [a, b, M], [ca.vertcat(
        ca.fmax(a, b), ca.fmin(a, b), ca.fmax(b, a), ca.fmin(b, a), ca.fabs(a) * b ** 2,
        ca.if_else(a > b, a, b)), ca.mtimes(M, M)])
    mapped = f.map("helpers_cases", "serial", 9, [2], [1])
    source = csource.write_source([mapped], tmp_path, "helpers_cases.c").read_text()
    helpers = [line for line in source.splitlines()
               if line.startswith(("casadi_real casadi_", "void casadi_"))]
    assert "static inline casadi_real casadi_fmax(" in source and not helpers
    path = export.build_library(mapped, export.CodegenOptions(cache_dir=str(tmp_path)),
                                functions=[mapped])
    compiled = CCall(mapped, path)
    assert compiled.direct
    nan, inf = np.nan, np.inf
    cases = np.array([[1.0, nan], [nan, 1.0], [nan, nan], [2.0, 1.0], [1.0, 2.0],
                      [-0.0, 0.0], [0.0, -0.0], [inf, nan], [-inf, 3.0]]).T
    M0 = np.array([[1.0, 2.0], [3.0, -4.0]])
    got = compiled(cases[0], cases[1], M0)
    want = [np.array(o) for o in mapped(cases[0], cases[1], M0)]
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)      # NaN where NaN, values bitwise (±0 as 0)
    assert not _calls(path, ("fmax", "fmin", "_sq", "_fabs"))


@needs_cc
def test_direct_calls_share_work_arrays_safely_between_threads(tmp_path):
    """CCall keeps the work arrays of finished calls for the next; calls from four threads
    at once (ctypes releases the GIL in the call) each get their own. Reference: the
    virtual machine's values for every call."""
    import casadi as ca
    from concurrent.futures import ThreadPoolExecutor
    from jourdain.solver.simulation.ccall import CCall
    x = ca.SX.sym("x", 6)
    f = ca.Function("threads", [x], [ca.sin(ca.mtimes(ca.reshape(x, 2, 3),
                                                      ca.reshape(x, 3, 2))) * ca.sumsqr(x)])
    mapped = f.map("threads_map", "serial", 50, [], [])
    path = export.build_library(mapped, export.CodegenOptions(cache_dir=str(tmp_path)),
                                functions=[mapped])
    compiled = CCall(mapped, path)
    inputs = [np.random.default_rng(k).normal(size=(6, 50)) for k in range(64)]
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda a: compiled(a)[0], inputs))
    for a, g in zip(inputs, got):
        np.testing.assert_allclose(g, np.array(mapped(a)), rtol=1e-13, atol=1e-13)
    assert 1 <= len(compiled._spare) <= 4      # one set of work arrays per concurrent call


def _calls(path, names) -> list:
    """The calls whose target's name holds one of ``names`` in the library's machine code
    (objdump -d), [] without objdump."""
    import subprocess
    if shutil.which("objdump") is None:
        return []
    text = subprocess.run(["objdump", "-d", str(path)], capture_output=True,
                          text=True).stdout
    return [line for line in text.splitlines() if "call" in line and "<" in line and
            any(n in line[line.index("<"):] for n in names)]


@pytest.mark.parametrize("change", ["platform", "casadi", "compiler", "jacobian rule"])
def test_key_depends_on_environment(monkeypatch, change):
    """A cache shared between machines, CasADi versions, compilers or Jacobian rules keeps
    their libraries apart."""
    f = jd.compile(_pendulum()).functions["f"]
    options = export.CodegenOptions()
    here = export.library_key(f, options)
    if change == "platform":
        monkeypatch.setattr(export.platform, "machine", lambda: "another-cpu")
    elif change == "casadi":
        monkeypatch.setattr(export.ca, "__version__", "0.0.0")
    elif change == "compiler":
        options = export.CodegenOptions(compiler="clang")
    else:
        monkeypatch.setattr(export, "JACOBIAN_O0_BYTES", 1)
    assert export.library_key(f, options) != here


BUILD = """
import sys
import jourdain as jd
from jourdain.blocks import World
from jourdain.library import NLinkPendulum
system = jd.compile(jd.Model.on_world(World(), chain=NLinkPendulum(4)))
system.codegen(cache_dir=sys.argv[1])
assert system.library is not None and not system.f.is_a("SXFunction")
print(system.library)
"""


@needs_cc
def test_two_processes_build_the_same_entry(tmp_path):
    """Concurrent builds of one entry: both load a complete library, one file remains and no
    temporary directory is left behind."""
    import subprocess
    import sys
    jobs = [subprocess.Popen([sys.executable, "-c", BUILD, str(tmp_path)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(2)]
    outputs = [job.communicate(timeout=120) for job in jobs]
    assert all(job.returncode == 0 for job in jobs), outputs
    assert len({out.strip() for out, _ in outputs}) == 1
    assert [p.suffix for p in tmp_path.iterdir()] == [".so"]


@needs_cc
def test_codegen_flag_reaches_constrained_systems(tmp_path, monkeypatch):
    """jd.compile(..., codegen=True) compiles closed loops too (Baumgarte: a plain ODE)."""
    from jourdain.library import FourBar
    monkeypatch.setenv("JOURDAIN_CACHE", str(tmp_path))
    system = jd.compile(jd.Model.on_world(World(), bar=FourBar()),
                        constraints=jd.ConstraintMethod.BAUMGARTE, codegen=True)
    assert system.library is not None and system.library.parent == tmp_path
    _vm_agrees(system)


@needs_cc
def test_partitioned_loops_compile_to_c(tmp_path):
    """Reference: the virtual machine. A partitioned closed loop's f solves its dependent
    coordinates by a fixed number of Newton steps (SX), so it is written as C like a tree's:
    the library loads, f and its Jacobian agree with the virtual machine at assembled states,
    and a simulation on the compiled f (with the partition's watch) equals the virtual
    machine's."""
    from jourdain.library import StackedFourBars
    system = jd.compile(jd.Model.on_world(World(), st=StackedFourBars(2)))
    assert system.dependent_coordinates and system.functions["f"].is_a("SXFunction")
    system.codegen(cache_dir=tmp_path)
    assert system.library is not None and system.library.parent == tmp_path
    vm, p = system.functions["f"], system.p_default
    x = system.state(z0={"st.bar1.crank.w": 1.0, "st.bar2.crank.w": -2.0})
    np.testing.assert_allclose(np.array(system.f(0, x, [], p)), np.array(vm(0, x, [], p)),
                               rtol=1e-12, atol=1e-12)
    jac_c, jac_vm = system.f.jacobian(), vm.jacobian()
    np.testing.assert_allclose(np.array(jac_c(0, x, [], p, 0)[1]),
                               np.array(jac_vm(0, x, [], p, 0)[1]), rtol=1e-10, atol=1e-10)
    compiled = system.simulate(0.5, x0=x, n_out=6)
    system.f, system.library = vm, None
    reference = system.simulate(0.5, x0=x, n_out=6)
    np.testing.assert_allclose(compiled.x, reference.x, rtol=1e-7, atol=1e-7)
