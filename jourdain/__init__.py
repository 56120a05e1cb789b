"""jourdain: declarative, Modelica-style multibody modelling with CasADi.

    import jourdain as jd
    from jourdain.blocks import World, RigidBody, Revolute
    model = jd.Model(world=World(), ...)
    system = jd.compile(model)
    result = system.simulate(t_end=5.0, y0={...})
    linear = jd.linearize(system)          # A, B, C, D in minimal coordinates
    gain = jd.lqr(linear, Q, R)            # python-control LQR with named rows/columns
"""
from jourdain.blocks import Composite, Model, ModelError, SimulationError
from jourdain.solver import (
                             Backend,
                             ChatteringError,
                             Collocation,
                             ConstraintMethod,
                             Direction,
                             Estimate,
                             Event,
                             Feedback,
                             FMUKind,
                             FMUSolver,
                             Formulation,
                             FreeTime,
                             Impact,
                             Inputs,
                             Integrator,
                             LinearSolver,
                             LinearSystem,
                             Method,
                             MultiPhaseProblem,
                             MultipleShooting,
                             Normal,
                             OptimizationError,
                             Result,
                             Robot,
                             SampledCallback,
                             Scheme,
                             Solution,
                             System,
                             Task,
                             TimeEvent,
                             TrajectoryProblem,
                             UnidentifiableWarning,
                             Uniform,
                             animate,
                             close_loop,
                             compile,
                             estimate,
                             from_mjcf,
                             from_urdf,
                             linearize,
                             lqr,
                             options,
                             place,
                             sweep,
)

__version__ = "0.1.0"

__all__ = ["Backend", "Collocation", "Composite", "ConstraintMethod", "Feedback", "Formulation",
           "FreeTime", "Inputs", "Integrator", "LinearSystem", "Method", "Model", "ModelError",
           "MultipleShooting", "OptimizationError", "Result", "Scheme", "SimulationError",
           "Solution", "System", "TrajectoryProblem", "compile", "linearize", "lqr", "place",
           "__version__", "FMUKind", "FMUSolver", "Robot", "from_mjcf", "from_urdf", "animate",
           "close_loop", "Estimate", "Normal", "Task", "Uniform", "estimate", "sweep",
           "ChatteringError", "Direction", "Event", "SampledCallback", "TimeEvent",
           "Impact", "MultiPhaseProblem", "UnidentifiableWarning",
           "LinearSolver", "options"]
