"""The pipeline, one module per stage: flatten → topology → kinematics → speeds → dynamics
(Jourdain/Kane and Lagrange) → System → consumers (simulate, linearize, feedback design,
trajectory optimization). Knows the block contracts, never a concrete block class."""
from .feedback import Feedback, lqr, place
from .linear import LinearSystem, Mode
from .linearize import linearize
from .ocp import FreeTime, TrajectoryProblem
from .optimize import OptimizationError
from .result import Result
from .constrained import ConstraintMethod
from .simulate import Method
from .system import Backend, Formulation, System, compile
from .trajectory import Solution
from .transcription import Collocation, Inputs, Integrator, MultipleShooting, Scheme

__all__ = ["Backend", "Collocation", "ConstraintMethod", "Feedback", "Formulation", "FreeTime",
           "Inputs", "Integrator", "LinearSystem", "Method", "Mode", "MultipleShooting",
           "OptimizationError", "Result", "Scheme", "Solution", "System", "TrajectoryProblem",
           "compile", "linearize", "lqr", "place"]
