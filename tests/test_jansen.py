"""Theo Jansen's leg and the multi-leg walker (jourdain.library.jansen).

References: the position analysis solved independently (scipy's fsolve on the ten distance
equations of the leg at each crank angle, continued along the motion), the three constraint
methods against each other, conservation of energy and the closure residuals.
"""
import numpy as np
import pytest
from scipy.optimize import fsolve

import jourdain as jd
from jourdain.blocks import World
from jourdain.library import JansenLinkage, JansenWalker

# Jansen's lengths (Wikipedia's "holy numbers", leg units) and the pairs they separate
LENGTHS = dict(a=38.0, b=41.5, c=39.3, d=40.1, e=55.8, f=39.4, g=36.7, h=65.7, i=49.0,
               j=50.0, k=61.9, l=7.8, m=15.0)
DISTANCES = (("A", "C", "j"), ("B", "C", "b"), ("A", "D", "k"), ("B", "D", "c"),
             ("B", "E", "d"), ("C", "E", "e"), ("E", "F", "f"), ("D", "F", "g"),
             ("D", "G", "i"), ("F", "G", "h"))
UNKNOWN = ("C", "D", "E", "F", "G")


def _foot(theta: float, guess: np.ndarray) -> np.ndarray:
    """C, D, E, F, G (10 numbers, leg units) solving the distance equations at crank angle
    theta, from ``guess``; the solver must converge to round-off."""
    A = LENGTHS["m"] * np.array([np.cos(theta), np.sin(theta)])
    B = np.array([-LENGTHS["a"], -LENGTHS["l"]])

    def residual(v):
        P = {"A": A, "B": B, **{n: v[2 * i:2 * i + 2] for i, n in enumerate(UNKNOWN)}}
        return [np.linalg.norm(P[p] - P[q]) - LENGTHS[L] for p, q, L in DISTANCES]
    sol, info, ok, msg = fsolve(residual, guess, xtol=1e-13, full_output=True)
    assert ok == 1 and np.abs(info["fvec"]).max() < 1e-9, msg
    return sol


def test_leg_foot_path_matches_the_independent_position_analysis():
    """Reference: fsolve of the loop equations at each simulated crank angle, started from a
    rough sketch of the leg at θ = 0 (Jansen's drawing: C up, D down, E and F to the left, G
    the foot) and continued along the motion. The simulated leg (no gravity, the crank
    turning freely from 6 rad/s through more than a revolution) puts its foot point where the
    equations do, to 1e-9 m; the foot path spans Jansen's stride (about 0.65 m at scale
    0.01) and the closure residuals stay below 1e-9."""
    system = jd.compile(jd.Model.on_world(World(g=(0, 0, 0)), leg=JansenLinkage()))
    res = system.simulate(2.2, z0={"leg.O.w": 6.0}, n_out=221)
    theta = res["leg.O.phi"]
    assert np.ptp(theta) > 2 * np.pi
    q = system.quantities.map(res.t.size)(res.t, res.x, np.zeros((0, res.t.size)),
                                           np.repeat(system.p_default[:, None], res.t.size, 1))
    names = system.quantity_names
    foot = np.array(q)[[names.index(f"leg.toe.frame_b.r_0[{i}]") for i in (0, 1)]] / 0.01
    guess = np.array([-24, 31, -27, -45, -75, 8, -59, -28, -43, -92], dtype=float)
    worst = 0.0
    for k, th in enumerate(theta):
        guess = _foot(th, guess)
        worst = max(worst, np.abs(foot[:, k] - guess[8:]).max())
    assert worst * 0.01 < 1e-9
    assert 60 < np.ptp(foot[0]) < 70
    residuals = [v for k, v in res.series.items() if k.startswith("residual")]
    assert max(np.abs(r).max() for r in residuals) < 1e-9


def test_walker_agrees_across_methods_and_conserves_energy():
    """Reference: the other constraint methods and conservation of energy. Two legs (a
    mirrored pair on one crank pin) under gravity, released with the crank at 8 rad/s:
    partitioning, Baumgarte and the DAE agree on every coordinate to 1e-6 rad at rtol 1e-9;
    without friction the partitioned run keeps its total energy to 1e-6 of the kinetic
    energy's scale and its loops closed to 1e-9."""
    runs = []
    for method in jd.ConstraintMethod:
        system = jd.compile(jd.Model.on_world(World(), w=JansenWalker(legs=2)),
                            constraints=method)
        runs.append(system.simulate(0.4, z0={"w.crank.w": 8.0}, rtol=1e-9, atol=1e-9,
                                    n_out=41))
    names = runs[0].system.y_names
    assert len(runs[0].system.z_names) == 1          # one degree of freedom for all legs
    for other in runs[1:]:
        assert max(np.abs(other[n] - runs[0][n]).max() for n in names) < 1e-6
    energy = runs[0]["energy.total"]
    assert np.ptp(energy) < 1e-6 * runs[0]["energy.kinetic"].max()
    residuals = [v for k, v in runs[0].series.items() if k.startswith("residual")]
    assert max(np.abs(r).max() for r in residuals) < 1e-9


@pytest.mark.parametrize("legs", [1, 3])
def test_walker_legs_share_the_crank(legs):
    """Reference: Grübler's count. n legs on one crank have 1 + 6·n tree joints and 3·n cut
    joints (2 independent closure equations each): one degree of freedom, and every leg's
    joints are dependent."""
    system = jd.compile(jd.Model.on_world(World(), w=JansenWalker(legs=legs)))
    assert system.z_names == ["w.crank.w"]
    assert len(system.y_names) == 1 + 6 * legs
    assert len(system.dependent_coordinates) == 6 * legs
