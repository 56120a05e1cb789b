"""C code generation and its on-disk cache (solver/export.py).

References: the CasADi virtual machine (the same functions uncompiled) for values, Jacobians
and simulations; the cache is checked by which library file a model and options map to.
"""
import shutil

import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import World
from jourdain.library import DoublePendulum, NLinkPendulum, Pendulum
from jourdain.solver import export

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
