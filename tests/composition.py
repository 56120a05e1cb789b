"""The composition matrix (issue 23): every family of model (tests/composition_models.py)
through every consumer, each cell with its expected outcome. A cell either **works** against
a stated reference or **refuses** by name (the error class and the words its message must
contain); none may be silent, none may crash with a raw exception.

``tests/test_composition.py`` runs every cell; ``python tests/composition.py --docs`` writes
``docs/composition.md`` from the same data (a test checks the committed page equals it).

Consumers (the columns) and their references:

* ``simulate``: islands=True and islands=False agree (states to 1e-6 relative at
  rtol = 1e-9); constraint residuals, where the model has any, stay below 1e-6.
* ``codegen``: the compiled f equals the virtual machine's at the start (1e-9 relative), and
  a simulation with it equals the virtual machine's (1e-6 relative).
* ``FMU``: the exported FMU run by FMPy (model exchange, its own CVODE) equals simulate's
  states to 1e-5 relative.
* ``linearize``: the speed rows of A equal central differences of the nonlinear f through
  the LinearSystem's chart (``to_state``), to 1e-5 relative.
* ``TrajectoryProblem``: a short plan (8 Radau intervals) re-simulated by CVODES
  (``Solution.check``): the local error of the transcription below 1e-4 relative.
* ``sweep``: every row of a two-point parameter sweep equals a direct simulate with that
  parameter (1e-8 relative).
* ``energy``: E(T) − E(0) = ∫(P_supplied − P_dissipated) dt + the jumps of E at the events
  of the log, to 1e-4 of the energy scale (trapezoid on 2001 outputs).
* ``animation``: the HTML player's payload (MeshCat's three.js) holds the poses of every
  shape equal to ``poses(x, p)`` of the Result, to float32 round-off.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import composition_consumers as consumers  # noqa: E402
from composition_models import FAMILIES  # noqa: E402

import jourdain as jd  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "composition.md"


@dataclass(frozen=True)
class Works:
    """The cell works; ``reference`` says what differs from the consumer's own reference
    (``tol``: its tolerance where the model's nature changes it, e.g. a kink)."""
    reference: str = ""
    tol: float | None = None


@dataclass(frozen=True)
class Refuses:
    """The cell refuses with ``error`` whose message contains every one of ``names``."""
    error: type
    names: tuple
    why: str


@dataclass(frozen=True)
class Seam:
    """A known seam fixed on another branch: the cell is expected to work (``then``) once
    ``branch`` is merged; until then it fails (xfail, strict)."""
    branch: str
    what: str
    then: object = Works()


#: consumer name -> (runner, its reference in words)
CONSUMERS = {
    "simulate": consumers.simulate,
    "codegen": consumers.codegen,
    "FMU": consumers.fmu,
    "linearize": consumers.linearize,
    "TrajectoryProblem": consumers.trajectory,
    "sweep": consumers.sweep,
    "energy": consumers.energy,
    "animation": consumers.animation,
}

#: consumers whose cells take seconds each (a C build, FMPy, IPOPT): marked slow except in
#: the families listed in FAST (one cell of each consumer stays in the default suite)
SLOW = {"codegen", "FMU", "TrajectoryProblem"}
FAST = {("tree", "codegen"), ("loop", "FMU"), ("tree", "TrajectoryProblem")}

W = Works()
PYTHON_LAW = Refuses(jd.ModelError, ("close_loop", "Python function"),
                     "a Python controller runs in simulate(controller=fn), it cannot enter "
                     "the CasADi graph of a System")
SAMPLED_LAW = Refuses(jd.ModelError, ("close_loop", "sampled", "period"),
                      "a sampled controller runs in simulate(controller=, period=); a System "
                      "with sampling takes a DiscreteStateFeedback block")
EVENT_KEYWORD = {
    "FMU": Refuses(jd.ModelError, ("export_fmu", "events"),
                   "user events are simulate's; an FMU carries the model only"),
    "linearize": Refuses(jd.ModelError, ("linearize", "events"),
                         "a linearization is local: user events do not enter it"),
    "TrajectoryProblem": Refuses(jd.ModelError, ("TrajectoryProblem", "events"),
                                 "user events are simulate's; a plan takes path constraints"),
}

def _modal_fmu(element: str) -> Refuses:
    return Refuses(jd.ModelError, ("export_fmu", element),
                   "an FMU has no state events (impacts, stick/slip, contact)")


#: (family, consumer) -> expected outcome; a cell not listed works (W)
EXPECTED = {
    ("driver", "linearize"): Refuses(jd.ModelError, ("linearize", "kinematic drivers"),
                                     "prescribed motion of time has no operating point"),
    ("circuit", "animation"): Refuses(jd.ModelError, ("animate", "nothing to draw"),
                                      "a circuit has no bodies or shapes: plot its series"),
    ("stop", "FMU"): _modal_fmu("limit (Stop)"),
    ("elastogap", "TrajectoryProblem"): Works(
        "the contact's onset (a kink of the force) inside an interval makes collocation "
        "second order there: local error 4e-4 at 20 intervals, 3e-5 at 80; 1e-3 relative",
        tol=1e-3),
    ("friction", "FMU"): _modal_fmu("clutch (Clutch)"),
    ("contact", "FMU"): _modal_fmu("touch (GroundContact)"),
    ("sampled", "linearize"): Refuses(jd.ModelError, ("linearize", "zoh (ZeroOrderHold",
                                                      "pid (DiscretePID", "pid.y", "params"),
                                      "held outputs of sampled blocks are parameters: state "
                                      "them (the plant in one sample interval) or simulate"),
    ("sampled", "TrajectoryProblem"): Refuses(jd.ModelError, ("TrajectoryProblem",
                                                              "zoh (ZeroOrderHold",
                                                              "pid (DiscretePID", "pid.y",
                                                              "params"),
                                              "a plan holds the held outputs fixed: state "
                                              "them or simulate"),
    ("events", "FMU"): EVENT_KEYWORD["FMU"],
    ("events", "linearize"): EVENT_KEYWORD["linearize"],
    ("events", "TrajectoryProblem"): EVENT_KEYWORD["TrajectoryProblem"],
    **{("controller (Python)", c): PYTHON_LAW for c in ("FMU", "linearize",
                                                       "TrajectoryProblem")},
    **{("controller (sampled)", c): SAMPLED_LAW for c in ("FMU", "linearize",
                                                         "TrajectoryProblem")},
}


def expected(family: str, consumer: str):
    return EXPECTED.get((family, consumer), W)


def cells() -> list[tuple[str, str]]:
    return [(f, c) for f in FAMILIES for c in CONSUMERS]


def run_cell(family: str, consumer: str, tmp_path: Path) -> None:
    """Run one cell: the consumer on a fresh build of the family's model; raises what the
    consumer raises (an AssertionError where the reference does not hold)."""
    outcome = expected(family, consumer)
    outcome = outcome.then if isinstance(outcome, Seam) else outcome
    options = {"tol": outcome.tol} if isinstance(outcome, Works) and outcome.tol else {}
    CONSUMERS[consumer](FAMILIES[family], Path(tmp_path), **options)


# ---- the docs page ------------------------------------------------------------------------
def _mark(outcome) -> str:
    if isinstance(outcome, Seam):
        return f"⚠ {_mark(outcome.then)}"
    return "✓" if isinstance(outcome, Works) else "✗"


def _words(outcome) -> str:
    if isinstance(outcome, Seam):
        return f"known seam, fixed on branch `{outcome.branch}`: {outcome.what}"
    if isinstance(outcome, Works):
        return outcome.reference or "the consumer's reference (above)"
    names = ", ".join(f"'{n}'" for n in outcome.names)
    return f"refused: `{outcome.error.__name__}` naming {names}: {outcome.why}"


def docs_page() -> str:
    """docs/composition.md as generated from FAMILIES, CONSUMERS and EXPECTED."""
    cols = list(CONSUMERS)
    out = ["# The composition matrix", "",
           "<!-- generated by `python tests/composition.py --docs`; do not edit -->", "",
           "Every family of model through every consumer. Each cell either works against a "
           "stated reference (✓) or refuses by name (✗: the error and what its message "
           "names); none is silent." + (" ⚠ marks a known seam being fixed (the test "
                                          "expects it to fail until then)."
                                          if any(isinstance(v, Seam) for v in EXPECTED.values())
                                          else "") +
           " `tests/test_composition.py` runs every cell; this page is generated from the "
           "same table (`tests/composition.py`).", "",
           "## Families", ""]
    for name, build in FAMILIES.items():
        out.append(f"* **{name}**: {build.__doc__.strip().splitlines()[0]}"
                   + (" " + " ".join(l.strip() for l in build.__doc__.strip().splitlines()[1:])
                      if len(build.__doc__.strip().splitlines()) > 1 else ""))
    out += ["", "## Consumers and their references", ""]
    for name, runner in CONSUMERS.items():
        out.append(f"* **{name}**: {' '.join(runner.__doc__.split())}")
    out += ["", "## The matrix", "", "| family | " + " | ".join(cols) + " |",
            "|---|" + "---|" * len(cols)]
    for fam in FAMILIES:
        out.append(f"| {fam} | " + " | ".join(_mark(expected(fam, c)) for c in cols) + " |")
    counts = {k: sum(1 for f, c in cells() if _kind(expected(f, c)) == k)
              for k in ("works", "refused", "seam")}
    seams = f", {counts['seam']} are known seams being fixed" if counts["seam"] else ""
    out += ["", f"{len(cells())} cells: {counts['works']} work, {counts['refused']} refuse by "
            f"name{seams}.", "", "## Refusals and notes", ""]
    for fam, con in cells():
        outcome = expected(fam, con)
        if outcome != W:
            out.append(f"* {fam} × {con}: {_words(outcome)}")
    return "\n".join(out) + "\n"


def _kind(outcome) -> str:
    return "seam" if isinstance(outcome, Seam) else \
        "works" if isinstance(outcome, Works) else "refused"


if __name__ == "__main__":
    if sys.argv[1:] == ["--docs"]:
        DOCS.write_text(docs_page(), encoding="utf-8")
        print(f"wrote {DOCS}")
    else:
        print(__doc__)
