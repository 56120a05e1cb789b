"""Options shared by every stage that hands a linear system to a CasADi solver.

CasADi's default sparse linear solver inside CVODES, IDAS and the Newton rootfinder is its own
Householder QR (plugin ``qr``), which forms sums of squares without scaling: a Jacobian entry
near 1e-155 (e.g. a joint axis component of 4e-145 times a lever arm) underflows there and the
solve returns NaN, so CVODES stops at t = 0 with "repeated recoverable right-hand side errors"
on a regular pendulum started at rest (found by tests/test_properties.py; CasADi issue #2717).
CSparse's LU with partial pivoting forms no squares and is as fast on these small systems.
"""
from __future__ import annotations

LINEAR_SOLVER = "csparse"
SUNDIALS = {"linear_solver": LINEAR_SOLVER}   # options for ca.integrator("cvodes"/"idas")
