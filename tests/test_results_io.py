"""Plots with units, tables and files, notebook summaries, the component graph and progress.

References: the units declared by the components (joint coordinates and speeds, the ports of
motors and sensors, energies in J); the numbers a Result holds (a DataFrame, a CSV file and a
Parquet file read back equal them to the last bit); matplotlib's own state (the backend the
user chose is the one after plotting); the spanning tree of a four-bar (three tree revolutes,
one cut joint, as the topology stage reports); two integrations of the same problem
(progress=True restarts CVODES per piece, so the runs agree to the integration tolerance).
"""
import math

import matplotlib
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import AngleSensor, World
from jourdain.library import CubeOnEdge, FourBar


@pytest.fixture(scope="module")
def cube_run():
    model = jd.Model.on_world(World(), cube=CubeOnEdge())
    model.sensor = AngleSensor()
    model.connect(model.cube.edge.axis, model.sensor.flange)
    system = jd.compile(model)
    res = system.simulate(0.4, y0={"cube.edge.phi": 0.1}, inputs={"cube.motor.tau": 0.01},
                          n_out=81)
    return system, res


def test_units_come_from_the_components(cube_run):
    _, res = cube_run
    u = res.units
    assert (u["cube.edge.phi"], u["cube.edge.w"], u["cube.motor.tau"]) == ("rad", "rad/s", "N.m")
    assert (u["sensor.phi"], u["sensor.w"], u["energy.total"]) == ("rad", "rad/s", "J")


def test_plot_labels_units_against_any_series_without_touching_the_backend(cube_run, tmp_path):
    _, res = cube_run
    before = matplotlib.get_backend()
    matplotlib.use("svg")                        # a backend the user chose
    try:
        fig = res.plot("cube.edge.w", "cube.motor.tau", x="cube.edge.phi", t_range=(0.1, 0.3),
                       title="phase portrait", path=tmp_path / "p.png")
        assert matplotlib.get_backend() == "svg"
    finally:
        matplotlib.use(before)
    axes = fig.axes
    assert axes[0].get_ylabel() == "cube.edge.w [rad/s]"
    assert axes[1].get_ylabel() == "cube.motor.tau [N·m]"
    assert axes[-1].get_xlabel() == "cube.edge.phi [rad]"
    assert fig._suptitle.get_text() == "phase portrait"
    x = axes[0].lines[0].get_xdata()
    phi, t = res["cube.edge.phi"], res.t
    assert np.array_equal(x, phi[(t >= 0.1) & (t <= 0.3)])
    assert (tmp_path / "p.png").stat().st_size > 1000


def test_many_series_are_grouped_by_unit(cube_run):
    _, res = cube_run
    fig = res.plot(*res.names)                   # 11 series
    labels = [ax.get_ylabel() for ax in fig.axes if ax.get_visible()]
    assert "[rad]" in labels and "[J]" in labels and len(labels) < len(res.names)


def test_plot_paths(cube_run, tmp_path, monkeypatch):
    _, res = cube_run
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    res.plot("cube.edge.phi", path="~/figs/phi.png")
    assert (tmp_path / "figs" / "phi.png").is_file()
    assert not (tmp_path / "~").exists()
    with pytest.raises(jd.ModelError, match="is a directory; give a file name"):
        res.plot("cube.edge.phi", path="figs/")
    with pytest.raises(jd.ModelError, match="no suffix"):
        res.plot("cube.edge.phi", path="figs/phi")
    with pytest.raises(jd.ModelError, match="no series named 'cube.edge.ph'"):
        res.plot("cube.edge.ph")
    with pytest.raises(jd.ModelError, match="t_range"):
        res.plot("cube.edge.phi", t_range=(2.0, 3.0))


def test_tables_and_files(cube_run, tmp_path):
    pd = pytest.importorskip("pandas")
    _, res = cube_run
    df = res.to_pandas()
    assert df.index.name == "t" and np.array_equal(df.index.to_numpy(), res.t)
    assert np.array_equal(df["cube.edge.phi"].to_numpy(), res["cube.edge.phi"])
    assert df.attrs["units"]["cube.motor.tau"] == "N.m" and df.attrs["units"]["t"] == "s"
    back = pd.read_csv(res.to_csv(tmp_path / "run.csv"), header=[0, 1])
    assert back.columns[1] == ("cube.edge.phi", "rad")
    # pandas' default CSV float parser is not guaranteed to round-trip (1 ulp off at times)
    np.testing.assert_allclose(back[("cube.edge.phi", "rad")].to_numpy(), res["cube.edge.phi"],
                               rtol=4 * np.finfo(float).eps, atol=0)
    pq = pytest.importorskip("pyarrow.parquet")
    path = res.to_parquet(tmp_path / "run.parquet")
    assert pq.read_schema(path).field("cube.edge.w").metadata[b"unit"] == b"rad/s"
    assert np.array_equal(pq.read_table(path).column("cube.edge.w").to_numpy(), res["cube.edge.w"])
    with pytest.raises(jd.ModelError, match=r"\.csv"):
        res.to_csv(tmp_path / "run.txt")


