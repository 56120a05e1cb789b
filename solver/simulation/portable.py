"""A compiled System travels to other processes and machines (sweeps, Monte Carlo, Dask).

Everything a System holds pickles (CasADi Functions serialize themselves) except a compiled
C library: ``casadi.external`` refers to a file, which a worker on another machine does not
have. So a System after ``codegen`` pickles with the library's bytes and name (the name is
the cache key: a hash of f, the compiler options, CasADi's version and the platform). On
unpickling, the library is looked up in the worker's cache (``$JOURDAIN_CACHE`` or
``~/.cache/jourdain``); if missing it is written there from the bytes (atomically, so
workers sharing a cache never see a partial file); if it does not load or does not
reproduce the virtual machine's f (another platform), it is rebuilt from f with the default
compiler options, and if no compiler works the worker keeps the virtual machine, with the
warnings of :func:`.codegen.attach`. Each library is loaded and verified once per process.

Attributes the compiler leaves to be built on first use are built before pickling (their
builders hold the compiler's symbols, which do not pickle); the integrability
classification of a constrained system travels only if it was computed; its partition bank
(which builds other partitions from the compiler's expressions) is pickled in CasADi's global
pickle context.
"""
from __future__ import annotations

import contextlib
import os
import pickle
import tempfile
from pathlib import Path

import casadi as ca

from jourdain.blocks.errors import ModelError

from .cache import default_dir, writable_dir
from .codegen import _reference_state, attach, load

_LOADED: dict[str, tuple[Path, object]] = {}   # library name -> (path, compiled f) here


def _integrability_not_shipped():
    raise ModelError("the integrability classification was not computed before this system "
                     "was pickled (it needs the compiler's symbols); read "
                     "system.integrability before sending the system to other processes")


def system_state(system) -> dict:
    """The System's attributes for pickling, with a compiled library shipped as bytes.
    Attributes built on first use (``_lazy``: their builders hold the compiler's symbols)
    are built now; the integrability classification, unless computed, is not shipped."""
    for name in list(system.__dict__.get("_lazy", {})):
        getattr(system, name)
    state = dict(system.__dict__)
    if "_classify" in state and state.get("_integrability") is None:
        state["_classify"] = _integrability_not_shipped
    if state.get("partitions") is not None:
        state["partitions"] = InContext(state["partitions"])
    library = state.get("library")
    if library is not None and state.get("f") is not state["functions"].get("f"):
        path = Path(library)
        try:
            data = path.read_bytes()
        except OSError:   # removed from the cache since: the worker rebuilds it
            data = None
        state["f"] = None
        state["shipped_library"] = (path.name, data)
    return state


class InContext:
    """An object holding CasADi symbols (a constrained system's partition bank builds other
    partitions from the compiler's expressions), pickled in CasADi's global pickle context,
    which keeps the symbols' identities within it."""

    def __init__(self, obj):
        self.obj = obj

    def __getstate__(self):
        with ca.global_pickle_context():
            return {"data": pickle.dumps(self.obj)}

    def __setstate__(self, state):
        with ca.global_unpickle_context():
            self.obj = pickle.loads(state["data"])


def restore_system(system, state: dict) -> None:
    """Set the attributes of an unpickled System and re-attach its shipped library."""
    if isinstance(state.get("partitions"), InContext):
        state["partitions"] = state["partitions"].obj
    shipped = state.pop("shipped_library", None)
    system.__dict__.update(state)
    if shipped is None:
        return
    system.f = system.functions["f"]
    system.library = None
    name, data = shipped
    if name in _LOADED:
        system.library, system.f = _LOADED[name]
        return
    for path in _candidates(name, data):
        compiled = load(system.functions["f"], path, system.p_default,
                        _reference_state(system, system.functions["f"]))
        if compiled is not None:
            _LOADED[name] = (path, compiled)
            system.library, system.f = path, compiled
            return
    attach(system)   # rebuild here from f (or keep the virtual machine, with a warning)
    if system.library is not None:
        _LOADED[name] = (system.library, system.f)


def _candidates(name: str, data: bytes | None) -> list[Path]:
    """Where the library may be: this process's cache, else written there from ``data``."""
    directory = default_dir()
    path = directory / name
    if path.is_file():
        return [path]
    if data is None:
        return []
    directory, _ = writable_dir(directory)
    path = directory / name
    fd, tmp = tempfile.mkstemp(prefix=".jd-shipped-", dir=directory)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.chmod(tmp, 0o755)
        os.replace(tmp, path)   # atomic: other workers see all or nothing
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        return []
    return [path]
