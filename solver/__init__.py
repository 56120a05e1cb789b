"""The pipeline, one module per stage: flatten → topology → kinematics → speeds → dynamics
(Jourdain/Kane and Lagrange) → System → consumers (simulate). Knows the block contracts, never a
concrete block class."""
from .result import Result
from .constrained import ConstraintMethod
from .system import Formulation, System, compile

__all__ = ["ConstraintMethod", "Formulation", "Result", "System", "compile"]
