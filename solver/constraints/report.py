"""The constraint stage's report in plain words (DESIGN.md §3.4): closure equations, their rank,
redundant rows, dependent coordinates and speeds, multipliers, the assembled configuration and
the integrability classification."""
from __future__ import annotations

from .methods import ConstraintMethod


def _dependent_lines(system) -> list[str]:
    """The dependent coordinates and, for ball joints inside loops, the rotation
    directions Newton turns their quaternions about (solver/moves.py)."""
    lines = ["    dependent coordinates (solved by Newton): " +
             (", ".join(system.dependent_coordinates) or "none") +
             " (∂c/∂y_dep non-singular; translations and later-declared joints first, so "
             "the first-declared joint stays independent)"]
    turns = [system.speed_names[j] for j in system.partition.dependent_moves
             if len(system.mover.moved[j]) == 4]
    if turns:
        lines.append("    ball joints inside loops: Newton turns their quaternions about "
                     "the rotation directions " + ", ".join(turns) + " (q ← q ⊗ (1, ½·δθ),"
                     " normalized); their other directions stay independent")
    return lines


def redundant_constraints(system) -> list[str]:
    """The closure equations dropped as redundant at the assembled configuration, each as
    '<joint> row <r>' (r: the row of c(y)); an overconstrained loop such as Bricard's
    mechanism has one, a planar loop three (motion out of its plane)."""
    owners = system.constraint_owners
    return [f"{owners[r].split(' (')[0]} row {r}" for r in system.partition.redundant_rows]


def constraint_report(system) -> str:
    """Plain words on what the constraint stage found and why (DESIGN.md §3.4)."""
    part, owners = system.partition, system.constraint_owners
    nc = len(part.holonomic_rows) + len(part.redundant_rows)
    lines = [f"  constraints (method: {system.method.value})"]
    if nc:
        loops = any("closing the loop" in owners[i] for i in range(nc))
        junctions = all(owners[i].startswith("junction ") for i in range(nc))
        kind = "closure equations" if loops else \
            "force balance equations (massless junctions)" if junctions else \
            "contact height equations"
        lines += [f"    {nc} {kind} c(y) = 0 from " +
                  ", ".join(dict.fromkeys(owners[i] for i in range(nc))) +
                  f"; rank {len(part.holonomic_rows)} at the assembled configuration"]
        if loops:
            lines.append("    (a loop is cut at its last-declared joint that no force "
                         "element acts on; a cut revolute gives 3 position + 2 axis "
                         "equations)")
        if part.redundant_rows:
            lines.append(f"    {len(part.redundant_rows)} equations are redundant "
                         "(satisfied identically or implied by the others, e.g. motion out "
                         "of the plane of a planar loop) and dropped: rows " +
                         ", ".join(map(str, part.redundant_rows)))
        lines += _dependent_lines(system)
    lines.append(f"    {len(part.velocity_rows)} independent velocity constraints A(y)·w = 0"
                 + (f" ({len(part.velocity_redundant)} redundant dropped)"
                    if part.velocity_redundant else ""))
    lines.append("    dependent speeds: " + (", ".join(system.dependent_speeds) or "none") +
                 "; independent speeds: " + ", ".join(system.independent_speeds) +
                 " (driven and user-chosen speeds are kept independent)")
    if system.method is not ConstraintMethod.PARTITIONING:
        lines.append("    multipliers (Result 'lambda[i]', generalized constraint forces of "
                      "the rows of A): " + ", ".join(
                          f"lambda[{i}]: {owners[r].split(' (')[0]} row {r}"
                          for i, r in enumerate(part.velocity_rows)))
    lines.append("    assembled configuration: " + ", ".join(
        f"{n}={v:.6g}" for n, v in zip(system.y_names, system.y_ref)))
    lines += ["    " + line for line in str(system.integrability).splitlines()]
    return "\n".join(lines)
