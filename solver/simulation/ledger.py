"""The physics ledger of a run with contacts (``res.ledger``): per contact, the energy its
impacts took, the work of its forces between events, the deepest penetration, and the
residuals of its laws — complementarity of the normal force and the gap, Coulomb's cone.

Impacts: at every event record, M·(z⁺ − z⁻) = Jᵀ·Λ (impacts and the projection that follows
them act through the rows' Jacobian, those of the elements the event names or that are
closed: open rows carry no impulse); Λ by least squares, and the kinetic energy the event
changed splits exactly over the rows, ΔT = ½·(z⁺ + z⁻)ᵀ·M·(z⁺ − z⁻) = Σ_i Λ_i·(γ_i⁺ + γ_i⁻)/2
(rows that hold one motion together, four corners of a box, share by the least-squares
split). Between events, the work of each row's force is ∫ λ·γ dt on the output grid
(trapezoid: as fine as ``n_out``; ≤ 0 for friction, the spring's work for a compliant law).
Penetration, complementarity (max |λ_n·g| with λ_n ≥ 0, g ≥ 0) and the cone residual
(max(|λ_t| − μ_s·λ_n, 0)) are read on the output grid too.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass
class ContactEntry:
    """One contact's account [J, m, N·m, N] (see the module docstring)."""

    impacts: float = 0.0            # kinetic energy its impulses changed (< 0: taken)
    work: float = 0.0               # ∫ λ·γ dt of its rows between events
    max_penetration: float = 0.0    # max(−gap, 0) [m]
    complementarity: float = 0.0    # max |λ_n·gap| [N·m]
    negative_force: float = 0.0     # max(−λ_n, 0) [N] (a rigid contact never pulls)
    cone: float = 0.0               # max(|λ_t| − μ_s·λ_n, 0) [N]
    impact_times: list = field(default_factory=list)


@dataclass
class ContactLedger:
    """``contacts``: path → ContactEntry; ``unattributed``: kinetic energy changed at events
    by anything but the rows (resets of user events) [J]."""

    contacts: dict
    unattributed: float = 0.0

    @property
    def energy_in(self) -> float:
        """Energy the contacts gave to the motion [J] (impacts and work, positive parts)."""
        return sum(max(c.impacts, 0) + max(c.work, 0) for c in self.contacts.values())

    @property
    def energy_out(self) -> float:
        """Energy the contacts took from the motion [J] (≥ 0)."""
        return -sum(min(c.impacts, 0) + min(c.work, 0) for c in self.contacts.values())

    @property
    def max_penetration(self) -> float:
        return max((c.max_penetration for c in self.contacts.values()), default=0.0)

    @property
    def complementarity(self) -> float:
        return max((c.complementarity for c in self.contacts.values()), default=0.0)

    @property
    def cone(self) -> float:
        return max((c.cone for c in self.contacts.values()), default=0.0)

    def table(self) -> str:
        head = (f"{'contact':<28}{'impacts [J]':>13}{'work [J]':>12}{'penetr. [m]':>13}"
                f"{'λ·g [N·m]':>11}{'cone [N]':>10}")
        lines = [head] + [f"{path:<28}{c.impacts:>13.4g}{c.work:>12.4g}"
                          f"{c.max_penetration:>13.3g}{c.complementarity:>11.3g}"
                          f"{c.cone:>10.3g}" for path, c in self.contacts.items()]
        lines.append(f"energy in {self.energy_in:.6g} J, out {self.energy_out:.6g} J; max "
                     f"penetration {self.max_penetration:.3g} m")
        return "\n".join(lines)


@dataclass
class SteppingLedger:
    """The ledger of a ``contact="stepping"`` run, over the whole run and all contacts:
    max_penetration [m] (max of −gap), complementarity [m/s] (max |λ_n·(v_n⁺ − b)|/λ-scale:
    how far the velocity-level complementarity was from met when the sweeps stopped) and cone
    [m/s] (the matching residual of Coulomb's cone); max_step_gain [J], the largest kinetic
    energy the contact impulses added to a step's free motion (≤ 0 by construction where no
    contact rebounds or is pushed out of a penetration: > 0 flags energy a contact gave), and
    energy_taken [J], the work the impulses took over the run (at each step's mean speed:
    zero for a resting contact, ½·m·(1 − e²)·v² for an impact). Per-contact energies are the
    event-driven mode's (:class:`ContactLedger`)."""

    max_penetration: float
    complementarity: float
    cone: float
    max_step_gain: float = 0.0
    energy_taken: float = 0.0
    max_correction: float = 0.0

    def table(self) -> str:
        return (f"stepping run: max penetration {self.max_penetration:.3g} m, "
                f"complementarity {self.complementarity:.3g} m/s, cone {self.cone:.3g} m/s, "
                f"largest energy given in a step {self.max_step_gain:.3g} J, taken "
                f"{self.energy_taken:.4g} J")


