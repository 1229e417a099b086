"""Ordered schema migrations; names of applied ones are stored in `_migrations`.

Append new migrations at the end; never edit an applied one. Plain columns and JSON
text columns only (readable with plain SQL and Datasette).
"""
from __future__ import annotations

import sqlite3
from typing import Callable

import sqlite_utils

from db.transaction import immediate

Migration = Callable[[sqlite_utils.Database], None]
MIGRATIONS: list[tuple[str, Migration]] = []


def migration(fn: Migration) -> Migration:
    MIGRATIONS.append((fn.__name__, fn))
    return fn


@migration
def m001_initial(db: sqlite_utils.Database) -> None:
    run_script(db,
        """
        CREATE TABLE runs (
            run_id TEXT PRIMARY KEY,
            user_id TEXT NOT NULL,
            user_dir TEXT,
            system TEXT NOT NULL DEFAULT 'argus',
            backend TEXT NOT NULL DEFAULT 'offline',
            config TEXT NOT NULL DEFAULT '{}',          -- JSON
            budget REAL NOT NULL DEFAULT 20,
            spent REAL NOT NULL DEFAULT 0,
            status TEXT NOT NULL DEFAULT 'created',     -- created|running|paused|finished|failed
            step INTEGER NOT NULL DEFAULT 0,            -- last committed step
            error TEXT,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            finished_at TEXT
        );
        CREATE TABLE posts (
            run_id TEXT NOT NULL REFERENCES runs(run_id),
            post_id TEXT NOT NULL,
            idx INTEGER NOT NULL,
            timestamp TEXT,
            ip_region TEXT,
            data TEXT NOT NULL,                         -- JSON: the post as loaded
            PRIMARY KEY (run_id, post_id)
        );
        CREATE TABLE images (
            run_id TEXT NOT NULL REFERENCES runs(run_id),
            image_id TEXT NOT NULL,
            post_id TEXT,
            file TEXT NOT NULL,
            sha256 TEXT,
            width INTEGER,
            height INTEGER,
            meta TEXT NOT NULL DEFAULT '{}',            -- JSON: exif, signals, load errors
            PRIMARY KEY (run_id, image_id)
        );
        CREATE TABLE nodes (
            run_id TEXT NOT NULL REFERENCES runs(run_id),
            node_id TEXT NOT NULL,
            kind TEXT NOT NULL,                         -- post|evidence|hypothesis
            post_id TEXT,
            modality TEXT,
            carrier TEXT,
            content TEXT,
            attribute TEXT,
            value TEXT,
            level TEXT,
            granularity REAL,
            confidence REAL,
            status TEXT,                                -- raw|grounded|derived|candidate|unresolved|suspended|removed
            derived INTEGER NOT NULL DEFAULT 0,
            provenance TEXT NOT NULL DEFAULT '[]',      -- JSON: chain of node/tool-call ids
            data TEXT NOT NULL DEFAULT '{}',            -- JSON: kind-specific extras
            step_created INTEGER NOT NULL DEFAULT 0,
            step_updated INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (run_id, node_id)
        );
        CREATE INDEX nodes_kind ON nodes(run_id, kind);
        CREATE TABLE edges (
            run_id TEXT NOT NULL REFERENCES runs(run_id),
            src TEXT NOT NULL,
            dst TEXT NOT NULL,
            kind TEXT NOT NULL,                         -- cite|support
            step INTEGER NOT NULL DEFAULT 0,
            data TEXT NOT NULL DEFAULT '{}',
            PRIMARY KEY (run_id, src, dst, kind)
        );
        CREATE INDEX edges_dst ON edges(run_id, dst);
        CREATE TABLE hypothesis_history (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            run_id TEXT NOT NULL,
            node_id TEXT NOT NULL,
            step INTEGER NOT NULL,
            status TEXT NOT NULL,
            confidence REAL,
            reason TEXT
        );
        CREATE INDEX hyphist_node ON hypothesis_history(run_id, node_id);
        CREATE TABLE routes (
            run_id TEXT NOT NULL,
            route_id TEXT NOT NULL,
            step INTEGER NOT NULL,
            hypothesis_id TEXT,
            family TEXT NOT NULL,                       -- ocr|zoom_ocr|gazetteer|map_search|web_search|page_fetch|deep_visual|stop
            tool TEXT,
            params TEXT NOT NULL DEFAULT '{}',          -- JSON
            cost REAL NOT NULL DEFAULT 0,
            expected TEXT,
            status TEXT NOT NULL DEFAULT 'proposed',    -- proposed|approved|skipped|rerun|edited|done|failed
            decided_by TEXT,                            -- policy:<name> | person:<name>
            decision_reason TEXT,
            parent_route_id TEXT,
            result TEXT,                                -- JSON summary of the outcome
            created_at TEXT NOT NULL,
            decided_at TEXT,
            PRIMARY KEY (run_id, route_id)
        );
        CREATE TABLE tool_calls (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            run_id TEXT,
            step INTEGER,
            route_id TEXT,
            tool TEXT NOT NULL,
            inputs TEXT NOT NULL DEFAULT '{}',
            outputs TEXT,
            error TEXT,
            duration_ms REAL,
            cost REAL NOT NULL DEFAULT 0,
            cache_key TEXT,
            cached INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL
        );
        CREATE INDEX tool_calls_run ON tool_calls(run_id, step);
        CREATE TABLE model_calls (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            run_id TEXT,
            step INTEGER,
            role TEXT NOT NULL,
            model TEXT,
            base_url TEXT,
            request TEXT NOT NULL DEFAULT '{}',
            response TEXT,
            parsed TEXT,
            error TEXT,
            prompt_tokens INTEGER,
            completion_tokens INTEGER,
            duration_ms REAL,
            cost REAL NOT NULL DEFAULT 0,
            cache_key TEXT,
            cached INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL
        );
        CREATE INDEX model_calls_run ON model_calls(run_id, step);
        CREATE TABLE budget_ledger (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            run_id TEXT NOT NULL,
            step INTEGER NOT NULL,
            route_id TEXT,
            family TEXT NOT NULL,
            units REAL NOT NULL,
            remaining REAL NOT NULL,
            created_at TEXT NOT NULL
        );
        CREATE TABLE events (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            run_id TEXT NOT NULL,
            step INTEGER NOT NULL,
            kind TEXT NOT NULL,
            data TEXT NOT NULL DEFAULT '{}',
            created_at TEXT NOT NULL
        );
        CREATE INDEX events_run ON events(run_id, step);
        CREATE TABLE profile (
            run_id TEXT NOT NULL,
            attribute TEXT NOT NULL,
            value TEXT NOT NULL,
            level TEXT,
            granularity REAL,
            confidence REAL,
            sensitivity INTEGER,
            evidence TEXT NOT NULL DEFAULT '[]',        -- JSON list of node ids
            step INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (run_id, attribute)
        );
        CREATE TABLE cache (
            key TEXT PRIMARY KEY,                       -- content hash of (tool|model, inputs)
            kind TEXT NOT NULL,                         -- tool|model
            name TEXT NOT NULL,
            output TEXT NOT NULL,
            created_at TEXT NOT NULL
        );
        """
    )


