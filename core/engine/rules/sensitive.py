"""Sensitive attributes: health_condition, mental_health, sexual_orientation, religion,
political_views."""
from __future__ import annotations

import re
from typing import Iterator

from core.engine.reading.holder import FIRST_PERSON
from core.engine.rules.base import Ctx, Lexicon, at
from core.engine.rules.health_context import health_context
from core.engine.rules.recognizer_data import family
from core.engine.rules.lexicon import HEALTH, HEALTH_WEAK, MENTAL, MENTAL_WEAK, POLITICS, RELIGION_WEAK, RELIGIONS
from core.engine.types import Cue

_D = family("sensitive")      # core/data/recognizers/sensitive.json (rules/recognizer_data.py)
_S = _D.scores()              # base confidences by rule id


def _compile(lex: dict) -> tuple[Lexicon, dict[str, str]]:
    index: dict[str, str] = {}
    for canon, entry in lex.items():
        for w in list(entry[0]) + list(entry[1]):
            index.setdefault(w.lower(), canon)
    return Lexicon(list(index)), index


def _hits(ctx: Ctx, lex: Lexicon, idx: dict[str, str]) -> Iterator[tuple[int, int, str, str]]:
    """(start, end, term, canonical value) of each hit of a lexicon that is not negated."""
    for ms, me, term in ctx.lexicon_hits(lex):
        if (canon := idx.get(term.lower())) and not ctx.negated(ms):
            yield ms, me, term, canon


_H_LEX, _H_IDX = _compile(HEALTH)
_M_LEX, _M_IDX = _compile(MENTAL)
_R_LEX, _R_IDX = _compile({k: (v[0], v[1]) for k, v in RELIGIONS.items()})
_P_LEX, _P_IDX = _compile(POLITICS)

_OWN_WORDS = frozenset({"caption", "title", "comment"})     # text a person wrote (not a document read off an image)
_SELF_HEALTH = _D.pattern("self_health")
# a star sign: "a Cancer" (one has cancer, one is a Cancer), "Cancer season / sign / sun / rising / moon", beside the zodiac
_ZODIAC = _D.pattern("zodiac")
_GENERIC_TOPIC = _D.pattern("generic_topic")
_OF_PEOPLE = _D.pattern("condition_of_people")     # "a Deaf presenter", "Deaf-led": other people's
_BODY_PART = _D.pattern("body_part")
_NUMBER = _D.pattern("condition_number")


def _facts_value(canon: str, term: str, clause: str) -> str:
    """A facts value: canonical name plus the triggering wording (keywords are matched inside it)."""
    extra = term if term.lower() != canon.lower() else ""
    # keep numbers like "32 weeks" / "type 2" near the term
    num = _NUMBER.search(clause)
    parts = [canon]
    if extra:
        parts.append(f"({extra})")
    if num and num.group(0).lower() not in " ".join(parts).lower():
        parts.append(num.group(0))
    return " ".join(parts)


def _lex_cues(ctx: Ctx, attr: str, lex: Lexicon, idx: dict[str, str], weak: set[str],
              rule: str, base: float) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    for ms, me, term, canon in _hits(ctx, lex, idx):
        s0, s1 = ctx.sentence(ms)
        clause = t[s0:s1]
        if attr == "health_condition" and _ZODIAC.search(t, max(0, ms - 12), min(len(t), me + 40)):
            continue      # "I'm a Cancer", "Cancer season": the star sign, not the illness
        if attr == "health_condition" and _OF_PEOPLE.match(t, me):
            continue      # "Voicing for a Deaf presenter", "a Deaf-led workshop": their condition
        selfish = bool(_SELF_HEALTH.search(clause))
        fp = ctx.first_person(ms)
        conf = base
        if term.lower() in weak:
            conf -= 0.2
        if not selfish:
            conf -= 0.2
        if _GENERIC_TOPIC.search(clause):
            conf -= 0.2
        if conf < 0.15:
            continue
        # a condition word in a caption that speaks of nobody and whose sentence is not about health
        # (filler text: "celiac park leggings"): no disclosure; held as a hint, never projected alone
        hint = True if (attr == "health_condition" and ctx.carrier in _OWN_WORDS and not selfish
                        and not FIRST_PERSON.search(t) and not health_context(clause)) else None
        value = _facts_value(canon, term, clause)
        if attr == "health_condition":
            # the body part it sits in, in its clause or the sentence before ("My right wrist ... Tendinitis")
            prev = ctx.sentence(s0 - 1)[0] if s0 > 0 else s0
            part = _BODY_PART.search(t, prev, s1)
            if part and part.group(0).lower() not in value.lower():
                value = f"{part.group(0).lower()} {value}"
        out.append(ctx.cue(attr, value, ms, me, rule=rule, confidence=conf,
                           first_person=fp, original=term if not term.isascii() else None, condition=canon,
                           hint=hint))
    return out


def health_condition(ctx: Ctx) -> list[Cue]:
    return _lex_cues(ctx, "health_condition", _H_LEX, _H_IDX, HEALTH_WEAK, "health:lexicon", _S["health:lexicon"])


def mental_health(ctx: Ctx) -> list[Cue]:
    return _lex_cues(ctx, "mental_health", _M_LEX, _M_IDX, MENTAL_WEAK, "mental:lexicon", _S["mental:lexicon"])


