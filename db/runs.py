"""The `runs` row, the run's `posts` and its `events` as the investigation loop writes them: the
run created at step 0, brought up to date as each step commits, reopened when a finished run
continues; events appended."""
from __future__ import annotations

from typing import Any

import sqlite_utils

from db.store import dumps, now


def insert_run(db: sqlite_utils.Database, run_id: str, *, user_id: str, user_dir: str, system: str, backend: str,
               config: dict[str, Any], budget: float, step: int = 0) -> None:
    """A new run, running at `step` (0: the engine's; a baseline's one pass starts at 1)."""
    ts = now()
    db.execute(
        "INSERT INTO runs (run_id, user_id, user_dir, system, backend, config, budget, spent, status, step,"
        " created_at, updated_at) VALUES (?,?,?,?,?,?,?,0,'running',?,?,?)",
        [run_id, user_id, user_dir, system, backend, dumps(config), float(budget), step, ts, ts])


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


def finish_run(db: sqlite_utils.Database, run_id: str, *, step: int) -> None:
    """A baseline's run done at `step` (the engine's commit_run for its own runs)."""
    db.execute("UPDATE runs SET status='finished', step=?, updated_at=?, finished_at=? WHERE run_id=?",
               [step, now(), now(), run_id])


def fail_run(db: sqlite_utils.Database, run_id: str, error: str) -> None:
    db.execute("UPDATE runs SET status='failed', error=?, updated_at=? WHERE run_id=?", [error, now(), run_id])


def reopen_run(db: sqlite_utils.Database, run_id: str) -> None:
    db.execute("UPDATE runs SET finished_at=NULL WHERE run_id=?", [run_id])


def insert_event(db: sqlite_utils.Database, run_id: str, step: int, kind: str, data_json: str) -> int:
    """One `events` row (append-only); its row id."""
    cur = db.execute("INSERT INTO events (run_id, step, kind, data, created_at) VALUES (?,?,?,?,?)",
                     [run_id, step, kind, data_json, now()])
    return int(cur.lastrowid)


def run_row(db: sqlite_utils.Database, run_id: str) -> tuple | None:
    """(user_dir, backend, config JSON, budget, spent, system) of a run, None if there is none."""
    return db.execute("SELECT user_dir, backend, config, budget, spent, system FROM runs WHERE run_id=?",
                      [run_id]).fetchone()


def run_status(db: sqlite_utils.Database, run_id: str) -> str | None:
    r = db.execute("SELECT status FROM runs WHERE run_id=?", [run_id]).fetchone()
    return r[0] if r else None


def last_step(db: sqlite_utils.Database, run_id: str) -> int:
    """The run's last committed step (0 before any)."""
    r = db.execute("SELECT step FROM runs WHERE run_id=?", [run_id]).fetchone()
    return int(r[0]) if r else 0


def runs_of_folder(db: sqlite_utils.Database, user_dir: str) -> list[tuple]:
    """(run_id, status, system, backend, config JSON) of the runs of one user folder, newest first."""
    return db.execute("SELECT run_id, status, system, backend, config FROM runs WHERE user_dir=? ORDER BY created_at DESC",
                      [user_dir]).fetchall()


def has_event(db: sqlite_utils.Database, run_id: str, kind: str) -> bool:
    return db.execute("SELECT 1 FROM events WHERE run_id=? AND kind=? LIMIT 1", [run_id, kind]).fetchone() is not None


def event_data(db: sqlite_utils.Database, run_id: str, kind: str, *, newest_first: bool = False) -> list[str]:
    """The data JSON of the run's events of one kind, in order (or newest first)."""
    order = "DESC" if newest_first else ""
    return [r[0] for r in db.execute(f"SELECT data FROM events WHERE run_id=? AND kind=? ORDER BY id {order}",
                                     [run_id, kind]).fetchall()]


def event_rows(db: sqlite_utils.Database, run_id: str, *, since_id: int = 0, max_step: int | None = None) -> list[tuple]:
    """(id, run_id, step, kind, data JSON) of the run's events after row `since_id` (up to `max_step`), in order."""
    sql, args = "SELECT id, run_id, step, kind, data FROM events WHERE run_id=? AND id>?", [run_id, since_id]
    if max_step is not None:
        sql += " AND step<=?"
        args.append(max_step)
    return [tuple(r) for r in db.execute(sql + " ORDER BY id", args).fetchall()]


def profile_attributes(db: sqlite_utils.Database, run_id: str) -> list[str]:
    return [r[0] for r in db.execute("SELECT attribute FROM profile WHERE run_id=?", [run_id]).fetchall()]


def in_profile(db: sqlite_utils.Database, run_id: str, attribute: str) -> bool:
    """Whether the run's current profile has a row of `attribute`."""
    return db.execute("SELECT 1 FROM profile WHERE run_id=? AND attribute=?", [run_id, attribute]).fetchone() is not None


def backfills_done(db: sqlite_utils.Database, run_id: str) -> set[str]:
    return {r[0] for r in db.execute("SELECT name FROM run_backfills WHERE run_id=?", [run_id]).fetchall()}


def record_backfill(db: sqlite_utils.Database, run_id: str, name: str, step: int, nodes: int) -> None:
    db.execute("INSERT INTO run_backfills (run_id, name, step, nodes, applied_at) VALUES (?,?,?,?,?)",
               [run_id, name, step, nodes, now()])
