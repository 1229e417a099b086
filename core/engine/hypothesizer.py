"""Hypothesizer (offline): reads the whole evidence graph and proposes hypotheses.

Per-post cues (core.engine.rules) are only the raw material; the value of this stage is
cross-post aggregation, done by the declared aggregators of core.engine.aggregators (each
names the cue and evidence kinds it consumes and the attributes it produces; the registry
orders and runs them). Every hypothesis lists the evidence node ids that support it; admitted
hypotheses are derived evidence and may support later ones (age <-> birth date).

Config flags: hypothesizer=False -> one hypothesis per cue, no aggregation;
cpeg=False -> aggregation inside each post only (no cross-post reasoning).
"""
from __future__ import annotations

from collections import defaultdict

from core.engine.aggregators import REGISTRY
from core.engine.aggregators.base import GraphFacts, hyp
from core.engine.aggregators.memo import Memo, Versions, memo_for
from core.engine.contract.config import EngineConfig
from core.engine.contract.view import GraphView
from core.engine.graph import hypothesis_key
from core.engine.types import EvidenceNode, Hypothesis
from core.nodes.hypothesis import Need
from core.schema import load_schema


def _zoom_needs(f: GraphFacts, evidence: list[str]) -> list[Need]:
    """Low-confidence OCR lines among a hypothesis's evidence: a fine-print zoom could read them."""
    needs = []
    for nid in evidence:
        n = f.nodes.get(nid)
        if n is None or not n.data.lines or n.data.ocr_source not in ("perception", "ocr"):
            continue
        for i, ln in enumerate(n.data.lines):
            if (1.0 if ln.score is None else ln.score) < 0.85 and len(needs) < 2:
                needs.append(Need(family="zoom_ocr", target=nid, line=i))
    return needs


def _aggregate(f: GraphFacts, derived: dict[str, EvidenceNode], memo: Memo | None = None,
               versions: Versions | None = None) -> list[Hypothesis]:
    out = REGISTRY.run(f, derived, memo, versions)
    for h in out:
        h.needs += [n for n in _zoom_needs(f, h.evidence) if n not in h.needs]
    return out


def _naive(f: GraphFacts) -> list[Hypothesis]:
    """Ablation (hypothesizer off): every cue is its own hypothesis, projected as found."""
    out: list[Hypothesis] = []
    for r in f.cues:
        if not r.cue.first_person or r.by_other:
            continue
        spec = load_schema().get(r.cue.attribute)
        if spec is None:
            continue
        lv = r.levels if spec.kind == "hierarchy" else {"value": r.cue.value}
        out.append(hyp(r.cue.attribute, lv, [r.node_id], r.cue.confidence, f"cue {r.cue.cue}: {r.cue.span}"))
    return out


def hypothesize(view: GraphView, config: EngineConfig) -> list[Hypothesis]:
    nodes = list(view.graph.nodes.values())
    derived = {n.attribute: n for n in nodes if n.kind == "hypothesis" and n.status == "admitted" and n.attribute}
    if not config.hypothesizer:
        return _dedupe(_naive(GraphFacts(nodes)))
    if not config.cpeg:
        # each post alone: aggregate inside one post at a time (profile nodes count as a post)
        out: list[Hypothesis] = []
        by_post: dict[str, list[EvidenceNode]] = defaultdict(list)
        for n in nodes:
            if n.kind == "evidence":
                by_post[n.post_id or ""].append(n)
        for pid in sorted(by_post):
            out += _aggregate(GraphFacts(by_post[pid]), {})
        return _dedupe(out, merge=False)
    # the whole graph: an aggregator whose inputs did not change since the last refresh is not run again
    g = view.graph
    return _dedupe(_aggregate(GraphFacts(nodes), derived, memo_for(g), Versions(g.evidence_version(), g.node_version)))


def _dedupe(hyps: list[Hypothesis], merge: bool = True) -> list[Hypothesis]:
    """One hypothesis per (attribute, value): merge evidence, keep the higher confidence.
    merge=False (cpeg off): keep the single most confident post's reading, no pooling."""
    seen: dict[str, Hypothesis] = {}
    for h in hyps:
        if not h.value.strip():
            continue
        k = hypothesis_key(h.attribute, h.value)
        if k in seen and not merge:
            if h.confidence > seen[k].confidence:
                seen[k] = h
        elif k in seen:
            o = seen[k]
            o.evidence += [e for e in h.evidence if e not in o.evidence]
            o.confidence = max(o.confidence, h.confidence)
            o.needs += [n for n in h.needs if n not in o.needs]
        else:
            seen[k] = h
    return list(seen.values())
