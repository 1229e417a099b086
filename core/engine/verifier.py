"""Verifier: grounds evidence, then admits, keeps unresolved or removes hypotheses (paper §4.4).

Evidence status is explicit: raw -> grounded or rejected, with the reason. Grounded means the
evidence text really occurs where it claims to come from, checked against that one source:
the post field it names (re-read from the run's `posts` rows) or the account profile; the
exact tool call it cites (`data["tool_call_id"]`, else the calls of its route) for OCR lines
and gazetteer levels; for a model's quote, an exact substring of the cited post's text or of
its images' OCR calls. Every cue span must occur in the node's text, and text flagged as
hostile (addressed to an AI, "for the report") never supports a value.

A hypothesis is admitted (derived evidence) when grounded support remains, unambiguous (no
close competitor) and confident enough; otherwise it is kept unresolved (the loop suspends it
until its evidence neighbourhood changes); no grounded support removes it. The verdict lists
the rejected supporters with their reasons; the loop removes their support edges.

A hypothesis of a single-valued attribute (hierarchy / category) is also removed as
*contradicted* when grounded evidence in the graph states another value: a rival hypothesis of
the same attribute whose value conflicts with it (a shared level with another value; another
category) and that the verifier admits on grounded evidence the hypothesis does not share, with
a confidence at least CONTRA_MARGIN higher, or that a person confirmed. The verdict names the
rival and the contradicting evidence ids (kept in the node's versions and the history reason);
`verdict_changes` turns a verdict into the changes the loop applies;
the loop re-verifies it when that rival stops being admitted. Only the weaker of two
conflicting values is ever removed, so what the profile projects for the attribute does not
change; the removed value stops being derived evidence and is no longer routed. A person's
confirmation is never contradicted; a model's claims are left to the hybrid verdict.
"""
from __future__ import annotations

from typing import Any

from core.engine.contract.changes import Change, RemoveSupport, SetStatus, UpdateNode
from core.engine.contract.config import EngineConfig
from core.engine.contract.view import GraphView
from core.engine.types import EvidenceNode, Verdict
from core.schema import load_schema
from core.textmatch import normalize

ADMIT_MIN_CONF = 0.2
CONTRA_MARGIN = 0.1      # a rival contradicts only with a clearly higher grounded confidence
SINGLE_VALUED = ("hierarchy", "category")
_TOOL_SOURCES = ("ocr", "gazetteer", "map_search")


def _post_field(view: GraphView, post_id: str | None, field: str) -> str | None:
    """The source text a node claims to quote (None when the field does not exist)."""
    if post_id == "@profile" or field.startswith("profile."):
        return view.profile_field(field.split(".", 1)[1])
    post = view.post(post_id)
    if post is None:
        return None
    cur: Any = post
    for part in field.replace("]", "").replace("[", ".").split("."):
        if cur is None:
            return None
        if part.isdigit():
            i = int(part)
            cur = cur[i] if isinstance(cur, list) and i < len(cur) else None
        else:
            cur = cur.get(part) if isinstance(cur, dict) else None
    return cur if isinstance(cur, str) else None


def _tool_outputs(view: GraphView, node: EvidenceNode) -> list[dict[str, Any]]:
    """The outputs of the tool call(s) this node cites: its tool_call_id, else its route's calls."""
    tcid = node.data.tool_call_id
    if tcid is not None:
        return view.tool_outputs(call_id=tcid)
    if node.data.route_id:
        return view.tool_outputs(route_id=node.data.route_id, tools=_TOOL_SOURCES)
    return []


def _in_cited_call(view: GraphView, node: EvidenceNode) -> tuple[bool, str]:
    outs = _tool_outputs(view, node)
    cited = (f"tool call {node.data.tool_call_id}" if node.data.tool_call_id is not None
             else f"the tool calls of route {node.data.route_id}")
    if not outs:
        return False, ("cites no recorded tool call" if not node.data.tool_call_id and not node.data.route_id
                       else f"{cited} has no recorded output")
    if node.data.gazetteer:
        want = list(node.data.gazetteer.levels.values())
        have = {str(v) for o in outs for v in (o.get("levels") or {}).values()}
    else:
        want = [ln.text for ln in node.data.lines or []]
        have = {str(ln.get("text", "")) for o in outs for ln in (o.get("lines") or []) if isinstance(ln, dict)}
    missing = [w for w in want if w not in have]
    if not want or missing:
        return False, f"{(missing or ['(no text)'])[0][:40]!r} is not in the output of {cited}"
    return True, f"in the output of {cited}"


