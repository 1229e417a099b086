"""The run graph's rows as the CPeg store (core/engine/graph.py) loads and writes them: `nodes`
(the current row of each node), `node_versions` (one row per node and step), `edges` (support
edges are marked removed, never deleted) and `hypothesis_history` (each status a hypothesis
takes)."""
from __future__ import annotations

from typing import Any

import sqlite_utils

NODE_COLUMNS = ("node_id", "kind", "post_id", "modality", "carrier", "content", "attribute", "value", "level",
                "granularity", "confidence", "status", "derived", "provenance", "data", "step_created")


def node_rows(db: sqlite_utils.Database, run_id: str) -> list[tuple]:
    """The run's node rows (NODE_COLUMNS, in that order) as inserted."""
    return db.execute(f"SELECT {', '.join(NODE_COLUMNS)} FROM nodes WHERE run_id=? ORDER BY rowid", [run_id]).fetchall()


def latest_versions(db: sqlite_utils.Database, run_id: str) -> dict[str, tuple[str | None, str | None]]:
    """node_id -> (provenance, data) JSON of its latest version (each the last non-NULL one)."""
    out: dict[str, tuple[str | None, str | None]] = {}
    for nid, prov, data in db.execute(
        "SELECT node_id, provenance, data FROM node_versions WHERE run_id=? ORDER BY node_id, step", [run_id]
    ).fetchall():
        old = out.get(nid, (None, None))
        out[nid] = (prov if prov is not None else old[0], data if data is not None else old[1])
    return out


def alive_edges(db: sqlite_utils.Database, run_id: str) -> list[tuple[str, str, str, int]]:
    """(src, dst, kind, step) of the edges not removed, as inserted."""
    return db.execute("SELECT src, dst, kind, step FROM edges WHERE run_id=? AND removed_step IS NULL ORDER BY rowid",
                      [run_id]).fetchall()


def insert_node(db: sqlite_utils.Database, row: dict[str, Any]) -> None:
    """A new `nodes` row (its columns are the keys of `row`, run_id and node_id among them)."""
    db.execute(f"INSERT INTO nodes ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})", list(row.values()))


def update_node(db: sqlite_utils.Database, row: dict[str, Any]) -> None:
    """The `nodes` row of (row's run_id, node_id) set to the rest of `row`."""
    sets = ", ".join(f"{k}=?" for k in row if k not in ("run_id", "node_id"))
    vals = [v for k, v in row.items() if k not in ("run_id", "node_id")]
    db.execute(f"UPDATE nodes SET {sets} WHERE run_id=? AND node_id=?", vals + [row["run_id"], row["node_id"]])


def write_version(db: sqlite_utils.Database, run_id: str, node_id: str, step: int, *, status: str | None,
                  confidence: float | None, content: str | None, value: str | None, level: str | None, derived: int,
                  provenance: str | None, data: str | None, reason: str | None) -> None:
    """One node_versions row per (node, step): the last write of a step wins; provenance, data and
    reason NULL keep the step's earlier ones."""
    db.execute(
        "INSERT INTO node_versions (run_id, node_id, step, status, confidence, content, value, level, derived,"
        " provenance, data, reason) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
        " ON CONFLICT(run_id, node_id, step) DO UPDATE SET status=excluded.status,"
        " confidence=excluded.confidence, content=excluded.content, value=excluded.value, level=excluded.level,"
        " derived=excluded.derived, provenance=COALESCE(excluded.provenance, node_versions.provenance),"
        " data=COALESCE(excluded.data, node_versions.data), reason=COALESCE(excluded.reason, node_versions.reason)",
        [run_id, node_id, step, status, confidence, content, value, level, derived, provenance, data, reason])


def insert_edge(db: sqlite_utils.Database, run_id: str, src: str, dst: str, kind: str, step: int, data: str) -> None:
    db.execute("INSERT OR IGNORE INTO edges (run_id, src, dst, kind, step, data) VALUES (?,?,?,?,?,?)",
               [run_id, src, dst, kind, step, data])


def remove_support(db: sqlite_utils.Database, run_id: str, src: str, dst: str, step: int, reason: str) -> None:
    """The support edge stops counting from `step` on; the row stays, marked with the step and why."""
    db.execute("UPDATE edges SET removed_step=?, removed_reason=? WHERE run_id=? AND src=? AND dst=?"
               " AND kind='support' AND removed_step IS NULL", [step, reason, run_id, src, dst])


def record_status(db: sqlite_utils.Database, run_id: str, node_id: str, step: int, status: str,
                  confidence: float | None, reason: str) -> None:
    db.execute("INSERT INTO hypothesis_history (run_id, node_id, step, status, confidence, reason)"
               " VALUES (?,?,?,?,?,?)", [run_id, node_id, step, status, confidence, reason])
