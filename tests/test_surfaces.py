"""Parametric surfaces (the MSL's Visualizers.Advanced.Surface, Torus, VoluminousWheel,
PipeWithScalarField; blocks/visual/surfaces.py): the generated meshes against the closed forms
of their surfaces, and the player's payload."""
import numpy as np
import pytest
from test_visual import floats, payload   # the player's data, as the visual tests read it

import jourdain as jd
from jourdain.blocks import Revolute, RigidBody, World
from jourdain.blocks.visual import PipeWithScalarField, Surface, Torus, VoluminousWheel


def _area_volume(shape):
    P, F = shape.vertices, shape.faces
    a, b, c = P[F[:, 0]], P[F[:, 1]], P[F[:, 2]]
    area = 0.5 * np.linalg.norm(np.cross(b - a, c - a), axis=1).sum()
    return area, np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6


def test_torus_mesh_converges_to_the_closed_forms():
    """Reference: the torus of major radius R and tube radius r: every point at distance r
    from the tube's centre circle (to round-off); the triangulated area and enclosed volume
    (divergence theorem over consistently oriented triangles) converge to 4π²·R·r and
    2π²·R·r² as O(1/n²): within 1 % and 2.5 % at 40 × 20 points, 16 times closer at 160 × 80."""
    R, r = 0.5, 0.1
    errors = []
    for n_R, n_r in ((40, 20), (160, 80)):
        torus = Torus(R=R, r=r, n_R=n_R, n_r=n_r)
        P = torus.vertices
        assert P.shape == (n_R * n_r, 3) and torus.faces.shape == (2 * (n_R - 1) * (n_r - 1), 3)
        ring = np.hypot(P[:, 0], P[:, 2])
        assert np.abs(np.hypot(ring - R, P[:, 1]) - r).max() < 1e-14
        area, volume = _area_volume(torus)
        errors.append((abs(area / (4 * np.pi ** 2 * R * r) - 1),
                       abs(abs(volume) / (2 * np.pi ** 2 * R * r ** 2) - 1)))
    (a1, v1), (a2, v2) = errors
    assert a1 < 0.01 and v1 < 0.025
    assert a2 < a1 / 12 and v2 < v1 / 12


def test_surface_grid_is_the_msl_loop():
    """Reference: the MSL's surfaceCharacteristic loops, X[i, j] … for i in 1:nu, j in 1:nv
    (a plane z = 2x + 3y over u, v): the vertex of (i, j) is number (i − 1)·nv + (j − 1), and
    the two triangles of each cell cover it (their areas sum to the plane's area ·√14)."""
    nu, nv = 4, 6
    plane = Surface(surfaceCharacteristic=lambda u, v: (v, u, 2 * v + 3 * u), nu=nu, nv=nv)
    for i in range(nu):
        for j in range(nv):
            x, y = j / (nv - 1), i / (nu - 1)
            assert plane.vertices[i * nv + j] == pytest.approx((x, y, 2 * x + 3 * y), abs=1e-15)
    area, _ = _area_volume(plane)
    assert area == pytest.approx(np.sqrt(14), rel=1e-12)


def test_voluminous_wheel_and_pipe_follow_the_msl():
    """Reference: the MSL's VoluminousWheel formulas (rCurvature' = max(rCurvature, width/2),
    kw = width/2/rCurvature', h = √(1 − kw²)·rCurvature', ri = rTire − rCurvature'): the
    tread's points reach the tyre radius rTire at the middle of the tread and lie within
    |y| ≤ width/2; the pipe's colours follow the field through the jet map: T_min at its dark
    blue end (0, 0, 0.5), T_max at its dark red end (0.5, 0, 0) (matplotlib's jet, the
    MSL's default map resampled to n_colors)."""
    tread, rim = VoluminousWheel(rTire=0.25, rRim=0.14, width=0.25, rCurvature=0.30,
                                 n_rCurvature=21)      # odd: a point at the tread's middle
    P = tread.vertices
    radius = np.hypot(P[:, 0], P[:, 2])
    assert radius.max() == pytest.approx(0.25, abs=1e-12)
    assert np.abs(P[:, 1]).max() == pytest.approx(0.125, rel=1e-12)
    kw = 0.125 / 0.30
    assert rim.radius == pytest.approx(0.25 - 0.30 + np.sqrt(1 - kw ** 2) * 0.30, rel=1e-12)
    pipe = PipeWithScalarField(rOuter=0.3, length=1.0, T=[0.0, 2.0], T_min=0.0, T_max=2.0,
                               xsi=[0.0, 1.0], n_colors=32)
    first, last = pipe.colors[:pipe.nv], pipe.colors[-pipe.nv:]
    assert np.allclose(first, (0, 0, 0.5)) and np.allclose(last, (0.5, 0, 0))
    radius = np.hypot(pipe.vertices[:, 1], pipe.vertices[:, 2])
    assert np.abs(radius - 0.3).max() < 1e-14


