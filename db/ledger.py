"""The route budget's rows (core/engine/budget.py): `runs.budget` (the total, raised by a person)
and the append-only `budget_ledger` (one row per charge or extension; spent = the sum of units)."""
from __future__ import annotations

import sqlite_utils

from db.store import now


def budget_total(db: sqlite_utils.Database, run_id: str | None) -> float | None:
    r = db.execute("SELECT budget FROM runs WHERE run_id=?", [run_id]).fetchone()
    return None if r is None else float(r[0])


def spent(db: sqlite_utils.Database, run_id: str | None) -> float:
    r = db.execute("SELECT COALESCE(SUM(units), 0) FROM budget_ledger WHERE run_id=?", [run_id]).fetchone()
    return float(r[0])


def insert_entry(db: sqlite_utils.Database, run_id: str | None, step: int, route_id: str | None, family: str,
                 units: float, remaining: float) -> None:
    db.execute("INSERT INTO budget_ledger (run_id, step, route_id, family, units, remaining, created_at)"
               " VALUES (?,?,?,?,?,?,?)", [run_id, step, route_id, family, units, remaining, now()])


def raise_total(db: sqlite_utils.Database, run_id: str | None, units: float) -> None:
    db.execute("UPDATE runs SET budget = budget + ? WHERE run_id=?", [float(units), run_id])