def _model_quote_source(view: GraphView, node: EvidenceNode) -> list[str]:
    """The texts a model's quote may come from: the cited post's text fields and the OCR output of
    its images' recorded tool calls."""
    post = view.post(node.post_id) or {}
    texts: list[str] = []

    def walk(v: Any) -> None:
        if isinstance(v, str):
            texts.append(v)
        elif isinstance(v, dict):
            for k, x in v.items():
                if k not in ("post_id", "timestamp", "file"):
                    walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    walk(post)
    for n in view.graph.of_post(node.post_id):
        if n.data.lines and n is not node:
            for o in _tool_outputs(view, n):
                lines = [str(ln.get("text", "")) for ln in (o.get("lines") or []) if isinstance(ln, dict)]
                texts += lines + ["\n".join(lines)]
    return texts


def grounded(view: GraphView, node: EvidenceNode) -> tuple[bool, str]:
    """Is this evidence node's content where it says it is, and are its cue spans in it?
    A node already checked keeps its verdict (its source never changes)."""
    if node.kind == "hypothesis":
        return node.status == "admitted", "derived evidence" if node.status == "admitted" else "hypothesis not admitted"
    if node.status in ("rejected", "removed"):
        return False, str(node.data.grounding or node.data.error or "evidence removed")
    # hostile first: text flagged after it was grounded (a later route found the injection) is refused too
    if node.data.hostile and (node.data.hostile_scope or "all") == "all":
        return False, "hostile text (addressed to an AI / 'for the report')"
    for c in (node.data.cues or []) if node.data.hostile else []:
        span = c.span
        if span and any(span in h or h in span for h in node.data.hostile):
            return False, f"cue {span[:40]!r} is part of hostile text"
    if node.status == "grounded":
        return True, str(node.data.grounding or "grounded")
    field = node.data.field or ""
    why = "grounded"
    if node.data.lines or node.data.gazetteer:
        ok, why = _in_cited_call(view, node)
        if not ok:
            return False, why
    elif field.startswith("model:"):
        if not node.content or not any(node.content in t for t in _model_quote_source(view, node)):
            return False, f"quote {node.content[:40]!r} is not in post {node.post_id} or its images' OCR"
        why = f"quote found in post {node.post_id}"
    elif field and not field.startswith("exif:"):
        src = _post_field(view, node.post_id, field)
        if src is None:
            return False, f"no field {field} in post {node.post_id}"
        if node.carrier != "timestamp" and (not node.content or src[: len(node.content)] != node.content):
            return False, f"content differs from post {node.post_id} {field}"
        why = f"post {node.post_id} {field}"
    for c in node.data.cues or []:
        span = c.span
        if span and span not in node.content:
            return False, f"cue span {span[:40]!r} not in the text"
    return True, why


def conflicts(kind: str, a: EvidenceNode, b: EvidenceNode) -> bool:
    """Do two values of a single-valued attribute exclude each other? Hierarchy: a level both
    name with different values ('Shenzhen' vs 'Chengdu' as city; not 'Guangdong' vs 'Nanshan,
    Shenzhen, Guangdong'). Category: different values, neither contained in the other."""
    if kind == "hierarchy":
        la, lb = a.data.levels or {}, b.data.levels or {}
        return any(k in lb and normalize(str(v)) != normalize(str(lb[k])) for k, v in la.items())
    va, vb = normalize(a.value or ""), normalize(b.value or "")
    return bool(va and vb) and va not in vb and vb not in va


def _is_model_claim(h: EvidenceNode) -> bool:
    return str(h.data.source or "").startswith("model:")