def test_summaries_for_people(cube_run):
    system, res = cube_run
    assert repr(res).startswith("<Result: 81 samples, t = 0 … 0.4 s; 2 coordinates, 2 speeds, "
                                "1 input, 2 outputs")
    page = res._repr_html_()
    assert "cube.motor.tau" in page and "N·m" in page and "<table" in page
    system_page = system._repr_html_()
    assert "cube.edge.phi" in system_page and "rad/s" in system_page
    lin = jd.linearize(system)
    assert "LinearSystem (equilibrium)" in lin._repr_html_()
    assert "modes" in lin._repr_html_() and "λ [1/s]" in lin._repr_html_()
    fb = jd.lqr(lin.select(["cube.edge.phi", "cube.edge.w", "cube.bearing.w"]),
                Q=np.eye(3), R=np.eye(1))
    assert "closed-loop eigenvalues" in fb._repr_html_()


def test_component_graph_of_a_four_bar(tmp_path):
    system = jd.compile(jd.Model.on_world(World(), fb=FourBar()))
    kinds = dict(system.graph.nodes(data="kind"))
    assert kinds["fb.pin"] == "cut joint"
    assert [n for n, k in kinds.items() if k == "joint"] == ["fb.crank", "fb.coupler",
                                                              "fb.rocker"]
    assert kinds["fb.ground"] == "offset" and kinds["world"] == "world"
    fig = system.draw(tmp_path / "fb.png", title="four-bar")
    assert (tmp_path / "fb.png").stat().st_size > 1000 and fig.axes[0].get_title() == "four-bar"


def test_progress_bar_pieces_agree_with_one_run(cube_run, capsys):
    """progress=True (pieces) against one run; off a terminal (pytest's capture) the
    display is lines on stderr ending at 100 % (docs/visualization.md)."""
    system, _ = cube_run
    kwargs = dict(y0={"cube.edge.phi": 0.1}, n_out=81, rtol=1e-10, atol=1e-10)
    one = system.simulate(0.4, progress=False, **kwargs)
    capsys.readouterr()
    pieces = system.simulate(0.4, progress=True, **kwargs)
    assert "simulate: 100 %" in capsys.readouterr().err
    assert np.abs(pieces.x - one.x).max() < 1e-7 * max(1.0, np.abs(one.x).max())
    with pytest.raises(jd.ModelError, match="progress"):
        system.simulate(0.4, progress="yes")
    assert math.isfinite(pieces["energy.total"][-1])


def test_readme_visual_example_runs(tmp_path, monkeypatch):
    """The README's block on animation, plots and tables runs as written (reference: the
    player it writes holds the cube's shapes over the whole run, the files exist)."""
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    block = next(b for b in re.findall(r"```python\n(.*?)```", readme, flags=re.S)
                 if "res.animate(" in b)
    monkeypatch.chdir(tmp_path)
    scope = {}
    exec(compile("import jourdain as jd\nfrom jourdain.blocks import World\n" + block,
                 "README.md", "exec"), scope)
    for name in ("cube.html", "cube.gif", "w.png", "cube_graph.png"):
        assert (tmp_path / "out" / name).stat().st_size > 1000, name
    html = (tmp_path / "out" / "cube.html").read_text(encoding="utf-8")
    assert html.count('"kind":') == len(scope["cube"].visual)
    assert scope["df"].attrs["units"]["cube.pivot.wx"] == "rad/s"


def test_result_is_a_read_only_mapping_of_its_series(cube_run):
    """Reference: the Result's own series dict (names in order, the same arrays); a missing
    name raises one error that both a mapping user (KeyError) and a jourdain user (ModelError)
    catch, with the closest names."""
    _, res = cube_run
    assert "cube.edge.phi" in res and "cube.edge.phy" not in res
    assert list(res) == list(res.keys()) == res.names
    assert len(res) == len(res.names) and len(res.t) == 81
    assert dict(res.items())["energy.total"] is res["energy.total"]
    assert res.get("nope") is None and res.get("nope", 0.0) == 0.0
    for family in (KeyError, jd.ModelError):
        with pytest.raises(family, match="did you mean cube.edge.phi"):
            res["cube.edge.phy"]
    assert res != dict(res)   # equality is identity: no element-wise array comparison


