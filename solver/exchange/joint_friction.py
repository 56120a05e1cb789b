"""Dry joint friction of a robot file as Coulomb friction with true stiction.

URDF ``<dynamics friction>`` and MJCF ``frictionloss`` give one number per joint, the dry
friction torque [N·m] (revolute) or force [N] (prismatic) that Pinocchio reads into
``model.friction`` and MuJoCo into ``dof_frictionloss``. On request it becomes the Modelica
Standard Library's bearing friction on the joint's axis flange (a
:class:`~jourdain.blocks.hybrid.BearingFriction` or
:class:`~jourdain.blocks.hybrid.SupportFriction`): sliding, a constant torque against the
motion; stuck, the joint is held by a constraint until the torque needed to hold it exceeds
the static limit peak·friction. MuJoCo's frictionloss is a soft constraint that lets a held
joint creep; here a held joint does not move at all.

A mimic joint turns with its leader (q = k·q_leader + o), so its friction acts on the leader's
element as |k|·friction (the torque it takes to hold or drag the follower, reflected through
the coupling): one stick/slip element per degree of freedom, never two constraints on one.
"""
from __future__ import annotations

import numpy as np

from jourdain.blocks import Prismatic, Revolute
from jourdain.blocks.errors import ModelError
from jourdain.blocks.hybrid import BearingFriction, SupportFriction

from .options import import_option, selected_joints

PENDING = "dry friction (URDF <dynamics friction>, MJCF frictionloss) of"


def check_dynamics(spec) -> None:
    """A joint's damping and friction must be finite and ≥ 0 (a ModelError naming it)."""
    for what, value, unit in (("friction", spec.friction, "N·m or N"),
                              ("damping", spec.damping, "N·m·s/rad or N·s/m")):
        if not (np.isfinite(value) and value >= 0):
            raise ModelError(f"{spec.where}: {what} must be a finite value ≥ 0 [{unit}], got "
                             f"{value:g}; fix the file (URDF <dynamics {what}=...>, MJCF "
                             f"{'frictionloss' if what == 'friction' else what})")


def reflected(robot) -> dict[str, float]:
    """{joint: its friction plus |k|·friction of each mimic joint that follows it}."""
    out = {name: robot.joint_info[name].friction for name in robot.joints}
    for name in robot.mimics:
        leader, multiplier, _ = robot.joint_info[name].mimic
        if leader in out:
            out[leader] += abs(multiplier) * robot.joint_info[name].friction
    return out


def add_friction(robot, joints, options: dict, unique_name) -> dict:
    """Robot.add_friction (see its docstring); ``unique_name(robot, base)`` names the
    elements."""
    owner = f"{robot.name}.add_friction"
    values = reflected(robot)
    added = {}
    for name, joint in selected_joints(robot, joints, owner):
        if name in robot.mimics:
            leader = robot.joint_info[name].mimic[0]
            raise ModelError(f"{owner}: joint '{name}' follows '{leader}' (mimic): its friction "
                             f"acts on the element of '{leader}'; name '{leader}' instead")
        if not isinstance(joint, (Revolute, Prismatic)) or values[name] <= 0:
            continue
        if name in robot.frictions:
            raise ModelError(f"{owner}: joint '{name}' has a friction element already")
        element = _element(joint, values[name], options, owner)
        robot.add(unique_name(robot, f"{robot.child_name(name)}_friction"), element)
        robot.connect(element.flange_b, joint.axis)
        robot.frictions[name] = added[name] = element
    _update_note(robot)
    return added


def _element(joint, value: float, options: dict, owner: str):
    table = ((0.0, float(value)),)
    try:
        if isinstance(joint, Revolute):
            return BearingFriction(tau_pos=table, **options)
        return SupportFriction(f_pos=table, **options)
    except TypeError as exc:
        raise ModelError(f"{owner}: {exc}; the option is peak [1] ≥ 1 (static limit / "
                         "friction of the file)") from None


def pending(robot) -> list[str]:
    """The 1-DOF joints whose friction in the file has no element yet (mimic joints count
    through their leader)."""
    values = reflected(robot)
    return [name for name, joint in robot.joints.items()
            if isinstance(joint, (Revolute, Prismatic)) and name not in robot.mimics
            and values[name] > 0 and name not in robot.frictions]


def _update_note(robot) -> None:
    """One line in robot.notes about friction the file gives and the model leaves out."""
    robot.notes[:] = [n for n in robot.notes if not n.startswith(PENDING)]
    left = pending(robot)
    if left:
        shown = ", ".join(left[:4]) + (", …" if len(left) > 4 else "")
        robot.notes.append(f"{PENDING} {len(left)} joints ({shown}) not applied: "
                           "friction=True on import or robot.add_friction() makes it Coulomb "
                           "friction with stiction")


def with_friction(robot, friction, caller: str) -> None:
    """The ``friction`` option of the importers: False, True or a dict of options (peak)."""
    for name, joint in robot.joints.items():
        value = robot.joint_info[name].friction
        if value > 0 and not isinstance(joint, (Revolute, Prismatic)):
            robot.notes.append(f"friction {value:g} of {robot.joint_info[name].type.value} "
                               f"joint '{name}' not imported (1-D joints only)")
    if not import_option(friction, robot.add_friction, caller, "friction",
                         "a dict of options", "{'peak': 1.2}"):
        _update_note(robot)
