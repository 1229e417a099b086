"""Read-only view of a run DB "as of step N" for the console (inspect mode and live refresh).

Only SELECTs; the engine owns every write. The graph, routes and profile as of a step come
from the engine's own history (db.queries.state_at); this module only reshapes them for the
panes and adds the append-only logs (posts, ledger, timeline, status history) up to the step.
A snapshot is a plain value built off the UI thread (in a worker) and handed to the panes,
so the screen never waits on SQLite.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlite_utils
from pydantic import ValidationError

from core.engine.events import BaseEvent, make_event
from core.nodes.evidence import OcrLine
from core.nodes.node import EvidenceNode


def _json(text: str | None, default: Any) -> Any:
    if not text:
        return default
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return default


@dataclass
class RunInfo:
    run_id: str
    user_id: str
    user_dir: str | None
    system: str
    backend: str
    budget: float
    spent: float
    status: str
    step: int
    error: str | None
    created_at: str | None = None

    @property
    def unfinished(self) -> bool:
        return self.status not in ("finished", "failed")


@dataclass
class PostRow:
    post_id: str
    idx: int
    timestamp: str | None
    ip_region: str | None
    data: dict[str, Any]


@dataclass
class ImageRow:
    image_id: str
    post_id: str | None
    file: str
    width: int | None
    height: int | None
    meta: dict[str, Any]


@dataclass
class EdgeRow:
    src: str
    dst: str
    kind: str
    step: int


@dataclass
class RouteRow:
    route_id: str
    step: int
    hypothesis_id: str | None
    family: str
    tool: str | None
    params: dict[str, Any]
    cost: float
    expected: str | None
    status: str
    decided_by: str | None
    decision_reason: str | None
    parent_route_id: str | None
    result: Any


@dataclass
class LedgerRow:
    step: int
    route_id: str | None
    family: str
    units: float
    remaining: float


@dataclass
class ToolCallRow:
    """One recorded tool call (the tool_calls table), as the timeline and the detail show it."""

    route_id: str | None
    inputs: dict[str, Any]
    outputs: Any                # the tool's output (its ToolSpec output model, dumped)
    error: str | None
    duration_ms: int | None
    cost: float | None
    cached: bool

    def ocr_lines(self) -> list[OcrLine]:
        """The OCR lines of an ocr / zoom_ocr output (text, score, box), none for other tools."""
        out = self.outputs.get("lines") if isinstance(self.outputs, dict) else None
        read = []
        for ln in out or []:
            try:
                read.append(OcrLine(text=str(ln.get("text", "")), score=ln.get("score"), box=ln.get("box")))
            except (AttributeError, ValidationError):
                continue      # not a line of text (a damaged or foreign output): nothing to show
        return read


@dataclass
class EventRow:
    id: int
    step: int
    kind: str
    data: dict[str, Any]
    source: str = "event"      # event | tool | model

    def event(self) -> BaseEvent | None:
        """The engine event of this row, typed (core/engine/events.py); None for a tool or model call."""
        return make_event(self.kind, self.data, step=self.step, id=self.id) if self.source == "event" else None

    def tool_call(self) -> ToolCallRow:
        """The tool call of a `tool:` row."""
        d = self.data
        return ToolCallRow(d.get("route_id"), d.get("inputs") or {}, d.get("outputs"), d.get("error"),
                           d.get("duration_ms"), d.get("cost"), bool(d.get("cached")))


@dataclass
class ProfileRow:
    attribute: str
    value: str
    level: str | None
    granularity: float | None
    confidence: float | None
    sensitivity: int | None
    evidence: list[str]
    step: int


@dataclass
class Snapshot:
    """Everything the panes show, as it was after step `step` of the run."""

    run: RunInfo
    step: int
    max_step: int
    posts: list[PostRow] = field(default_factory=list)
    images: dict[str, list[ImageRow]] = field(default_factory=dict)   # post_id -> images
    nodes: dict[str, EvidenceNode] = field(default_factory=dict)     # the engine's node type, as of this step
    edges: list[EdgeRow] = field(default_factory=list)
    routes: list[RouteRow] = field(default_factory=list)
    ledger: list[LedgerRow] = field(default_factory=list)
    timeline: list[EventRow] = field(default_factory=list)
    profile: list[ProfileRow] = field(default_factory=list)
    steps: list[int] = field(default_factory=list)                    # distinct steps with events
    # hypothesis node_id -> its status changes up to this step: (step, status, confidence, reason)
    history: dict[str, list[tuple[int, str, float | None, str | None]]] = field(default_factory=dict)
    budget: float = 0.0          # the run's budget total as of this step (later "+units" left out)

    @property
    def remaining(self) -> float:
        return self.ledger[-1].remaining if self.ledger else self.budget - self.spent_at_step

    @property
    def spent_at_step(self) -> float:
        return sum(r.units for r in self.ledger)

    def hypotheses(self) -> list[EvidenceNode]:
        return [n for n in self.nodes.values() if n.kind == "hypothesis"]

    def graph_index(self) -> GraphIndex:
        """Built once per snapshot (several panes need it)."""
        idx = self.__dict__.get("_graph_index")
        if idx is None:
            idx = self.__dict__["_graph_index"] = GraphIndex(self)
        return idx

    def evidence_count(self, node_id: str, idx: GraphIndex | None = None) -> int:
        idx = idx or self.graph_index()
        return sum(1 for nb in idx.up.get(node_id, []) if self.nodes.get(nb) and self.nodes[nb].kind == "evidence")


def list_runs(db: sqlite_utils.Database) -> list[RunInfo]:
    rows = db.execute(
        "SELECT run_id, user_id, user_dir, system, backend, budget, spent, status, step, error, created_at "
        "FROM runs ORDER BY created_at DESC"
    ).fetchall()
    return [RunInfo(*r) for r in rows]


def unfinished_runs_of(db: sqlite_utils.Database, user_dir: str | Path) -> list[RunInfo]:
    """Runs of this user folder that have not finished (newest first)."""
    want = str(Path(user_dir).resolve())
    return [r for r in list_runs(db) if r.unfinished and r.user_dir
            and str(Path(r.user_dir).resolve()) == want]


def load_run(db: sqlite_utils.Database, run_id: str) -> RunInfo | None:
    row = db.execute(
        "SELECT run_id, user_id, user_dir, system, backend, budget, spent, status, step, error, created_at "
        "FROM runs WHERE run_id = ?",
        [run_id],
    ).fetchone()
    return RunInfo(*row) if row else None


def max_step(db: sqlite_utils.Database, run_id: str) -> int:
    row = db.execute(
        "SELECT max(s) FROM (SELECT max(step) s FROM events WHERE run_id=? "
        "UNION ALL SELECT step FROM runs WHERE run_id=?)",
        [run_id, run_id],
    ).fetchone()
    return int(row[0] or 0)


def build_snapshot(db: sqlite_utils.Database, run_id: str, step: int | None = None) -> Snapshot:
    """The run as of `step` (None: the latest committed state)."""
    run = load_run(db, run_id)
    if run is None:
        raise KeyError(run_id)
    top = max_step(db, run_id)
    n = top if step is None else max(0, min(step, top))
    q = db.execute
    snap = Snapshot(run=run, step=n, max_step=top, budget=run.budget)
    for (data,) in q("SELECT data FROM events WHERE run_id=? AND kind='budget_extended' AND step>?", [run_id, n]):
        snap.budget -= float(_json(data, {}).get("units") or 0)
    snap.steps = [r[0] for r in q("SELECT DISTINCT step FROM events WHERE run_id=? ORDER BY step", [run_id])]

    for r in q("SELECT post_id, idx, timestamp, ip_region, data FROM posts WHERE run_id=? ORDER BY idx", [run_id]):
        snap.posts.append(PostRow(r[0], r[1], r[2], r[3], _json(r[4], {})))
    for r in q(
        "SELECT image_id, post_id, file, width, height, meta FROM images WHERE run_id=? ORDER BY image_id", [run_id]
    ):
        img = ImageRow(r[0], r[1], r[2], r[3], r[4], _json(r[5], {}))
        snap.images.setdefault(img.post_id or "", []).append(img)

    _graph_from_history(db, snap, run_id, n)
    snap.ledger = [LedgerRow(*r) for r in q(
        "SELECT step, route_id, family, units, remaining FROM budget_ledger WHERE run_id=? AND step<=? ORDER BY id",
        [run_id, n],
    )]
    timeline: list[EventRow] = []
    for r in q("SELECT id, step, kind, data FROM events WHERE run_id=? AND step<=? ORDER BY id", [run_id, n]):
        timeline.append(EventRow(r[0], r[1], r[2], _json(r[3], {})))
    for r in q(
        "SELECT id, step, tool, inputs, outputs, error, duration_ms, cost, cached, route_id FROM tool_calls "
        "WHERE run_id=? AND step<=? ORDER BY id", [run_id, n]
    ):
        timeline.append(EventRow(r[0], r[1] or 0, f"tool:{r[2]}", {
            "route_id": r[9], "inputs": _json(r[3], {}), "outputs": _json(r[4], r[4]), "error": r[5],
            "duration_ms": r[6], "cost": r[7], "cached": bool(r[8])}, source="tool"))
    for r in q(
        "SELECT id, step, role, model, error, prompt_tokens, completion_tokens, duration_ms, cached, parsed "
        "FROM model_calls WHERE run_id=? AND step<=? ORDER BY id", [run_id, n]
    ):
        timeline.append(EventRow(r[0], r[1] or 0, f"model:{r[2]}", {
            "model": r[3], "error": r[4], "prompt_tokens": r[5], "completion_tokens": r[6],
            "duration_ms": r[7], "cached": bool(r[8]), "parsed": _json(r[9], r[9])}, source="model"))
    order = {"event": 0, "model": 1, "tool": 2}
    timeline.sort(key=lambda e: (e.step, order[e.source], e.id))
    snap.timeline = timeline

    for node_id, hstep, status, conf, reason in q(
        "SELECT node_id, step, status, confidence, reason FROM hypothesis_history WHERE run_id=? AND step<=? "
        "ORDER BY id", [run_id, n]
    ):
        snap.history.setdefault(node_id, []).append((hstep, status, conf, reason))
    return snap


class GraphIndex:
    """Edge directions as the engine writes them (core/engine/graph.py): `cite` goes from
    evidence to the post or node it comes from, `support` from evidence (or an admitted
    hypothesis) to the hypothesis it supports. `up` leads towards sources, `down` away."""

    def __init__(self, snap: Snapshot):
        self.up: dict[str, list[str]] = {}
        self.down: dict[str, list[str]] = {}
        self.supporters: dict[str, list[str]] = {}   # dst -> what supports it (edge order)
        self.cites: dict[str, list[str]] = {}        # src -> what it cites (edge order)
        for e in snap.edges:
            if e.kind == "support":      # src supports dst: src is a source of dst
                source, target = e.src, e.dst
                self.supporters.setdefault(e.dst, []).append(e.src)
            else:                        # cite: src cites dst: dst is a source of src
                source, target = e.dst, e.src
                self.cites.setdefault(e.src, []).append(e.dst)
            self.up.setdefault(target, []).append(source)
            self.down.setdefault(source, []).append(target)


def provenance_chain(snap: Snapshot, node_id: str, limit: int = 50, idx: GraphIndex | None = None) -> list[EvidenceNode]:
    """The node followed by the nodes it rests on, breadth first (hypothesis -> evidence -> post):
    the engine's one support chain (core.engine.graph.support_chain) over the snapshot, flattened."""
    from core.engine.graph import support_chain

    idx = idx or snap.graph_index()
    if node_id not in snap.nodes:
        return []

    def info(nid: str) -> dict[str, Any] | None:
        n = snap.nodes.get(nid)
        return None if n is None else {"kind": n.kind, "post_id": n.post_id, "status": n.status}

    tree = support_chain(node_id, info, lambda n: idx.supporters.get(n, []), lambda n: idx.cites.get(n, []),
                         content_chars=0)
    out: list[EvidenceNode] = []
    seen: set[str] = set()
    queue = [tree]
    while queue and len(out) < limit:
        c = queue.pop(0)
        if c.node_id in seen or c.node_id not in snap.nodes:
            continue
        seen.add(c.node_id)
        out.append(snap.nodes[c.node_id])
        queue.extend(c.children)
    return out


