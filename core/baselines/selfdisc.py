"""selfdisc: post-level self-disclosure detection, detected disclosures aggregated.

Only explicit first-person statements in the account's own text count (titles, captions,
tags, the bio; never a friend's comment, never an image): the rules' cues that come from
"I am / my ... is / 我是"-style patterns with confidence >= MIN_CONF, lexicon-only hints
(a hobby word, a brand, a time of day) excluded. Per-post disclosures are voted into a profile.
Model backends: one perceiver-role call per post (text only), cues above MIN_CONF."""
from __future__ import annotations

from core.baselines.common import BaselineRun, Hit, hits_of, own_names, own_text_fields, vote
from core.baselines.model import ModelAccess, model_hits, quote_finder

MIN_CONF = 0.6
# rule families that infer rather than disclose
IMPLICIT_RULES = ("lexicon", "hashtag", "indirect", "habit", "cohort", "decade", "community", "sector", "brand",
                  "time_activity", "partner", "pet_name", "mode", "travel")


def is_explicit(rule: str) -> bool:
    return not any(part in rule for part in IMPLICIT_RULES)


def run(run: BaselineRun, backend: str) -> None:
    names = own_names(run)
    drafts = []
    p = run.user.profile
    if p.bio:
        drafts.append(run.text_node("@profile", "caption", "profile.bio", str(p.bio)))
    for post in run.user.posts:
        for carrier, field, text, other in own_text_fields(post, names):
            if not other:
                drafts.append(run.text_node(post.post_id, carrier, field, text))
    nodes = run.add_evidence(drafts)
    hits: list[Hit] = [h for h in hits_of(nodes, own_only=True)
                       if h.cue.confidence >= MIN_CONF and is_explicit(h.cue.cue)]
    m = ModelAccess.for_run(run, backend, "perceiver")
    if m is not None:
        from core.backends.roles import post_block

        find = quote_finder(nodes)
        for post in run.user.posts:
            fields = [(f, t) for _, f, t, other in own_text_fields(post, names) if not other]
            if not fields:
                continue
            cues = m.cues(run, block=post_block(post.post_id, fields), source="\n".join(t for _, t in fields))
            hits += [h for h in model_hits(cues, find) if h.cue.confidence >= MIN_CONF]
    run.admit(vote(hits, rationale="selfdisc: explicit self-disclosures"), "selfdisc (no verifier)")
