"""Errors a user can get from a model: each names the component, port or variable at fault."""


class ModelError(ValueError):
    """A model is wrong: a bad parameter, a bad connection, an impossible topology.

    The message names the component (dotted path), the port or the variable, and says what to do.
    """


class SimulationError(RuntimeError):
    """The integrator failed; the message gives the time, the state and the likely cause."""