@dataclass
class StepChanges:
    """What one step changed: hypotheses created, changed (status or a confidence that shows
    differently at two decimals) or removed, a person's marks (confirmed, rejected, a note) and
    evidence added."""

    new: list[str] = field(default_factory=list)
    changed: dict[str, tuple[str | None, str | None, float | None, float | None]] = field(default_factory=dict)
    removed: list[str] = field(default_factory=list)
    evidence: list[str] = field(default_factory=list)
    marked: dict[str, str] = field(default_factory=dict)       # node_id -> "confirmed by person:x" ...

    def marks(self) -> dict[str, str]:
        return {**{h: "~" for h in (*self.changed, *self.marked)}, **{h: "+" for h in self.new}}

    def __bool__(self) -> bool:
        return bool(self.new or self.changed or self.removed or self.evidence or self.marked)


def person_mark(n: EvidenceNode) -> str:
    """A person's mark on a hypothesis, for its store row: ✓ confirmed, ✗ rejected, ✎ noted."""
    d = n.data
    return "✓" if d.confirmed_by else "✗" if d.rejected_by else "✎" if d.notes else ""


def _shown(c: float | None) -> str | None:
    return None if c is None else f"{c:.2f}"


def step_changes(old: Snapshot, new: Snapshot) -> StepChanges:
    out = StepChanges()
    for nid, n in new.nodes.items():
        o = old.nodes.get(nid)
        if n.kind == "hypothesis":
            if o is None:
                out.new.append(nid)
                continue
            if (o.status, _shown(o.confidence)) != (n.status, _shown(n.confidence)):
                out.changed[nid] = (o.status, n.status, o.confidence, n.confidence)
                if n.status in ("removed", "rejected", "superseded") and o.status != n.status:
                    out.removed.append(nid)
            od, nd = o.data, n.data
            for by, was, verb in ((nd.confirmed_by, od.confirmed_by, "confirmed"), (nd.rejected_by, od.rejected_by, "rejected")):
                if by and by != was:
                    why = nd.person_reason
                    out.marked[nid] = f"{verb} by {by}" + (f": {why}" if why else "")
            notes = nd.notes or []
            if len(notes) > len(od.notes or []):
                out.marked[nid] = f"note by {notes[-1].by or '?'}: {notes[-1].text or ''}"
        elif n.kind == "evidence" and o is None:
            out.evidence.append(nid)
    out.removed += [nid for nid, o in old.nodes.items() if o.kind == "hypothesis" and nid not in new.nodes]
    return out