def test_constant_parameters_are_listed_with_values_units_and_suggestions():
    """Reference: the component's own parameter values and units (a Pendulum's bob mass,
    damper coefficient and gravity); a misspelt constant's name is answered with the constant
    and how to make it symbolic, not with 'known names: none'."""
    from jourdain.library import Pendulum

    system = jd.compile(jd.Model.on_world(World(), p=Pendulum(d=0.25)))
    report = system.report()
    assert "p.damper.d = 0.25 [N.m.s/rad]" in report
    assert "world.g = (0, -9.81, 0) [m/s2]" in report
    assert "p.bob.m" in system.parameter_names and system.p_names == []
    html = system._repr_html_()
    assert "constant parameters" in html and "p.damper.d" in html
    with pytest.raises(jd.ModelError, match=r"did you mean p\.damper\.d \(a constant: "
                       r"jd\.compile\(\.\.\., parameters=\['p\.damper\.d'\]\)"):
        system.simulate(0.1, params={"p.damper.dd": 1.0})
    with pytest.raises(jd.ModelError, match="compiled as a constant"):
        system.simulate(0.1, params={"p.bob.I.zz": 1.0})


def test_plot_into_user_axes_in_display_units_grouped_by_unit(cube_run):
    """Reference: the Result's own numbers times the exact unit factors (180/π for deg,
    30/π for rpm); series of one unit share a panel; the user's axes and figure size are
    used as given."""
    import matplotlib.pyplot as plt

    _, res = cube_run
    fig, axes = plt.subplots(2, 1)
    out = res.plot("cube.edge.phi", "cube.bearing.phi", "cube.edge.w", ax=axes,
                   units={"rad": "deg", "cube.edge.w": "rpm"})
    assert out is fig and [len(a.lines) for a in axes] == [2, 1]
    np.testing.assert_allclose(axes[0].lines[0].get_ydata(),
                               np.degrees(res["cube.edge.phi"]), rtol=1e-12)
    np.testing.assert_allclose(axes[1].lines[0].get_ydata(),
                               res["cube.edge.w"] * 30 / np.pi, rtol=1e-12)
    assert axes[0].get_ylabel() == "[deg]" and axes[1].get_ylabel() == "cube.edge.w [rpm]"
    big = res.plot("cube.edge.phi", figsize=(9, 3))
    assert tuple(big.get_size_inches()) == pytest.approx((9, 3))
    for bad, match in (({"ax": axes[0]}, "1 axes for 2 panels"),
                       ({"units": {"rad": "furlong"}}, "choose from deg"),
                       ({"units": {"nope": "deg"}}, "neither a plotted series"),
                       ({"figsize": (0, 3)}, "figsize")):
        with pytest.raises(jd.ModelError, match=match):
            res.plot("cube.edge.phi", "cube.edge.w", **bad)
    plt.close("all")


def test_plot_warns_where_the_output_grid_is_coarser_than_the_integrator():
    """Reference: a 50 Hz oscillator (k/m = (2π·50)²) sampled at 20 Hz aliases to beats
    (the integrator needs many steps per period, the grid has fewer than one sample per
    period); the same run sampled finely draws without a warning."""
    from jourdain.solver.visual.plots import CoarseGridWarning
    import matplotlib.pyplot as plt
    from jourdain.blocks import Prismatic, RigidBody, TranslationalSpring

    model = jd.Model(world=World(g=(0.0, 0.0, 0.0)))
    model.slide, model.mass = Prismatic(axis=(1, 0, 0)), RigidBody(m=1.0)
    model.spring = TranslationalSpring(c=(2 * np.pi * 50) ** 2)
    model.connect(model.world.frame_b, model.slide.frame_a)
    model.connect(model.slide.frame_b, model.mass.frame_a)
    model.connect(model.spring.flange_b, model.slide.axis)
    system = jd.compile(model)
    coarse = system.simulate(2.0, y0={"slide.s": 0.01}, n_out=41)
    with pytest.warns(CoarseGridWarning, match="n_out="):
        coarse.plot("slide.s")
    fine = system.simulate(2.0, y0={"slide.s": 0.01}, n_out=20001)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error", CoarseGridWarning)
        fine.plot("slide.s")
    plt.close("all")
