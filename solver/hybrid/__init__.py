"""Hybrid dynamics (DESIGN.md §6, docs/hybrid.md): guards, modes, resets and impact maps of the
hybrid elements, collected into the System at compile time (rank 3: below the simulation wing,
whose event loop runs them).

    collect.py    rows, guards, monitors and sampled updates of the elements, in CasADi
    dynamics.py   the equations of motion in the present modes: multipliers of the rows
    info.py       HybridInfo: what a compiled System knows of its hybrid elements
    state.py      the numbers at an event: the HybridState the transitions read and change
    massless.py   shafts whose mass comes through a LossyGear's teeth: M + J_Pᵀ·R·J_P (KKT)
    impact.py     impact maps M·Δz = Jᵀ·Λ (Newton restitution, Coulomb cone) and projections
    events.py     user events (zero crossings, time events, resets) traced into functions
"""
from .info import HybridInfo, build_hybrid, refuse_row_reads
from .massless import refuse_massless

__all__ = ["HybridInfo", "build_hybrid", "refuse_massless", "refuse_row_reads"]