# ---------------------------------------------------------------- sexual_orientation
_ORI_SELF = _D.pattern("orientation_self")
_ORI_COMMUNITY = _D.pattern("orientation_community")
_ORI_ZH_TERM = _D.pattern("orientation_zh_term")
_ORI_SHORT_SUBJECT = _D.pattern("orientation_short_subject")   # "I'm bi", not "proud bi"
_ORI_MAP = _D.map("orientation")
_STRAIGHT_NOT = _D.pattern("straight_not")     # "straight to bed", "three days straight"
_ORI_SHORT = frozenset(_D.words("orientation_short"))     # "bi", "ace": the subject's own only


def sexual_orientation(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    for m in _ORI_SELF.finditer(t):
        w = (m.group("w") or m.group("z") or "").lower()
        if not w and "出柜" in m.group(0):
            out.append(ctx.cue("sexual_orientation", "LGBTQ+", m.start(), m.end(), rule="orientation:coming_out",
                               confidence=_S["orientation:coming_out"], original=m.group(0)))
            continue
        val = _ORI_MAP.get(w)
        if not val or ctx.negated(m.start()):
            continue
        if w in _ORI_SHORT and not _ORI_SHORT_SUBJECT.match(m.group(0)):
            continue
        if w == "straight" and _STRAIGHT_NOT.match(t[m.end():m.end() + 8]):
            continue
        out.append(ctx.cue("sexual_orientation", val, m.start(), m.end(), rule="orientation:self",
                           confidence=_S["orientation:self"], original=m.group(0) if not m.group(0).isascii() else None,
                           first_person=True))
    if ctx.has_cjk:
        for m in _ORI_ZH_TERM.finditer(t):
            if any(at(c.data.start, -1) <= m.start() < at(c.data.end, -1) for c in out) or ctx.negated(m.start()):
                continue
            if not ctx.first_person(m.start()):
                continue
            out.append(ctx.cue("sexual_orientation", _ORI_MAP[m.group(0)], m.start(), m.end(),
                               rule="orientation:zh_term", confidence=_S["orientation:zh_term"], original=m.group(0)))
    for m in _ORI_COMMUNITY.finditer(t):
        out.append(ctx.cue("sexual_orientation", "LGBTQ+", m.start(), m.end(), rule="orientation:community",
                           confidence=_S["orientation:community"]))
    return out


# ---------------------------------------------------------------- religion
_REL_ALIAS = {k: v[2] for k, v in RELIGIONS.items()}
_REL_STRONG = _D.pattern("religion_self")
_STRONG_MAP = _D.map("religion")
_REL_PRACTICE = _D.pattern("religion_practice")
_REL_WE = _D.pattern("religion_we")
_REL_PLAIN = frozenset(_D.words("religion_plain"))     # "Christian": no denomination of its own


# words of the Catholic church itself: a Christianity cue they give names the denomination too
# ("Christianity" alone does not say "Catholic"; levels value + denomination display "Catholic, Christianity")
_CATHOLIC = set(_D.words("catholic"))


# Protestant church words name theirs too ("Missionary Baptist Church" -> "Baptist, Christianity")
_DENOMINATIONS: dict[str, str] = _D.map("denominations")


def _denomination(canon: str, term: str) -> dict[str, str] | None:
    if canon != "Christianity":
        return None
    d = "Catholic" if term.lower() in _CATHOLIC else _DENOMINATIONS.get(term.lower())
    return {"value": canon, "denomination": d} if d else None


def religion(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    for m in _REL_STRONG.finditer(t):
        w = (m.group("w") or m.group("z") or m.group("z2") or "").lower()
        canon = _STRONG_MAP.get(w)
        if not canon or ctx.negated(m.start()):
            continue
        sub = w.title() if w.isascii() and w not in _REL_PLAIN else None
        out.append(ctx.cue("religion", canon, m.start(), m.end(), rule="religion:self", confidence=_S["religion:self"],
                           levels=_denomination(canon, w), alias=_REL_ALIAS.get(canon), denomination=sub,
                           original=m.group(0) if not m.group(0).isascii() else None))
    for ms, me, term, canon in _hits(ctx, _R_LEX, _R_IDX):
        s0, s1 = ctx.sentence(ms)
        clause = t[s0:s1]
        practice = bool(_REL_PRACTICE.search(clause))
        selfish = bool(_REL_WE.search(clause)) or ctx.first_person(ms)
        conf = 0.55 if practice and selfish else 0.4 if selfish else 0.2
        if term.lower() in RELIGION_WEAK:
            conf -= 0.15
        if conf < 0.15:
            continue
        out.append(ctx.cue("religion", canon, ms, me, rule="religion:lexicon", confidence=conf,
                           levels=_denomination(canon, term), alias=_REL_ALIAS.get(canon),
                           original=term if not term.isascii() else None, term=term))
    return out


# ---------------------------------------------------------------- political_views
_POL_AMBIGUOUS = set(_D.words("politics_ambiguous"))
_POL_WEAK = frozenset(_D.words("politics_weak"))
_POL_SELF = _D.pattern("politics_self")


def political_views(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    for ms, me, term, canon in _hits(ctx, _P_LEX, _P_IDX):
        pre = t[max(ctx.clause_start(ms), ms - 40):ms]
        selfish = bool(_POL_SELF.search(pre)) or term.lower().startswith("voted")
        if not selfish and term.lower() in _POL_AMBIGUOUS:
            continue
        conf = _S["politics:lexicon:self"] if selfish else _S["politics:lexicon:other"]
        if not selfish and term.lower() in _POL_WEAK:
            conf = 0.2
        out.append(ctx.cue("political_views", canon, ms, me, rule="politics:lexicon", confidence=conf,
                           original=term if not term.isascii() else None, term=term))
    return out


EXTRACTORS = (health_condition, mental_health, sexual_orientation, religion, political_views)
