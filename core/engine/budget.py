"""The per-user route budget, kept as the run's `budget_ledger` (perception is not charged).

Costs are in abstract units that roughly track wall time and external exposure (local pixel
work is cheap, network lookups are dear); they are declared once, per route family, in
`tools/registry.py`. A user gets B = 20 units. With a DB the budget *is* the ledger: `spent`
is the sum of the run's ledger rows and `total` is `runs.budget`, so a rolled-back step
can never leave a charge in memory that the DB does not have.
"""
from __future__ import annotations

from typing import Any

from db import ledger
from tools.registry import NETWORK_FAMILIES, route_cost  # noqa: F401  (re-exported: costs live in the registry)

DEFAULT_BUDGET = 20.0


class Budget:
    """Ledger-backed budget of one run (db + run_id), or a detached one (no db) for scripts."""

    def __init__(self, total: float = DEFAULT_BUDGET, *, db: Any = None, run_id: str | None = None):
        self._total = float(total)
        self._spent = 0.0
        self.db = db
        self.run_id = run_id

    @property
    def total(self) -> float:
        if self.db is not None and (total := ledger.budget_total(self.db, self.run_id)) is not None:
            return total
        return self._total

    @property
    def spent(self) -> float:
        if self.db is not None:
            return ledger.spent(self.db, self.run_id)
        return self._spent

    @property
    def remaining(self) -> float:
        return max(0.0, self.total - self.spent)

    def affordable(self, cost: float) -> bool:
        return cost <= self.remaining + 1e-9

    def charge(self, cost: float, *, step: int = 0, route_id: str | None = None, family: str = "") -> float:
        """One ledger row (inside the caller's step transaction); returns the remaining units."""
        if self.db is None:
            self._spent += cost
            return self.remaining
        remaining = max(0.0, self.total - self.spent - cost)
        ledger.insert_entry(self.db, self.run_id, step, route_id, family, cost, remaining)
        return remaining

    def extend(self, units: float, *, step: int = 0, by: str = "") -> float:
        """Raise the total (runs.budget) by `units`; a zero-unit ledger row records when and by whom."""
        if units <= 0:
            raise ValueError(f"extend_budget: units must be > 0 (got {units:g})")
        if self.db is None:
            self._total += units
            return self.remaining
        ledger.raise_total(self.db, self.run_id, units)
        remaining = self.remaining
        ledger.insert_entry(self.db, self.run_id, step, None, f"budget+{units:g} by {by}"[:200], 0.0, remaining)
        return remaining
