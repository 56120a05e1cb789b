"""The equations of motion: Jourdain/Kane projection, Lagrange + dissipation function, the
recursive O(n) back end (ABA, CRBA, RNEA) and its spatial algebra, the named CasADi functions of
a System, and the equations shown to people (report, sympy)."""