@migration
def m002_model_capabilities(db: sqlite_utils.Database) -> None:
    # what a model endpoint can do, probed once per (base URL, model) and reused by later runs
    run_script(db,
        """
        CREATE TABLE model_capabilities (
            base_url TEXT NOT NULL,                     -- '' for the OpenAI default endpoint
            model TEXT NOT NULL,
            reachable INTEGER NOT NULL,
            json_mode TEXT,                             -- json_schema|json_object_schema|json_object|NULL (none works)
            vision INTEGER,                             -- 1 images accepted, 0 text-only, NULL not probed
            context_length INTEGER,                     -- tokens, NULL unknown
            detail TEXT NOT NULL DEFAULT '{}',          -- JSON: how each value was found, probe errors
            probed_at TEXT NOT NULL,
            PRIMARY KEY (base_url, model)
        );
        """
    )


@migration
def m003_append_only_history(db: sqlite_utils.Database) -> None:
    """History that replays: edges are never deleted (a removal is marked with its step and
    reason, and a re-added edge is a new row), every node keeps one version per step it
    changed in, and profile values keep the step they took effect and the step they were
    cleared. `db.queries.state_at` rebuilds a run as of any step from these tables."""
    run_script(db,
        """
        CREATE TABLE edges_v2 (
            run_id TEXT NOT NULL REFERENCES runs(run_id),
            src TEXT NOT NULL,
            dst TEXT NOT NULL,
            kind TEXT NOT NULL,                         -- cite|support
            step INTEGER NOT NULL DEFAULT 0,            -- step the edge was added
            data TEXT NOT NULL DEFAULT '{}',
            removed_step INTEGER,                       -- step it was removed (NULL: alive)
            removed_reason TEXT
        );
        INSERT INTO edges_v2 (run_id, src, dst, kind, step, data)
            SELECT run_id, src, dst, kind, step, data FROM edges ORDER BY rowid;
        DROP TABLE edges;
        ALTER TABLE edges_v2 RENAME TO edges;
        CREATE UNIQUE INDEX edges_alive ON edges(run_id, src, dst, kind) WHERE removed_step IS NULL;
        CREATE INDEX edges_dst ON edges(run_id, dst);
        CREATE TABLE node_versions (
            run_id TEXT NOT NULL,
            node_id TEXT NOT NULL,
            step INTEGER NOT NULL,                      -- the step this version was committed in
            status TEXT,
            confidence REAL,
            content TEXT,
            value TEXT,
            level TEXT,
            derived INTEGER NOT NULL DEFAULT 0,
            provenance TEXT,                            -- JSON; NULL: unchanged since the previous version
            data TEXT,                                  -- JSON; NULL: unchanged since the previous version
            reason TEXT,                                -- why the status changed (verifier, person, ...)
            PRIMARY KEY (run_id, node_id, step)
        );
        INSERT INTO node_versions (run_id, node_id, step, status, confidence, content, value, level, derived,
                                   provenance, data)
            SELECT run_id, node_id, step_created, status, confidence, content, value, level, derived, provenance,
                   CASE WHEN confidence IS NOT NULL AND json_valid(data)
                        THEN json_set(data, '$.granularity', granularity) ELSE data END
            FROM nodes;
        CREATE TABLE profile_history (
            run_id TEXT NOT NULL,
            attribute TEXT NOT NULL,
            step INTEGER NOT NULL,                      -- step the value took effect
            value TEXT NOT NULL,
            level TEXT,
            granularity REAL,
            confidence REAL,
            sensitivity INTEGER,
            evidence TEXT NOT NULL DEFAULT '[]',        -- JSON list of node ids
            hypotheses TEXT NOT NULL DEFAULT '[]',      -- JSON list of the projected hypothesis ids
            cleared_step INTEGER,                       -- step it was replaced or dropped (NULL: current)
            PRIMARY KEY (run_id, attribute, step)
        );
        INSERT INTO profile_history (run_id, attribute, step, value, level, granularity, confidence, sensitivity,
                                     evidence)
            SELECT run_id, attribute, step, value, level, granularity, confidence, sensitivity, evidence FROM profile;
        ALTER TABLE profile ADD COLUMN hypotheses TEXT NOT NULL DEFAULT '[]';
        """
    )


