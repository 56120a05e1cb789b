"""Hygiene of the compiled-library cache (solver/simulation/codegen.py, cache.py): the temporary
stand-in for an unwritable cache is removed at exit, a cached library is verified for f and
its Jacobian at random states and parameters before use, no compiler process outlives a
build, and the cache is pruned by age and size on request.

References: the CasADi virtual machine (the uncompiled functions) for values and Jacobians;
the file system and the process table for what is left behind.
"""
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import casadi as ca
import numpy as np
import pytest

import jourdain as jd
from jourdain.__main__ import main as cli
from jourdain.blocks import World
from jourdain.library import Pendulum
from jourdain.solver.simulation import cache
from jourdain.solver.simulation import codegen as export

needs_cc = pytest.mark.skipif(shutil.which("gcc") is None, reason="no C compiler")


def _pendulum(**params):
    return jd.compile(jd.Model.on_world(World(), pendulum=Pendulum(d=0.2)), **params)


def _planted(system, directory: Path, functions) -> Path:
    """A library built from ``functions`` under the name ``system``'s f maps to."""
    f = system.functions["f"]
    name = export.library_name(f, export.CodegenOptions())
    directory.mkdir(parents=True, exist_ok=True)
    build = directory / "planting"
    build.mkdir()
    assert export._build(shutil.which("gcc"), ("-O0",), functions, build, name) == ""
    os.replace(build / name, directory / name)
    shutil.rmtree(build)
    return directory / name


def _jacobians_agree(system, p):
    """The loaded Jacobian equals the virtual machine's (the reference) at a random state."""
    x = np.random.default_rng(5).normal(size=system.nx)
    got = system.f.jacobian()(0, x, [], p, 0)
    ref = system.functions["f"].jacobian()(0, x, [], p, 0)
    for a, b in zip(got, ref):
        np.testing.assert_allclose(np.array(a), np.array(b), rtol=1e-12, atol=1e-12)


UNWRITABLE = """
import sys
import jourdain as jd
from jourdain.blocks import World
from jourdain.library import Pendulum
first = jd.compile(jd.Model.on_world(World(), p=Pendulum())).codegen()
again = jd.compile(jd.Model.on_world(World(), p=Pendulum())).codegen()
other = jd.compile(jd.Model.on_world(World(), p=Pendulum(m=2.0))).codegen()
assert first.library == again.library and first.library.exists()
assert other.library.parent == first.library.parent
print(first.library)
"""


