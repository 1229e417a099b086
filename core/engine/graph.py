"""CPeg: the cross-post evidence graph of one run, persisted in the run DB.

Nodes are posts, evidence and hypotheses (table `nodes`); edges are `cite`
(evidence -> the post or tool output it comes from) and `support` (evidence or an
admitted hypothesis -> a hypothesis). The graph of a run (hundreds of nodes; ~6 per post
on large accounts) is loaded into memory and every change is written through to SQLite
inside the caller's transaction (the loop commits once per step). Look-ups by key, by
supported node, by post and by image are dict hits, so a stage that asks per hypothesis
or per image does not scan the graph (benchmarks/scaling.py).
"""
from __future__ import annotations

import copy
import json
from typing import Any, Iterable

import sqlite_utils
from core.engine.types import EvidenceNode, Hypothesis
from core.nodes.node import NodeData, node_data
from core.textmatch import normalize
from db import nodes as db_nodes
from db.chain import ChainNode, chain_dict, id_order, support_chain  # noqa: F401 (re-exported)
from db.store import dumps

_PREFIX = {"post": "post:", "evidence": "e", "hypothesis": "h"}


class Graph:
    def __init__(self, db: sqlite_utils.Database, run_id: str):
        self.db = db
        self.run_id = run_id
        self.nodes: dict[str, EvidenceNode] = {}
        self.edges: set[tuple[str, str, str]] = set()   # alive edges: (src, dst, kind)
        self.edge_step: dict[tuple[str, str, str], int] = {}   # alive edge -> the step it was added
        self.step = 0
        self._counters = {"evidence": 0, "hypothesis": 0}
        # indexes (every lookup the stages make per hypothesis is a dict hit, not a scan)
        self._by_kind: dict[str, dict[str, EvidenceNode]] = {"post": {}, "evidence": {}, "hypothesis": {}}
        self._by_key: dict[str, str] = {}
        self._sup: dict[str, set[str]] = {}      # dst -> supporters
        self._cit: dict[str, set[str]] = {}      # src -> what it cites
        self._by_post: dict[str, dict[str, EvidenceNode]] = {}    # post_id -> its evidence
        self._by_image: dict[str, dict[str, EvidenceNode]] = {}   # data.image_id -> its evidence
        self._stored: dict[str, tuple[str, str]] = {}   # node_id -> (provenance, data) JSON last versioned
        self._sig = 0                                    # XOR of the parts below (see signature)
        self._sig_part: dict[str, int] = {}              # node_id -> hash of (id, status, confidence)
        # write counters, compared within one process (the aggregator memo, aggregators/memo.py)
        self._writes = 0
        self._node_version: dict[str, int] = {}          # node_id -> the write count of its last write
        self._evidence_version = 0                       # the write count of the last post/evidence change
        self._load()

    # ---- loading ----
    def _load(self) -> None:
        rows = db_nodes.node_rows(self.db, self.run_id)
        full = db_nodes.latest_versions(self.db, self.run_id)
        for r in rows:
            prov_s, data_s = full.get(r[0], (r[13], None))
            if data_s is None:   # a run from before node versions: rebuild from the row
                raw = json.loads(r[14] or "{}")
                if r[1] == "hypothesis" and r[10] is not None:
                    raw.setdefault("granularity", r[9])
            else:
                raw = json.loads(data_s)
            node = EvidenceNode(
                node_id=r[0], kind=r[1], post_id=r[2], modality=r[3], carrier=r[4], content=r[5] or "",
                attribute=r[6], value=r[7], level=r[8], confidence=r[10], status=r[11] or "raw",
                derived=bool(r[12]), provenance=json.loads(prov_s or "[]"), data=node_data(raw), created_step=r[15],
            )
            self._index(node)
            self._stored[node.node_id] = (dumps(node.provenance), dumps(node.stored_data()))
            if node.kind in self._counters:
                num = node.node_id[len(_PREFIX[node.kind]):]
                if num.isdigit():
                    self._counters[node.kind] = max(self._counters[node.kind], int(num))
        for src, dst, kind, step in db_nodes.alive_edges(self.db, self.run_id):
            self._link(src, dst, kind)
            self.edge_step[(src, dst, kind)] = step

    def _index(self, node: EvidenceNode, *, verdict: bool = False) -> None:
        self.nodes[node.node_id] = node
        self._writes += 1
        self._node_version[node.node_id] = self._writes
        if node.kind != "hypothesis" and not verdict:
            self._evidence_version = self._writes
        if node.kind != "post":   # every add/update passes here: the fingerprint follows in O(1)
            part = hash((node.node_id, node.status, node.confidence))
            self._sig ^= self._sig_part.get(node.node_id, 0) ^ part
            self._sig_part[node.node_id] = part
        self._by_kind.setdefault(node.kind, {})[node.node_id] = node
        if node.kind == "hypothesis" and node.data.key:
            self._by_key[node.data.key] = node.node_id
        elif node.kind == "evidence":
            self._by_post.setdefault(node.post_id or "", {})[node.node_id] = node
            if node.data.image_id:
                self._by_image.setdefault(str(node.data.image_id), {})[node.node_id] = node

    def _link(self, src: str, dst: str, kind: str) -> None:
        self.edges.add((src, dst, kind))
        if kind == "support":
            self._sup.setdefault(dst, set()).add(src)
        elif kind == "cite":
            self._cit.setdefault(src, set()).add(dst)

    def _unlink(self, src: str, dst: str, kind: str) -> None:
        self.edges.discard((src, dst, kind))
        self.edge_step.pop((src, dst, kind), None)
        (self._sup.get(dst, set()) if kind == "support" else self._cit.get(src, set())).discard(
            src if kind == "support" else dst)

    # ---- writing ----
    def new_id(self, kind: str) -> str:
        self._counters[kind] += 1
        return f"{_PREFIX[kind]}{self._counters[kind]}"

    def _write(self, node: EvidenceNode, *, created: bool, reason: str | None = None) -> None:
        if not isinstance(node.data, NodeData):
            raise TypeError(f"{node.kind} node {node.node_id}: data is a {type(node.data).__name__}, not NodeData")
        data = node.stored_data()
        gran = data.pop("granularity", None)
        row = {
            "run_id": self.run_id, "node_id": node.node_id, "kind": node.kind, "post_id": node.post_id,
            "modality": node.modality, "carrier": node.carrier, "content": node.content,
            "attribute": node.attribute, "value": node.value, "level": node.level, "granularity": gran,
            "confidence": node.confidence, "status": node.status, "derived": int(node.derived),
            "provenance": dumps(node.provenance), "data": dumps(data), "step_updated": self.step,
        }
        if created:
            row["step_created"] = self.step
            db_nodes.insert_node(self.db, row)
        else:
            db_nodes.update_node(self.db, row)
        self._version(node, reason)

    def _version(self, node: EvidenceNode, reason: str | None) -> None:
        """One node_versions row per (node, step): the last write of a step wins; provenance and
        data are stored only when they differ from the previous version (NULL = unchanged)."""
        prov, data = dumps(node.provenance), dumps(node.stored_data())
        last = self._stored.get(node.node_id)
        self._stored[node.node_id] = (prov, data)
        db_nodes.write_version(self.db, self.run_id, node.node_id, self.step, status=node.status,
                               confidence=node.confidence, content=node.content, value=node.value, level=node.level,
                               derived=int(node.derived), provenance=None if last and last[0] == prov else prov,
                               data=None if last and last[1] == data else data,
                               reason=(reason or None) and reason[:500])

    def add_node(self, node: EvidenceNode) -> EvidenceNode:
        if not node.node_id:
            node.node_id = self.new_id(node.kind)
        if node.node_id in self.nodes:
            raise ValueError(f"duplicate node id {node.node_id}")
        node.created_step = self.step
        self._index(node)
        self._write(node, created=True)
        return node

    def update_node(self, node: EvidenceNode, reason: str | None = None, *, verdict: bool = False) -> None:
        """verdict: the write only moves an evidence node between raw, grounded and rejected (with
        its grounding reason), which leaves the evidence version as it was (see evidence_version)."""
        self._index(node, verdict=verdict)
        self._write(node, created=False, reason=reason)

    def add_edge(self, src: str, dst: str, kind: str, data: dict[str, Any] | None = None) -> bool:
        if (src, dst, kind) in self.edges:
            return False
        self._link(src, dst, kind)
        self.edge_step[(src, dst, kind)] = self.step
        db_nodes.insert_edge(self.db, self.run_id, src, dst, kind, self.step, dumps(data or {}))
        return True

    def remove_support(self, src: str, dst: str, reason: str = "") -> None:
        """The support edge stops counting from this step on; the row stays, marked with the step and why."""
        if (src, dst, "support") in self.edges:
            self._unlink(src, dst, "support")
            db_nodes.remove_support(self.db, self.run_id, src, dst, self.step, reason[:500])

    # ---- hypotheses ----
    def usable_support(self, node_id: str, hyp: EvidenceNode | None = None) -> bool:
        """May this node be (re)linked as a supporter? Not rejected evidence, and not one the verifier
        dropped from this hypothesis before."""
        n = self.nodes.get(node_id)
        if n is None or (n.kind == "evidence" and n.status in ("rejected", "removed")):
            return False
        return hyp is None or node_id not in (hyp.data.dropped or {})

    def put_hypothesis(self, h: Hypothesis, *, reason: str = "") -> tuple[EvidenceNode, bool]:
        """Insert a new hypothesis node or update the one with the same key; returns (node, changed).

        Rejected evidence never becomes support. A changed evidence neighbourhood sends an
        engine-decided hypothesis (admitted, unresolved, suspended, removed) back to candidate,
        to be verified again; a person's reject or confirm is never undone here."""
        key = hypothesis_key(h.attribute, h.value)
        existing = self.hypothesis_by_key(key)
        # the aggregator's extras as it set them (a None it set clears the node's earlier value), then the proposal
        data = {**{k: getattr(h.data, k) for k in h.data.model_fields_set}, "key": key, "levels": h_levels(h),
                "needs": list(h.needs), "rationale": h.rationale, "granularity": h.granularity,
                "proposed_confidence": round(h.confidence, 4), "holder": h.holder}
        if existing is None:
            node = EvidenceNode(
                node_id=self.new_id("hypothesis"), kind="hypothesis", attribute=h.attribute, value=h.value,
                level=h.level, confidence=round(h.confidence, 4), status=h.status, content=h.rationale,
                data=NodeData(**data), provenance=list(h.evidence),
            )
            self.add_node(node)
            for ev in h.evidence:
                if self.usable_support(ev):
                    self.add_edge(ev, node.node_id, "support")
            self.record_status(node, reason or "proposed")
            return node, True
        node = existing
        old_support = set(self.supporters(node.node_id))
        new_support = {ev for ev in h.evidence if self.usable_support(ev, node)}
        proposed = (node.data.proposed_confidence if node.data.proposed_confidence is not None
                    else node.confidence) or 0      # the verifier may lower node.confidence
        changed = (old_support != new_support or abs(proposed - h.confidence) > 1e-6
                   or node.data.levels != data["levels"] or node.level != h.level)
        revive = node.status == "removed" and node.data.removed_by == "hypothesizer"
        if not changed and not revive:
            return node, False
        for ev in sorted(new_support - old_support, key=id_order):
            self.add_edge(ev, node.node_id, "support")
        for ev in sorted(old_support - new_support, key=id_order):
            self.remove_support(ev, node.node_id, f"{ev} no longer cited by the hypothesizer for {node.node_id}")
        node.confidence = round(h.confidence, 4)
        node.level = h.level
        node.content = h.rationale
        node.provenance = list(h.evidence)
        node.data = node.data.model_copy(update=data)
        by_person = bool(node.data.confirmed_by or node.data.rejected_by)
        if not by_person and node.status != "candidate":
            why = ("proposed again by the hypothesizer" if revive and not changed
                   else "its evidence changed: verify again")
            self.set_status(node, "candidate", why)
        else:
            self.update_node(node)
        return node, True

    def set_status(self, node: EvidenceNode, status: str, reason: str = "", *, by: str | None = None) -> None:
        """Change a node's status with the reason (kept in node_versions and, for hypotheses, in
        hypothesis_history). by: who removed it (hypothesizer | verifier | person:<name>)."""
        if node.status == status:
            return
        verdict = node.kind != "hypothesis" and "removed" not in (node.status, status)
        node.status = status
        if node.kind == "hypothesis":
            node.derived = status == "admitted"
            node.data = node.data.model_copy(update={"status_reason": reason[:500],
                                                     "removed_by": (by or "verifier") if status == "removed" else None})
        else:
            node.data = node.data.model_copy(update={"grounding": reason[:500]})
        self.update_node(node, reason, verdict=verdict)
        if node.kind == "hypothesis":
            self.record_status(node, reason)

    def record_status(self, node: EvidenceNode, reason: str) -> None:
        db_nodes.record_status(self.db, self.run_id, node.node_id, self.step, node.status, node.confidence,
                               reason[:500])

    def hypothesis_by_key(self, key: str) -> EvidenceNode | None:
        nid = self._by_key.get(key)
        return self.nodes.get(nid) if nid else None

    # ---- queries ----
    def view(self, keep: Iterable[EvidenceNode]) -> "Graph":
        """A read-only view holding only `keep` and the edges among them, with its own indexes
        (for a stage that must not see some nodes). Never write through it."""
        v = copy.copy(self)
        v.nodes, v.edges, v.edge_step = {}, set(), {}
        v._by_kind = {k: {} for k in self._by_kind}
        v._by_key, v._sup, v._cit, v._stored, v._by_post, v._by_image = {}, {}, {}, {}, {}, {}
        v._sig, v._sig_part = 0, {}
        v._node_version = {}
        for n in keep:
            v._index(n)
        for e in self.edges:
            if e[0] in v.nodes and e[1] in v.nodes:
                v._link(*e)
                v.edge_step[e] = self.edge_step.get(e, 0)
        return v

    def of_kind(self, kind: str) -> list[EvidenceNode]:
        return list(self._by_kind.get(kind, {}).values())

    def evidence(self) -> list[EvidenceNode]:
        return self.of_kind("evidence")

    def hypotheses(self, statuses: Iterable[str] | None = None) -> list[EvidenceNode]:
        st = set(statuses) if statuses is not None else None
        return [n for n in self.of_kind("hypothesis") if st is None or n.status in st]

    def of_post(self, post_id: str | None) -> list[EvidenceNode]:
        """The evidence nodes of a post, in insertion order (an index hit, not a scan)."""
        return [n for n in self._by_post.get(post_id or "", {}).values() if n.post_id == post_id]

    def of_image(self, image_id: str | None) -> list[EvidenceNode]:
        """The evidence nodes about an image (its skim node, OCR, EXIF...), in insertion order."""
        return [n for n in self._by_image.get(str(image_id), {}).values() if n.data.image_id == image_id]

    def supporters(self, node_id: str) -> list[str]:
        return sorted(self._sup.get(node_id, ()), key=id_order)

    def cites(self, node_id: str) -> list[str]:
        return sorted(self._cit.get(node_id, ()), key=id_order)

    def chain(self, node_id: str, max_depth: int = 6) -> dict[str, Any]:
        """The support chain of a node down to posts (dict form of `support_chain`)."""
        def info(nid: str) -> dict[str, Any] | None:
            n = self.nodes.get(nid)
            return None if n is None else n.model_dump(exclude={"data", "provenance"})

        return chain_dict(support_chain(node_id, info, self.supporters, self.cites, max_depth=max_depth,
                                        content_chars=200))

    def signature(self) -> int:
        """A fingerprint of the evidence + hypothesis states (node, status, confidence), compared
        within one process (graph stability check, several times per step). Kept up to date on
        every node write as an XOR of per-node hashes, so it costs nothing per call and a change
        undone gives the same value again (node state changes only through add/update_node)."""
        return self._sig

    def evidence_version(self) -> int:
        """Changes whenever a post or evidence node is added or changed, except by a verdict alone
        (raw / grounded / rejected and the grounding reason; removing one counts): what the
        aggregators read of the graph besides admitted hypotheses (their verdicts reach them as
        derived evidence). A counter of writes, compared within one process only."""
        return self._evidence_version

    def node_version(self, node_id: str) -> int | None:
        """The write count of a node's last write (None: no such node); within one process only."""
        return self._node_version.get(node_id)


