"""Closed loops and contacts: closure equations, their rank analysis and partition, assembly
and Newton moves, the three constraint methods (partitioning, Baumgarte, DAE with multipliers),
consistent initial states, integrability (Lie brackets, Frobenius) and the report."""
