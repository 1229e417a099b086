"""Projection: the profile (one value per attribute) from admitted hypotheses only (derived
evidence; a hypothesis a person confirmed is admitted and ranks first, one a person rejected
is removed and never projected).

hierarchy / category: the best admitted hypothesis (confidence, then granularity); its
levels come from evidence (and routed gazetteer lookups), so the value is never more
specific than what supports it. Education's two levels are two readings side by side, not a
chain (a degree and a field, often said in different posts): the best admitted reading of the
level the chosen one lacks is written beside it ("Software, Bachelor's degree").
set / facts: the admitted items joined with "; ".
Unresolved and removed hypotheses are never projected. The loop writes the rows to the
`profile` table (db/profile.py) with the evidence ids, so each value's support chain stays
queryable (nodes + edges).
"""
from __future__ import annotations

from core.engine.aggregators.base import display, finest
from core.engine.contract.config import EngineConfig
from core.engine.contract.support import support_ids
from core.engine.contract.view import GraphView
from core.engine.graph import Graph
from core.engine.types import EvidenceNode
from core.models import PredictedAttribute
from core.schema import load_schema

MAX_ITEMS = {"set": 8, "facts": 6}
# hierarchies whose levels are independent readings (no level implies another)
SIDE_BY_SIDE = {"education"}


def project(view: GraphView, config: EngineConfig) -> list[PredictedAttribute]:
    """The profile rows of the admitted hypotheses (the config changes nothing here today)."""
    g = view.graph
    schema = load_schema()
    admitted = [h for h in g.hypotheses(("admitted",))]
    out: list[PredictedAttribute] = []
    for spec in schema.attributes:
        hs = [h for h in admitted if h.attribute == spec.name]
        if not hs:
            continue
        # a value a person confirmed comes first; then confidence, then granularity
        hs.sort(key=lambda h: (not h.data.confirmed_by, -(h.confidence or 0),
                               -(h.data.granularity or 0), h.node_id))
        if spec.kind in ("hierarchy", "category"):
            picked, levels = _side_by_side(spec.name, hs)
            best = picked[0]
            if len(picked) == 1:
                value, conf, level = best.value, best.confidence, best.level
            else:
                value, level = display(spec.name, levels), finest(spec.name, levels)
                conf = min(h.confidence or 0 for h in picked)
            out.append(PredictedAttribute(attribute=spec.name, value=value, confidence=conf,
                                          evidence=_support(g, picked)[:12], level=level,
                                          hypotheses=[h.node_id for h in picked]))
        else:
            items = hs[: MAX_ITEMS[spec.kind]]
            conf = max(h.confidence or 0 for h in items)
            out.append(PredictedAttribute(attribute=spec.name, value="; ".join(h.value for h in items),
                                          confidence=conf, evidence=_support(g, items)[:16],
                                          hypotheses=[h.node_id for h in items]))
    return out


def _side_by_side(attr: str, hs: list[EvidenceNode]) -> tuple[list[EvidenceNode], dict[str, str]]:
    """The best hypothesis, and for a SIDE_BY_SIDE attribute the best of each level it lacks."""
    picked, levels = [hs[0]], dict(hs[0].data.levels or {})
    if attr in SIDE_BY_SIDE:
        for h in hs[1:]:
            lv = h.data.levels or {}
            if lv and not set(lv) & set(levels):
                picked.append(h)
                levels |= lv
    return picked, levels


def _support(g: Graph, hs: list[EvidenceNode]) -> list[str]:
    """The evidence ids behind these hypotheses, in order, each once."""
    ev: list[str] = []
    for h in hs:
        ev += [e for e in support_ids(g, h.node_id) if e not in ev]
    return ev
