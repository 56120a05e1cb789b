"""Closed loops through ball joints of the spanning tree (quaternion coordinates): the RSSR
spatial four-bar and a planar four-bar with a Spherical in its tree (DESIGN.md §3.7,
solver/moves.py)."""
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import (Composite, FixedTranslation, Revolute, RigidBody, Spherical,
                             World)
from jourdain.library import RSSR, FourBar
from jourdain.library.linkages import rod

A, L, B, D = 0.15, 0.7, 0.4, (0.4, 0.3, 0.3)     # RSSR defaults [m]


def _max_residual(res) -> float:
    return max(np.abs(v).max() for k, v in res.series.items() if k.startswith("residual"))


@pytest.fixture(scope="module")
def rssr():
    return jd.compile(jd.Model.on_world(World(), m=RSSR()))


def _freudenstein(phi):
    """Closed-form rocker angles ψ of the RSSR for the crank angle φ (both branches).

    Derivation: B(φ) = a·(cos φ, sin φ, 0) and C(ψ) = D + b·(0, sin ψ, −cos ψ) (crank axis z
    through the origin, rocker axis x through D); the coupler fixes |C − B|² = l²:

        (D_x − a cos φ)² + (D_y − a sin φ + b sin ψ)² + (D_z − b cos ψ)² = l²

    and, expanding with sin² + cos² = 1, P·cos ψ + Q·sin ψ + R = 0 with
    P = −2·b·D_z, Q = 2·b·(D_y − a sin φ),
    R = (D_x − a cos φ)² + (D_y − a sin φ)² + D_z² + b² − l²,
    so ψ = atan2(Q, P) ± arccos(−R / √(P² + Q²)) (the spatial analogue of Freudenstein's
    equation of the planar four-bar).
    """
    P = -2 * B * D[2]
    Q = 2 * B * (D[1] - A * np.sin(phi))
    R = (D[0] - A * np.cos(phi))**2 + (D[1] - A * np.sin(phi))**2 + D[2]**2 + B**2 - L**2
    base, half = np.arctan2(Q, P), np.arccos(-R / np.hypot(P, Q))
    return base + half, base - half


def _angle_gap(x, y):
    return abs((x - y + np.pi) % (2 * np.pi) - np.pi)


def test_rssr_structure(rssr):
    """Reference: Grübler–Kutzbach for the spatial loop, 6·(4 − 1) − 5·2 − 3·2 = 2 (the crank
    and the coupler's idle spin); the cut ball joint gives 3 independent closure equations,
    solved for the rocker and two rotation directions of the tree ball joint; the spin
    (ball_b.wx, along the coupler) moves no joint and stays independent."""
    assert rssr.z_names == ["m.crank.w", "m.ball_b.wx"]
    assert len(rssr.partition.holonomic_rows) == 3 and not rssr.partition.redundant_rows
    assert sorted(rssr.dependent_speeds) == ["m.ball_b.wy", "m.ball_b.wz", "m.rocker.w"]
    assert "m.ball_b.q0" in rssr.dependent_coordinates
    assert rssr.integrability.holonomic and rssr.f_dof == 2
    assert "turns their quaternions about the rotation directions m.ball_b.wz, m.ball_b.wy" \
        in rssr.report()


@pytest.mark.parametrize("phi", [0.0, 1.0, 2.0, 3.0, 4.0, 5.5])
def test_rssr_input_output_matches_spatial_freudenstein(rssr, phi):
    """Reference: closed form (_freudenstein's docstring). Assembly holds the given crank
    angle and finds a rocker angle on one of the two closed-form branches to 1e-9."""
    y = rssr.assemble({"m.crank.phi": phi})
    names = rssr.y_names
    assert y[names.index("m.crank.phi")] == pytest.approx(phi, abs=1e-12)  # assembly tolerance
    psi = y[names.index("m.rocker.phi")]
    assert min(_angle_gap(psi, b) for b in _freudenstein(phi)) < 1e-9
    q = y[names.index("m.ball_b.q0"):names.index("m.ball_b.q0") + 4]
    assert np.linalg.norm(q) == pytest.approx(1.0, abs=1e-12)


def test_rssr_residual_energy_and_freudenstein_over_10s(rssr):
    """References: constraint residual (Newton projection) ≤ 1e-9; conservation of energy
    (gravity only, no dissipation; measured drift 9e-9 J of 8.8 J at rtol 1e-12); and the
    closed form: the simulated (φ, ψ) stay on one Freudenstein branch (crank turning fully)."""
    res = rssr.simulate(10.0, y0={"m.crank.phi": 0.5}, z0={"m.crank.w": 8.0}, rtol=1e-12,
                        atol=1e-12, n_out=401)
    assert _max_residual(res) <= 1e-9
    energy = res["energy.total"]
    assert np.ptp(energy) < 1e-8 * abs(energy[0]) + 1e-8
    phi, psi = res["m.crank.phi"], res["m.rocker.phi"]
    assert np.ptp(phi) > 2 * np.pi                       # the crank turns fully
    gaps = [[_angle_gap(s, b) for b in _freudenstein(f)] for f, s in zip(phi, psi)]
    branch = int(np.argmin(gaps[0]))
    assert max(g[branch] for g in gaps) < 1e-9


