"""Where the runs of a study execute: in this process, in local worker processes, or on a Dask
distributed cluster, with the same code per run (:func:`.tasks.execute`).

The System and the task travel to each worker once (pickled: a System after ``codegen``
carries its C library, :mod:`jourdain.solver.simulation.portable`; functions of the user's
go with cloudpickle, so lambdas work), the runs in chunks (a few per worker and chunk, to
keep the per-run overhead small while progress stays visible). Local workers are forked
where the platform allows (no import per worker), else spawned. A worker that dies takes
its chunk with it: those runs are reported as failed, the others go on.
"""
from __future__ import annotations

import math
import multiprocessing
import os
import pickle
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed

from jourdain.blocks.errors import ModelError

from .runs import Run
from .tasks import Job, execute

_WORKER: dict = {}   # in a worker process: the unpickled (system, job)


class Payload:
    """The System and the Job as one object (Dask scatters it whole, once per worker)."""

    def __init__(self, system, job: Job):
        self.system, self.job = system, job


def dumps(obj) -> bytes:
    """Pickle with cloudpickle when installed (functions defined in scripts and lambdas),
    else with pickle; a failure names what could not be pickled."""
    try:
        import cloudpickle
        return cloudpickle.dumps(obj)
    except ImportError:
        pass
    except Exception as exc:
        raise ModelError(f"sweep: the system or the task cannot be sent to worker processes "
                         f"({type(exc).__name__}: {exc}); run with workers=1") from exc
    try:
        return pickle.dumps(obj)
    except Exception as exc:
        raise ModelError(f"sweep: the system or the task cannot be pickled for worker "
                         f"processes ({type(exc).__name__}: {exc}); define task and metric "
                         "functions at module level, install cloudpickle, or run with "
                         "workers=1") from exc


def chunks(runs: list[Run], workers: int, size: int | None) -> list[list[Run]]:
    """Runs in chunks of ``size`` (default: about eight chunks per worker, at most 50 runs)."""
    if size is None:
        size = max(1, min(50, math.ceil(len(runs) / (8 * max(1, workers)))))
    return [runs[i:i + size] for i in range(0, len(runs), size)]


def _failed(chunk: list[Run], error: BaseException) -> list[dict]:
    text = f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"
    return [{"run": r.index, **r.values, "status": "failed",
             "error": f"worker lost: {text}"[:500], "seconds": float("nan"),
             "cpu_seconds": float("nan")} for r in chunk]


def run_serial(system, runs: list[Run], job: Job, bar) -> list[dict]:
    rows = []
    for run in runs:
        rows.append(execute(system, run, job))
        bar.update(1)
    return rows


def _init_worker(payload: bytes) -> None:
    obj = pickle.loads(payload)
    _WORKER["system"], _WORKER["job"] = obj.system, obj.job


def _run_chunk(chunk: list[Run]) -> list[dict]:
    return [execute(_WORKER["system"], run, _WORKER["job"]) for run in chunk]


def _context():
    """fork where it is available and safe (Linux), else spawn."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods and
                                       sys.platform.startswith("linux") else "spawn")


def run_processes(system, runs: list[Run], job: Job, workers: int, size, bar) -> list[dict]:
    payload = dumps(Payload(system, job))
    rows = []
    with ProcessPoolExecutor(max_workers=workers, mp_context=_context(),
                             initializer=_init_worker, initargs=(payload,)) as pool:
        futures = {pool.submit(_run_chunk, chunk): chunk for chunk in chunks(runs, workers, size)}
        for future in as_completed(futures):
            try:
                done = future.result()
            except Exception as exc:   # the worker died (a crash in native code)
                done = _failed(futures[future], exc)
            rows += done
            bar.update(len(done))
    return rows


def _dask_chunk(payload: Payload, chunk: list[Run]) -> list[dict]:
    return [execute(payload.system, run, payload.job) for run in chunk]


def dask_client(client):
    """(client, whether we opened it): a dask.distributed.Client as given, or one connected
    to the scheduler address given as a string."""
    try:
        from dask.distributed import Client
    except ImportError as exc:
        raise ModelError("sweep: client= needs dask.distributed: pip install "
                         "'jourdain[studies]'") from exc
    if isinstance(client, Client):
        return client, False
    if isinstance(client, str):
        try:
            return Client(client, timeout="10s"), True
        except OSError as exc:
            raise ModelError(f"sweep: cannot reach the Dask scheduler at '{client}': "
                             f"{exc}") from exc
    raise ModelError(f"sweep: client must be a dask.distributed.Client or the address of a "
                     f"scheduler (e.g. 'tcp://10.0.0.1:8786'), got {client!r:.60}")


def run_dask(system, runs: list[Run], job: Job, client, size, bar) -> list[dict]:
    from dask.distributed import as_completed as dask_completed

    client, opened = dask_client(client)
    try:
        workers = sum(client.nthreads().values()) or 1
        handle = client.scatter(Payload(system, job), broadcast=True, hash=False)
        futures = {}
        for chunk in chunks(runs, workers, size):
            futures[client.submit(_dask_chunk, handle, chunk, pure=False)] = chunk
        rows = []
        for future in dask_completed(list(futures)):
            try:
                done = future.result()
            except Exception as exc:
                done = _failed(futures[future], exc)
            rows += done
            bar.update(len(done))
        return rows
    finally:
        if opened:
            client.close()


def default_workers() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)