def test_player_draws_a_surface_with_its_colours(tmp_path):
    """Reference: the generated mesh itself: the player's payload holds the surface's
    vertices and triangles (float32 round-off) and, for a multi-coloured surface, its colours;
    a one-colour surface is drawn in its colour."""
    torus = Torus(R=0.3, r=0.05, n_R=12, n_r=8, color="orange")
    pipe = PipeWithScalarField(rOuter=0.1, length=0.5, T=[0.0, 1.0], T_min=0.0, T_max=1.0,
                               xsi=[0.0, 1.0], n_rOuter=8, n_length=5)
    model = jd.Model(world=World())
    model.joint = Revolute()
    model.link = RigidBody(m=1.0, I=(0.1, 0.1, 0.1), shapes=[torus, pipe])
    model.connect(model.world.frame_b, model.joint.frame_a)
    model.connect(model.joint.frame_b, model.link.frame_a)
    res = jd.compile(model).simulate(0.2, z0={"joint.w": 1.0}, n_out=5)
    shapes = [s for s in payload(res.animate(tmp_path / "s.html"))["runs"][0]["shapes"]
              if s["kind"] == "mesh"]
    assert len(shapes) == 2
    drawn = floats(shapes[0]["vertices"]).reshape(-1, 3)
    assert np.abs(drawn - torus.vertices).max() < 1e-6
    assert np.array_equal(np.frombuffer(_bytes(shapes[0]["faces"]), np.uint32).reshape(-1, 3),
                          torus.faces)
    assert "colors" not in shapes[0] and np.allclose(shapes[0]["color"], (1, 0.647, 0),
                                                     atol=0.01)
    assert np.abs(floats(shapes[1]["colors"]).reshape(-1, 3) - pipe.colors).max() < 1e-6


def _bytes(text):
    import base64
    return base64.b64decode(text)


@pytest.mark.parametrize("kwargs, words", [
    (dict(surfaceCharacteristic=None), "surfaceCharacteristic must be a function"),
    (dict(surfaceCharacteristic=lambda u, v: (u, v, u), nu=1), "nu must be an integer ≥ 2"),
    (dict(surfaceCharacteristic=lambda u, v: (u, v)), "must return 3 arrays"),
    (dict(surfaceCharacteristic=lambda u, v: (u, v, np.ones(3))), "X, Y, Z must be finite"),
    (dict(surfaceCharacteristic=lambda u, v: (u, v, u / 0 * 0)), "X, Y, Z must be finite"),
    (dict(surfaceCharacteristic=lambda u, v: (u, v, u, -np.ones((2, 2, 3))),
          multiColoredSurface=True), "colours C must be finite and ≥ 0"),
    (dict(surfaceCharacteristic=lambda u, v: (u, v, u, u), multiColoredSurface=True),
     "C must hold nu × nv × 3"),
])
def test_bad_surfaces_are_named(kwargs, words):
    """Reference: the documented contract of Surface (a function of (u, v) returning nu × nv
    arrays, and colours when multiColoredSurface); each breach is a ModelError naming it."""
    with np.errstate(all="ignore"), pytest.raises(jd.ModelError, match=words):
        Surface(**kwargs)