def test_rssr_methods_agree_over_2s():
    """Reference: the other formulation. Partitioning (Newton on the quaternion's rotation
    vector), Baumgarte and the IDAS DAE integrate the same RSSR to 5e-6 over 2 s (measured at
    rtol 1e-11: Baumgarte 9e-7, whose stabilization lets c drift to ~1e-9, DAE 6e-8)."""
    model = jd.Model.on_world(World(), m=RSSR())
    runs = [jd.compile(model, constraints=m).simulate(
        2.0, y0={"m.crank.phi": 0.5}, z0={"m.crank.w": 3.0}, rtol=1e-11, atol=1e-11, n_out=41)
        for m in jd.ConstraintMethod]
    for name in ("m.crank.phi", "m.rocker.phi", "m.ball_b.q1", "m.ball_b.q3"):
        for other in runs[1:]:
            assert np.abs(other[name] - runs[0][name]).max() < 5e-6, name
    for run in runs[1:]:
        assert _max_residual(run) < 1e-7


def test_planar_four_bar_with_a_ball_joint_in_the_tree_moves_like_four_bar():
    """Reference: the same mechanism. The ball joint's out-of-plane rotations are held by the
    cut revolute's axis equations (5 equations of rank 4 on 5 speeds: 1 DOF), so crank and
    rocker follow FourBar's motion (to 1e-6 rad over 3 s; measured 4e-8 at rtol 1e-11, the
    two integrate different state vectors)."""
    start = {"y0": {"fb.crank.phi": 0.5}, "z0": {"fb.crank.w": 2.0}, "rtol": 1e-11,
             "atol": 1e-11, "n_out": 61}
    ball = jd.compile(jd.Model.on_world(World(), fb=FourBar(coupler_joint=Spherical())))
    assert ball.z_names == ["fb.crank.w"] and len(ball.partition.holonomic_rows) == 4
    runs = [jd.compile(jd.Model.on_world(World(), fb=FourBar())).simulate(3.0, **start),
            ball.simulate(3.0, **start)]
    for name in ("fb.crank.phi", "fb.rocker.phi"):
        assert np.abs(runs[0][name] - runs[1][name]).max() < 1e-6, name
    assert _max_residual(runs[1]) < 1e-9


def test_given_dependent_rocker_angle_is_held():
    """Assembly holds a given dependent coordinate (the rocker) and solves the crank and the
    ball joint's quaternion; the result lies on the closed-form relation."""
    system = jd.compile(jd.Model.on_world(World(), m=RSSR()))
    y = system.assemble({"m.rocker.phi": 1.2})
    phi = y[system.y_names.index("m.crank.phi")]
    # held to the assembly tolerance (1e-12): the final Newton projection may touch it
    assert y[system.y_names.index("m.rocker.phi")] == pytest.approx(1.2, abs=1e-12)
    assert min(_angle_gap(1.2, b) for b in _freudenstein(phi)) < 1e-9


def test_unreachable_rocker_angle_is_a_model_error(rssr):
    """Bad input. Closed form: over a crank turn _freudenstein's branches cover ψ ∈ [0.171,
    1.447] rad and [3.654, 4.401] rad (the other assembly circuit), so ψ = −1 rad cannot be
    held; the error names the coordinate, the cut ball joint and an independent coordinate
    to give instead."""
    with pytest.raises(jd.ModelError, match=r"y0: m\.rocker\.phi = -1 cannot be met under the "
                                            r"constraints of m\.ball_c.*m\.crank\.phi"):
        rssr.assemble({"m.rocker.phi": -1.0})


def test_impossible_rssr_is_a_model_error_naming_the_loop():
    """Bad input: a coupler too short to reach the rocker circle from any crank position
    (l = 0.1 m < distance ≥ 0.2 m) cannot be assembled; the error names the cut ball joint
    and the loop's joints."""
    with pytest.raises(jd.ModelError, match=r"assembly failed: the constraints of m\.ball_c "
                                            r"\(closing the loop .*m\.ball_b.*\) cannot be "
                                            r"satisfied"):
        jd.compile(jd.Model.on_world(World(), m=RSSR(l=0.1)))


