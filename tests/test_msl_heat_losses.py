"""The three MSL HeatLosses examples (examples/msl/heat_losses_*.py) run top to bottom, print
their key numbers and save their figure. References: the energy balance with the heat
included (the convection network stores nothing, so the heat flow to the ambient equals the
power the mechanics dissipates at every instant, and res.check() closes E(t) − E(0) =
∫(P_supplied − P_dissipated) dt − impact losses with the event-aware quadrature), the
sources' work, and for the MultiBody example an independent planar scipy model of the three
suspended bodies and their dampers' heat."""
import runpy
from pathlib import Path

import numpy as np
import pytest
from scipy.integrate import solve_ivp


EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "msl"


def _run(script: str, tmp_path, monkeypatch, capsys) -> tuple[str, dict]:
    """The script's printed text and its globals (its Result ``res``, its functions)."""
    import matplotlib.pyplot as plt
    monkeypatch.chdir(tmp_path)
    names = runpy.run_path(str(EXAMPLES / script), run_name="__main__")
    plt.close("all")
    assert (tmp_path / "out" / script.replace(".py", ".png")).stat().st_size > 1000
    return capsys.readouterr().out, names


@pytest.mark.slow   # ~30 s: 1 s of a ten-element stick/slip train, 10,001 outputs
def test_heat_losses_rotational(tmp_path, monkeypatch, capsys):
    """Reference: energy balance. Every lossy element, the LossyGear included, has its heat
    port on the convection: the heat flow to the ambient is the power the mechanics
    dissipates, at every sample, with nothing added by hand; the LossyGear's heat flow is
    its loss tauLoss·w_a; res.check() closes the balance; over the run the torque's work =
    kinetic + elastic energy at the end + heat to the trapezoid rule's error."""
    out, ex = _run("heat_losses_rotational.py", tmp_path, monkeypatch, capsys)
    assert "Result check: holds" in out
    res = ex["res"]
    gear = res["lossyGear.tauLoss"] * res["inertia4.w"]
    P = res["power.dissipated"]
    assert np.abs(res["heatFlowSensor.Q_flow"] - P).max() < 1e-9 * (1 + P.max())
    assert np.abs(-res["lossyGear.heatPort.Q_flow"] - gear).max() < 1e-9 * (1 + P.max())
    assert res["heatFlowSensor.Q_flow"].min() > -1e-12   # heat only leaves the drive train
    assert res.check()
    b = ex["balance"](res)
    lost = b["work"] - b["kinetic"] - b["potential"]
    assert lost == pytest.approx(b["heat"], abs=1e-3 * b["work"])
    assert b["heat"] > 0.1 and b["gear_loss"] > 0.01   # the gear carries a share of it


@pytest.mark.slow   # ~30 s: 2 s with 33 events, 20,001 outputs
def test_heat_losses_translational(tmp_path, monkeypatch, capsys):
    """Reference: energy balance. The heat to the ambient equals the dissipated power at every
    sample (every lossy element has a heat port; the stops' plastic impacts are event losses
    as in the MSL); res.check() closes E(t) − E(0) = ∫(P_sup − P_diss) dt − impacts; the
    force's work = energy gained + heat + impacts over the run to the trapezoid rule's
    error across the 33 events (≈ 0.2 %)."""
    out, ex = _run("heat_losses_translational.py", tmp_path, monkeypatch, capsys)
    assert "Result check: holds" in out
    res = ex["res"]
    P = res["power.dissipated"]
    assert np.abs(res["heatFlowSensor.Q_flow"] - P).max() < 1e-9 * (1 + P.max())
    assert res.check()
    b = ex["balance"](res)
    gained = b["kinetic"] + b["potential"] - float(res["energy.potential"][0])
    assert b["work"] == pytest.approx(gained + b["heat"] + b["impacts"], rel=1e-2)
    # the MSL's initial state: every spring unstretched except the ElastoGap (3 cm deep)
    assert float(res["energy.potential"][0]) == pytest.approx(0.5 * 100 * 0.03 ** 2, rel=1e-12)


