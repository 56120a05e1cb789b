"""The pipeline, one module per stage: flatten → topology → kinematics → speeds → dynamics
(Jourdain/Kane and Lagrange) → System → consumers (simulate, linearize, feedback design).
Knows the block contracts, never a concrete block class."""
from .feedback import Feedback, lqr, place
from .linear import LinearSystem, Mode
from .linearize import linearize
from .result import Result
from .constrained import ConstraintMethod
from .simulate import Method
from .system import Formulation, System, compile

__all__ = ["ConstraintMethod", "Feedback", "Formulation", "LinearSystem", "Method", "Mode",
           "Result", "System", "compile", "linearize", "lqr", "place"]
