"""The generic aggregator: every attribute no specialised aggregator owns. Hierarchy and
category cues are clustered by level agreement (the strongest cluster wins, a close second is
a competing reading); set and facts cues give one hypothesis per distinct item."""
from __future__ import annotations

from collections import defaultdict
from typing import Any

from core.engine.aggregators.base import (SEMANTIC_MAX_CONF, SEMANTIC_ONE_SENTENCE_GAP, SEMANTIC_PROJECT_MIN, SEMANTIC_SET_POSTS,
                                          SEMANTIC_SHARE_POWER, Cluster, CueRec, cluster, cluster_conf,
                                          compatible, hyp, is_semantic, noisy_or, support)
from core.engine.aggregators.birth import normalize_birth
from core.engine.aggregators.document_holder import others_document
from core.engine.rules.lifestyle import OTHERS_WEDDING
from core.engine.rules.occupation_taxonomy import badge_words
from core.engine.aggregators.registry import Board, aggregator
from core.engine.aggregators.value_text import days_said, phrase, routine_sentence, said_part, when, words
from core.engine.aggregators.weekdays import named_days
from core.engine.types import Hypothesis
from core.schema import load_schema
from core.textmatch import normalize

MAX_SET_ITEMS = 10
WRITTEN_AS_PHRASE = ("daily_routine", "frequent_venues")   # value_text.phrase: issue 34


def sem_conf(c: Cluster, clusters: list[Cluster]) -> float:
    """Confidence of a cluster supported by semantic cues only: the noisy-or of its posts, scaled
    by its share of all the semantic support of the attribute (sixty comments that each lean a
    little towards sixty different jobs are noise, not evidence). Fitted: docs/semantic.md."""
    total = sum(x.score for x in clusters if all(is_semantic(r) for r in x.recs))
    share = c.score / total if total > 0 else 0.0
    return round(min(SEMANTIC_MAX_CONF, cluster_conf(c) * share ** SEMANTIC_SHARE_POWER), 4)


def sem_data(sem_only: bool, conf: float, recs: list[CueRec] | None = None, attr: str = "") -> dict[str, Any]:
    """Marks a hypothesis with semantic support only; below the projection threshold, or when it is
    one guess (`one_guess`), it is held (the verifier leaves it unresolved: grounded, kept in the
    graph, not projected; SynthPAI's guesses still read it)."""
    # both keys always written: a later update of the same hypothesis must clear a stale hold
    hold = None
    if sem_only and conf < SEMANTIC_PROJECT_MIN:
        hold = f"semantic support only, confidence {conf:.2f} below {SEMANTIC_PROJECT_MIN}"
    elif sem_only and recs and one_guess(recs):
        hold = "semantic support only: one sentence tied to the value by an activity word, no role word"
    elif sem_only and recs and attr in ONE_SENTENCE_GUESS and one_sentence(recs):
        hold = "semantic support only: one sentence near the value's prototype, a guess at a level, not a statement"
    return {"semantic_only": sem_only, "hold": hold}


def one_guess(recs: list[CueRec]) -> bool:
    """Semantic support for an occupation or a religion that never names the role or faith (no cue
    anchored by a word of the value's name or field, or of the faith's practice, held by the poster:
    rules/semantic_anchor.occupation_anchor / religion_anchor) and comes from one sentence (one post,
    or the same sentence repeated): "Three meetings that could have been emails" is a guess at
    Manager, "church this morning" a visit, not statements. A role word ("another nurse shift done")
    or a second post that agrees makes it evidence; so does the job's activity said as work ("Library shift
    again: cataloguing, shelving") when the sentence is nearer this value than any other by
    SEMANTIC_ONE_SENTENCE_GAP: a nearest prototype by a hair among 60 jobs is no reading (issue 34)."""
    anchors = [r.cue.data.semantic.anchor if r.cue.data.semantic else None for r in recs]
    if not anchors or any(a is None for a in anchors) or "role" in anchors:
        return False      # not an occupation / religion reading (no anchor kinds), or a role is named
    if any(r.cue.data.semantic.anchor == "work" and (r.cue.data.semantic.gap or 0.0) >= SEMANTIC_ONE_SENTENCE_GAP
           for r in recs):
        return False      # the job's activity said as work, and nearer this value than any other by a margin
    posts = {r.post_id for r in recs}
    sentences = {normalize(r.cue.span) for r in recs}
    return len(posts) < 2 or len(sentences) < 2


