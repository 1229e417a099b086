"""Projection: the profile (one value per attribute) from admitted hypotheses only.

hierarchy / category: the best admitted hypothesis (confidence, then granularity); its
levels come from evidence (and routed gazetteer lookups), so the value is never more
specific than what supports it. set / facts: the admitted items joined with "; ".
Unresolved and removed hypotheses are never projected. Rows go to the `profile` table
with the evidence ids, so each value's support chain stays queryable (nodes + edges).
"""
from __future__ import annotations

from core.engine.context import RunContext
from core.engine.types import EvidenceNode
from core.models import PredictedAttribute, Predictions
from core.schema import load_schema
from db.store import dumps

MAX_ITEMS = {"set": 8, "facts": 6}


def _evidence_ids(ctx: RunContext, h: EvidenceNode, depth: int = 0) -> list[str]:
    """Evidence ids behind a hypothesis (a derived hypothesis contributes its own evidence)."""
    out: list[str] = []
    for s in ctx.graph.supporters(h.node_id):
        n = ctx.graph.nodes.get(s)
        if n is None:
            continue
        if n.kind == "hypothesis" and depth < 3:
            out.append(s)
            out += [x for x in _evidence_ids(ctx, n, depth + 1) if x not in out]
        elif s not in out:
            out.append(s)
    return out


def project(ctx: RunContext) -> list[PredictedAttribute]:
    schema = load_schema()
    admitted = [h for h in ctx.graph.hypotheses(("admitted",))]
    out: list[PredictedAttribute] = []
    for spec in schema.attributes:
        hs = [h for h in admitted if h.attribute == spec.name]
        if not hs:
            continue
        hs.sort(key=lambda h: (-(h.confidence or 0), -(h.data.get("granularity") or 0), h.node_id))
        if spec.kind in ("hierarchy", "category"):
            best = hs[0]
            out.append(PredictedAttribute(attribute=spec.name, value=best.value, confidence=best.confidence,
                                          evidence=_evidence_ids(ctx, best)[:12],
                                          level=best.level, hypotheses=[best.node_id]))
        else:
            items = hs[: MAX_ITEMS[spec.kind]]
            ev: list[str] = []
            for h in items:
                ev += [e for e in _evidence_ids(ctx, h) if e not in ev]
            conf = max(h.confidence or 0 for h in items)
            out.append(PredictedAttribute(attribute=spec.name, value="; ".join(h.value for h in items),
                                          confidence=conf, evidence=ev[:16],
                                          hypotheses=[h.node_id for h in items]))
    return out


def write_profile(ctx: RunContext, attrs: list[PredictedAttribute]) -> bool:
    """Replace the run's profile rows; returns True when anything changed."""
    schema = load_schema()
    old = {r[0]: (r[1], r[2]) for r in ctx.db.execute(
        "SELECT attribute, value, evidence FROM profile WHERE run_id=?", [ctx.run_id]).fetchall()}
    new = {a.attribute: (a.value, dumps(a.evidence)) for a in attrs}
    if old == new:
        return False
    ctx.db.execute("DELETE FROM profile WHERE run_id=?", [ctx.run_id])
    for a in attrs:
        spec = schema.get(a.attribute)
        extra = a.model_extra or {}
        ctx.db.execute(
            "INSERT INTO profile (run_id, attribute, value, level, granularity, confidence, sensitivity, evidence, step)"
            " VALUES (?,?,?,?,?,?,?,?,?)",
            [ctx.run_id, a.attribute, a.value, extra.get("level"), None, a.confidence,
             spec.default_sensitivity if spec else None, dumps(a.evidence), ctx.step],
        )
    return True


def read_profile(db, run_id: str, user_id: str, system: str) -> Predictions:
    schema = load_schema()
    order = {n: i for i, n in enumerate(schema.names)}
    rows = db.execute("SELECT attribute, value, confidence, evidence FROM profile WHERE run_id=?", [run_id]).fetchall()
    import json

    attrs = [PredictedAttribute(attribute=a, value=v, confidence=c, evidence=json.loads(e or "[]"))
             for a, v, c, e in sorted(rows, key=lambda r: order.get(r[0], 99))]
    return Predictions(user_id=user_id, system=system, attributes=attrs)