def contradiction(view: GraphView, config: EngineConfig, hyp: EvidenceNode, conf: float) -> dict[str, Any] | None:
    """The strongest rival that contradicts `hyp` (see the module doc), as
    {"hypothesis", "value", "confidence", "evidence", "by_person", "routes"}; None if none does."""
    spec = load_schema().get(hyp.attribute or "")
    if spec is None or spec.kind not in SINGLE_VALUED or hyp.data.confirmed_by or _is_model_claim(hyp):
        return None
    g = view.graph
    own = set(g.supporters(hyp.node_id))
    best: dict[str, Any] | None = None
    for r in g.hypotheses(("candidate", "admitted", "unresolved", "suspended")):
        if r.attribute != hyp.attribute or r.node_id == hyp.node_id or r.data.rejected_by \
                or _is_model_claim(r) or not conflicts(spec.kind, hyp, r):
            continue
        person = bool(r.data.confirmed_by)
        v = verify_hypothesis(view, config, r, contradictions=False)
        if not person and (v.status != "admitted" or (v.confidence or 0.0) < conf + CONTRA_MARGIN):
            continue
        ev = [e for e in (v.evidence or []) if e not in own]
        if not ev and not person:
            continue   # the same evidence read two ways is ambiguity, not a contradiction
        cand = {"hypothesis": r.node_id, "value": r.value, "confidence": v.confidence, "evidence": ev,
                "by_person": person}
        if best is None or (person, cand["confidence"] or 0.0) > (best["by_person"], best["confidence"] or 0.0):
            best = cand
    if best is not None:
        # evidence read by a route the router ran to check this hypothesis (its planned check)
        routes = view.route_ids_for(hyp.node_id)
        best["routes"] = sorted({p for e in best["evidence"] for p in g.nodes[e].provenance if p in routes})
    return best


def contradiction_reason(c: dict[str, Any], conf: float) -> str:
    by = ("confirmed by a person" if c["by_person"]
          else f"admitted at {c['confidence']:.2f} against {conf:.2f}")
    ev = ", ".join(c["evidence"][:6]) or "its confirmation"
    via = f"; read by route {', '.join(c['routes'])} run to check it" if c.get("routes") else ""
    return f"contradicted by {c['hypothesis']} ({c['value']!r}, {by}): grounded evidence {ev}{via}"


def recheck_contradiction(view: GraphView, config: EngineConfig, hyp: EvidenceNode) -> Verdict | None:
    """The removal verdict of an already decided hypothesis (admitted, unresolved, suspended) that a
    rival now contradicts (a rival grew stronger or a person confirmed one); None if none does."""
    if not config.verifier or hyp.data.rejected_by:
        return None
    conf = float(hyp.confidence or 0.0)
    c = contradiction(view, config, hyp, conf)
    if c is None:
        return None
    return Verdict(status="removed", reason=contradiction_reason(c, conf), evidence=view.graph.supporters(hyp.node_id),
                   confidence=conf, contradicted_by=[c["hypothesis"], *c["evidence"]])