# levels a sentence's topic only hints at: education, income and age read by similarity alone from
# one sentence ("Visiting world-renowned universities" -> Bachelor's degree, "budget travel" -> middle
# income) were wrong on PRISM and SynthPAI dev far more often than right (issue 34: 12 of 48, 1 of 13,
# 0 of 19 right), so one sentence is held as a guess; two posts that agree, or any rule's cue, are evidence
ONE_SENTENCE_GUESS = ("education", "income_level", "age")


def one_sentence(recs: list[CueRec]) -> bool:
    """All of the support comes from one post, or the same sentence repeated."""
    return len({r.post_id for r in recs}) < 2 or len({normalize(r.cue.span) for r in recs}) < 2


def is_hint(r: CueRec) -> bool:
    """A weak semantic match, or a rule's reading it marks as a hint (data.hint: "hitting the big 3-0?")."""
    sem = r.cue.data.semantic
    return bool(sem and sem.hint) or bool(r.cue.data.hint)


def generic(attr: str, recs: list[CueRec], kind: str,
            activities: dict[str, list[str]] | None = None) -> list[Hypothesis]:
    """Hints (weak semantic matches) count only when no other cue speaks to the attribute, and
    what they give is held: a grounded reading for the record, never a projected claim."""
    firm = [r for r in recs if not is_hint(r)]
    if firm or not recs:
        out = generic_firm(attr, firm, kind, activities)
    else:
        out = generic_firm(attr, recs, kind, activities)
        for h in out:
            h.data.hold = "semantic hints only"
    if kind in ("hierarchy", "category"):
        out += alternatives(attr, recs, out)
    return out


MAX_READINGS = 3        # readings kept per single-valued attribute (the projected one and the held others)
ALT_DISCOUNT = 0.5      # an alternative ranks below the readings the clusters proposed


def alternatives(attr: str, recs: list[CueRec], proposed: list[Hypothesis]) -> list[Hypothesis]:
    """Further readings of a single-valued attribute, held: the clusters after the best one and its
    competitor, hints next to a firm cue included. Never projected (the verifier keeps them
    unresolved); they keep what else the account's text grounds, for the record and for ranked
    guesses (benchmarks/synthpai_pred.py), and never make a projected reading ambiguous."""
    out: list[Hypothesis] = []
    seen = {normalize(h.value) for h in proposed if h.attribute == attr}
    for c in cluster(recs):
        if len(seen) >= MAX_READINGS:
            break
        h = hyp(attr, c.levels, support(c.recs), round(cluster_conf(c) * ALT_DISCOUNT, 4),
                "alternative reading: " + "; ".join(sorted({r.cue.span for r in c.recs if r.cue.span})[:3]),
                data={"alternative": True, "score": c.score, "semantic_only": all(is_semantic(r) for r in c.recs),
                      "hold": "an alternative reading (held, ranked below the attribute's readings)"})
        if normalize(h.value) in seen or any(p.levels and compatible(p.levels, h.levels) for p in proposed):
            continue
        seen.add(normalize(h.value))
        out.append(h)
    return out


def routine_parts(text: str, nodes: list[str], activities: dict[str, list[str]]) -> str | None:
    """A routine read as a whole caption ("健身房只有我和保洁阿姨，周一到周五天天如此"), written from
    its parts: the activity word another cue read in the same text (健身房) and the days and part of
    day its words name ("健身房, on weekdays"); None when no activity word was read in it."""
    act = next((a for n in nodes for a in activities.get(n, []) if normalize(a) in normalize(text)), None)
    if act is None:
        return None
    return routine_sentence(act, when(days_said(named_days(text)), said_part(text), [], words()))


