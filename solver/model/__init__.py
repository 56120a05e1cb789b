"""What the components mean: flatten the composites, instantiate parameters, resolve the
topology (networkx spanning tree), build the kinematics, the signal network and the generalized
speeds, and collect the physical terms (mechanics)."""
