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

from db.chain import ChainNode, id_order, support_chain
from core.errors import InputError
from core.nodes.node import EvidenceNode, node_data
from db.store import open_db

_JSON_COLUMNS = {"config", "data", "provenance", "evidence", "hypotheses", "params", "result", "inputs", "outputs",
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


_NODE_COLUMNS = ("node_id, kind, post_id, modality, carrier, content, attribute, value, level, granularity, confidence,"
                 " status, derived, provenance, data, step_created")


def _node(r: tuple) -> EvidenceNode:
    """A nodes row as the contract's node (the latest version; node_versions keeps the history)."""
    data = json.loads(r[14] or "{}")
    if r[1] == "hypothesis" and r[9] is not None:
        data["granularity"] = r[9]       # kept in its own column, out of the row's data
    return EvidenceNode(node_id=r[0], kind=r[1], post_id=r[2], modality=r[3], carrier=r[4], content=r[5] or "",
                        attribute=r[6], value=r[7], level=r[8], confidence=r[10], status=r[11] or "raw",
                        derived=bool(r[12]), provenance=json.loads(r[13] or "[]"), data=node_data(data),
                        created_step=r[15])


def nodes(db: sqlite_utils.Database, run_id: str, kind: str | None = None) -> list[EvidenceNode]:
    """The run's nodes as they are now, in creation order (`state_at` gives them as of a step)."""
    sql, args = f"SELECT {_NODE_COLUMNS} FROM nodes WHERE run_id = ?", [run_id]
    if kind is not None:
        sql, args = sql + " AND kind = ?", args + [kind]
    return [_node(r) for r in db.execute(sql + " ORDER BY rowid", args).fetchall()]


def node(db: sqlite_utils.Database, run_id: str, node_id: str) -> EvidenceNode | None:
    r = db.execute(f"SELECT {_NODE_COLUMNS} FROM nodes WHERE run_id = ? AND node_id = ?", [run_id, node_id]).fetchone()
    return _node(r) if r else None


def hypotheses(db: sqlite_utils.Database, run_id: str, statuses: Iterable[str] | None = None) -> list[EvidenceNode]:
    """Hypothesis nodes (optionally only some statuses), in creation order."""
    rows = nodes(db, run_id, "hypothesis")
    if statuses is None:
        return rows
    keep = set(statuses)
    return [r for r in rows if r.status in keep]


def _alive(db: sqlite_utils.Database) -> str:
    """The filter for edges not removed (a DB from before history kept only alive edges)."""
    cols = {r[1] for r in db.execute("PRAGMA table_info(edges)").fetchall()}
    return " AND removed_step IS NULL" if "removed_step" in cols else ""


def _require_history(db: sqlite_utils.Database) -> None:
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall()}
    if "node_versions" not in tables:
        raise InputError("runs.db", "this run database predates step history (open it once with a writable"
                         " command, e.g. `argus investigate`, to migrate it)", field="node_versions")


def edges(db: sqlite_utils.Database, run_id: str, *, removed: bool = False) -> list[dict[str, Any]]:
    """Alive edges (removed=True: every edge ever added, with removed_step/removed_reason)."""
    alive = "" if removed else _alive(db)
    return _rows(db, f"SELECT * FROM edges WHERE run_id = ?{alive} ORDER BY rowid", [run_id])


def supporters(db: sqlite_utils.Database, run_id: str, node_id: str) -> list[str]:
    """Nodes with a support edge into node_id."""
    return [r[0] for r in db.execute(
        f"SELECT src FROM edges WHERE run_id = ? AND dst = ? AND kind = 'support'{_alive(db)} ORDER BY rowid", [run_id, node_id]
    ).fetchall()]


def cited(db: sqlite_utils.Database, run_id: str, node_id: str) -> list[str]:
    """What node_id cites (post nodes or tool outputs)."""
    return [r[0] for r in db.execute(
        f"SELECT dst FROM edges WHERE run_id = ? AND src = ? AND kind = 'cite'{_alive(db)} ORDER BY rowid", [run_id, node_id]
    ).fetchall()]