@migration
def m004_run_indexes(db: sqlite_utils.Database) -> None:
    """Indexes for the per-run look-ups that scanned whole tables of a batch's run DB: the
    budget (sum of a run's ledger rows, read every step) and a user's earlier runs (batch resume)."""
    run_script(db,
        """
        CREATE INDEX IF NOT EXISTS budget_ledger_run ON budget_ledger(run_id);
        CREATE INDEX IF NOT EXISTS runs_user ON runs(user_id);
        """
    )


@migration
def m005_run_backfills(db: sqlite_utils.Database) -> None:
    """The resume-time backfills applied to each run (core/engine/backfill.py): data a later
    engine attaches at perception, computed once for runs perceived before it."""
    run_script(db,
        """
        CREATE TABLE IF NOT EXISTS run_backfills (
            run_id TEXT NOT NULL,
            name TEXT NOT NULL,
            step INTEGER NOT NULL,                      -- the step its node versions were written at
            nodes INTEGER NOT NULL DEFAULT 0,           -- how many nodes it changed
            applied_at TEXT NOT NULL,
            PRIMARY KEY (run_id, name)
        );
        """
    )


@migration
def m006_audit_rejections(db: sqlite_utils.Database) -> None:
    """Findings a person marked as wrong (`argus audit --reject`), per account folder: kept across
    runs of the same account, so a rerun of the audit rejects them again (core/rejections.py)."""
    run_script(db,
        """
        CREATE TABLE IF NOT EXISTS rejections (
            user_dir TEXT NOT NULL,                     -- the account folder (resolved path)
            attribute TEXT NOT NULL,
            value TEXT NOT NULL DEFAULT '',             -- '' = every value of the attribute
            by TEXT NOT NULL,
            reason TEXT NOT NULL DEFAULT '',
            created_at TEXT NOT NULL,
            PRIMARY KEY (user_dir, attribute, value)
        );
        """
    )


