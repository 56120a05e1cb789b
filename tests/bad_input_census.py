"""Run the catalogue of bad inputs (tests/bad_inputs.py) and count the outcomes: a named error
of the right family, a jourdain error that misses a name, a raw exception (numpy, CasADi,
networkx, Python), silent acceptance, or a hang (no answer within the time limit).

    MPLBACKEND=Agg .venv/bin/python tests/bad_input_census.py [--timeout 20] [--verbose]

Each case runs in a forked child (the shared systems are built before forking), so a hang
inside CVODES can be stopped.
"""
from __future__ import annotations

import argparse
import os
import pickle
import signal
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import bad_inputs  # noqa: E402

import jourdain as jd  # noqa: E402

JD_ERRORS = (jd.ModelError, jd.SimulationError, jd.OptimizationError)


def classify(case) -> tuple[str, str]:
    try:
        case.call()
    except BaseException as exc:  # noqa: BLE001 - the census counts every kind
        text = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
        if isinstance(exc, case.error) and all(n in str(exc) for n in case.names):
            return "named", text
        if isinstance(exc, JD_ERRORS):
            return "unnamed", text
        return "raw", text
    return "silent", "no error"


def run(case, timeout: float) -> tuple[str, str]:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        devnull = os.open(os.devnull, os.O_WRONLY)  # CasADi and CVODES print to fd 1 and 2
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        import warnings
        warnings.simplefilter("ignore")
        try:
            outcome = classify(case)
        except BaseException as exc:  # noqa: BLE001
            outcome = ("raw", repr(exc))
        os.write(write, pickle.dumps(outcome))
        os._exit(0)
    os.close(write)
    start = time.time()
    while time.time() - start < timeout:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.02)
    else:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(read)
        return "hang", f"no answer in {timeout:g} s"
    data = os.read(read, 1 << 20)
    os.close(read)
    return pickle.loads(data) if data else ("raw", "child died")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--timeout", type=float, default=20.0)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    for build in (bad_inputs.cube, bad_inputs.cube_lin, bad_inputs.pendulum_lin,
                  bad_inputs.four_bar):
        build()
    counts = Counter()
    for case in bad_inputs.CASES:
        kind, text = run(case, args.timeout)
        counts[kind] += 1
        if args.verbose or kind != "named":
            print(f"{kind:8s} {case.id}: {text[:150]}")
    total = len(bad_inputs.CASES)
    print(f"\n{total} cases: " + ", ".join(f"{k} {counts[k]}" for k in
                                          ("named", "unnamed", "raw", "silent", "hang")) +
          f" ({100 * counts['named'] / total:.0f} % named)")


if __name__ == "__main__":
    main()