def evidence_chain(db: sqlite_utils.Database, run_id: str, node_id: str, *, max_depth: int = 8,
                   content_chars: int = 240, step: int | None = None) -> ChainNode:
    """The support chain of a node down to the posts (db.chain.support_chain over the
    run store), as of `step` when given (nodes and edges that existed then)."""
    if step is None:
        by_id = {n.node_id: n.model_dump() for n in nodes(db, run_id)}
        es = edges(db, run_id)
    else:
        st = state_at(db, run_id, step)
        by_id = {n.node_id: n.model_dump() for n in st.nodes()}
        es = [e.model_dump() for e in st.edges]
    sup: dict[str, list[str]] = {}
    cit: dict[str, list[str]] = {}
    for e in es:
        if e["kind"] == "support":
            sup.setdefault(e["dst"], []).append(e["src"])
        elif e["kind"] == "cite":
            cit.setdefault(e["src"], []).append(e["dst"])
    post_text = {r[0]: r[1] for r in db.execute(
        "SELECT post_id, data FROM posts WHERE run_id = ?", [run_id]).fetchall()}
    return support_chain(node_id, by_id.get, lambda n: sup.get(n, []), lambda n: cit.get(n, []),
                         max_depth=max_depth, content_chars=content_chars,
                         post_content=lambda pid: _post_caption(post_text.get(pid)))


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




# ---- the state of a run as of one step (rebuilt from the append-only history) ----


class EdgeState(BaseModel):
    src: str
    dst: str
    kind: str
    step: int                            # the step it was added


class ProfileState(BaseModel):
    attribute: str
    value: str
    level: str | None = None
    confidence: float | None = None
    sensitivity: int | None = None
    evidence: list[str] = Field(default_factory=list)
    hypotheses: list[str] = Field(default_factory=list)
    step: int                            # the step this value took effect


class RouteState(BaseModel):
    route_id: str
    family: str
    params: dict[str, Any] = Field(default_factory=dict)
    status: str
    cost: float
    decided_by: str | None = None
    hypothesis_id: str | None = None
    parent_route_id: str | None = None


class BudgetState(BaseModel):
    total: float
    spent: float
    remaining: float


class RunState(BaseModel):
    """A run as of step N: what the engine held right after that step committed (plus the route
    proposed for the next decision, which is recorded at step N)."""

    run_id: str
    step: int
    finished: bool = False
    profile: list[ProfileState] = Field(default_factory=list)
    hypotheses: list[EvidenceNode] = Field(default_factory=list)
    evidence: list[EvidenceNode] = Field(default_factory=list)
    posts: list[EvidenceNode] = Field(default_factory=list)
    edges: list[EdgeState] = Field(default_factory=list)
    budget: BudgetState
    routes: list[RouteState] = Field(default_factory=list)

    def nodes(self) -> list[EvidenceNode]:
        return self.posts + self.evidence + self.hypotheses

    def node(self, node_id: str) -> EvidenceNode | None:
        return next((n for n in self.nodes() if n.node_id == node_id), None)

    def supporters(self, node_id: str) -> list[str]:
        """The nodes whose support edges into `node_id` are alive at this step (edge order)."""
        return [e.src for e in self.edges if e.kind == "support" and e.dst == node_id]


def make_state(run_id: str, step: int, finished: bool, nodes_: list[EvidenceNode], edges_: list[EdgeState],
               profile: list[ProfileState], budget: BudgetState, routes_: list[RouteState]) -> RunState:
    """One canonical order for every list, so a rebuilt state and a live one compare equal."""
    edges_ = sorted(edges_, key=lambda e: (id_order(e.src), id_order(e.dst), e.kind))
    nodes_ = sorted(nodes_, key=lambda n: id_order(n.node_id))
    return RunState(
        run_id=run_id, step=step, finished=finished, profile=sorted(profile, key=lambda p: p.attribute),
        hypotheses=[n for n in nodes_ if n.kind == "hypothesis"], evidence=[n for n in nodes_ if n.kind == "evidence"],
        posts=[n for n in nodes_ if n.kind == "post"], edges=edges_, budget=budget,
        routes=sorted(routes_, key=lambda r: id_order(r.route_id)))


