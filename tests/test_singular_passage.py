"""Partitioning passes a singular configuration of its mechanism on the branch it moves
along, or refuses by name (solver/simulation/passage.py): the IFToMM N-four-bar's flat
crossings, an anti-parallelogram's fold, and a landing on the other branch."""
import numpy as np
import pytest
from scipy.integrate import solve_ivp

import jourdain as jd
from jourdain.blocks import World
from jourdain.library import FourBar
from jourdain.library.mbs_benchmarks import NFourBar
from jourdain.solver.simulation import passage

CROSSED = dict(l0=1.0, l1=0.5, l2=1.0, l3=0.5)   # a parallelogram's link lengths


def _branch_angle(n, t):
    """The physical branch of the N-four-bar: every rod at φ from the vertical, couplers
    translating; Lagrange with T = ½·((n+1)/3 + n)·φ̇², V = 9.81·((n+1)/2 + n)·cos φ."""
    a, b = (n + 1) / 3 + n, (n + 1) / 2 + n
    sol = solve_ivp(lambda _, x: [x[1], b * 9.81 / a * np.sin(x[0])], (t[0], t[-1]),
                    [0.0, -1.0], method="DOP853", t_eval=t, rtol=1e-13, atol=1e-13)
    return sol.y


def _points(res):
    """Pivots A = 0, D = (1, 0), crank end B and rocker end C of FourBar(**CROSSED)
    (crank absolute, rocker from the upward vertical)."""
    phi, psi = res["fb.crank.phi"], res["fb.rocker.phi"]
    B = 0.5 * np.array([np.cos(phi), np.sin(phi)])
    C = np.array([1.0 - 0.5 * np.sin(psi), 0.5 * np.cos(psi)])
    return B, C


def _cross(u, v):
    return u[0] * v[1] - u[1] * v[0]


def _assembled(phi, crossed):
    """y = (crank, coupler relative to the crank, rocker) of FourBar(**CROSSED) at crank φ
    in closed form: C = B + (1, 0) on the parallelogram branch, else the other intersection
    of the circles |C − B| = 1 and |C − D| = 0.5."""
    B, D = 0.5 * np.array([np.cos(phi), np.sin(phi)]), np.array([1.0, 0.0])
    C = B + np.array([1.0, 0.0])
    if crossed:   # the mirror of C in the line BD
        u = (D - B) / np.linalg.norm(D - B)
        C = 2 * (B + u * np.dot(C - B, u)) - C
    psi = np.arctan2(-(C[0] - 1.0), C[1])
    return {"fb.crank.phi": phi, "fb.coupler.phi": np.arctan2(*(C - B)[::-1]) - phi,
            "fb.rocker.phi": psi}