@needs_cc
def test_unwritable_cache_leaves_no_temporary_directory(tmp_path):
    """Reference: the temporary directory listing. With JOURDAIN_CACHE under a plain file
    (cannot be created, even by root), a process builds into one temporary directory (shared
    by its builds, reused by a second codegen of the same model) and removes it at exit."""
    blocker, tmp = tmp_path / "a_file", tmp_path / "tmp"
    blocker.write_text("not a directory")
    tmp.mkdir()
    env = dict(os.environ, JOURDAIN_CACHE=str(blocker / "cache"), TMPDIR=str(tmp))
    run = subprocess.run([sys.executable, "-W", "ignore", "-c", UNWRITABLE], env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    library = Path(run.stdout.strip())
    assert library.parent.parent == tmp and library.parent.name.startswith("jourdain-cache-")
    assert not library.parent.exists() and list(tmp.iterdir()) == []


@needs_cc
def test_library_with_a_wrong_jacobian_is_rebuilt(tmp_path):
    """Reference: the virtual machine's Jacobian. A cached library whose f is right but whose
    jac_f is twice the true one (f alone would pass) is detected, rebuilt with a warning,
    and the rebuilt Jacobian is the virtual machine's."""
    system = _pendulum()
    f = system.functions["f"]
    jac = f.jacobian()
    args = [ca.MX.sym(jac.name_in(i), jac.sparsity_in(i)) for i in range(jac.n_in())]
    doubled = ca.Function("jac_f", args, [2 * out for out in jac(*args)], jac.name_in(),
                          jac.name_out())
    planted = _planted(system, tmp_path, [f, doubled])
    with pytest.warns(RuntimeWarning, match="not reproduce its Jacobian.*rebuilding"):
        system.codegen(cache_dir=tmp_path)
    assert system.library == planted and not system.f.is_a("SXFunction")
    _jacobians_agree(system, system.p_default)


@needs_cc
def test_library_right_only_at_default_parameters_is_rebuilt(tmp_path):
    """Reference: the virtual machine at other parameter values. A library that ignores the
    symbolic mass (f frozen at the default mass) agrees at the defaults but not at the
    randomly perturbed masses of the check: rebuilt, then right at m = 3 kg."""
    system = _pendulum(parameters=["pendulum.bob.m"])
    f = system.functions["f"]
    t, x, u, p = (ca.SX.sym(f.name_in(i), f.sparsity_in(i)) for i in range(4))
    frozen = ca.Function("f", [t, x, u, p], [f(t, x, u, system.p_default)], f.name_in(),
                         f.name_out())
    planted = _planted(system, tmp_path, export.derivative_functions(frozen))
    with pytest.warns(RuntimeWarning, match="does not reproduce f .*rebuilding"):
        system.codegen(cache_dir=tmp_path)
    assert system.library == planted
    p = system.parameters({"pendulum.bob.m": 3.0})
    state = np.array([0.4, -1.0])
    np.testing.assert_allclose(np.array(system.f(0, state, [], p)),
                               np.array(f(0, state, [], p)), rtol=1e-13, atol=1e-13)
    _jacobians_agree(system, p)


def _fake_compiler(tmp_path: Path, behaviour: str) -> tuple[Path, Path]:
    """An executable standing in for gcc: the job compiling jac_f.c records its pid and
    sleeps a minute; the one compiling f.c fails once that pid is recorded ("fail") or
    sleeps too ("hang")."""
    pidfile, script = tmp_path / "jac.pid", tmp_path / "fake-cc"
    script.write_text(f"""#!{sys.executable}
import os, sys, time
from pathlib import Path
marker = Path({str(pidfile)!r})
if "jac_f.c" in sys.argv:
    # written whole, then renamed: a reader never sees an empty pid file
    tmp = marker.with_suffix(".tmp")
    tmp.write_text(str(os.getpid()))
    os.replace(tmp, marker)
    time.sleep(60)
    sys.exit(0)
for _ in range(1000):
    if marker.exists():
        break
    time.sleep(0.01)
if {behaviour!r} == "hang":
    time.sleep(60)
sys.stderr.write("f.c:1:1: error: planted failure\\n")
sys.exit(1)
""")
    script.chmod(0o755)
    return script, pidfile


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.mark.parametrize("behaviour", ["fail", "hang"])
def test_no_compiler_process_outlives_the_build(tmp_path, behaviour):
    """Reference: the process table. When one compiler job fails (or the build exceeds its
    timeout) while another still runs, codegen falls back to the virtual machine with a
    warning and the other job is killed and reaped (its pid no longer exists)."""
    script, pidfile = _fake_compiler(tmp_path, behaviour)
    system = _pendulum()
    match = "planted failure" if behaviour == "fail" else "longer than the timeout of 2 s"
    with pytest.warns(RuntimeWarning, match=match):
        system.codegen(compiler=str(script), cache_dir=tmp_path / "cache", timeout=2)
    assert system.library is None and system.f.is_a("SXFunction")
    assert _gone(int(pidfile.read_text()))
    assert not list((tmp_path / "cache").glob(cache.BUILD_PREFIX + "*"))


def test_interrupted_build_kills_its_compilers(tmp_path, monkeypatch):
    """Reference: the process table. Ctrl-C (KeyboardInterrupt) while waiting for the
    compilers propagates, and the running compiler jobs are killed and reaped first."""
    script, pidfile = _fake_compiler(tmp_path, "hang")
    original = export._wait

    def interrupted(job, deadline):
        while not pidfile.exists():
            time.sleep(0.01)
        raise KeyboardInterrupt
    monkeypatch.setattr(export, "_wait", interrupted)
    with pytest.raises(KeyboardInterrupt):
        _pendulum().codegen(compiler=str(script), cache_dir=tmp_path / "cache")
    monkeypatch.setattr(export, "_wait", original)
    assert _gone(int(pidfile.read_text()))


@pytest.mark.skipif(shutil.which("true") is None, reason="no 'true' command")
def test_compiler_that_writes_nothing_falls_back(tmp_path):
    """A "compiler" that exits 0 without writing anything (here the shell's ``true``) is a
    failed build: a warning, the virtual machine, and nothing left in the cache."""
    system = _pendulum()
    with pytest.warns(RuntimeWarning, match="wrote no library"):
        system.codegen(compiler="true", cache_dir=tmp_path)
    assert system.library is None and system.f.is_a("SXFunction")
    assert list(tmp_path.iterdir()) == []


def test_codegen_timeout_is_checked():
    with pytest.raises(jd.ModelError, match="timeout must be a positive number"):
        _pendulum().codegen(timeout=-1)


def _entries(directory: Path, ages_days: list, size: int = 1000) -> list[Path]:
    """Fake cache entries last used ``ages_days`` ago."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for k, age in enumerate(ages_days):
        path = directory / f"jd_f_{k:024d}.so"
        path.write_bytes(b"\0" * size)
        stamp = time.time() - age * 86_400
        os.utime(path, (stamp, stamp))
        paths.append(path)
    return paths


def test_prune_by_age_and_size(tmp_path):
    """Reference: the directory listing. Entries unused for longer than max_age_days go
    first; then the least recently used until the rest fit in max_bytes; a dry run removes
    nothing; a build directory left by a killed build is removed once a day old, a fresh one
    (a build in progress) is kept."""
    paths = _entries(tmp_path, [40, 20, 5, 1, 0.1])
    stale, fresh = tmp_path / f"{cache.BUILD_PREFIX}old", tmp_path / f"{cache.BUILD_PREFIX}new"
    stale.mkdir(), fresh.mkdir()
    old = time.time() - 2 * 86_400
    os.utime(stale, (old, old))
    assert export.prune_cache(max_age_days=30, cache_dir=tmp_path, dry_run=True) == paths[:1]
    assert all(p.exists() for p in paths) and stale.exists()
    assert export.prune_cache(max_age_days=30, cache_dir=tmp_path) == paths[:1]
    assert not stale.exists() and fresh.exists()
    assert export.prune_cache(max_bytes=2500, cache_dir=tmp_path) == paths[1:3]
    assert [e.path for e in export.cache_entries(tmp_path)] == paths[3:]
    assert export.prune_cache(max_bytes=0, cache_dir=tmp_path) == paths[3:]
    assert export.cache_entries(tmp_path) == []
    with pytest.raises(jd.ModelError, match="max_bytes must be a number"):
        export.prune_cache(max_bytes=-1, cache_dir=tmp_path)


@needs_cc
def test_cache_hit_counts_as_use(tmp_path, monkeypatch):
    """Reference: the file's modification time. Loading a cached library marks it used, so
    pruning by age keeps a library in use however long ago it was built."""
    monkeypatch.setenv("JOURDAIN_CACHE", str(tmp_path))
    library = _pendulum().codegen().library
    old = time.time() - 90 * 86_400
    os.utime(library, (old, old))
    assert _pendulum().codegen().library == library
    assert export.prune_cache(max_age_days=30) == [] and library.exists()


def test_cache_command_lists_and_prunes(tmp_path, capsys):
    """Reference: the directory listing. ``python -m jourdain cache`` lists the entries with
    their total size; ``--prune`` with limits removes what they exclude and says so;
    ``--clear`` empties the cache."""
    paths = _entries(tmp_path, [60, 1, 0.5], size=2 * 2**20)
    assert cli(["cache", "--dir", str(tmp_path)]) == 0
    listing = capsys.readouterr().out
    assert "3 libraries, 6.0 MB" in listing and paths[0].name in listing
    assert cli(["cache", "--dir", str(tmp_path), "--prune", "--max-age-days", "30",
                "--max-mb", "3"]) == 0
    assert "removed 2 libraries (4.0 MB)" in capsys.readouterr().out
    assert [e.path for e in export.cache_entries(tmp_path)] == paths[2:]
    assert cli(["cache", "--dir", str(tmp_path), "--clear"]) == 0
    assert export.cache_entries(tmp_path) == []
    with pytest.raises(SystemExit):
        cli(["cache", "--dir", str(tmp_path), "--prune", "--max-mb", "-1"])
    assert "max_bytes must be a number" in capsys.readouterr().err
