"""Consumer: a closed-loop System from a plant and a compiled feedback law.

``close_loop(system, feedback)`` folds the law u = law(t, x, p) into the plant's equations
(:func:`jourdain.solver.simulation.loop.fold`): the result is a System with the plant's names
of coordinates, speeds, parameters and outputs, the driven inputs removed from its inputs and
added to its outputs (same names), and no Python at run time. It simulates, linearizes (the
eigenvalues of A − B·K at the design point), optimizes, pickles for sweeps and generates C
code (``codegen``) like the plant. Actuator limits clip the law inside the graph.
"""
from __future__ import annotations

from jourdain.blocks.errors import ModelError

from ..model.checks import keywords
from ..model.names import require_system
from ..simulation.loop import fold
from .laws import saturated


@keywords
def close_loop(system, controller, limits: dict | None = None, period: float | None = None):
    """The closed loop of ``system`` under ``controller`` (module docstring).

    controller : a compiled law: a jd.Feedback (jd.lqr, jd.place) or a tracking controller
        (Solution.tracking_controller); anything with a ``law(system)`` method returning
        (CasADi Function (t, x, p) -> u, names of the driven inputs).
    limits : {input name: (lower, upper)} or {input name: b} for ±b, applied to the law's
        output (saturated actuators), e.g. {"cube.motor.tau": 0.1} [N·m].
    period : refused with a ModelError: a sampled controller is no System of its own (its
        held output is no continuous law); see docs/composition.md.
    """
    require_system(system, "close_loop")
    if period is not None:
        raise ModelError(f"close_loop: a sampled controller (period={period!r}) cannot be "
                         "folded into a System (its held output is no continuous law); "
                         "simulate it with system.simulate(..., controller=..., "
                         "period=...), or put a DiscreteStateFeedback block in the model")
    if not (hasattr(controller, "law") and callable(controller.law)):
        hint = " (a Python function can drive a simulation, system.simulate(..., " \
            "controller=fn), but cannot enter the CasADi graph)" if callable(controller) else ""
        raise ModelError(f"close_loop: expected a compiled law such as a jd.Feedback from "
                         f"jd.lqr, got {type(controller).__name__} {controller!r:.60}{hint}")
    law, names = controller.law(system)
    return fold(system, saturated(law, names, limits), names)