def hypothesis_key(attribute: str, value: str) -> str:
    """THE identity of a hypothesis: one node per (attribute, normalized value)."""
    return f"{attribute}::{normalize(value)}"


def supersede_reason(g: Graph, old: EvidenceNode, current: list[EvidenceNode]) -> str:
    """Why a hypothesis the hypothesizer no longer proposes is removed, naming what replaced it."""
    same = [n for n in current if n.attribute == old.attribute and n.node_id != old.node_id]
    old_levels = old.data.levels or {}
    ov = normalize(old.value or "")
    for n in same:
        lv = n.data.levels or {}
        if old_levels and len(lv) > len(old_levels) and all(lv.get(k) == v for k, v in old_levels.items()):
            return f"superseded by {n.node_id} (finer: {n.value})"
    for n in same:
        if ov and ov in normalize(n.value or "") and ov != normalize(n.value or ""):
            return f"superseded by {n.node_id} (merged into {n.value!r})"
    mine = set(g.supporters(old.node_id))
    for n in same:
        if mine & set(g.supporters(n.node_id)):
            return f"superseded by {n.node_id} (its evidence now supports {n.value!r})"
    if same:
        return f"superseded by {', '.join(n.node_id for n in same[:3])} ({old.attribute} now {same[0].value!r})"
    return f"no longer proposed: no evidence left for {old.attribute} = {old.value!r}"


def h_levels(h: Hypothesis) -> dict[str, str]:
    return dict(h.levels)
