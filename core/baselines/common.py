"""What every baseline shares: a run in the run DB (same tables as the engine, so `runs show`,
the console and the HTML report's evidence chains work on baseline runs too), evidence nodes
citing their posts, admitted hypotheses with support edges, and the vote aggregation.

A baseline has no verifier and no routing: whatever it concludes is written as an admitted
hypothesis and projected by the engine's projection (so the profile format is identical).
"""
from __future__ import annotations

import uuid
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

import sqlite_utils

from core.engine.budget import Budget
from core.engine.context import DEFAULT_CONFIG, RunContext
from core.engine.graph import Graph, hypothesis_key
from core.engine.step import apply_changes
from core.engine.types import Cue, EvidenceNode, Hypothesis
from core.errors import InputError
from core.loader import load_user
from core.models import Post, Predictions
from core.schema import load_schema
from core.textmatch import normalize
from db import runs as db_runs
from db.store import dumps

MAX_ITEMS = 8
PROFILE_POST = "@profile"


@dataclass
class Hit:
    """One cue as a baseline saw it: which evidence node it came from, in which post."""

    cue: Cue
    node_id: str
    post_id: str
    by_other: bool = False


class BaselineRun:
    """One baseline run of one user, persisted like an engine run (system=<baseline name>)."""

    def __init__(self, db: sqlite_utils.Database, user_dir: Path, *, system: str, backend: str,
                 config: dict[str, Any] | None = None, budget: float = 0.0):
        self.db = db
        self.system = system
        errors: list[InputError] = []
        self.user = load_user(Path(user_dir), strict=False, errors=errors)
        # baselines have no routes: their one pass reads every text-bearing image (the old skim)
        self.config = {**DEFAULT_CONFIG, "ocr_in_perception": True, **(config or {}), "baseline": system}
        self.run_id = f"{self.user.profile.user_id}-{system}-{uuid.uuid4().hex[:8]}"
        with db.conn:
            db_runs.insert_run(db, self.run_id, user_id=self.user.profile.user_id,
                               user_dir=str(Path(user_dir).resolve()), system=system, backend=backend,
                               config=self.config, budget=float(budget), step=1)
            for i, p in enumerate(self.user.posts):
                db_runs.insert_post(db, self.run_id, p.post_id, i, p.timestamp, p.ip_region, p.model_dump(mode="json"))
            self.event(0, "run_started", {"user_id": self.user.profile.user_id, "posts": len(self.user.posts),
                                          "system": system, "backend": backend})
            for e in errors:
                self.event(0, "error", {"where": e.file, "line": e.line, "field": e.field, "reason": e.reason})
        self.graph = Graph(db, self.run_id)
        self.graph.step = 1
        self.ctx = RunContext(db=db, run_id=self.run_id, user=self.user, graph=self.graph,
                              budget=Budget(total=float(budget)), config=self.config)
        self.notes: list[str] = []
        with db.conn:
            self.graph.add_node(EvidenceNode(node_id=f"post:{PROFILE_POST}", kind="post", post_id=PROFILE_POST,
                                             modality="metadata", carrier="metadata", content="account profile",
                                             status="grounded"))
            for idx, p in enumerate(self.user.posts):
                self.graph.add_node(EvidenceNode(node_id=f"post:{p.post_id}", kind="post", post_id=p.post_id,
                                                 modality="text", carrier="caption",
                                                 content=(p.title or p.caption or "")[:120], status="grounded",
                                                 data={"idx": idx, "timestamp": p.timestamp}))

    # ---- writing ----
    def event(self, step: int, kind: str, data: dict[str, Any]) -> None:
        db_runs.insert_event(self.db, self.run_id, step, kind, dumps(data))

    def recorder(self):
        return self.ctx.recorder()

    def add_evidence(self, drafts: Iterable[EvidenceNode]) -> list[EvidenceNode]:
        """Store drafts (perceiver style: data['cites'] lists post node ids); one transaction."""
        out = []
        with self.db.conn:
            apply_changes(self.ctx, self.ctx.pending)
            self.ctx.pending = []
            for d in drafts:
                if d is None or d.kind == "post":
                    continue
                cites, d.data.cites = list(d.data.cites or []), None
                if d.post_id and not cites:
                    cites = [f"post:{d.post_id}"]
                d.node_id = ""
                node = self.graph.add_node(d)
                for c in cites:
                    if c in self.graph.nodes:
                        self.graph.add_edge(node.node_id, c, "cite")
                out.append(node)
            for err in self.ctx.errors:
                self.event(1, "error", err)
            self.ctx.errors = []
        return out

    def text_node(self, post_id: str, carrier: str, field: str, text: str, *, with_cues: bool = True,
                  by_other: bool = False, modality: str = "text", extra: dict[str, Any] | None = None) -> EvidenceNode:
        """An evidence draft of one text field; with_cues runs the offline rules on it alone."""
        if with_cues:
            from core.engine.perceiver import text_evidence

            return text_evidence(post_id, carrier, field, text, modality=modality, by_other=by_other,
                                  extra=extra)
        data: dict[str, Any] = {"field": field, "cites": [f"post:{post_id}"], **(extra or {})}
        if by_other:
            data["by_other"] = True
        return EvidenceNode(node_id="", post_id=post_id, modality=modality, carrier=carrier, content=text[:20_000],
                            data=data)

    def admit(self, hyps: list[Hypothesis], reason: str) -> None:
        """Write the baseline's conclusions as admitted hypotheses (no verifier)."""
        self.graph.step = 2
        with self.db.conn:
            for h in hyps:
                h.status = "admitted"
                node, _ = self.graph.put_hypothesis(h, reason=reason)
                if node.status != "admitted":
                    self.graph.set_status(node, "admitted", reason)
            self.event(2, "hypotheses", {"admitted": [self.graph.hypothesis_by_key(_key(h)).node_id for h in hyps
                                                      if self.graph.hypothesis_by_key(_key(h))]})

    def finish(self) -> Predictions:
        from core.engine.projection import project
        from db.profile import read_profile, write_profile

        self.graph.step = 3
        with self.db.conn:
            attrs = project(self.ctx.view, self.ctx.settings)
            write_profile(self.db, self.run_id, self.ctx.step, attrs)
            self.event(3, "projected", {"attributes": {a.attribute: a.value for a in attrs}})
            if self.notes:
                self.event(3, "note", {"notes": self.notes})
            self.event(3, "run_finished", {"reason": f"{self.system} baseline done", "attributes": len(attrs)})
            db_runs.finish_run(self.db, self.run_id, step=3)
        return read_profile(self.db, self.run_id, self.user.profile.user_id, self.system)

    def fail(self, reason: str) -> None:
        with self.db.conn:
            self.event(self.graph.step, "error", {"where": self.system, "reason": reason})
            db_runs.fail_run(self.db, self.run_id, reason[:500])


