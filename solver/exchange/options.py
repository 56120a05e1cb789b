"""The importers' opt-in options (``stops=``, ``friction=``): off, on with the defaults, or a
dict of options for the robot's ``add_stops`` / ``add_friction``."""
from __future__ import annotations

from jourdain.blocks.errors import ModelError

from ..model.names import unknown


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


def selected_joints(robot, joints, owner: str) -> list:
    """(name, joint) of the joints an ``add_*`` method of a Robot acts on: ``joints`` (names
    in the file, checked) or, for None, every joint but the mimic followers."""
    chosen = [n for n in robot.joints if n not in robot.mimics] if joints is None \
        else list(joints)
    for name in chosen:
        if name not in robot.joints:
            raise ModelError(unknown(owner, name, list(robot.joints)))
    return [(name, robot.joints[name]) for name in chosen]