def verify_hypothesis(view: GraphView, config: EngineConfig, hyp: EvidenceNode, *,
                      contradictions: bool = True) -> Verdict:
    """The offline verdict; `contradictions=False` skips the rival check (used on the rivals themselves)."""
    if not config.verifier:
        return Verdict(status="admitted", reason="verifier off (ablation): admitted as proposed")
    g = view.graph
    holder = str(hyp.data.holder or "self")
    if holder != "self" and not hyp.data.confirmed_by:
        # a claim about the user needs support whose holder is the user (reading layer, docs/reading.md)
        who = holder.split(":", 1)[-1]
        return Verdict(status="removed", reason=f"holder: {who} (another person's fact, not the account's)",
                       evidence=g.supporters(hyp.node_id))
    keep: list[str] = []
    rejected: dict[str, str] = {}
    why: list[str] = []
    for sid in g.supporters(hyp.node_id):
        node = g.nodes.get(sid)
        if node is None:
            continue
        ok, reason = grounded(view, node)
        if ok:
            keep.append(sid)
        else:
            why.append(f"{sid}: {reason}")
            if node.kind == "evidence":
                rejected[sid] = reason
    # supporters the hypothesizer cited that were rejected before (their edges are gone)
    for sid in hyp.provenance:
        n = g.nodes.get(sid)
        if sid not in keep and sid not in rejected and n is not None and n.kind == "evidence" \
                and n.status in ("rejected", "removed"):
            why.append(f"{sid}: {n.data.grounding or n.data.error or 'rejected'}")
    if not keep:
        return Verdict(status="removed", reason="no grounded support" + (f" ({'; '.join(why[:3])})" if why else ""),
                       evidence=[], rejected=rejected)
    proposed = hyp.data.proposed_confidence
    conf = float((proposed if proposed is not None else hyp.confidence) or 0.0)
    cited = len([s for s in dict.fromkeys(hyp.provenance + g.supporters(hyp.node_id)) if s in g.nodes])
    if len(keep) < cited:
        conf = round(conf * len(keep) / max(1, cited), 4)
    c = contradiction(view, config, hyp, conf) if contradictions else None
    if c is not None:
        return Verdict(status="removed", reason=contradiction_reason(c, conf), evidence=keep, confidence=conf,
                       rejected=rejected, contradicted_by=[c["hypothesis"], *c["evidence"]])
    if hyp.data.ambiguous:
        return Verdict(status="unresolved", reason="a competing value has almost the same support", evidence=keep,
                       rejected=rejected)
    if hyp.data.hold:   # the hypothesizer's own projection threshold (e.g. semantic-only support)
        return Verdict(status="unresolved", reason=str(hyp.data.hold), evidence=keep, rejected=rejected)
    if conf < ADMIT_MIN_CONF:
        return Verdict(status="unresolved", reason=f"confidence {conf:.2f} below {ADMIT_MIN_CONF}", evidence=keep,
                       confidence=conf, rejected=rejected)
    return Verdict(status="admitted", reason=f"{len(keep)} grounded supporter(s)" + (f"; dropped {'; '.join(why[:2])}" if why else ""),
                   evidence=keep, confidence=conf, rejected=rejected)


def grounding_change(view: GraphView, node: EvidenceNode) -> SetStatus:
    """A raw supporter checked: grounded, or rejected with why."""
    ok, why = grounded(view, node)
    return SetStatus(node_id=node.node_id, status="grounded" if ok else "rejected", reason=why)


def verdict_changes(view: GraphView, h: EvidenceNode, v: Verdict) -> list[Change]:
    """What a verdict changes, in the order the loop applies it: the supporters it rejected are
    rejected; rejected or removed supporters lose their support edge, and so do the ones an admitting
    verdict did not use (kept in data.dropped); the hypothesis gets the rival that contradicted it
    (data.contradicted_by), its confidence, and the status with the reason."""
    g = view.graph
    out: list[Change] = []
    rejected_now: dict[str, str] = {}
    for sid, why in v.rejected.items():
        n = g.nodes.get(sid)
        if n is not None and n.kind == "evidence" and n.status in ("raw", "grounded"):
            out.append(SetStatus(node_id=sid, status="rejected", reason=why))
            rejected_now[sid] = why[:500]          # what set_status keeps as the node's grounding
    keep = None if v.evidence is None else set(v.evidence)
    dropped = dict(h.data.dropped or {})
    for sid in g.supporters(h.node_id):
        n = g.nodes.get(sid)
        if n is None or n.kind != "evidence":
            continue
        if sid in rejected_now or n.status in ("rejected", "removed"):
            grounding = rejected_now[sid] if sid in rejected_now else n.data.grounding
            out.append(RemoveSupport(src=sid, dst=h.node_id,
                                     reason=f"{sid} rejected: {grounding or n.data.error or ''}"))
        elif keep is not None and v.status == "admitted" and sid not in keep:
            dropped[sid] = f"not used by the verifier ({v.reason[:200]})"
            out.append(RemoveSupport(src=sid, dst=h.node_id, reason=dropped[sid]))
    data = h.data
    if dropped != (h.data.dropped or {}):
        data = data.model_copy(update={"dropped": dropped})
    if v.contradicted_by:   # the rival and the grounded evidence against it (node_versions keeps it)
        data = data.model_copy(update={"contradicted_by": list(v.contradicted_by)})
    elif data.contradicted_by is not None:
        data = data.model_copy(update={"contradicted_by": None})
    out.append(UpdateNode(node_id=h.node_id, data=data, confidence=v.confidence))
    out.append(SetStatus(node_id=h.node_id, status=v.status, reason=v.reason, by="verifier"))
    return out