def _planar_heat_losses(t_eval):
    """The MultiBody HeatLosses bodies in the plane (independent of jourdain): each body
    (m = 1, I_zz = 0.1 about its CM at 0.2 m below frame_a) hangs by its frame_a from an
    anchor (0.3·k, 0); body 1 (and 2: the same law) on a spring c = 30, s0 = 0.1 with a damper
    d = 2, body 3 on a spring c = 30, s0 = 0.2 beside a series spring–damper (c = 30,
    s0 = 0.1, d = 2; state s_d). Returns the states and the total heat flow
    2·d·ṡ1² + f3²/d."""
    g, c, d = 9.81, 30.0, 2.0

    def body(x, anchor, tension):
        cx, cy, th, vx, vy, om = x
        arm = np.array([-0.2 * np.sin(th), 0.2 * np.cos(th)])          # frame_a − CM
        p = np.array([cx, cy]) + arm
        pdot = np.array([vx, vy]) + om * np.array([-arm[1], arm[0]])
        r = p - anchor
        s = np.hypot(*r)
        e = r / s
        sdot = e @ pdot
        F = -tension(s, sdot) * e
        torque = arm[0] * F[1] - arm[1] * F[0]
        return [vx, vy, om, F[0], F[1] - g, torque / 0.1], s, sdot

    def rhs(t, x):
        d1, _, _ = body(x[0:6], np.array([0.3, 0.0]), lambda s, v: c * (s - 0.1) + d * v)
        sd = x[12]
        d3, s3, _ = body(x[6:12], np.array([0.9, 0.0]),
                         lambda s, v: c * (s - 0.2) + c * (s - 0.1 - sd))
        f3 = c * (s3 - 0.1 - sd)
        return d1 + d3 + [f3 / d]

    w0 = np.deg2rad(2.0)
    start = lambda k: [0.3 * k, -0.4, 0.0, 0.2 * w0, 0.0, w0]   # frame_a at rest
    sol = solve_ivp(rhs, (0, t_eval[-1]), start(1) + start(3) + [0.0], t_eval=t_eval,
                    rtol=1e-11, atol=1e-11)
    heat = []
    for x in sol.y.T:
        _, _, v1 = body(x[0:6], np.array([0.3, 0.0]), lambda s, v: 0.0)
        _, s3, _ = body(x[6:12], np.array([0.9, 0.0]), lambda s, v: 0.0)
        heat.append(2 * d * v1 ** 2 + (c * (s3 - 0.1 - x[12])) ** 2 / d)
    return sol.y, np.array(heat)


def test_heat_losses_multibody(tmp_path, monkeypatch, capsys):
    """Reference: an independent planar scipy model of the three bodies (written here from
    the MSL's parameters) gives the same frame origins and the same total heat flow to the
    ambient; the heat flow equals the dissipated power (energy balance) and res.check()
    closes."""
    out, ex = _run("heat_losses_multibody.py", tmp_path, monkeypatch, capsys)
    assert "Result check: holds" in out
    res = ex["res"]
    states, heat = _planar_heat_losses(res.t)
    y1 = states[1] + 0.2 * np.cos(states[2])          # frame_a of body 1
    y3 = states[7] + 0.2 * np.cos(states[8])
    assert np.abs(res["free1.y"] - y1).max() < 1e-7
    assert np.abs(res["free2.y"] - y1).max() < 1e-7
    assert np.abs(res["free3.y"] - y3).max() < 1e-7
    assert np.abs(res["heatFlowSensor.Q_flow"] - heat).max() < 1e-6 * (1 + heat.max())
    # the series element counts its power as supplied (its inner spring's energy is no
    # potential of the coordinates): the dissipated power misses its damper's f²/d
    s3 = np.hypot(res["free3.x"] - 0.9, res["free3.y"])
    f3 = 30.0 * (s3 - 0.1 - res["springDamperSeries.s_damper"])
    assert np.abs(res["heatFlowSensor.Q_flow"] - res["power.dissipated"] - f3 ** 2 / 2.0
                  ).max() < 1e-9
    # over the run: heat (Simpson) = kinetic + potential lost + what the inner spring gave
    assert ex["heat"] == pytest.approx(ex["mech"][0] - ex["mech"][-1] + ex["inner"][0]
                                       - ex["inner"][-1], abs=1e-6)
    assert res.check()