def state_at(db: sqlite_utils.Database, run_id: str, step: int | None = None) -> RunState:
    """The run as of `step` (None: the last committed step), rebuilt from node_versions,
    edges (added/removed steps), profile_history, the budget ledger and the route events."""
    run = get_run(db, run_id)
    if run is None:
        raise InputError("runs.db", f"no run {run_id!r}", field="run_id")
    _require_history(db)
    n = int(run["step"]) if step is None else int(step)
    q = db.execute
    static = {r[0]: r[1:] for r in q("SELECT node_id, kind, post_id, modality, carrier, attribute, step_created FROM nodes"
                                      " WHERE run_id=?", [run_id]).fetchall()}
    latest: dict[str, list[Any]] = {}
    for nid, status, conf, content, value, level, derived, prov, data in q(
            "SELECT node_id, status, confidence, content, value, level, derived, provenance, data FROM node_versions"
            " WHERE run_id=? AND step<=? ORDER BY node_id, step", [run_id, n]).fetchall():
        old = latest.get(nid)
        latest[nid] = [status, conf, content, value, level, derived,
                       prov if prov is not None else (old[6] if old else None),
                       data if data is not None else (old[7] if old else None)]
    nodes_: list[EvidenceNode] = []
    for nid, (status, conf, content, value, level, derived, prov, data) in latest.items():
        kind, post_id, modality, carrier, attribute, created = static.get(nid, ("evidence", None, None, None, None, None))
        nodes_.append(EvidenceNode(node_id=nid, kind=kind, post_id=post_id, modality=modality, carrier=carrier,
                                   content=content or "", attribute=attribute, value=value, level=level, confidence=conf,
                                   status=status or "raw", derived=bool(derived), provenance=json.loads(prov or "[]"),
                                   data=node_data(json.loads(data or "{}")), created_step=created))
    edges_ = [EdgeState(src=a, dst=b, kind=k, step=s) for a, b, k, s in q(
        "SELECT src, dst, kind, step FROM edges WHERE run_id=? AND step<=? AND (removed_step IS NULL OR removed_step>?)",
        [run_id, n, n]).fetchall()]
    profile = [ProfileState(attribute=a, value=v, level=lv, confidence=c, sensitivity=se, evidence=json.loads(ev or "[]"),
                            hypotheses=json.loads(hy or "[]"), step=s) for a, v, lv, c, se, ev, hy, s in q(
        "SELECT attribute, value, level, confidence, sensitivity, evidence, hypotheses, step FROM profile_history"
        " WHERE run_id=? AND step<=? AND (cleared_step IS NULL OR cleared_step>?)", [run_id, n, n]).fetchall()]
    led = q("SELECT COALESCE(SUM(units), 0) FROM budget_ledger WHERE run_id=? AND step<=?", [run_id, n]).fetchone()
    spent = float(led[0])
    # the total as of step n: the last budget extension so far, else the run's starting budget
    tot = q("SELECT data FROM events WHERE run_id=? AND kind IN ('run_started', 'budget_extended') AND step<=?"
            " ORDER BY id DESC LIMIT 1", [run_id, n]).fetchone()
    total = json.loads(tot[0]).get("budget") if tot else None
    total = float(total if isinstance(total, (int, float)) else run["budget"])
    budget = BudgetState(total=total, spent=spent, remaining=max(0.0, total - spent))
    last_stop = q("SELECT kind FROM events WHERE run_id=? AND kind IN ('run_finished', 'reopened') AND step<=?"
                  " ORDER BY id DESC LIMIT 1", [run_id, n]).fetchone()
    finished = bool(last_stop) and last_stop[0] == "run_finished"
    return make_state(run_id, n, finished, nodes_, edges_, profile, budget, routes_at(db, run_id, n))


def routes_at(db: sqlite_utils.Database, run_id: str, step: int) -> list[RouteState]:
    """Routes as of `step`: a route exists from the step its proposal (or rerun decision) was
    recorded in; it shows its decision only from the step that decision committed in."""
    first: dict[str, int] = {}
    proposed: dict[str, dict[str, Any]] = {}
    for s, kind, data in db.execute("SELECT step, kind, data FROM events WHERE run_id=? AND kind IN"
                                    " ('route_proposed', 'decision') ORDER BY id", [run_id]).fetchall():
        d = json.loads(data or "{}")
        rid = d.get("route_id")
        if not rid:
            continue
        first.setdefault(rid, s)
        if kind == "route_proposed":
            proposed.setdefault(rid, d)
    out = []
    for r in routes(db, run_id):
        rid = r["route_id"]
        if first.get(rid, r["step"]) > step:
            continue
        decided = r["status"] != "proposed" and r["step"] <= step
        params = r["params"] if decided or rid not in proposed else (proposed[rid].get("params") or {})
        out.append(RouteState(route_id=rid, family=r["family"], params=params if isinstance(params, dict) else {},
                              status=r["status"] if decided else "proposed", cost=float(r["cost"] or 0),
                              decided_by=r["decided_by"] if decided else None, hypothesis_id=r["hypothesis_id"],
                              parent_route_id=r["parent_route_id"]))
    return out


def write_image(db: sqlite_utils.Database, run_id: str, image_id: str, post_id: str, file: str, sha256: str | None,
                width: Any, height: Any, meta: str) -> None:
    """One images row (the skim's record of an image: its hash, size and signals, JSON meta)."""
    db.execute("INSERT OR REPLACE INTO images (run_id, image_id, post_id, file, sha256, width, height, meta)"
               " VALUES (?,?,?,?,?,?,?,?)", [run_id, image_id, post_id, file, sha256, width, height, meta])
