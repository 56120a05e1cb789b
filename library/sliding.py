"""A sliding mass with hard stops and Stribeck friction (MSL Translational.Components.
MassWithStopAndFriction), built from blocks: a Mass, a Stop and a StribeckFriction."""
from __future__ import annotations

from jourdain.blocks import Composite, Mass
from jourdain.blocks.hybrid import Stop, StribeckFriction


class MassWithStopAndFriction(Composite):
    """Mass m [kg] of length L [m] sliding on its support (Stribeck friction: F_prop [N·s/m],
    F_Coulomb [N], F_Stribeck [N], fexp [s/m]) between hard stops: its ends stay within
    [smin, smax] [m], i.e. smin + L/2 ≤ s ≤ smax − L/2 for the centre s (``mass.s``). The
    stops are plastic, as MSL's (reinit(v, 0)): the mass stops dead and rests against a stop
    while pushed into it. Ports ``flange_a`` and ``flange_b`` at the ends, s ∓ L/2, as the
    MSL's (the Mass's length L; the stop and the friction act on its centre), and
    ``support``.
    With ``useHeatPort=True`` the friction's power leaves through ``heatPort`` (the MSL's
    lossPower = f·v_relfric; the stops' plastic impacts are no heat flow, as in the MSL).
    """

    def __init__(self, m: float = 1.0, L: float = 1.0, smax: float = 25.0,
                 smin: float = -25.0, F_prop: float = 1.0, F_Coulomb: float = 5.0,
                 F_Stribeck: float = 10.0, fexp: float = 2.0, useHeatPort: bool = False):
        super().__init__()
        self.mass = Mass(m=m, L=L)
        self.stop = Stop(lower=smin + L / 2, upper=smax - L / 2, e=0.0)
        self.friction = StribeckFriction(F_prop=F_prop, F_Coulomb=F_Coulomb,
                                         F_Stribeck=F_Stribeck, fexp=fexp,
                                         useHeatPort=useHeatPort)
        centre = self.mass.body_flange()   # the Mass's centre s (flange_a when L = 0)
        self.connect(self.stop.flange_b, centre)
        self.connect(self.friction.flange_a, centre)
        self.connect(self.stop.flange_a, self.friction.support)
        self.expose(self.mass.flange_a, "flange_a")
        self.expose(self.mass.flange_b, "flange_b")
        self.expose(self.friction.support, "support")
        if useHeatPort:
            self.expose(self.friction.heatPort, "heatPort")
