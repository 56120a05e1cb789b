"""Control: linearization in minimal coordinates, the LinearSystem, LQR and pole placement."""
