"""Read helpers over the run store (the CLI's `runs` commands, the console, reports).

Rows come back as plain dicts with the JSON text columns (config, data, provenance, evidence,
params, result, ...) decoded. Graph conventions (core/engine/graph.py): a `support` edge goes
from the supporting evidence (or admitted hypothesis) to the hypothesis it supports; a `cite`
edge goes from an evidence node to the post node (`post:<post_id>`) or tool output it quotes.
Nothing here writes.
"""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any, Iterable

import sqlite_utils
from pydantic import BaseModel, Field

from core.errors import InputError
from db.store import open_db

_JSON_COLUMNS = {"config", "data", "provenance", "evidence", "params", "result", "inputs", "outputs",
                 "meta", "request", "parsed"}


def _decode(row: dict[str, Any]) -> dict[str, Any]:
    for k, v in row.items():
        if k in _JSON_COLUMNS and isinstance(v, str):
            try:
                row[k] = json.loads(v)
            except json.JSONDecodeError:
                pass  # keep the raw text: a reader must not crash on one bad cell
    return row


def _rows(db: sqlite_utils.Database, sql: str, params: Iterable[Any] = ()) -> list[dict[str, Any]]:
    cur = db.execute(sql, list(params))
    cols = [d[0] for d in cur.description]
    return [_decode(dict(zip(cols, r))) for r in cur.fetchall()]


def open_runs_readonly(path: str | Path) -> sqlite_utils.Database:
    """Opens a runs.db read-only; InputError (exit 2 in the CLI) when it is missing or not a run store."""
    path = Path(path)
    if not path.is_file():
        raise InputError(path, "run database not found")
    try:
        db = open_db(path, readonly=True)
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall()}
    except sqlite3.DatabaseError as e:
        raise InputError(path, f"not a readable SQLite database ({e})") from e
    if "runs" not in tables:
        raise InputError(path, "not an Argus run database (no runs table)")
    return db


# ---- runs ----


def list_runs(db: sqlite_utils.Database) -> list[dict[str, Any]]:
    """Every run, oldest first, with `n_profile` (attributes in its profile)."""
    return _rows(
        db,
        "SELECT r.*, (SELECT COUNT(*) FROM profile p WHERE p.run_id = r.run_id) AS n_profile"
        " FROM runs r ORDER BY r.created_at, r.run_id",
    )


def get_run(db: sqlite_utils.Database, run_id: str) -> dict[str, Any] | None:
    rows = _rows(db, "SELECT * FROM runs WHERE run_id = ?", [run_id])
    return rows[0] if rows else None


