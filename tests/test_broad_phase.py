"""The sweep-and-prune broad phase (solver/collision/broad.py). Reference: the brute-force
test of every pair (the bounding spheres' distance and the filter rules, pair by pair)."""
from __future__ import annotations

import numpy as np
import pytest

import jourdain as jd
from jourdain.solver.collision.broad import BroadPhase, brute_force


def _scene(seed: int, n: int):
    rng = np.random.default_rng(seed)
    centres = rng.uniform(-1, 1, (n, 3)) * (1.0, 0.3, 0.6)
    radii = rng.uniform(0.0, 0.12, n)
    return rng, centres, radii


@pytest.mark.parametrize("seed", range(6))
def test_sweep_and_prune_finds_the_brute_force_pairs(seed):
    """On random scenes (60 bounding spheres, margins 0 to 0.1 m, random bodies, collision
    bits and excluded body pairs) the sweep and prune returns exactly the pairs that the
    test of every pair accepts (reference: brute force), and some but not all pairs."""
    rng, centres, radii = _scene(seed, 60)
    bodies = rng.integers(0, 45, 60)
    groups, masks = rng.integers(0, 4, 60), rng.integers(0, 4, 60)
    excluded = [tuple(rng.integers(0, 45, 2)) for _ in range(10)]
    phase = BroadPhase(radii, bodies, groups, masks, excluded)
    for margin in (0.0, 0.03, 0.1):
        found = phase.pairs(centres, margin)
        brute = brute_force(phase, centres, margin)
        assert np.array_equal(found, brute)
    assert 0 < len(found) < 60 * 59 // 2


def test_filter_rules():
    """The contact filter of docs/hybrid.md on four overlapping spheres: colliders of one
    body never pair, excluded (parent–child) body pairs never pair, bits pair only when
    a.group & b.mask or b.group & a.mask, and an allowed list keeps only its pairs
    (reference: the rules applied by hand to the six pairs)."""
    centres, radii = np.zeros((4, 3)), np.full(4, 0.1)
    assert BroadPhase(radii).pairs(centres).tolist() == [[0, 1], [0, 2], [0, 3], [1, 2],
                                                          [1, 3], [2, 3]]
    assert BroadPhase(radii, bodies=[0, 0, 1, 1]).pairs(centres).tolist() == \
        [[0, 2], [0, 3], [1, 2], [1, 3]]
    assert BroadPhase(radii, bodies=[0, 1, 2, 3], excluded=[(2, 0)]).pairs(
        centres).tolist() == [[0, 1], [0, 3], [1, 2], [1, 3], [2, 3]]
    # groups 1, 2, 2, 4 with masks 2, 1, 0, 4: 0–1 (1 & 1), 0–2 (2 & 2), 3 with none but
    # itself; 1–2: 2 & 0 = 0 and 2 & 1 = 0
    phase = BroadPhase(radii, groups=[1, 2, 2, 4], masks=[2, 1, 0, 4])
    assert phase.pairs(centres).tolist() == [[0, 1], [0, 2]]
    phase = BroadPhase(radii, allowed=[(3, 1), (0, 2)])
    assert phase.pairs(centres).tolist() == [[0, 2], [1, 3]]


def test_far_apart_and_touching():
    """Two spheres of radius 0.1 m: centres 0.25 m apart do not pair without a margin and do
    with a 0.05 m one (the gap is exactly 0.05 m: |c_i − c_j| ≤ r_i + r_j + margin); a
    third far away pairs with none (reference: the gap by hand)."""
    centres = np.array([[0.0, 0.0, 0.0], [0.25, 0.0, 0.0], [5.0, 0.0, 0.0]])
    phase = BroadPhase([0.1, 0.1, 0.1])
    assert phase.pairs(centres).tolist() == []
    assert phase.pairs(centres, 0.05 + 1e-12).tolist() == [[0, 1]]


def test_bad_input_is_named():
    """Infinite radii (a plane), a wrong number of centres or bodies are ModelErrors that
    say what to give."""
    with pytest.raises(jd.ModelError, match="finite"):
        BroadPhase([0.1, np.inf])
    with pytest.raises(jd.ModelError, match="3 centres for 2"):
        BroadPhase([0.1, 0.1]).pairs(np.zeros((3, 3)))
    with pytest.raises(jd.ModelError, match="bodies must be 2 integers"):
        BroadPhase([0.1, 0.1], bodies=[0])
