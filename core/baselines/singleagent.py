"""singleagent: the posts, images and tools Argus has, in one agent context with tool calling;
no separate perception stage, no verifier, no routing table, no CPeg.

Offline: one pass over everything with the same tool calls the Argus skim makes (image
signals, EXIF, OCR of text-bearing images; all recorded), then gazetteer tool calls to place
the mentioned places (recorded as tool calls), and a flat answer per attribute: the value
with the most first-person mentions. Post metadata (location tags, EXIF GPS places) is read
as place mentions; no home/work/trip reasoning, no routine or birthday-plus-age chains.
Model backends: one hypothesizer-role call over every evidence item (the single context),
its answers admitted as they come (grounded to existing evidence ids only)."""
from __future__ import annotations

from core.baselines.common import BaselineRun, Hit, hits_of, vote
from core.baselines.model import ModelAccess, hypotheses_from_model
from core.engine.types import Cue

PLACE_ATTRS = ("home_location", "work_location")


def run(run: BaselineRun, backend: str) -> None:
    from core.engine.perceiver import perceive

    p = perceive(run.ctx.view, run.ctx.settings, run.user, run.recorder())
    run.ctx.queue(p.changes)
    drafts = [d for d in p.drafts if d.kind != "post"]
    nodes = run.add_evidence(drafts)
    hits: list[Hit] = hits_of(nodes, own_only=True)
    # metadata places the agent can read: EXIF GPS -> place (a home guess, no home/trip reasoning)
    for n in nodes:
        place = n.data.gps_place
        if place is not None and place.levels:
            lv = {k: v for k, v in place.levels.items() if v}
            hits.append(Hit(cue=Cue(attribute="home_location", value=list(lv.values())[-1], confidence=0.4,
                                    span=n.content[:80], cue="singleagent:exif_gps", data={"levels": lv}),
                            node_id=n.node_id, post_id=n.post_id or ""))
    hits = _gazetteer_calls(run, hits)
    m = ModelAccess.for_run(run, backend, "hypothesizer")
    if m is not None:
        hits += _model_pass(run, m, nodes)
    run.admit(vote(hits, rationale="singleagent: one context, no verifier"), "singleagent (no verifier)")


def _gazetteer_calls(run: BaselineRun, hits: list[Hit]) -> list[Hit]:
    """Place mentions resolved through the gazetteer tool (recorded); coarser levels filled in."""
    from core.engine.places import resolve_levels

    rec = run.recorder()
    out = []
    for h in hits:
        if h.cue.attribute in PLACE_ATTRS and len(h.cue.data.levels or {}) <= 1:
            res = rec.call("gazetteer", lambda name: {"levels": resolve_levels(name)}, {"name": h.cue.value})
            lv = res.get("levels") if isinstance(res, dict) else None
            if lv:
                data = h.cue.data.model_copy(update={"levels": {**lv, **(h.cue.data.levels or {})}})
                h = Hit(cue=h.cue.model_copy(update={"data": data}), node_id=h.node_id, post_id=h.post_id,
                        by_other=h.by_other)
        out.append(h)
    run.db.conn.commit()
    return out


def _model_pass(run: BaselineRun, m: ModelAccess, nodes) -> list[Hit]:
    return hypotheses_from_model(run, m, nodes, tag="singleagent", limit=120)
