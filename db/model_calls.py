"""The run store's side of the model backends: every model call, the content-addressed model
cache, the backend config a replay rebuilds, the endpoints' capabilities and the backends'
own events. The engine's loop hands a backend a `ModelCalls` for its run and step; the backend
records through it and never holds the database (tests/test_foundation_layers.py).

`ModelCalls()` (no database) records nothing and finds nothing (scripts, a judge without a run).
"""
from __future__ import annotations

import json
import sqlite3
from typing import Any

import sqlite_utils

from db.store import dumps, now


def cached_output(db: sqlite_utils.Database, key: str) -> dict[str, Any] | None:
    """A recorded model reply (kind 'model') of any cache source: a run DB, a shared cache file,
    a replayed DB; None when absent or when the source has no cache table (an older or foreign DB)."""
    try:
        row = db.execute("SELECT output FROM cache WHERE key = ? AND kind = 'model'", [key]).fetchone()
    except sqlite3.Error:
        return None
    return json.loads(row[0]) if row else None


def capability_row(db: sqlite_utils.Database, model: str, base_url: str | None = None, *,
                   any_url: bool = False) -> dict[str, Any] | None:
    """The `model_capabilities` row last probed for a model (at `base_url` unless `any_url`) in a
    run DB or a recorded one; None when absent or the DB has no such table."""
    sql = "SELECT * FROM model_capabilities WHERE model = ?"
    args: list[Any] = [model]
    if not any_url:
        sql += " AND base_url = ?"
        args.append(base_url or "")
    try:
        cur = db.execute(sql + " ORDER BY probed_at DESC LIMIT 1", args)
    except sqlite3.Error:
        return None
    row = cur.fetchone()
    return dict(zip([c[0] for c in cur.description], row)) if row else None


def store_output(db: sqlite_utils.Database, key: str, name: str, output: dict[str, Any], *, commit: bool = False) -> None:
    db.execute("INSERT OR IGNORE INTO cache (key, kind, name, output, created_at) VALUES (?, 'model', ?, ?, ?)",
               [key, name, dumps(output), now()])
    if commit:
        db.conn.commit()


class ModelCalls:
    """Where a backend records, for one run at one step: model calls (`model_calls`), replies
    (`cache`, kind 'model'), the request settings (kind 'config'), endpoint capabilities
    (`model_capabilities`) and its events (`role_fallback`, `capabilities`: written at once, they
    may happen between steps). `errors` collects failed roles for the loop's step events."""

    def __init__(self, db: sqlite_utils.Database | None = None, run_id: str | None = None, step: int = 0,
                 errors: list[dict[str, Any]] | None = None):
        self._db = db
        self.run_id = run_id
        self.step = step
        self.errors: list[dict[str, Any]] = [] if errors is None else errors

    @property
    def recording(self) -> bool:
        return self._db is not None

    @property
    def key(self) -> int:
        """Identifies the run store (a backend saves its config once per store)."""
        return id(self._db)

    def error(self, where: str, reason: str, **extra: Any) -> None:
        self.errors.append({"where": where, "reason": reason, **extra})

    # ---- replies and calls ----
    def cached(self, key: str) -> dict[str, Any] | None:
        return cached_output(self._db, key) if self._db is not None else None

    def store(self, key: str, name: str, output: dict[str, Any]) -> None:
        if self._db is not None:
            store_output(self._db, key, name, output)

    def record(self, call: dict[str, Any]) -> None:
        """One `model_calls` row: role, model, base_url, request, response, parsed, error, tokens,
        duration_ms, cost, cache_key, cached (a CallRecord's fields)."""
        if self._db is None:
            return
        self._db.execute(
            "INSERT INTO model_calls (run_id, step, role, model, base_url, request, response, parsed, error,"
            " prompt_tokens, completion_tokens, duration_ms, cost, cache_key, cached, created_at)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            [self.run_id, self.step, call["role"], call.get("model"), call.get("base_url"), dumps(call["request"]),
             call.get("response"), dumps(call["parsed"]) if call.get("parsed") is not None else None,
             call.get("error"), call.get("prompt_tokens"), call.get("completion_tokens"), call.get("duration_ms"),
             call.get("cost", 0.0), call.get("cache_key"), int(bool(call.get("cached"))), now()])

    def save_config(self, key: str, body: str) -> None:
        """The backend's request settings (masked), kept for a replay."""
        if self._db is not None:
            self._db.execute("INSERT OR IGNORE INTO cache (key, kind, name, output, created_at)"
                             " VALUES (?, 'config', ?, ?, ?)", [key, self.run_id, body, now()])

    # ---- the backend's events ----
    def event(self, kind: str, data: dict[str, Any]) -> None:
        if self._db is not None:
            self._db.execute("INSERT INTO events (run_id, step, kind, data, created_at) VALUES (?,?,?,?,?)",
                             [self.run_id, self.step, kind, dumps(data), now()])

    def events(self, kind: str) -> list[dict[str, Any]]:
        """The run's events of one kind (e.g. the role fallbacks a resumed run keeps)."""
        if self._db is None:
            return []
        try:
            rows = self._db.execute("SELECT data FROM events WHERE run_id=? AND kind=?", [self.run_id, kind]).fetchall()
        except sqlite3.Error:    # a DB without the events table (older run DB): nothing announced
            return []
        return [json.loads(d) for (d,) in rows]

    # ---- endpoint capabilities ----
    def capabilities(self, model: str, base_url: str | None) -> dict[str, Any] | None:
        """The capability row last probed for (model, base URL), as a dict, or None."""
        return capability_row(self._db, model, base_url) if self._db is not None else None

    def store_capabilities(self, row: dict[str, Any]) -> None:
        if self._db is not None:
            cols = list(row)
            self._db.execute(f"INSERT OR REPLACE INTO model_capabilities ({', '.join(cols)}) VALUES"
                             f" ({', '.join('?' * len(cols))})", [row[c] for c in cols])


def usage_rows(db: sqlite_utils.Database, run_id: str | None = None) -> list[tuple]:
    """(run_id, role, model, calls, failed, cached, prompt_tokens, completion_tokens, duration_ms, cost)
    per run, role and model (of one run if given)."""
    where, args = ("WHERE run_id = ?", [run_id]) if run_id else ("", [])
    return db.execute(
        "SELECT run_id, role, model, COUNT(*), SUM(error IS NOT NULL), SUM(cached),"
        " COALESCE(SUM(prompt_tokens),0), COALESCE(SUM(completion_tokens),0),"
        f" COALESCE(SUM(duration_ms),0), COALESCE(SUM(cost),0) FROM model_calls {where}"
        " GROUP BY run_id, role, model ORDER BY run_id, role", args).fetchall()


def recorded_config_json(db: sqlite_utils.Database, run_id: str | None = None) -> str | None:
    """The backend config JSON a model-backend run recorded (the latest, or the one of run_id)."""
    sql = "SELECT output FROM cache WHERE kind = 'config'"
    args: list[Any] = []
    if run_id:
        sql += " AND name = ?"
        args.append(run_id)
    row = db.execute(sql + " ORDER BY created_at DESC, rowid DESC LIMIT 1", args).fetchone()
    return None if row is None else row[0]