def _contact_rows(info) -> dict:
    """owner path → (owner, normal row index, [tangent row indices]) of unilateral rows."""
    out = {}
    for i, row in enumerate(info.rows):
        if row.unilateral:
            out[row.owner.path] = (row.owner, i, [])
    for i, row in enumerate(info.rows):
        if row.friction_of is not None and row.owner.path in out:
            out[row.owner.path][2].append(i)
    return out


def _grid_data(res):
    system, n = res.system, res.t.size
    P = res.p if np.ndim(res.p) == 2 else np.repeat(np.reshape(res.p, (-1, 1)), n, axis=1)
    U = np.array([res.series[name] for name in system.u_names]).reshape(-1, n)
    out = system.functions["hybrid"].map(n)(res.t.reshape(1, -1), res.x, U, P)
    return [np.array(out[k], dtype=float).reshape(-1, n) for k in range(3)], U, P


def _impact_split(res, record, rows: int):
    """Per-row kinetic energy change of one event record (module docstring), and the part
    no row explains."""
    system = res.system
    ny, nz = len(system.y_names), len(system.z_names)
    xb, xa = (np.nan_to_num(np.asarray(x, dtype=float)) for x in (record.x_before,
                                                                    record.x_after))
    k = min(int(np.searchsorted(res.t, record.t)), res.t.size - 1)
    P = res.p[:, k] if np.ndim(res.p) == 2 else res.p
    U = np.array([res.series[name][k] for name in system.u_names])
    M, J, gamma_b, _ = system.functions["impact"](record.t, xb, U, P)
    M, J = np.array(M, dtype=float), np.array(J, dtype=float).reshape(rows, nz)
    zb, za = xb[ny:ny + nz], xa[ny:ny + nz]
    impulse = M @ (za - zb)
    acting = _acting_rows(res.system.hybrid, record)
    lam = np.zeros(rows)
    if acting:
        lam[acting] = np.linalg.lstsq(J[acting].T, impulse, rcond=None)[0]
    per_row = lam * (J @ (za + zb)) / 2
    total = 0.5 * (za + zb) @ impulse
    return per_row, total - per_row.sum()


def _acting_rows(info, record) -> list[int]:
    """The rows an event's impulses can act through: those of the elements it names and of
    every element in a closed mode before or after it (open rows carry no impulse)."""
    named = set(record.element.split(", "))
    for change in record.changes:     # merged islands' records name theirs in the changes
        named |= set(str(change).split(":", 1)[0].split(", "))
    closed = {key.rsplit(".", 1)[0] for d in (record.discrete_before, record.discrete_after)
              for key, value in d.items() if key.endswith(".mode") and value != 0}
    return [i for i, row in enumerate(info.rows) if row.owner.path in named | closed]


def contact_ledger(res) -> ContactLedger:
    """The ledger of a Result (module docstring); an empty ledger without contacts."""
    info = getattr(res.system, "hybrid", None)
    if info is None or not info.rows or "hybrid" not in res.system.functions:
        return ContactLedger({})
    groups = _contact_rows(info)
    (gamma, lam, gap), _, _ = _grid_data(res)
    ledger = ContactLedger({path: ContactEntry() for path in groups})
    for path, (owner, i, tangents) in groups.items():
        entry = ledger.contacts[path]
        entry.max_penetration = float(max(np.max(-gap[i]), 0.0))
        entry.negative_force = float(max(np.max(-lam[i]), 0.0))
        entry.complementarity = float(np.max(np.abs(lam[i] * gap[i])))
        mu_s = float(getattr(owner, "mu_static", np.inf) or 0.0)
        if tangents:
            friction = np.sqrt(np.sum(lam[tangents] ** 2, axis=0))
            entry.cone = float(max(np.max(friction - mu_s * np.maximum(lam[i], 0)), 0.0))
        power = np.sum(lam[[i] + tangents] * gamma[[i] + tangents], axis=0)
        entry.work = float(np.trapezoid(power, res.t)) if res.t.size > 1 else 0.0
    for record in res.events:
        if record.x_before is None or record.x_after is None or \
                not record.energy_lost:
            continue
        per_row, rest = _impact_split(res, record, len(info.rows))
        ledger.unattributed += float(rest)
        for path, (_, i, tangents) in groups.items():
            delta = float(per_row[[i] + tangents].sum())
            if abs(delta) > 1e-15:
                ledger.contacts[path].impacts += delta
                ledger.contacts[path].impact_times.append(record.t)
    return ledger
