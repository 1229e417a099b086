"""The tool calls' rows as tools.base.Recorder writes and reads them: `tool_calls` (one row per
call, cached or not) and the content-addressed `cache` of their outputs. The one module of db/
the tools import (the Recorder records through it); it imports nothing of the tools."""
from __future__ import annotations

from typing import Any

import sqlite_utils


def cached_output(db: sqlite_utils.Database, key: str) -> str | None:
    """The cached output JSON under `key`, None if there is none."""
    row = db.execute("SELECT output FROM cache WHERE key = ?", [key]).fetchone()
    return None if row is None else row[0]


def cached_keys(db: sqlite_utils.Database, keys: list[str]) -> set[str]:
    """Which of `keys` the cache holds (looked up 500 at a time)."""
    found: set[str] = set()
    for a in range(0, len(keys), 500):
        chunk = keys[a:a + 500]
        q = f"SELECT key FROM cache WHERE key IN ({','.join('?' * len(chunk))})"
        found.update(r[0] for r in db.execute(q, chunk).fetchall())
    return found


def insert_call(db: sqlite_utils.Database, row: dict[str, Any]) -> int:
    """One `tool_calls` row (run_id, step, route_id, tool, inputs, outputs, error, duration_ms, cost,
    cache_key, cached, created_at); its row id."""
    cur = db.conn.execute(
        "INSERT INTO tool_calls (run_id, step, route_id, tool, inputs, outputs, error,"
        " duration_ms, cost, cache_key, cached, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
        [row["run_id"], row["step"], row["route_id"], row["tool"], row["inputs"], row["outputs"], row["error"],
         row["duration_ms"], row["cost"], row["cache_key"], row["cached"], row["created_at"]])
    return int(cur.lastrowid)


def put_cache(db: sqlite_utils.Database, key: str, kind: str, name: str, output: str, created_at: str) -> None:
    db.conn.execute("INSERT OR REPLACE INTO cache (key, kind, name, output, created_at) VALUES (?,?,?,?,?)",
                    [key, kind, name, output, created_at])


def copy_cache(db: sqlite_utils.Database, src: str, *, kind: str | None = None) -> None:
    """Seed this DB's cache from the run DB at `src` (its rows of `kind` only, if given); rows this
    one holds already stay."""
    db.execute("ATTACH DATABASE ? AS src", [src])
    with db.conn:
        if kind is None:
            db.execute("INSERT OR IGNORE INTO main.cache SELECT * FROM src.cache")
        else:
            db.execute("INSERT OR IGNORE INTO main.cache SELECT * FROM src.cache WHERE kind = ?", [kind])
    db.execute("DETACH DATABASE src")
