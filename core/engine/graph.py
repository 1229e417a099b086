"""CPeg: the cross-post evidence graph of one run, persisted in the run DB.

Nodes are posts, evidence and hypotheses (table `nodes`); edges are `cite`
(evidence -> the post or tool output it comes from) and `support` (evidence or an
admitted hypothesis -> a hypothesis). The whole graph of a run is small (hundreds
of nodes), so it is loaded into memory and every change is written through to
SQLite inside the caller's transaction (the loop commits once per step).
"""
from __future__ import annotations

import hashlib
import json
from typing import Any, Iterable

import sqlite_utils

from core.engine.types import EvidenceNode, Hypothesis
from db.store import dumps

_PREFIX = {"post": "post:", "evidence": "e", "hypothesis": "h"}


class Graph:
    def __init__(self, db: sqlite_utils.Database, run_id: str):
        self.db = db
        self.run_id = run_id
        self.nodes: dict[str, EvidenceNode] = {}
        self.edges: set[tuple[str, str, str]] = set()   # (src, dst, kind)
        self.step = 0
        self._counters = {"evidence": 0, "hypothesis": 0}
        self._load()

    # ---- loading ----
    def _load(self) -> None:
        rows = self.db.execute(
            "SELECT node_id, kind, post_id, modality, carrier, content, attribute, value, level,"
            " granularity, confidence, status, derived, provenance, data FROM nodes WHERE run_id=?"
            " ORDER BY rowid",
            [self.run_id],
        ).fetchall()
        for r in rows:
            data = json.loads(r[14] or "{}")
            if r[10] is not None:
                data.setdefault("granularity", r[9])
            node = EvidenceNode(
                node_id=r[0], kind=r[1], post_id=r[2], modality=r[3], carrier=r[4], content=r[5] or "",
                attribute=r[6], value=r[7], level=r[8], confidence=r[10], status=r[11] or "raw",
                derived=bool(r[12]), provenance=json.loads(r[13] or "[]"), data=data,
            )
            self.nodes[node.node_id] = node
            if node.kind in self._counters:
                num = node.node_id[len(_PREFIX[node.kind]):]
                if num.isdigit():
                    self._counters[node.kind] = max(self._counters[node.kind], int(num))
        for src, dst, kind in self.db.execute(
            "SELECT src, dst, kind FROM edges WHERE run_id=? ORDER BY rowid", [self.run_id]
        ).fetchall():
            self.edges.add((src, dst, kind))

    # ---- writing ----
    def new_id(self, kind: str) -> str:
        self._counters[kind] += 1
        return f"{_PREFIX[kind]}{self._counters[kind]}"

    def _write(self, node: EvidenceNode, *, created: bool) -> None:
        data = dict(node.data)
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
            self.db.execute(
                f"INSERT INTO nodes ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})", list(row.values())
            )
        else:
            sets = ", ".join(f"{k}=?" for k in row if k not in ("run_id", "node_id"))
            vals = [v for k, v in row.items() if k not in ("run_id", "node_id")]
            self.db.execute(f"UPDATE nodes SET {sets} WHERE run_id=? AND node_id=?", vals + [self.run_id, node.node_id])

    def add_node(self, node: EvidenceNode) -> EvidenceNode:
        if not node.node_id:
            node.node_id = self.new_id(node.kind)
        if node.node_id in self.nodes:
            raise ValueError(f"duplicate node id {node.node_id}")
        self.nodes[node.node_id] = node
        self._write(node, created=True)
        return node

    def update_node(self, node: EvidenceNode) -> None:
        self.nodes[node.node_id] = node
        self._write(node, created=False)

    def add_edge(self, src: str, dst: str, kind: str, data: dict[str, Any] | None = None) -> bool:
        key = (src, dst, kind)
        if key in self.edges:
            return False
        self.edges.add(key)
        self.db.execute(
            "INSERT OR IGNORE INTO edges (run_id, src, dst, kind, step, data) VALUES (?,?,?,?,?,?)",
            [self.run_id, src, dst, kind, self.step, dumps(data or {})],
        )
        return True

    def remove_support(self, src: str, dst: str) -> None:
        if (src, dst, "support") in self.edges:
            self.edges.discard((src, dst, "support"))
            self.db.execute(
                "DELETE FROM edges WHERE run_id=? AND src=? AND dst=? AND kind='support'", [self.run_id, src, dst]
            )

    # ---- hypotheses ----
    def put_hypothesis(self, h: Hypothesis, *, reason: str = "") -> tuple[EvidenceNode, bool]:
        """Insert a new hypothesis node or update the one with the same key; returns (node, changed)."""
        key = hypothesis_key(h.attribute, h.value)
        existing = self.hypothesis_by_key(key)
        data = {**h.data, "key": key, "levels": h_levels(h), "needs": list(h.needs), "rationale": h.rationale,
                "granularity": h.granularity}
        if existing is None:
            node = EvidenceNode(
                node_id=self.new_id("hypothesis"), kind="hypothesis", attribute=h.attribute, value=h.value,
                level=h.level, confidence=round(h.confidence, 4), status=h.status, content=h.rationale,
                data=data, provenance=list(h.evidence),
            )
            self.add_node(node)
            for ev in h.evidence:
                self.add_edge(ev, node.node_id, "support")
            self.record_status(node, reason or "proposed")
            return node, True
        node = existing
        old_support = set(self.supporters(node.node_id))
        new_support = set(h.evidence)
        changed = (old_support != new_support or abs((node.confidence or 0) - h.confidence) > 1e-6
                   or node.data.get("levels") != data["levels"] or node.level != h.level)
        if not changed:
            return node, False
        for ev in new_support - old_support:
            self.add_edge(ev, node.node_id, "support")
        for ev in old_support - new_support:
            self.remove_support(ev, node.node_id)
        node.confidence = round(h.confidence, 4)
        node.level = h.level
        node.content = h.rationale
        node.provenance = list(h.evidence)
        keep = {k: v for k, v in node.data.items() if k not in data}
        node.data = {**keep, **data}
        # a changed evidence neighbourhood wakes a suspended/unresolved hypothesis
        if node.status in ("unresolved", "suspended"):
            node.status = "candidate"
        self.update_node(node)
        return node, True

    def set_status(self, node: EvidenceNode, status: str, reason: str = "") -> None:
        if node.status == status:
            return
        node.status = status
        node.derived = status == "admitted"
        self.update_node(node)
        self.record_status(node, reason)

    def record_status(self, node: EvidenceNode, reason: str) -> None:
        self.db.execute(
            "INSERT INTO hypothesis_history (run_id, node_id, step, status, confidence, reason) VALUES (?,?,?,?,?,?)",
            [self.run_id, node.node_id, self.step, node.status, node.confidence, reason[:500]],
        )

    def hypothesis_by_key(self, key: str) -> EvidenceNode | None:
        for n in self.nodes.values():
            if n.kind == "hypothesis" and n.data.get("key") == key:
                return n
        return None

    # ---- queries ----
    def of_kind(self, kind: str) -> list[EvidenceNode]:
        return [n for n in self.nodes.values() if n.kind == kind]

    def evidence(self) -> list[EvidenceNode]:
        return self.of_kind("evidence")

    def hypotheses(self, statuses: Iterable[str] | None = None) -> list[EvidenceNode]:
        st = set(statuses) if statuses is not None else None
        return [n for n in self.of_kind("hypothesis") if st is None or n.status in st]

    def supporters(self, node_id: str) -> list[str]:
        return sorted((s for s, d, k in self.edges if d == node_id and k == "support"), key=_id_order)

    def cites(self, node_id: str) -> list[str]:
        return sorted((d for s, d, k in self.edges if s == node_id and k == "cite"), key=_id_order)

    def chain(self, node_id: str, depth: int = 0) -> dict[str, Any]:
        """The support chain of a node down to posts (for display and the DB query helper)."""
        n = self.nodes.get(node_id)
        if n is None or depth > 6:
            return {"node_id": node_id}
        out: dict[str, Any] = {"node_id": node_id, "kind": n.kind, "carrier": n.carrier, "post_id": n.post_id,
                               "content": n.content[:200], "status": n.status}
        sup = self.supporters(node_id)
        if sup:
            out["support"] = [self.chain(s, depth + 1) for s in sup]
        cit = self.cites(node_id)
        if cit:
            out["cites"] = cit
        return out

    def signature(self) -> str:
        """A content fingerprint of evidence + hypothesis states (graph stability check)."""
        parts = sorted(f"{n.node_id}:{n.status}:{n.confidence}" for n in self.nodes.values() if n.kind != "post")
        return hashlib.sha256("|".join(parts).encode()).hexdigest()[:16]


def _id_order(node_id: str) -> tuple[str, int]:
    head = node_id.rstrip("0123456789")
    tail = node_id[len(head):]
    return head, int(tail) if tail else -1


def hypothesis_key(attribute: str, value: str) -> str:
    from core.textmatch import normalize

    return f"{attribute}::{normalize(value)}"


def h_levels(h: Hypothesis) -> dict[str, str]:
    return dict(h.levels)
