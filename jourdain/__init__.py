"""jourdain: declarative, Modelica-style multibody modelling with CasADi.

    import jourdain as jd
    from jourdain.blocks import World, RigidBody, Revolute
    model = jd.Model(world=World(), ...)
    system = jd.compile(model)
    result = system.simulate(t_end=5.0, y0={...})
"""
from jourdain.blocks import Composite, Model, ModelError, SimulationError
from jourdain.solver import ConstraintMethod, Formulation, Result, System, compile

__version__ = "0.1.0"

__all__ = ["Composite", "ConstraintMethod", "Formulation", "Model", "ModelError", "Result", "SimulationError",
           "System", "compile", "__version__"]
