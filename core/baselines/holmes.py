"""holmes: visual extraction then profile summarisation, without verifier, routing or CPeg.

Offline: every image is read first (alt text, OCR of text-bearing images: the Argus OCR
tool), then everything extracted plus the post text is summarised into a profile: per
attribute the value with the most summed confidence. No verifier: cues about other people
are not filtered out (the summariser has no grounding check). Model backends: one perceiver
call per post with its images for the extraction, then one hypothesizer call over all
extracted items for the summary."""
from __future__ import annotations

from core.baselines.common import BaselineRun, Hit, hits_of, own_names, own_text_fields, vote
from core.baselines.model import ModelAccess, hypotheses_from_model, model_hits, quote_finder
from core.baselines.vision import image_drafts, image_urls


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
            fields = [((n.data.field if n.data.field is not None else "image"), n.content) for n in mine]
            hits += model_hits(m.cues(run, block=post_block(post.post_id, fields),
                                      source="\n".join(n.content for n in mine), images=urls), find)
        hits += _summarise(run, backend, nodes)
    run.admit(vote(hits, weight="confidence", rationale="holmes: visual extraction + summary"),
              "holmes (no verifier)")


def _summarise(run: BaselineRun, backend: str, nodes) -> list[Hit]:
    m = ModelAccess.for_run(run, backend, "hypothesizer")
    return [] if m is None else hypotheses_from_model(run, m, nodes, tag="summary")