def test_light_shaft_heat_losses_rotational():
    """Reference: agreement of two structures and the energy balance. The MSL connects the
    LossyGear's flange_b straight to the Clutch (a net without inertia, its mass through the
    teeth); a shaft of inertia J_s there changes the motion by O(J_s). Run past t = 0.439 s
    (where a driving_side guard fires at tau_eta = 0, whose sign is round-off, and light
    shafts once chattered), the MSL's wiring agrees with the 1e-2 kg·m² shaft to
    O(J_s/J) = 0.5 %, closer still with 1e-3 kg·m², and in every run the heat to the ambient
    equals the energy taken from the mechanics."""
    import runpy
    ex = runpy.run_path(str(EXAMPLES / "heat_losses_rotational.py"), run_name="lib")
    import jourdain as jd
    runs = {}
    for J in (1e-2, 1e-3, 0.0):
        res = jd.compile(ex["build"](J)).simulate(0.45, n_out=451, rtol=1e-9, atol=1e-9)
        b = ex["balance"](res, J)
        lost = b["work"] - b["kinetic"] - b["potential"]
        # to the trapezoid rule's error on 1 ms samples of the 5 Hz drive (7e-5 of the work)
        assert lost == pytest.approx(b["heat"], abs=3e-4 * b["work"])
        runs[J] = res
    msl = runs[0.0]
    assert msl.t[-1] == pytest.approx(0.45)
    assert "gearShaft.w" not in msl.names and "lossyGear.flange_b.w" in msl.names
    assert any(e.t > 0.439 and "driving_side" in str(e) for e in runs[1e-3].events)
    gaps = {}
    for J in (1e-2, 1e-3):
        gaps[J] = max(np.abs(msl[f"inertia{k}.w"] - runs[J][f"inertia{k}.w"]).max() /
                      (np.abs(runs[J][f"inertia{k}.w"]).max() + 1e-3) for k in range(1, 7))
    assert gaps[1e-2] < 5e-3
    assert gaps[1e-3] < gaps[1e-2]


@pytest.mark.slow   # ~25 s: three runs of 1 s
def test_massless_heat_losses_is_the_light_shaft_limit():
    """Reference: agreement with the converging light-shaft runs. The heat over 1 s with a
    shaft J_s between gear and clutch is h(J_s) = h(0) + c·J_s + O(J_s²); the O(J_s)
    extrapolation of J_s = 1e-3 and 1e-4 kg·m², h(1e-4) + (h(1e-4) − h(1e-3))/9, is the
    MSL wiring's heat to 1e-6 J (measured: 0.3287164 against 0.3287165 J)."""
    import runpy
    ex = runpy.run_path(str(EXAMPLES / "heat_losses_rotational.py"), run_name="lib")
    import jourdain as jd
    heat = {}
    for J in (1e-3, 1e-4, 0.0):
        res = jd.compile(ex["build"](J)).simulate(1.0, n_out=10001, rtol=1e-9, atol=1e-9)
        heat[J] = ex["balance"](res, J)["heat"]
    limit = heat[1e-4] + (heat[1e-4] - heat[1e-3]) / 9
    assert abs(heat[1e-3] - heat[1e-4]) > 1e-6   # the shaft's effect is measurable ...
    assert heat[0.0] == pytest.approx(limit, abs=1e-6)   # ... and vanishes in the limit
