"""Projection: the profile (one value per attribute) from admitted hypotheses only (derived
evidence; a hypothesis a person confirmed is admitted and ranks first, one a person rejected
is removed and never projected).

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
        # a value a person confirmed comes first; then confidence, then granularity
        hs.sort(key=lambda h: (not h.data.get("confirmed_by"), -(h.confidence or 0),
                               -(h.data.get("granularity") or 0), h.node_id))
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
    """Bring the run's profile to `attrs`; returns True when anything changed.

    History is append-only: a changed value gets a new `profile_history` row from this step and
    the old one is closed (cleared_step); a dropped value is closed. The `profile` table holds
    the current rows, each with the step its value took effect."""
    schema = load_schema()
    step = ctx.step
    old = {r[0]: (r[1], r[2], r[3], r[4], r[5]) for r in ctx.db.execute(
        "SELECT attribute, value, level, confidence, evidence, hypotheses FROM profile_history"
        " WHERE run_id=? AND cleared_step IS NULL", [ctx.run_id]).fetchall()}
    new: dict[str, tuple] = {}
    for a in attrs:
        extra = a.model_extra or {}
        new[a.attribute] = (a.value, extra.get("level"), a.confidence, dumps(a.evidence),
                            dumps(extra.get("hypotheses") or []))
    if old == new:
        return False
    for attr in [k for k in old if old[k] != new.get(k)]:
        ctx.db.execute("UPDATE profile_history SET cleared_step=? WHERE run_id=? AND attribute=? AND cleared_step IS NULL",
                       [step, ctx.run_id, attr])
        ctx.db.execute("DELETE FROM profile WHERE run_id=? AND attribute=?", [ctx.run_id, attr])
    for a in attrs:
        if old.get(a.attribute) == new[a.attribute]:
            continue
        spec = schema.get(a.attribute)
        value, level, conf, ev, hyps = new[a.attribute]
        sens = spec.default_sensitivity if spec else None
        # a value set and replaced within one step keeps one row for that step
        ctx.db.execute(
            "INSERT INTO profile_history (run_id, attribute, step, value, level, granularity, confidence, sensitivity,"
            " evidence, hypotheses) VALUES (?,?,?,?,?,?,?,?,?,?) ON CONFLICT(run_id, attribute, step) DO UPDATE SET"
            " value=excluded.value, level=excluded.level, confidence=excluded.confidence, evidence=excluded.evidence,"
            " hypotheses=excluded.hypotheses, sensitivity=excluded.sensitivity, cleared_step=NULL",
            [ctx.run_id, a.attribute, step, value, level, None, conf, sens, ev, hyps])
        ctx.db.execute(
            "INSERT INTO profile (run_id, attribute, value, level, granularity, confidence, sensitivity, evidence,"
            " hypotheses, step) VALUES (?,?,?,?,?,?,?,?,?,?)",
            [ctx.run_id, a.attribute, value, level, None, conf, sens, ev, hyps, step])
    return True


def read_profile(db, run_id: str, user_id: str, system: str) -> Predictions:
    schema = load_schema()
    order = {n: i for i, n in enumerate(schema.names)}
    rows = db.execute("SELECT attribute, value, confidence, evidence FROM profile WHERE run_id=?", [run_id]).fetchall()
    import json

    attrs = [PredictedAttribute(attribute=a, value=v, confidence=c, evidence=json.loads(e or "[]"))
             for a, v, c, e in sorted(rows, key=lambda r: order.get(r[0], 99))]
    return Predictions(user_id=user_id, system=system, attributes=attrs)