def _key(h: Hypothesis) -> str:
    return hypothesis_key(h.attribute, h.value)


# ---- reading cues back from evidence nodes ----

def hits_of(nodes: Iterable[EvidenceNode], *, first_person_only: bool = True, own_only: bool = False) -> list[Hit]:
    out: list[Hit] = []
    for n in nodes:
        other = bool(n.data.by_other)
        if own_only and other:
            continue
        for cue in n.data.cues or []:
            if first_person_only and not cue.first_person:
                continue
            out.append(Hit(cue=cue, node_id=n.node_id, post_id=n.post_id or "", by_other=other))
    return out


def cue_levels(cue: Cue) -> dict[str, str]:
    lv = cue.data.levels
    if lv:
        return {k: v for k, v in lv.items() if v}
    return {cue.level or "value": cue.value}


def vote(hits: list[Hit], *, weight: str = "posts", min_votes: float = 0.0, rationale: str = "") -> list[Hypothesis]:
    """Aggregate cues into one value per hierarchy/category attribute (most votes wins) and the
    voted items of set/facts attributes. weight="posts": one vote per distinct post for a value;
    weight="confidence": the summed confidences (a summariser that weighs every mention)."""
    from core.engine.aggregators.base import hyp as _hyp

    schema = load_schema()
    groups: dict[tuple[str, str], list[Hit]] = defaultdict(list)
    levels_of: dict[tuple[str, str], dict[str, str]] = {}
    for h in hits:
        spec = schema.get(h.cue.attribute)
        if spec is None:
            continue
        lv = cue_levels(h.cue) if spec.kind == "hierarchy" else {"value": h.cue.value}
        key = (h.cue.attribute, normalize(" ".join(lv.values())))
        groups[key].append(h)
        prev = levels_of.get(key)
        if prev is None or len(lv) > len(prev):
            levels_of[key] = lv

    def score(hs: list[Hit]) -> float:
        if weight == "confidence":
            return round(sum(h.cue.confidence for h in hs), 4)
        best: dict[str, float] = {}
        for h in hs:
            best[h.post_id] = max(best.get(h.post_id, 0.0), h.cue.confidence)
        return len(best) + 0.001 * sum(best.values())    # posts first, confidence breaks ties

    by_attr: dict[str, list[tuple[float, tuple[str, str]]]] = defaultdict(list)
    for key, hs in groups.items():
        s = score(hs)
        if s >= min_votes:
            by_attr[key[0]].append((s, key))
    out: list[Hypothesis] = []
    for attr, scored in by_attr.items():
        spec = schema.get(attr)
        scored.sort(key=lambda x: (-x[0], -len(levels_of[x[1]]), x[1][1]))
        keep = scored[:1] if spec.kind in ("hierarchy", "category") else scored[:MAX_ITEMS]
        for s, key in keep:
            hs = groups[key]
            ev: list[str] = []
            for h in hs:
                if h.node_id not in ev:
                    ev.append(h.node_id)
            conf = min(0.99, max(h.cue.confidence for h in hs))
            lv = levels_of[key]
            if spec.kind == "hierarchy":
                hyp = _hyp(attr, lv, ev[:12], conf, rationale or f"{len(hs)} mention(s)")
                if attr == "birth_date":   # a date reads as stated, not as its levels joined
                    hyp.value = max(hs, key=lambda h: (len(cue_levels(h.cue)), h.cue.confidence)).cue.value
            else:
                hyp = Hypothesis(attribute=attr, value=next(iter(lv.values())), confidence=conf, evidence=ev[:12],
                                 granularity=1.0, rationale=rationale or f"{len(hs)} mention(s)")
            hyp.data.votes = s
            out.append(hyp)
    return out


def own_text_fields(post: Post, own_names: set[str]) -> list[tuple[str, str, str, bool]]:
    """(carrier, field, text, by_other) of every text field of a post, comments flagged by author."""
    out: list[tuple[str, str, str, bool]] = []
    if post.title:
        out.append(("caption", "title", str(post.title), False))
    if post.caption:
        out.append(("caption", "caption", str(post.caption), False))
    for i, t in enumerate(post.tags or []):
        if t:
            out.append(("hashtag", f"tags[{i}]", str(t), False))
    for i, c in enumerate(post.comments or []):
        if c is None or not c.text:
            continue
        own = bool(c.author) and str(c.author).casefold() in own_names
        out.append(("caption", f"comments[{i}].text", str(c.text), not own))
    return out


def own_names(run: BaselineRun) -> set[str]:
    p = run.user.profile
    return {str(x).casefold() for x in (p.user_id, p.nickname) if x}
