"""The composition matrix (issue 23): every family of model through every consumer
(tests/composition.py holds the table, tests/composition_models.py the models,
tests/composition_consumers.py the consumers and their references).

References: per consumer, as its runner's docstring states (agreement of islands=True and
False, of compiled C and the virtual machine, of FMPy and simulate, of the sweep and direct
runs; central differences of f for linearize; CVODES re-simulation for a plan; the energy
balance with the event log's jumps; the player's payload against poses(x, p)); a refusal is
checked by its error class and the names its message must contain. The docs page
docs/composition.md is generated from the same table.
"""
import shutil

import pytest
from composition import (
    CONSUMERS,
    DOCS,
    FAST,
    FAMILIES,
    SLOW,
    Refuses,
    Seam,
    Works,
    cells,
    docs_page,
    expected,
    run_cell,
)


def _param(family: str, consumer: str):
    outcome, marks = expected(family, consumer), []
    if consumer in SLOW and (family, consumer) not in FAST:
        marks.append(pytest.mark.slow)
    if consumer in ("codegen", "FMU"):
        marks.append(pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc"))
    if isinstance(outcome, Seam):
        marks.append(pytest.mark.xfail(strict=True, reason=f"{outcome.what}: fixed on branch "
                                                           f"{outcome.branch}"))
    return pytest.param(family, consumer, marks=marks, id=f"{family}-{consumer}")


@pytest.mark.parametrize("family, consumer", [_param(f, c) for f, c in cells()])
def test_cell(family, consumer, tmp_path):
    """One cell: works against the consumer's reference, or refuses by name."""
    if consumer == "FMU":
        pytest.importorskip("fmpy")
    outcome = expected(family, consumer)
    if isinstance(outcome, Seam):
        outcome = outcome.then
    if isinstance(outcome, Works):
        run_cell(family, consumer, tmp_path)
        return
    assert isinstance(outcome, Refuses)
    with pytest.raises(outcome.error) as info:
        run_cell(family, consumer, tmp_path)
    message = str(info.value)
    missing = [n for n in outcome.names if n not in message]
    assert not missing, f"the refusal does not name {missing}: {message}"


def test_every_cell_has_an_outcome():
    """The table covers families × consumers and nothing else (a typo in a key would leave a
    cell silently at its default)."""
    from composition import EXPECTED
    assert set(EXPECTED) <= set(cells())
    assert len(cells()) == len(FAMILIES) * len(CONSUMERS)


def test_docs_page_is_generated_from_the_table():
    """docs/composition.md equals what `python tests/composition.py --docs` writes now."""
    assert DOCS.read_text(encoding="utf-8") == docs_page(), \
        "docs/composition.md is stale: run python tests/composition.py --docs"


def test_circuit_linearizes_to_its_closed_form():
    """A model without coordinates (an RLC circuit: states i_L, v_C) linearizes (it crashed
    in CasADi on the empty chart). Reference: the closed form of the series RLC,
    λ = −R/(2L) ± j·√(1/(LC) − (R/(2L))²), and B = (1/L, 0) for the source voltage."""
    from composition_models import circuit
    import numpy as np
    lin = circuit().system.linearize(u0={"src.v": 1.0})
    R, L, C = 2.0, 0.1, 1e-3
    alpha, omega = R / (2 * L), np.sqrt(1 / (L * C) - (R / (2 * L)) ** 2)
    got = np.sort_complex(lin.eigenvalues)
    want = np.sort_complex(np.array([-alpha - 1j * omega, -alpha + 1j * omega]))
    assert np.abs(got - want).max() <= 1e-12 * abs(want[0])
    i_L = lin.state_names.index("L.i")
    assert lin.B[i_L, 0] == pytest.approx(1 / L, rel=1e-12)
