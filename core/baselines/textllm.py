"""textllm: all post text of a user in one prompt; no images, no metadata, no tools.

Offline: the rules read the concatenated text at once (capped like a context window), keep
first-person cues only, and take the most frequent value per attribute. Model backends: one
perceiver-role call with every post's text in a single block."""
from __future__ import annotations

from core.baselines.common import BaselineRun, Hit, own_names, own_text_fields, vote
from core.baselines.model import ModelAccess, model_hits, quote_finder

CONTEXT_CHARS = 20_000   # what fits the prompt; later text is not read (as a model's window)
SEP = "\n\n"


def run(run: BaselineRun, backend: str) -> None:
    names = own_names(run)
    drafts = []
    p = run.user.profile
    if p.bio:
        drafts.append(run.text_node("@profile", "caption", "profile.bio", str(p.bio), with_cues=False))
    for post in run.user.posts:
        for carrier, field, text, other in own_text_fields(post, names):
            drafts.append(run.text_node(post.post_id, carrier, field, text, with_cues=False, by_other=other))
    nodes = run.add_evidence(drafts)
    # one prompt: segments joined, offsets kept to cite each cue's own post
    spans, parts, pos = [], [], 0
    for n in nodes:
        spans.append((pos, pos + len(n.content), n))
        parts.append(n.content)
        pos += len(n.content) + len(SEP)
    text = SEP.join(parts)[:CONTEXT_CHARS]
    from core.engine.rules import extract_cues

    hits: list[Hit] = []
    for c in extract_cues(text):
        if not c.first_person:
            continue
        start = c.data.start if c.data.start is not None else text.find(c.span)
        node = next((n for s, e, n in spans if s <= start < e), None)
        if node is None or node.data.by_other:
            continue
        hits.append(Hit(cue=c, node_id=node.node_id, post_id=node.post_id or ""))
    m = ModelAccess.for_run(run, backend, "perceiver")
    if m is not None:
        from core.backends.roles import wrap_untrusted

        block = wrap_untrusted("all posts of the account", "\n".join(f"[{n.post_id}] {n.content}" for n in nodes),
                               CONTEXT_CHARS)
        hits += model_hits(m.cues(run, block=block, source=text), quote_finder(nodes))
    run.admit(vote(hits, rationale="textllm: most frequent value over all post text"), "textllm (no verifier)")