def generic_firm(attr: str, recs: list[CueRec], kind: str,
                 activities: dict[str, list[str]] | None = None) -> list[Hypothesis]:
    out: list[Hypothesis] = []
    if kind in ("hierarchy", "category"):
        clusters = cluster(recs)
        if not clusters:
            return out
        sem_only = [all(is_semantic(r) for r in c.recs) for c in clusters]
        top = clusters[0]
        ambiguous = False
        if len(clusters) > 1:
            second = clusters[1]
            coarse_conflict = not compatible(top.levels, second.levels)
            # weak semantic support alone never makes a rule-supported reading ambiguous
            ambiguous = (coarse_conflict and second.score >= 0.85 * top.score and kind == "category"
                         and sem_only[1] <= sem_only[0])
        posts = len({r.post_id for r in top.recs})
        conf = sem_conf(top, clusters) if sem_only[0] else cluster_conf(top)
        out.append(hyp(attr, top.levels, support(top.recs), conf,
                       f"{len(top.recs)} cue(s) in {posts} post(s) agree: "
                       + "; ".join(sorted({r.cue.span for r in top.recs if r.cue.span})[:4]),
                       data={"ambiguous": ambiguous, "score": top.score, **sem_data(sem_only[0], conf, top.recs, attr)}))
        if len(clusters) > 1 and (kind == "hierarchy" or sem_only[0]):
            # the competing reading (hierarchy), or the best rule-supported reading below a semantic one
            rule_i = next((k for k, so in enumerate(sem_only) if not so), 0) if sem_only[0] else 0
            i = rule_i or (1 if kind == "hierarchy" else 0)
            c = clusters[i]
            if i and (c.score >= 0.6 * top.score or rule_i):
                cc = sem_conf(c, clusters) if sem_only[i] else cluster_conf(c)
                out.append(hyp(attr, c.levels, support(c.recs), round(cc * (0.8 if not sem_only[0] else 1.0), 4),
                               "competing reading: " + "; ".join(sorted({r.cue.span for r in c.recs})[:3]),
                               data={"runner_up": True, "score": c.score, **sem_data(sem_only[i], cc, c.recs, attr)}))
        return out
    # set / facts: one hypothesis per distinct item
    groups: dict[str, list[CueRec]] = defaultdict(list)
    for r in recs:
        groups[normalize(r.cue.value)].append(r)
    for key, grp in sorted(groups.items(), key=lambda kv: (-sum(r.cue.confidence for r in kv[1]), kv[0])):
        best = max(grp, key=lambda r: r.cue.confidence)
        posts = sorted({r.post_id for r in grp})
        conf = noisy_or(max(r.cue.confidence for r in grp if r.post_id == p) for p in posts)
        sem = all(is_semantic(r) for r in grp)
        if sem:
            # one sentence that sounds like a hobby is not yet an item, nor is the same sentence
            # repeated in several posts (a catchphrase is one piece of evidence)
            if len(posts) < SEMANTIC_SET_POSTS or len({normalize(r.cue.span) for r in grp}) < SEMANTIC_SET_POSTS:
                continue
            conf = round(min(SEMANTIC_MAX_CONF, conf), 4)
        if attr == "frequent_venues" and len(posts) < 2 and best.cue.confidence < 0.5:
            continue   # one visit is not a regular venue
        value = best.cue.value
        if attr in WRITTEN_AS_PHRASE:
            # a routine or a venue is written as a short phrase, never as the caption it was read in;
            # a routine caption is reduced to its parts (the activity word read in it, its day words)
            value = phrase(value) or (routine_parts(value, [r.node_id for r in grp], activities or {})
                                      if attr == "daily_routine" else None)
            if value is None:
                continue
        elif kind == "facts" and best.cue.span and normalize(best.cue.span) not in normalize(value):
            value = f"{value} ({best.cue.span})"
        out.append(hyp(attr, {"value": value}, support(grp), conf,
                       f"seen in {len(posts)} post(s): " + "; ".join(sorted({r.cue.span for r in grp})[:3]),
                       data={"posts": posts, **sem_data(sem, conf)}))
        if len(out) >= MAX_SET_ITEMS:
            break
    return out


