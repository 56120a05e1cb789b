"""The acausal compiler (docs/acausal.md): unknowns and externals (:mod:`.variables`),
structural analysis — matching and BLT (:mod:`.structure`) —, block solving with symbolic
elimination and Newton inside f (:mod:`.solve`), and the stage that runs them
(:mod:`.stage`). Imports blocks only; the signal context reads its result by duck typing."""
from .stage import AcausalSolution, build_acausal

__all__ = ["AcausalSolution", "build_acausal"]