def _graph_from_history(db: sqlite_utils.Database, snap: Snapshot, run_id: str, n: int) -> None:
    """Nodes, edges, routes and profile as of step n from db.queries.state_at (no history
    logic here: the console only reshapes the engine's RunState for its panes)."""
    from db.queries import state_at

    st = state_at(db, run_id, n)
    snap.nodes = {ns.node_id: ns for ns in st.nodes()}
    snap.edges = [EdgeRow(e.src, e.dst, e.kind, e.step) for e in st.edges]
    detail = {r[0]: r[1:] for r in db.execute(
        "SELECT route_id, step, tool, expected, decision_reason, result FROM routes WHERE run_id=?", [run_id])}
    for r in st.routes:
        step, tool, expected, why, result = detail.get(r.route_id, (n, None, None, None, None))
        decided = r.status != "proposed"
        snap.routes.append(RouteRow(r.route_id, step if decided else min(step, n), r.hypothesis_id, r.family, tool,
                                    r.params, r.cost, expected, r.status, r.decided_by, why if decided else None,
                                    r.parent_route_id, _json(result, result) if decided else None))
    snap.profile = [ProfileRow(p.attribute, p.value, p.level, None, p.confidence, p.sensitivity,
                               [str(e) for e in p.evidence], p.step) for p in st.profile]
