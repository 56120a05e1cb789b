"""The importers' opt-in options (``stops=``, ``friction=``): off, on with the defaults, or a
dict of options for the robot's ``add_stops`` / ``add_friction``."""
from __future__ import annotations

from jourdain.blocks.errors import ModelError


def import_option(value, add, caller: str, name: str, what: str, example: str) -> bool:
    """An importer's opt-in option (``stops``, ``friction``): False or None (off), True (on,
    the defaults) or a dict of options for ``add``; True when ``add`` ran."""
    if value is False or value is None:
        return False
    if value is True:
        add()
    elif isinstance(value, dict):
        add(**value)
    else:
        raise ModelError(f"{caller}: {name} must be True, False or {what} (e.g. {example}), "
                         f"got {value!r}")
    return True
