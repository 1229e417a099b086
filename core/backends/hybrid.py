"""Hybrid verdicts: the offline verifier is the floor, model verdicts and claims go on top.

- A hypothesis of the offline rules keeps its offline verdict. The model verifier can admit
  one the rules left unresolved (only with quotes that occur in the cited evidence), and can
  remove an admitted one only by a grounded contradiction: a quote that really occurs in the
  cited evidence and names a competing value of the same attribute. Any other disagreement
  is recorded in the reason and changes nothing.
- A model claim (a hypothesis from the model hypothesizer or a model perceiver cue) must
  pass the offline grounding of its cited evidence AND be grounded itself: its value is
  stated in a grounded cited item, or the model verifier admitted it with grounded quotes.
  For a single-valued attribute it never displaces an offline value with at least as much
  grounded support (counting only the model's supporters whose text states its value; it is
  removed, with that reason); for a set it ranks after the offline items.
"""
from __future__ import annotations

from core.backends.roles import GroundedVerdict
from core.engine.backend import Verdict
from core.engine.contract.view import GraphView
from core.engine.types import EvidenceNode
from core.schema import load_schema
from core.textmatch import normalize

MODEL_SOURCES = ("model:hypothesizer", "model:perceiver")


def is_model_claim(h: EvidenceNode) -> bool:
    return str(h.data.source or "").startswith("model:")


def is_model_evidence(n: EvidenceNode) -> bool:
    return n.kind == "evidence" and str((n.data.source or "")).startswith("model:")


def _overlap(a: str, b: str) -> bool:
    a, b = normalize(a), normalize(b)
    return bool(a and b) and (a in b or b in a)


def grounded_contradiction(view: GraphView, h: EvidenceNode, mv: GroundedVerdict) -> str | None:
    """A grounded quote of the model's rejection that names another value of the attribute."""
    others = [o for o in view.graph.hypotheses() if o.attribute == h.attribute and o.node_id != h.node_id
              and o.status != "removed" and o.value and not _overlap(o.value, h.value or "")]
    for node_id, quote in mv.quotes:
        q = normalize(quote)
        for o in others:
            if normalize(o.value) and normalize(o.value) in q:
                return f"quote {quote[:80]!r} in {node_id} names {o.attribute} = {o.value} ({o.node_id})"
    return None


def stating_ids(view: GraphView, h: EvidenceNode, ids: list[str]) -> list[str]:
    """The ids among `ids` whose text states the hypothesis value."""
    v = normalize(h.value or "")
    return [i for i in ids if v and i in view.graph.nodes and v in normalize(view.graph.nodes[i].content or "")]


def model_verdict_can_matter(view: GraphView, h: EvidenceNode, offline: Verdict) -> bool:
    """Whether a model verdict could change this hypothesis' outcome (else no call is made):
    an admitted offline hypothesis can only lose to a grounded contradiction, which needs a
    competing value of the same attribute in the graph."""
    if offline.status == "removed":
        return False
    if is_model_claim(h) or offline.status != "admitted":
        return True
    return any(o.attribute == h.attribute and o.node_id != h.node_id and o.status != "removed" and o.value
               and not _overlap(o.value, h.value or "") for o in view.graph.hypotheses())


def claim_is_stated(view: GraphView, h: EvidenceNode, grounded_ids: list[str]) -> bool:
    """The model's value is stated by a grounded supporter (its text, or its own cue)."""
    for sid in grounded_ids:
        n = view.graph.nodes.get(sid)
        if n is None:
            continue
        if n.attribute == h.attribute and n.value and normalize(n.value) == normalize(h.value or ""):
            return True
        if h.value and normalize(h.value) in normalize(n.content or ""):
            return True
    return False


def _offline_rivals(view: GraphView, h: EvidenceNode, offline_verify) -> list[tuple[EvidenceNode, Verdict]]:
    """Offline hypotheses of the same attribute that the offline verifier admits."""
    out = []
    for o in view.graph.hypotheses(("candidate", "admitted", "unresolved")):
        if o.attribute != h.attribute or o.node_id == h.node_id or is_model_claim(o):
            continue
        v = offline_verify(o)
        if v.status == "admitted":
            out.append((o, v))
    return out


def combine(view: GraphView, h: EvidenceNode, offline: Verdict, mv: GroundedVerdict | None,
            offline_verify) -> Verdict:
    """The verdict of a hypothesis from its offline verdict and the (grounded) model verdict.

    `offline_verify(node) -> Verdict` is the offline verifier (used on rival hypotheses)."""
    note = f"; model verifier: {mv.status} ({mv.reason[:120]})" if mv is not None else ""
    if not is_model_claim(h):
        if offline.status == "admitted":
            if mv is not None and mv.status == "removed":
                why = grounded_contradiction(view, h, mv)
                if why:
                    return Verdict(status="removed", reason=f"model verifier: grounded contradiction: {why}",
                                   evidence=[], confidence=offline.confidence, rejected=offline.rejected)
                return offline.model_copy(update={
                    "reason": offline.reason + "; model verifier rejected without a grounded contradiction (kept)"})
            return offline.model_copy(update={"reason": offline.reason + note})
        if offline.status == "unresolved" and mv is not None and mv.status == "admitted":
            ev = [e for e in mv.evidence if e in (offline.evidence or [])]
            if ev:
                return Verdict(status="admitted", evidence=offline.evidence, confidence=offline.confidence,
                               rejected=offline.rejected,
                               reason=f"model verifier admitted with grounded quotes in {', '.join(ev)}; "
                                      f"offline: {offline.reason}")
        return offline.model_copy(update={"reason": offline.reason + note})

    # ---- a model claim ----
    if offline.status == "removed":
        return offline
    grounded_ids = list(offline.evidence or [])
    verifier_grounded = mv is not None and mv.status == "admitted" and any(e in grounded_ids for e in mv.evidence)
    if not (verifier_grounded or claim_is_stated(view, h, grounded_ids)):
        return Verdict(status="removed", evidence=[], rejected=offline.rejected,
                       reason="model claim not grounded: its value is not stated in the cited evidence"
                              " and no verifier quote occurs there")
    conf = offline.confidence if offline.confidence is not None else (h.confidence or 0.0)
    spec = load_schema().get(h.attribute or "")
    rivals = _offline_rivals(view, h, offline_verify)
    if rivals and spec is not None and spec.kind in ("hierarchy", "category"):
        best, bv = max(rivals, key=lambda r: (len(r[1].evidence or []), r[1].confidence or 0))
        # only supporters whose text states the model's value count against an offline value
        mine, theirs = len(stating_ids(view, h, grounded_ids)), len(bv.evidence or [])
        if theirs >= mine:
            return Verdict(status="removed", evidence=[], rejected=offline.rejected,
                           reason=f"offline value {best.value!r} ({best.node_id}) has at least as much grounded"
                                  f" support ({theirs} >= {mine})")
        conf = max(conf, max(r[1].confidence or 0 for r in rivals) + 0.001)
    elif rivals:
        conf = min(conf, min(r[1].confidence or 0 for r in rivals) - 0.001)
    if mv is not None and mv.status == "removed":
        return Verdict(status="removed", reason=f"model verifier rejected the model's claim: {mv.reason[:160]}",
                       evidence=[], rejected=offline.rejected)
    status = offline.status
    return Verdict(status=status, evidence=grounded_ids, confidence=round(max(0.0, conf), 4), rejected=offline.rejected,
                   reason=("model claim grounded by " + ("verifier quotes" if verifier_grounded else "its cited text"))
                   + f"; offline: {offline.reason}" + note)
