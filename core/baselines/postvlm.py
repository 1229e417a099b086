"""postvlm: each post analysed on its own (text + images), per-post outputs voted into a profile.

Offline: per post, the rules read its text, its image alt texts and the OCR text of its
text-bearing images (same OCR tool as Argus); the post's own answer per attribute is its most
confident first-person cue; the user profile is the value most posts agree on. No metadata,
no cross-post reasoning. Model backends: one perceiver-role call per post with its images
(when the role has vision)."""
from __future__ import annotations

from core.baselines.common import BaselineRun, Hit, hits_of, own_names, own_text_fields, vote
from core.baselines.model import ModelAccess, model_hits, quote_finder
from core.baselines.vision import image_drafts, image_urls
from core.schema import load_schema


def _post_answers(hits: list[Hit]) -> list[Hit]:
    """One answer per attribute per post (all items for set/facts attributes)."""
    schema = load_schema()
    best: dict[str, Hit] = {}
    out: list[Hit] = []
    for h in hits:
        spec = schema.get(h.cue.attribute)
        if spec is None:
            continue
        if spec.kind in ("set", "facts"):
            out.append(h)
        elif h.cue.attribute not in best or h.cue.confidence > best[h.cue.attribute].cue.confidence:
            best[h.cue.attribute] = h
    return out + list(best.values())


def run(run: BaselineRun, backend: str) -> None:
    names = own_names(run)
    m = ModelAccess.for_run(run, backend, "perceiver")
    hits: list[Hit] = []
    for post in run.user.posts:
        drafts = [run.text_node(post.post_id, c, f, t, by_other=o) for c, f, t, o in own_text_fields(post, names)]
        drafts += image_drafts(run, post)
        nodes = run.add_evidence(drafts)
        post_hits = hits_of(nodes, own_only=True)
        if m is not None and nodes:
            from core.backends.roles import post_block

            fields = [((n.data.field if n.data.field is not None else n.carrier or ""), n.content) for n in nodes]
            urls = image_urls(run, post, m.max_side) if m.vision("perceiver") else []
            cues = m.cues(run, block=post_block(post.post_id, fields), source="\n".join(n.content for n in nodes),
                          images=urls)
            post_hits += model_hits(cues, quote_finder(nodes))
        hits += _post_answers(post_hits)
    run.admit(vote(hits, rationale="postvlm: per-post answers, majority vote"), "postvlm (no verifier)")
