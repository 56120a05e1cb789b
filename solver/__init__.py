"""The solver: the pipeline from a model to a compiled System, and the consumers of a System.
It knows the block contracts, never a concrete block class. One subpackage per family,
imports pointing one way (docs/architecture.md):

    model/        what the components mean: flatten, parameters, topology, kinematics,
                  signals, speeds, mechanics
    equations/    the equations of motion: Jourdain/Kane projection, Lagrange, the recursive
                  O(n) back end, the named functions, reports and pretty-printing
    constraints/  closed loops and contacts: closure equations, partition, assembly, moves,
                  multipliers, integrability, the three constraint methods, initial states
    simulation/   CVODES/IDAS simulation, Result, fast numeric calls, C code generation
    control/      linearization, LinearSystem, LQR and pole placement
    optimal/      trajectory optimization: problem, transcriptions, NLP, guesses, solution
    hybrid/       guards, modes, impact maps, user events and sampled callbacks
    exchange/     models in and out: URDF and MJCF import, FMU export
    studies/      sweeps, Monte Carlo (local processes or Dask), parameter estimation
    visual/       shapes and their poses, 3-D animation (HTML), video, plots, graph pictures
    system.py     the compiled System, its methods delegating to the wings
    compile.py    the pipeline in one call
"""
from jourdain.blocks.hybrid.base import Direction

from .compile import compile
from .constraints.methods import ConstraintMethod
from .control.closed_loop import close_loop
from .control.feedback import Feedback, lqr, place
from .control.linear import LinearSystem, Mode
from .control.linearize import linearize
from .equations.backends import Backend, Formulation
from .exchange import FMUKind, FMUSolver, Robot, from_mjcf, from_urdf
from .hybrid.events import Event, SampledCallback, TimeEvent
from .hybrid.state import ChatteringError
from .optimal.functions import FreeTime
from .optimal.phases import Impact, MultiPhaseProblem, PhaseSolution
from .optimal.problem import TrajectoryProblem
from .optimal.solution import Solution
from .optimal.solve import OptimizationError
from .optimal.transcription import (
           Collocation,
           Inputs,
           Integrator,
           MultipleShooting,
           Scheme,
)
from .simulation.integrators import LinearSolver
from .simulation.progress import options
from .simulation.result import Result
from .simulation.simulate import Method
from .studies import Estimate, Normal, Task, UnidentifiableWarning, Uniform, estimate, sweep
from .system import ConstrainedSystem, System
from .visual.animate import animate

__all__ = ["Backend", "Collocation", "ConstrainedSystem", "ConstraintMethod", "Feedback",
           "FMUKind", "FMUSolver", "Robot", "from_mjcf", "from_urdf",
           "Formulation", "FreeTime", "Inputs", "Integrator", "LinearSolver", "LinearSystem", "Method",
           "Mode",
           "MultipleShooting", "OptimizationError", "Result", "Scheme", "Solution", "System",
           "TrajectoryProblem", "compile", "linearize", "lqr", "place", "animate", "close_loop",
           "Estimate", "Normal", "Task", "Uniform", "estimate", "sweep", "UnidentifiableWarning",
           # hybrid simulation (issue 13)
           "ChatteringError", "Direction", "Event", "SampledCallback", "TimeEvent",
           "options",
           "Impact", "MultiPhaseProblem", "PhaseSolution"]
