"""The `routes` table as the investigation loop writes and reads it, in one place: a route is
inserted when proposed (or approved at once: a rerun, a route a person forced), marked with
its decision and result, and read back as the pending proposal, the next route id, the last
results (the loop's stability check) and a rerun's source. Reads of finished runs are in
db/queries.py; what a stage may read of routes is in db/reads.py."""
from __future__ import annotations

import json
from typing import Any

import sqlite_utils

from db.store import dumps, now


def insert_route(db: sqlite_utils.Database, run_id: str, step: int, *, route_id: str, hypothesis_id: str | None,
                 family: str, tool: str | None, params: dict[str, Any], cost: float, expected: str,
                 status: str, parent_route_id: str | None) -> None:
    db.execute(
        "INSERT INTO routes (run_id, route_id, step, hypothesis_id, family, tool, params, cost, expected, status,"
        " parent_route_id, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
        [run_id, route_id, step, hypothesis_id, family, tool, dumps(params), cost, expected, status,
         parent_route_id, now()])


def mark_route(db: sqlite_utils.Database, run_id: str, route_id: str, step: int, status: str, *, by: str,
               reason: str | None, result: dict[str, Any] | None) -> None:
    """A route's decision and result, recorded in the step that decided it."""
    db.execute(
        "UPDATE routes SET status=?, decided_by=?, decision_reason=?, decided_at=?, result=?, step=?"
        " WHERE run_id=? AND route_id=?",
        [status, by, reason, now(), dumps(result or {}), step, run_id, route_id])


def set_params(db: sqlite_utils.Database, run_id: str, route_id: str | None, params: dict[str, Any]) -> None:
    db.execute("UPDATE routes SET params=? WHERE run_id=? AND route_id=?", [dumps(params), run_id, route_id])


def pending_route(db: sqlite_utils.Database, run_id: str) -> dict[str, Any] | None:
    """The oldest route still awaiting a decision."""
    r = db.execute(
        "SELECT route_id, hypothesis_id, family, tool, params, cost, expected, parent_route_id FROM routes"
        " WHERE run_id=? AND status='proposed' ORDER BY created_at LIMIT 1", [run_id]).fetchone()
    if r is None:
        return None
    return {"route_id": r[0], "hypothesis_id": r[1], "family": r[2], "tool": r[3], "params": json.loads(r[4]),
            "cost": r[5], "expected": r[6] or "", "parent_route_id": r[7]}


def next_route_id(db: sqlite_utils.Database, run_id: str) -> str:
    n = db.execute("SELECT COUNT(*) FROM routes WHERE run_id=?", [run_id]).fetchone()[0]
    return f"r{n + 1}"


def last_results(db: sqlite_utils.Database, run_id: str, n: int) -> list[dict[str, Any]]:
    """The results of the last `n` executed routes, newest first."""
    rows = db.execute("SELECT result FROM routes WHERE run_id=? AND status IN ('done','edited','failed')"
                      " ORDER BY rowid DESC LIMIT ?", [run_id, n]).fetchall()
    return [json.loads(r[0] or "{}") for r in rows]


def last_executed(db: sqlite_utils.Database, run_id: str) -> str | None:
    r = db.execute("SELECT route_id FROM routes WHERE run_id=? AND status IN ('done','edited','failed')"
                   " ORDER BY rowid DESC LIMIT 1", [run_id]).fetchone()
    return r[0] if r else None


def route_source(db: sqlite_utils.Database, run_id: str, route_id: str | None) -> tuple | None:
    """(hypothesis_id, family, tool, params JSON, cost, expected) of one route, for a rerun."""
    return db.execute("SELECT hypothesis_id, family, tool, params, cost, expected FROM routes"
                      " WHERE run_id=? AND route_id=?", [run_id, route_id]).fetchone()
