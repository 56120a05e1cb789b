"""Pinocchio and MuJoCo versions of the benchmark models, for benchmarks/scale.py only.

Chain: the planar n-link pendulum of jourdain.library.NLinkPendulum (and of
benchmarks/peers/sympy_chain.py): uniform rods m = 1 kg, l = 1 m, central inertia
diag(m·l²/12, 0, m·l²/12), revolute about z, joint-relative angles, gravity −9.81 along y.
Tree: jourdain.library.RandomTree rebuilt joint by joint, with its springs (rest position 0)
and viscous dampers as joint torques τ = −c·q − d·q̇.

Pinocchio's CRBA and ABA need each subtree's joints contiguous, so the tree is added in
depth-first order and ``index`` maps jourdain's coordinate order to Pinocchio's.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

G = 9.81
ROD_J = 1.0 / 12.0  # kg·m², m·l²/12 for m = l = 1


@dataclass
class PinocchioModel:
    model: object
    index: list[int]        # jourdain coordinate i -> Pinocchio velocity index
    stiffness: np.ndarray   # spring constants per jourdain coordinate
    damping: np.ndarray     # damper constants per jourdain coordinate

    def torque(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        """Joint torques of the springs and dampers (Pinocchio order)."""
        tau = np.zeros(len(self.index))
        tau[self.index] = -self.stiffness * q[self.index] - self.damping * v[self.index]
        return tau


def pinocchio_chain(n: int) -> PinocchioModel:
    import pinocchio as pin
    model = pin.Model()
    model.gravity.linear = np.array([0.0, -G, 0.0])
    parent = 0
    for i in range(n):
        offset = np.zeros(3) if i == 0 else np.array([0.0, -1.0, 0.0])
        parent = model.addJoint(parent, pin.JointModelRZ(), pin.SE3(np.eye(3), offset),
                                f"joint{i + 1}")
        model.appendBodyToJoint(parent, pin.Inertia(1.0, np.array([0.0, -0.5, 0.0]),
                                                    np.diag([ROD_J, 0.0, ROD_J])),
                                pin.SE3.Identity())
    return PinocchioModel(model, list(range(n)), np.zeros(n), np.zeros(n))


def _depth_first(parents: list[int]) -> list[int]:
    order, stack = [], [0]
    while stack:
        node = stack.pop()
        if node:
            order.append(node)
        stack += [i for i in range(len(parents), 0, -1) if parents[i - 1] == node]
    return order


def pinocchio_tree(tree, g=(0.0, -G, 0.0)) -> PinocchioModel:
    """A jourdain.library.RandomTree (before compilation) as a Pinocchio model."""
    import pinocchio as pin
    from jourdain.blocks import Prismatic
    model, ids = pin.Model(), {0: 0}
    model.gravity.linear = np.array(g, dtype=float)
    n = len(tree.parents)
    for i in _depth_first(tree.parents):
        offset, joint = getattr(tree, f"offset{i}"), getattr(tree, f"joint{i}")
        body = getattr(tree, f"body{i}")
        kind = pin.JointModelPrismaticUnaligned if isinstance(joint, Prismatic) \
            else pin.JointModelRevoluteUnaligned
        rotation = pin.AngleAxis(offset.angle, np.array(offset.axis)).toRotationMatrix()
        ids[i] = model.addJoint(ids[tree.parents[i - 1]], kind(np.array(joint.axis_direction)),
                                pin.SE3(rotation, np.array(offset.r)), f"joint{i}")
        model.appendBodyToJoint(ids[i], pin.Inertia(body.m, np.array(body.r_cm),
                                                    np.array(body.I)), pin.SE3.Identity())
    index = [model.joints[ids[i]].idx_v for i in range(1, n + 1)]
    stiffness = np.array([getattr(tree, f"spring{i}").c for i in range(1, n + 1)])
    damping = np.array([getattr(tree, f"damper{i}").d for i in range(1, n + 1)])
    return PinocchioModel(model, index, stiffness, damping)


def mujoco_chain_xml(n: int, timestep: float = 1e-3, integrator: str = "RK4") -> str:
    """MJCF of the chain: nested bodies, hinge joints about z, no geometry (no contacts)."""
    inertial = (f'<inertial pos="0 -0.5 0" mass="1" '
                f'diaginertia="{ROD_J!r} 1e-12 {ROD_J!r}"/>')
    opening = "".join(
        f'<body name="link{i + 1}" pos="0 {0 if i == 0 else -1} 0">'
        f'<joint name="joint{i + 1}" type="hinge" axis="0 0 1"/>{inertial}'
        for i in range(n))
    return (f'<mujoco><compiler inertiafromgeom="false" balanceinertia="false"/>'
            f'<option gravity="0 {-G} 0" timestep="{timestep}" integrator="{integrator}"/>'
            f'<worldbody>{opening}{"</body>" * n}</worldbody></mujoco>')
