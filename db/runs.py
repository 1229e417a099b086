"""The `runs` row, the run's `posts` and its `events` as the investigation loop writes them: the
run created at step 0, brought up to date as each step commits, reopened when a finished run
continues; events appended."""
from __future__ import annotations

from typing import Any

import sqlite_utils

from db.store import dumps, now


def insert_run(db: sqlite_utils.Database, run_id: str, *, user_id: str, user_dir: str, system: str, backend: str,
               config: dict[str, Any], budget: float) -> None:
    ts = now()
    db.execute(
        "INSERT INTO runs (run_id, user_id, user_dir, system, backend, config, budget, spent, status, step,"
        " created_at, updated_at) VALUES (?,?,?,?,?,?,?,0,'running',0,?,?)",
        [run_id, user_id, user_dir, system, backend, dumps(config), float(budget), ts, ts])


def insert_post(db: sqlite_utils.Database, run_id: str, post_id: str, idx: int, timestamp: str | None,
                ip_region: str | None, data: dict[str, Any]) -> None:
    db.execute("INSERT OR REPLACE INTO posts (run_id, post_id, idx, timestamp, ip_region, data) VALUES (?,?,?,?,?,?)",
               [run_id, post_id, idx, timestamp, ip_region, dumps(data)])


def commit_run(db: sqlite_utils.Database, run_id: str, step: int, spent: float, status: str | None) -> None:
    """The run row as a step commits: its step and spent units, and its new status (finished:
    finished_at set)."""
    sets = "step=?, spent=?, updated_at=?"
    vals: list[Any] = [step, spent, now()]
    if status:
        sets += ", status=?"
        vals.append(status)
        if status == "finished":
            sets += ", finished_at=?"
            vals.append(now())
    db.execute(f"UPDATE runs SET {sets} WHERE run_id=?", vals + [run_id])


def reopen_run(db: sqlite_utils.Database, run_id: str) -> None:
    db.execute("UPDATE runs SET finished_at=NULL WHERE run_id=?", [run_id])


def insert_event(db: sqlite_utils.Database, run_id: str, step: int, kind: str, data_json: str) -> int:
    """One `events` row (append-only); its row id."""
    cur = db.execute("INSERT INTO events (run_id, step, kind, data, created_at) VALUES (?,?,?,?,?)",
                     [run_id, step, kind, data_json, now()])
    return int(cur.lastrowid)