def find_run(db: sqlite_utils.Database, prefix: str) -> dict[str, Any] | None:
    """A run by id or by a unique id prefix (as typed by a person)."""
    run = get_run(db, prefix)
    if run is not None:
        return run
    rows = _rows(db, "SELECT * FROM runs WHERE run_id LIKE ? ESCAPE '\\'",
                 [prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"])
    return rows[0] if len(rows) == 1 else None


def profile_rows(db: sqlite_utils.Database, run_id: str) -> list[dict[str, Any]]:
    """The projected profile: one row per attribute (evidence = list of node ids)."""
    return _rows(db, "SELECT * FROM profile WHERE run_id = ? ORDER BY rowid", [run_id])


# ---- graph ----


def nodes(db: sqlite_utils.Database, run_id: str, kind: str | None = None) -> list[dict[str, Any]]:
    if kind is None:
        return _rows(db, "SELECT * FROM nodes WHERE run_id = ? ORDER BY rowid", [run_id])
    return _rows(db, "SELECT * FROM nodes WHERE run_id = ? AND kind = ? ORDER BY rowid", [run_id, kind])


def node(db: sqlite_utils.Database, run_id: str, node_id: str) -> dict[str, Any] | None:
    rows = _rows(db, "SELECT * FROM nodes WHERE run_id = ? AND node_id = ?", [run_id, node_id])
    return rows[0] if rows else None


def hypotheses(db: sqlite_utils.Database, run_id: str, statuses: Iterable[str] | None = None) -> list[dict[str, Any]]:
    """Hypothesis nodes (optionally only some statuses), in creation order."""
    rows = nodes(db, run_id, "hypothesis")
    if statuses is None:
        return rows
    keep = set(statuses)
    return [r for r in rows if r.get("status") in keep]


def edges(db: sqlite_utils.Database, run_id: str) -> list[dict[str, Any]]:
    return _rows(db, "SELECT * FROM edges WHERE run_id = ? ORDER BY rowid", [run_id])


def supporters(db: sqlite_utils.Database, run_id: str, node_id: str) -> list[str]:
    """Nodes with a support edge into node_id."""
    return [r[0] for r in db.execute(
        "SELECT src FROM edges WHERE run_id = ? AND dst = ? AND kind = 'support' ORDER BY rowid", [run_id, node_id]
    ).fetchall()]


def cited(db: sqlite_utils.Database, run_id: str, node_id: str) -> list[str]:
    """What node_id cites (post nodes or tool outputs)."""
    return [r[0] for r in db.execute(
        "SELECT dst FROM edges WHERE run_id = ? AND src = ? AND kind = 'cite' ORDER BY rowid", [run_id, node_id]
    ).fetchall()]


class ChainNode(BaseModel):
    """One node of an evidence chain: a hypothesis/evidence node and what supports or is cited by it."""

    node_id: str
    kind: str                      # post | evidence | hypothesis | external (cited, not a node)
    via: str | None = None         # the edge kind that led here from the parent (support | cite)
    status: str | None = None
    attribute: str | None = None
    value: str | None = None
    level: str | None = None
    confidence: float | None = None
    modality: str | None = None
    carrier: str | None = None
    post_id: str | None = None
    content: str = ""
    cycle: bool = False            # already shown higher up this chain (not expanded again)
    children: list["ChainNode"] = Field(default_factory=list)


def evidence_chain(db: sqlite_utils.Database, run_id: str, node_id: str, *, max_depth: int = 8,
                   content_chars: int = 240) -> ChainNode:
    """The support chain of a node down to the posts: support edges into it, cite edges out of it,
    recursively. An evidence node with no cite edge but a post_id ends at that post."""
    by_id = {r["node_id"]: r for r in nodes(db, run_id)}
    sup: dict[str, list[str]] = {}
    cit: dict[str, list[str]] = {}
    for e in edges(db, run_id):
        if e["kind"] == "support":
            sup.setdefault(e["dst"], []).append(e["src"])
        elif e["kind"] == "cite":
            cit.setdefault(e["src"], []).append(e["dst"])
    post_text = {r[0]: r[1] for r in db.execute(
        "SELECT post_id, data FROM posts WHERE run_id = ?", [run_id]).fetchall()}

    def make(nid: str, via: str | None, path: frozenset[str], depth: int) -> ChainNode:
        r = by_id.get(nid)
        if r is None:
            pid = nid.split(":", 1)[1] if nid.startswith("post:") else None
            content = _post_caption(post_text.get(pid)) if pid else ""
            return ChainNode(node_id=nid, kind="post" if pid else "external", via=via, post_id=pid,
                             content=content[:content_chars])
        cn = ChainNode(node_id=nid, kind=r["kind"], via=via, status=r.get("status"), attribute=r.get("attribute"),
                       value=r.get("value"), level=r.get("level"), confidence=r.get("confidence"),
                       modality=r.get("modality"), carrier=r.get("carrier"), post_id=r.get("post_id"),
                       content=(r.get("content") or "")[:content_chars])
        if r["kind"] == "post" and not cn.content and cn.post_id:
            cn.content = _post_caption(post_text.get(cn.post_id))[:content_chars]
        if nid in path:
            cn.cycle = True
            return cn
        if depth >= max_depth:
            return cn
        inner = path | {nid}
        for s in sup.get(nid, []):
            cn.children.append(make(s, "support", inner, depth + 1))
        for d in cit.get(nid, []):
            cn.children.append(make(d, "cite", inner, depth + 1))
        if not cn.children and r["kind"] == "evidence" and cn.post_id:
            cn.children.append(make(f"post:{cn.post_id}", "cite", inner, depth + 1))
        return cn

    return make(node_id, None, frozenset(), 0)


def _post_caption(data: Any) -> str:
    if not isinstance(data, str):
        return ""
    try:
        d = json.loads(data)
    except json.JSONDecodeError:
        return ""
    if not isinstance(d, dict):
        return ""
    return " / ".join(str(d[k]) for k in ("title", "caption") if d.get(k))


def chain_post_ids(chain: ChainNode) -> list[str]:
    """The post ids a chain reaches, in first-seen order."""
    out: list[str] = []

    def walk(c: ChainNode) -> None:
        if c.kind == "post" and c.post_id and c.post_id not in out:
            out.append(c.post_id)
        for ch in c.children:
            walk(ch)

    walk(chain)
    return out


# ---- history ----


def events(db: sqlite_utils.Database, run_id: str, *, kinds: Iterable[str] | None = None,
           max_step: int | None = None) -> list[dict[str, Any]]:
    sql, params = "SELECT * FROM events WHERE run_id = ?", [run_id]
    if max_step is not None:
        sql += " AND step <= ?"
        params.append(max_step)
    rows = _rows(db, sql + " ORDER BY id", params)
    if kinds is not None:
        keep = set(kinds)
        rows = [r for r in rows if r["kind"] in keep]
    return rows


def routes(db: sqlite_utils.Database, run_id: str) -> list[dict[str, Any]]:
    return _rows(db, "SELECT * FROM routes WHERE run_id = ? ORDER BY step, rowid", [run_id])


def budget_ledger(db: sqlite_utils.Database, run_id: str) -> list[dict[str, Any]]:
    return _rows(db, "SELECT * FROM budget_ledger WHERE run_id = ? ORDER BY id", [run_id])


def hypothesis_history(db: sqlite_utils.Database, run_id: str, node_id: str | None = None) -> list[dict[str, Any]]:
    if node_id is None:
        return _rows(db, "SELECT * FROM hypothesis_history WHERE run_id = ? ORDER BY id", [run_id])
    return _rows(db, "SELECT * FROM hypothesis_history WHERE run_id = ? AND node_id = ? ORDER BY id",
                 [run_id, node_id])
