"""Many runs of a System: parameter sweeps and Monte Carlo studies (locally or on a Dask
cluster) and parameter estimation from measured time series (docs/studies.md)."""
from .estimate import estimate
from .estimation import Estimate, UnidentifiableWarning
from .runs import Normal, Run, Uniform
from .sweep import sweep
from .tasks import Task

__all__ = ["Estimate", "Normal", "Run", "Task", "Uniform", "UnidentifiableWarning", "estimate",
           "sweep"]
