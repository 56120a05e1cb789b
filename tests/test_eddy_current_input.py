"""The MSL's optional input for the eddy current brakes' maximum (useTau_nominalInput,
useF_nominalInput: the excitation), as the MSL's newer EddyCurrentBrake examples ramp it.
Reference: an independent scipy solve_ivp of J·ẇ = −2·τ_max(t)·v/(1 + v²), v = w/w_nominal
(Kloss' law, TRef = T: no temperature shift)."""
import numpy as np
import pytest
from scipy.integrate import solve_ivp

import jourdain as jd
from jourdain.blocks import (EddyCurrentForce, EddyCurrentTorque, Inertia, Mass, Ramp,
                             World)


def _ramp(t):
    """The MSL's ramp: 0 until 0.1 s, 100 from 0.2 s."""
    return 100.0 * np.clip((t - 0.1) / 0.1, 0.0, 1.0)


@pytest.mark.parametrize("rotational", [True, False])
def test_ramped_maximum_against_scipy(rotational):
    """Reference: scipy's DOP853 on the same law with the ramped maximum, speeds to 1e-7."""
    m = jd.Model(world=World())
    m.ramp = Ramp(height=100.0, duration=0.1, offset=0.0, startTime=0.1)
    if rotational:
        m.brake = EddyCurrentTorque(w_nominal=10.0, useTau_nominalInput=True)
        m.body = Inertia(J=1.0)
        m.connect(m.ramp.y, m.brake.tau_input)
        speed = "body.w"
    else:
        m.brake = EddyCurrentForce(v_nominal=10.0, useF_nominalInput=True)
        m.body = Mass(m=1.0)
        m.connect(m.ramp.y, m.brake.f_input)
        speed = "body.v"
    m.connect(m.brake.flange, m.body.flange_a)
    res = jd.compile(m).simulate(1.0, z0={speed: 20.0}, n_out=101, rtol=1e-10, atol=1e-10)

    def rhs(t, w):
        v = w / 10.0
        return -2 * _ramp(t) * v / (1 + v**2)
    ref = solve_ivp(rhs, (0, 1), [20.0], t_eval=res.t, method="DOP853", rtol=1e-11,
                    atol=1e-11, max_step=0.01)
    assert res[speed] == pytest.approx(ref.y[0], abs=1e-7)
    assert res[speed][10] == pytest.approx(20.0, abs=1e-12)   # no torque before 0.1 s