def run_script(db: sqlite_utils.Database, sql: str) -> None:
    """Run a migration's SQL statement by statement inside the caller's transaction
    (`executescript` would COMMIT first and run unprotected: a process killed between a
    migration's statements and its `_migrations` row left e.g. a created table behind that
    the next open tried to create again)."""
    buf = ""
    for line in sql.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            db.conn.execute(buf)
            buf = ""
    rest = "\n".join(ln for ln in buf.splitlines() if not ln.strip().startswith("--")).strip()
    if rest:
        raise ValueError(f"migration SQL ends with an incomplete statement: {rest[:80]!r}")


def newer_schema(conn: sqlite3.Connection) -> int | None:
    """The schema number of a run DB written by a newer Argus (a migration this code does not
    know is recorded, or PRAGMA user_version is past ours), else None. A DB without
    `_migrations` is not judged here."""
    try:
        names = [r[0] for r in conn.execute("SELECT name FROM _migrations").fetchall()]
    except sqlite3.OperationalError:           # no such table: new, or not a run DB
        names = []
    (version,) = conn.execute("PRAGMA user_version").fetchone()
    known = {n for n, _ in MIGRATIONS}
    if version > len(MIGRATIONS) or any(n not in known for n in names):
        return max(version, len(names))
    return None


def check_schema(conn: sqlite3.Connection, path: object) -> None:
    """InputError naming the DB when a newer Argus wrote it: its tables may differ from what this
    code reads or writes (before, `runs list` failed with a KeyError)."""
    from core.errors import InputError

    n = newer_schema(conn)
    if n is not None:
        raise InputError(str(path), f"this run DB was written by a newer Argus (schema {n}; this Argus knows "
                                    f"schema {len(MIGRATIONS)}): update Argus to open it")


def apply_migrations(db: sqlite_utils.Database) -> list[str]:
    """Apply every migration not yet recorded, each with its `_migrations` row in one
    transaction (all or nothing); returns the names applied now. A DB of a newer schema is
    refused, never migrated."""
    check_schema(db.conn, getattr(db.conn, "db_path", None) or "run DB")
    db.execute(
        "CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
    )
    done = {r[0] for r in db.execute("SELECT name FROM _migrations").fetchall()}
    applied: list[str] = []
    for name, fn in MIGRATIONS:
        if name in done:
            continue
        with immediate(db):
            fn(db)
            db.conn.execute("INSERT INTO _migrations (name, applied_at) VALUES (?, datetime('now'))", [name])
        applied.append(name)
    return applied