def test_one_window_passes_its_20_flat_crossings_on_the_physical_branch():
    """IFToMM A02 at n = 1 over the statement's 20 s: the parallelogram folds flat 21 times,
    where every partition of its loop is singular. Each crossing is passed along the branch
    tangent (recorded in res.stats['singular_passages']). References: the one-degree-of-
    freedom Lagrange equation of the physical branch (DOP853 at 1e-13): B0's position and
    velocity within the benchmark's 1e-3 (measured 2.0e-4); the rods parallel (1e-9 rad);
    energy conservation: each passage's energy jump within its budget, and the whole run's
    energy within 1e-6 relative."""
    system = jd.compile(jd.Model.on_world(World(), m=NFourBar(1)), speeds={"z0": "m.pivot0.w"})
    res = system.simulate(20.0, z0={"z0": -1.0}, n_out=401)
    phi, w = _branch_angle(1, res.t)
    assert np.abs(res["m.pivot0.phi"] - phi).max() < 1e-3
    assert np.abs(np.cos(res["m.pivot0.phi"]) * res["m.pivot0.w"] - np.cos(phi) * w).max() \
        < 1e-3
    assert np.abs(res["m.pivot1.phi"] - res["m.pivot0.phi"]).max() < 1e-9
    passages = res.stats["singular_passages"]
    assert len(passages) == int((np.ptp(phi) - np.pi / 2) // np.pi) + 1   # each crossing once
    energy = res["energy.total"]
    budget = passage.PASS_ENERGY * 1e-9 * (1.0 + np.abs(energy).max())
    assert all(abs(q.energy_defect) < budget and q.t < q.t_after < q.t + 0.01
               for q in passages)
    assert np.ptp(energy) < 1e-6 * energy[0]


def test_anti_parallelogram_passes_its_fold_on_its_own_branch():
    """A four-bar with parallelogram link lengths assembled crossed (anti-parallelogram)
    turns through its fold, crank at φ = π, where the crossed and parallelogram branches
    meet. Reference: the crossed branch's closed-form invariant, AC ∥ BD (its four joints
    form an isosceles trapezoid), to 1e-8 m² after every passage, while on the parallelogram
    branch AB ∥ DC would hold instead (checked to be violated by more than 0.1); energy
    conservation to 1e-6 relative."""
    system = jd.compile(jd.Model.on_world(World(), fb=FourBar(**CROSSED)))
    res = system.simulate(1.5, y0=_assembled(1.0, crossed=True), z0={"fb.crank.w": 5.0},
                          n_out=301)
    assert len(res.stats["singular_passages"]) >= 2
    B, C = _points(res)
    D = np.array([[1.0], [0.0]])
    assert np.abs(_cross(C, D - B)).max() < 1e-8
    assert np.abs(_cross(B, C - D)).max() > 0.1
    energy = res["energy.total"]
    assert np.ptp(energy) < 1e-6 * energy[0]


def test_a_landing_on_the_other_branch_is_refused():
    """The branch checks of a passage (passage.branch_checks) on a parallelogram at
    crank φ = π − 2e-3, 2e-3 rad before its flat configuration, moving at 5 rad/s: the
    landing 4e-3 rad past it on the parallelogram branch (assembled with the rocker
    parallel, closed form) agrees with the extrapolation there (its own motion) within
    PASS_ANGLE; the landing at the same crank angle on the anti-parallelogram branch
    (assembled crossed) is refused by each check. Reference: the two branches' closed forms
    (rocker parallel to the crank, ψ = φ − π/2, or the trapezoid)."""
    system = jd.compile(jd.Model.on_world(World(), fb=FourBar(**CROSSED)))
    p = system.p_default

    def state(phi, crossed):
        x = system.state(y0=_assembled(phi, crossed), z0={"fb.crank.w": 5.0})
        ny = len(system.y_names)
        return x[:ny], np.array(system.G(x[:ny], p)).dot(x[ny:]).ravel()

    y0, _ = state(np.pi - 2e-3, crossed=False)
    y1, w1 = state(np.pi + 4e-3, crossed=False)
    crossed_y, crossed_w = state(np.pi + 4e-3, crossed=True)
    assert abs(crossed_y[2] - y1[2]) > 1e-3      # the branches part
    G0, G1, G_crossed = (np.array(system.G(y, p)) for y in (y0, y1, crossed_y))
    own = passage.branch_checks(G0, G1, y0, y1, y1, w1, w1)
    assert max(own.values()) < passage.PASS_ANGLE
    other = passage.branch_checks(G0, G_crossed, y0, y1, crossed_y, w1, crossed_w)
    assert min(other.values()) > 10 * passage.PASS_ANGLE


@pytest.mark.parametrize("n", [2, 5])
def test_more_windows_pass_their_crossings(n):
    """IFToMM A02 at n = 2 and 5 over 8 s (7 flat crossings). Reference: the physical
    branch's one-degree-of-freedom equation, B0's x within the benchmark's 1e-3; rods
    parallel to 1e-9 rad."""
    system = jd.compile(jd.Model.on_world(World(), m=NFourBar(n)), speeds={"z0": "m.pivot0.w"})
    res = system.simulate(8.0, z0={"z0": -1.0}, n_out=161)
    phi, _ = _branch_angle(n, res.t)
    assert np.abs(np.sin(res["m.pivot0.phi"]) - np.sin(phi)).max() < 1e-3
    for i in range(1, n + 1):
        assert np.abs(res[f"m.pivot{i}.phi"] - res["m.pivot0.phi"]).max() < 1e-9


def _flat_time(n):
    """The first flat crossing of the physical branch (φ = −π/2), from the reference."""
    t = np.linspace(0.0, 1.5, 3001)
    return float(t[np.argmax(_branch_angle(n, t)[0] < -np.pi / 2)])


def test_baumgarte_run_failing_after_a_crossing_names_the_first_crossing():
    """IFToMM A02 at n = 2 by ConstraintMethod.BAUMGARTE over 10 s with max_steps = 300:
    the motion passes the first flat configuration (t ≈ 0.71 s), goes on on another branch
    (rods apart) and the integration fails much later (measured at 8.6 s; checked below on
    the plain ODE). The error must name the first crossing, the time and the loops that lose
    rank, never the late failure. Reference: the physical branch's flat configuration (all
    rods at φ = −π/2, its time from the one-degree-of-freedom equation, within 0.02 s)."""
    from jourdain.solver.simulation.simulate import simulate
    system = jd.compile(jd.Model.on_world(World(), m=NFourBar(2)),
                        constraints=jd.ConstraintMethod.BAUMGARTE)
    run = dict(z0={"m.pivot0.w": -1.0}, n_out=201, max_steps=300)
    with pytest.raises(jd.SimulationError, match="integration failed"):
        simulate(system, 10.0, progress=False, **run)   # the premise: the ODE alone fails
    with pytest.raises(jd.SimulationError) as info:
        system.simulate(10.0, **run)
    text = str(info.value)
    assert "singular configuration" in text and "m.right1" in text and "PARTITIONING" in text
    t = float(text.split("at t = ")[1].split(" s")[0])
    assert abs(t - _flat_time(2)) < 0.02
    assert abs(float(text.split("m.pivot0.phi = ")[1].split(",")[0]) + np.pi / 2) < 0.1