def _run(board: Board) -> list[Hypothesis]:
    """Every attribute no other aggregator owns, from its perception cues and found cues."""
    assert board.agg is not None
    free = [s for s in load_schema().attributes if s.name in board.agg.produces]
    by_attr: dict[str, list[CueRec]] = defaultdict(list)
    others: dict[str, list[CueRec]] = defaultdict(list)
    for r in board.cues(*(s.name for s in free)):
        if r.cue.data.is_today:
            continue   # "today is my birthday" holds no date itself: the birth aggregator dates it by the post
        if r.cue.first_person or r.cue.attribute == "family_and_relations":
            by_attr[r.cue.attribute].append(r)
        elif r.cue.holder.startswith("other:") and not r.by_other and not is_semantic(r):
            others[r.cue.attribute].append(r)
    by_attr["real_name"] = others_document(board, addressed_to_account(board, by_attr.get("real_name", [])))
    if "occupation" in by_attr:
        # a badge or certificate the post gives to someone else ("my sister's first badge!") is their job
        by_attr["occupation"] = others_document(board, by_attr["occupation"], badge_words())
    if any(board.facts.post_has(pid, "queer") for pid in board.facts.posts()):
        # the partner inference assumes a man and a woman: an account that speaks of Pride or queer
        # life in any post gives it no weight in any post ("my wife" beside "my girlfriend at Pride")
        by_attr["gender"] = [r for r in by_attr.get("gender", []) if r.cue.cue != "gender:partner"]
    if "gender" in by_attr:
        # a sex field on a document the post gives to someone else ("my son's school form") is theirs
        by_attr["gender"] = others_document(board, by_attr["gender"])
    if "relationship_status" in by_attr:
        # a sentence about someone else's wedding ("Lisbon bound for Eilidh & João's wedding") is near
        # "we're engaged" in the embedding but says nothing of the poster's own status
        by_attr["relationship_status"] = [r for r in by_attr["relationship_status"]
                                          if not (is_semantic(r) and OTHERS_WEDDING.search(r.cue.span or ""))]
        by_attr["relationship_status"] = spouse_consistent(by_attr["relationship_status"],
                                                           by_attr.get("family_and_relations", []))
    # activity words (a hobby's or a venue's span, as written) per node: a routine caption's parts
    activities: dict[str, list[str]] = defaultdict(list)
    for a in ("hobbies", "frequent_venues"):
        for r in by_attr.get(a, []):
            if not is_semantic(r) and r.cue.span and phrase(r.cue.span):
                activities[r.node_id].append(r.cue.span)
    out: list[Hypothesis] = []
    for spec in free:
        recs = by_attr.get(spec.name, []) + board.found(spec.name)
        if recs:
            hs = generic(spec.name, recs, spec.kind, activities if spec.name == "daily_routine" else None)
            if spec.name == "birth_date":
                for h in hs:
                    normalize_birth(h)   # one canonical date shape before any aggregator reads it
            out += hs
        if others.get(spec.name) and spec.name not in HOLDER_FREE:
            out += others_facts(spec.name, others[spec.name], out)
    out += implied_degree(out)
    return out


# research and university teaching are doctoral careers: a held guess at the degree, never a claim
DOCTORAL_ROLES = ("Professor", "Researcher", "Scientist")


