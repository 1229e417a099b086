"""holmes: visual extraction then profile summarisation, without verifier, routing or CPeg.

Offline: every image is read first (alt text, OCR of text-bearing images: the Argus OCR
tool), then everything extracted plus the post text is summarised into a profile: per
attribute the value with the most summed confidence. No verifier: cues about other people
are not filtered out (the summariser has no grounding check). Model backends: one perceiver
call per post with its images for the extraction, then one hypothesizer call over all
extracted items for the summary."""
from __future__ import annotations

from core.baselines.common import BaselineRun, Hit, hits_of, own_names, own_text_fields, vote
from core.baselines.model import ModelAccess, model_hits, quote_finder
from core.baselines.vision import image_drafts, image_urls
from core.engine.types import Cue


def run(run: BaselineRun, backend: str) -> None:
    names = own_names(run)
    # 1) visual extraction over all images
    visual = []
    for post in run.user.posts:
        visual += image_drafts(run, post)
    vnodes = run.add_evidence(visual)
    # 2) the text it summarises alongside
    drafts = [run.text_node(post.post_id, c, f, t, by_other=o)
              for post in run.user.posts for c, f, t, o in own_text_fields(post, names)]
    if run.user.profile.bio:
        drafts.append(run.text_node("@profile", "caption", "profile.bio", str(run.user.profile.bio)))
    tnodes = run.add_evidence(drafts)
    nodes = vnodes + tnodes
    hits: list[Hit] = hits_of(nodes, first_person_only=False)
    m = ModelAccess.for_run(run, backend, "perceiver")
    if m is not None:
        from core.backends.roles import post_block

        find = quote_finder(nodes)
        for post in run.user.posts:
            urls = image_urls(run, post, m.max_side) if m.vision("perceiver") else []
            mine = [n for n in vnodes if n.post_id == post.post_id]
            if not urls and not mine:
                continue
            fields = [(n.data.get("field", "image"), n.content) for n in mine]
            hits += model_hits(m.cues(run, block=post_block(post.post_id, fields),
                                      source="\n".join(n.content for n in mine), images=urls), find)
        hits += _summarise(run, backend, nodes)
    run.admit(vote(hits, weight="confidence", rationale="holmes: visual extraction + summary"),
              "holmes (no verifier)")


def _summarise(run: BaselineRun, backend: str, nodes) -> list[Hit]:
    m = ModelAccess.for_run(run, backend, "hypothesizer")
    if m is None:
        return []
    from core.backends.roles import evidence_block, messages_for, usable_hypotheses
    from core.backends.structured import HypothesesReply

    items = [{"id": n.node_id, "post_id": n.post_id, "carrier": n.carrier, "text": n.content} for n in nodes]
    res = m.call(run, "hypothesizer", messages_for("hypothesizer", evidence=evidence_block(items)), HypothesesReply)
    if not res.ok:
        return []
    kept, _ = usable_hypotheses(res.value, {i["id"] for i in items})
    by_id = {n.node_id: n for n in nodes}
    out = []
    for h in kept:
        ev = by_id[h["evidence"][0]]
        out.append(Hit(cue=Cue(attribute=h["attribute"], value=h["value"], confidence=h["confidence"],
                               span=ev.content[:80], cue="model:summary"), node_id=ev.node_id,
                       post_id=ev.post_id or ""))
    return out