class _BallRod(Composite):
    """A rod between two ball joints, one at the origin (in the tree) and one at (1, 0, 0)
    (cut): the rod's position is fixed, only its spin about its own axis remains."""

    def __init__(self):
        super().__init__()
        self.ball1, self.ball2 = Spherical(), Spherical()
        self.rod = RigidBody(m=1.0, r_cm=(0.5, 0, 0), I=(1e-3, 0.1, 0.1))
        self.end, self.anchor = FixedTranslation(r=(1, 0, 0)), FixedTranslation(r=(1, 0, 0))
        for a, b in ((self.ball1.frame_b, self.rod.frame_a),
                     (self.ball1.frame_b, self.end.frame_a),
                     (self.ball1.frame_a, self.anchor.frame_a),
                     (self.end.frame_b, self.ball2.frame_a),
                     (self.anchor.frame_b, self.ball2.frame_b)):
            self.connect(a, b)
        self.expose(self.ball1.frame_a, "frame_a")


def test_rod_between_ball_joints_only_spins():
    """The loop lies entirely in one ball joint's quaternion (it used to be refused).
    Reference: closed form. Three closure equations of rank 2 leave the spin ball1.wx; with
    no torque about the axis (gravity acts through it) the spin rate is constant, the rod
    stays on the x axis, and the quaternion turns about x: q = (cos(ωt/2), sin(ωt/2), 0, 0)."""
    system = jd.compile(jd.Model.on_world(World(), b=_BallRod()))
    assert system.z_names == ["b.ball1.wx"]
    res = system.simulate(2.0, z0={"b.ball1.wx": 2.0}, rtol=1e-11, atol=1e-11, n_out=21)
    t = res.t
    assert np.abs(res["b.ball1.wx"] - 2.0).max() < 1e-9
    assert np.abs(np.abs(res["b.ball1.q1"]) - np.abs(np.sin(t))).max() < 1e-8
    assert _max_residual(res) < 1e-9


class _HingedFreeBody(Composite):
    """A rod on a FreeJoint whose origin is pinned to the ground by a cut revolute (axis z):
    5 closure equations solved for the three positions and two rotation directions of the
    FreeJoint, leaving the rotation about z, i.e. a compound pendulum (``hinged=False``: the
    same rod on a plain Revolute)."""

    def __init__(self, hinged: bool = True):
        super().__init__()
        self.rod = rod(1.0, 0.6)
        if hinged:
            from jourdain.blocks import FreeJoint
            self.joint, self.pin = FreeJoint(), Revolute(axis=(0, 0, 1))
            self.connect(self.joint.frame_a, self.pin.frame_a)
            self.connect(self.joint.frame_b, self.pin.frame_b)
        else:
            self.joint = Revolute(axis=(0, 0, 1))
        self.connect(self.joint.frame_b, self.rod.frame_a)
        self.expose(self.joint.frame_a, "frame_a")


def test_free_joint_pinned_by_a_cut_revolute_is_a_compound_pendulum():
    """Reference: the same mechanism on a Revolute. Released horizontally from rest (it swings
    through −π/2 to −π), the FreeJoint's rotation angle 2·atan2(q3, q0) follows the revolute's
    φ (to 1e-7 rad over 2 s, measured 1.2e-8), its position stays at the pin, and the only
    speed left is wz."""
    hinged = jd.compile(jd.Model.on_world(World(), h=_HingedFreeBody()))
    assert hinged.z_names == ["h.joint.wz"]
    assert sorted(hinged.dependent_speeds) == ["h.joint.vx", "h.joint.vy", "h.joint.vz",
                                               "h.joint.wx", "h.joint.wy"]
    opts = {"rtol": 1e-11, "atol": 1e-11, "n_out": 41}
    res = hinged.simulate(2.0, **opts)
    ref = jd.compile(jd.Model.on_world(World(), h=_HingedFreeBody(False))).simulate(2.0, **opts)
    angle = 2 * np.arctan2(res["h.joint.q3"], res["h.joint.q0"])
    assert max(_angle_gap(a, b) for a, b in zip(angle, ref["h.joint.phi"])) < 1e-7
    assert max(np.abs(res[f"h.joint.{c}"]).max() for c in "xyz") < 1e-9
    assert _max_residual(res) < 1e-9


def test_complete_y_from_a_result_is_accepted(rssr):
    """A complete y from an earlier run (the ball joint's quaternion carries the coupler's
    spin, an independent direction no continuation from the reference can know) assembles to
    itself; a quaternion the loop cannot meet is a ModelError naming its entries."""
    res = rssr.simulate(1.0, y0={"m.crank.phi": 0.5},
                        z0={"m.crank.w": 8.0, "m.ball_b.wx": 1.0}, rtol=1e-10, atol=1e-10)
    y_end = {n: res[n][-1] for n in rssr.y_names}
    y = rssr.assemble(y_end)
    assert np.abs(y - np.array(list(y_end.values()))).max() < 1e-12
    identity = {"m.ball_b.q0": 1.0, "m.ball_b.q1": 0.0, "m.ball_b.q2": 0.0, "m.ball_b.q3": 0.0}
    with pytest.raises(jd.ModelError, match=r"y0: m\.ball_b\.q0 = 1, .* cannot be met under "
                                            r"the constraints of m\.ball_c"):
        rssr.assemble(identity)
