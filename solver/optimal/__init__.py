"""Trajectory optimization: the problem statement, its traced functions, the transcriptions
(collocation, multiple shooting), the NLP, initial guesses, the IPOPT solve and the Solution."""
