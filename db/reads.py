"""The reads of one run that the engine's stages make, through their read-only GraphView
(core/engine/contract/view.py): a post as loaded, the outputs of a tool call or of a route's
calls, the images' content hashes, the routes already decided, whether a tool output is
cached. The SQL lives here, next to the schema, so no stage writes a query."""
from __future__ import annotations

import json
from typing import Any, Iterable

import sqlite_utils


def post_data(db: sqlite_utils.Database, run_id: str, post_id: str | None) -> dict[str, Any] | None:
    """The post as the loader read it (posts.data), None when the run has no such post."""
    row = db.execute("SELECT data FROM posts WHERE run_id=? AND post_id=?", [run_id, post_id]).fetchone()
    return json.loads(row[0]) if row else None


def tool_outputs(db: sqlite_utils.Database, run_id: str, *, call_id: int | None = None, route_id: str | None = None,
                 tools: Iterable[str] = ()) -> list[dict[str, Any]]:
    """The recorded outputs (JSON objects) of one tool call, or of a route's calls of `tools`."""
    if call_id is not None:
        rows = db.execute("SELECT outputs FROM tool_calls WHERE run_id=? AND id=? AND outputs IS NOT NULL",
                          [run_id, call_id]).fetchall()
    elif route_id:
        names = list(tools)
        rows = db.execute(
            f"SELECT outputs FROM tool_calls WHERE run_id=? AND route_id=? AND tool IN ({','.join('?' * len(names))})"
            " AND outputs IS NOT NULL", [run_id, route_id, *names]).fetchall()
    else:
        return []
    out = []
    for (text,) in rows:
        try:
            d = json.loads(text)
        except ValueError:      # a row written by hand or cut short: not an output
            continue
        if isinstance(d, dict):
            out.append(d)
    return out


def image_digests(db: sqlite_utils.Database, run_id: str) -> dict[str, str]:
    """image_id -> content hash of every readable image of the run."""
    return {image_id: sha for image_id, sha in db.execute(
        "SELECT image_id, sha256 FROM images WHERE run_id=?", [run_id]).fetchall() if sha}


def decided_routes(db: sqlite_utils.Database, run_id: str) -> list[tuple[str | None, str, dict[str, Any], str]]:
    """(hypothesis_id, family, params, status) of every route past its proposal, in table order."""
    return [(hid, fam, json.loads(params or "{}"), status) for hid, fam, params, status in db.execute(
        "SELECT hypothesis_id, family, params, status FROM routes WHERE run_id=? AND status != 'proposed'",
        [run_id]).fetchall()]


def route_ids_for(db: sqlite_utils.Database, run_id: str, hypothesis_id: str) -> set[str]:
    """The routes run (or proposed) to check one hypothesis."""
    return {r for (r,) in db.execute("SELECT route_id FROM routes WHERE run_id=? AND hypothesis_id=?",
                                     [run_id, hypothesis_id]).fetchall()}


def cached(db: sqlite_utils.Database, key: str) -> bool:
    """Whether the content-addressed tool cache holds `key` (tools.base.cache_key)."""
    return db.execute("SELECT 1 FROM cache WHERE key=?", [key]).fetchone() is not None