def implied_degree(proposed: list[Hypothesis]) -> list[Hypothesis]:
    """An education reading implied by the poster's own occupation reading (a professor or a research
    scientist most often holds a PhD): held, as an alternative, citing the occupation's evidence, and
    only where the education readings leave room and none names a doctorate already."""
    edu = [h for h in proposed if h.attribute == "education"]
    if len(edu) >= MAX_READINGS or any("phd" in normalize(h.value) for h in edu):
        return []
    occ = next((h for h in proposed if h.attribute == "occupation" and h.holder == "self"
                and h.levels.get("role") in DOCTORAL_ROLES), None)
    if occ is None:
        return []
    h = hyp("education", {"level": "PhD"}, list(occ.evidence), round(min(0.05, occ.confidence * ALT_DISCOUNT), 4),
            f"implied by the occupation reading {occ.value!r} (a research or university teaching role)",
            data={"alternative": True, "semantic_only": bool(occ.data.semantic_only),
                  "hold": "an education implied by an occupation reading (held, never projected)"})
    return [h]


HOLDER_FREE = ("family_and_relations",)   # a relation's fact is the poster's family fact
MAX_OTHER_FACTS = 3


def others_facts(attr: str, recs: list[CueRec], proposed: list[Hypothesis]) -> list[Hypothesis]:
    """Another person's fact read as one ("my brother made partner at the firm" -> lawyer), proposed
    with its holder so the verifier removes it with the reason in history (never projected); a
    value the poster's own words also support is left to that hypothesis."""
    own = {normalize(h.value) for h in proposed if h.attribute == attr}
    out: list[Hypothesis] = []
    groups: dict[str, list[CueRec]] = defaultdict(list)
    for r in recs:
        groups[normalize(r.cue.value)].append(r)
    for _, grp in sorted(groups.items(), key=lambda kv: (-max(r.cue.confidence for r in kv[1]), kv[0]))[:MAX_OTHER_FACTS]:
        best = max(grp, key=lambda r: r.cue.confidence)
        h = hyp(attr, best.levels if load_schema().get(attr).kind == "hierarchy" else {"value": best.cue.value},
                support(grp), round(best.cue.confidence * 0.5, 4),
                f"another person's fact ({best.cue.holder}): " + "; ".join(sorted({r.cue.span for r in grp})[:3]))
        if normalize(h.value) in own:
            continue
        h.holder = best.cue.holder
        out.append(h)
    return out


ADDRESSED_MIN_COMMENTERS = 2   # one friend's "Happy birthday Owen" may use a nickname or an English name


def addressed_to_account(board: Board, recs: list[CueRec]) -> list[CueRec]:
    """Names commenters call the account by count when the name is no commenter's own handle (a
    reply to that commenter) and at least two different commenters use it (one may use a nickname;
    several agreeing is the name the account's person goes by)."""
    out, addressed = [], []
    for r in recs:
        if r.cue.cue == "name:addressed":
            authors = [normalize(str(n.data.author or "")) for n in board.facts.of_post(r.post_id)
                       if n.data.author]
            name = normalize(r.cue.value)
            if any(a and (a.startswith(name) or name in a.split()) for a in authors):
                continue
            addressed.append(r)
        else:
            out.append(r)
    by_name: dict[str, set[str]] = defaultdict(set)
    for r in addressed:
        by_name[normalize(r.cue.value)].add(str(board.facts.nodes[r.node_id].data.author or r.node_id))
    return out + [r for r in addressed if len(by_name[normalize(r.cue.value)]) >= ADDRESSED_MIN_COMMENTERS]


_SPOUSE_RELS = ("husband", "wife", "spouse")


def spouse_consistent(recs: list[CueRec], family: list[CueRec]) -> list[CueRec]:
    """A spouse the poster names in two or more posts is a living spouse: the account is married,
    so "single" and "widowed" need stronger words than a vague sentence (semantic cues are dropped;
    a rule's death wording - "my late husband" - still counts)."""
    spouse_posts = {r.post_id for r in family if (r.cue.data.relation or "") in _SPOUSE_RELS}
    if len(spouse_posts) < 2:
        return recs
    return [r for r in recs if not (r.cue.value in ("single", "widowed", "divorced") and is_semantic(r))
            and not (r.cue.value == "single")]


GENERIC = aggregator("generic", _run, consumes=("feature:queer",), rest=True)
