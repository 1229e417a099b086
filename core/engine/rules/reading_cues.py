"""Cues from the reading layer's mentions (core/engine/reading/mentions.py): the facts whose holder
is implied rather than written with "I" / "my" - a bare 老公 or "the wife and I" (the poster's
spouse: married), an age read from context ("the big 3-0", "my 40th", "30 today", a comment's
"can't believe you're 29"), a class year beside a degree (an age range), a first name the
account's commenters call it by. Each cue names the mention's rule and holder."""
from __future__ import annotations

import re

from core.engine.reading.kin import DATING, PARTNER_GENDER, SPOUSE
from core.engine.reading.mentions import Reading, read_mentions
from core.engine.rules.base import Ctx
from core.engine.rules.documents import document
from core.engine.rules.identity import REF_YEAR
from core.engine.rules.lifestyle import DEATH
from core.engine.types import Cue

_OWN = re.compile(r"(?i)\b(?:i|i'm|im|i'll|my|me|myself)\b|我")
_SKIP = ("quote", "hypothetical", "negated")   # a question may still state a fact ("my 25th is next week, ideas?")
_AGE_CONF = {"age:big_n": 0.7, "age:my_nth": 0.7, "age:n_today": 0.75, "age:addressed": 0.5}


def read(text: str, *, carrier: str | None = None, by_other: bool = False) -> Reading:
    """One reading pass over a text (hostile sentences are blanked first, as for the rules): here, above
    the reading layer, since the hostile mask is the rules'."""
    return read_mentions(document(text, carrier=carrier, by_other=by_other), every_sentence=True)


def _decade(n: int) -> str:
    return f"{n // 10 * 10}s"


def reading_cues(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    for m in read_mentions(ctx).mentions:
        if m.stance in _SKIP or m.holder != "self":
            continue
        ex = dict(m.extra)
        if m.kind == "kin":
            orig = None if m.text.isascii() else m.text
            out.append(ctx.cue("family_and_relations", m.value, m.start, m.end, rule=m.rule, confidence=0.55,
                               first_person=True, relation=m.value, original=orig))
            # inference: naming one's own husband or wife says the poster is married; one's own boyfriend /
            # girlfriend ("mi novia", "남자친구랑", a bare 男朋友), in a relationship; one's own fiancé(e), engaged.
            # A child is kept as the family fact above (the schema has no parenthood attribute).
            spouse = m.value in SPOUSE
            st = "married" if spouse else DATING.get(m.value)
            if st and not DEATH.search(ctx.masked, *ctx.sentence(m.start)):
                rule = "relationship:implied_spouse" if spouse else f"relationship:implied_{st.split()[-1]}"
                out.append(ctx.cue("relationship_status", st, m.start, m.end, rule=rule,
                                   confidence=0.55 if spouse else 0.5, first_person=True,
                                   inference=f"own {m.value} -> {st}", original=orig))
            if m.value in PARTNER_GENDER:
                # a partner's gender suggests the poster's (same-sex couples exist: low, and the generic
                # aggregator drops it for an account that speaks of Pride or queer life), as gender:partner
                out.append(ctx.cue("gender", PARTNER_GENDER[m.value], m.start, m.end, rule="gender:partner",
                                   confidence=0.35, first_person=True, inference=f"own {m.value}", original=orig))
        elif m.kind == "age":
            n = int(m.value)
            if m.stance == "question" and not _OWN.search(ctx.masked, *ctx.sentence(m.start)):
                # "hitting the big 3-0?": asked, not said of oneself ("my 25th is next week, ideas?" is); kept
                # as a hint (held, never projected): who asks about turning 30 is often about to
                out.append(ctx.cue("age", _decade(n - 1), m.start, m.end, rule=m.rule + ":asked", confidence=0.07,
                                   levels={"decade": _decade(n - 1)}, first_person=True, hint=True))
                continue
            if ex.get("decade_only"):
                out.append(ctx.cue("age", _decade(n), m.start, m.end, rule=m.rule, confidence=0.45,
                                   levels={"decade": _decade(n)}, first_person=True))
                continue
            if ex.get("future") and m.rule != "age:n_today":
                n -= 1     # "my 40th next month": still 39
            out.append(ctx.cue("age", str(n), m.start, m.end, rule=m.rule, confidence=_AGE_CONF.get(m.rule, 0.5),
                               levels={"decade": _decade(n), "exact_age": str(n)}, first_person=True))
        elif m.kind == "time" and m.rule == "time:graduation":
            est = REF_YEAR - int(m.value) + int(ex.get("typical_age", "22"))
            if 15 <= est <= 99:
                out.append(ctx.cue("age", _decade(est), m.start, m.end, rule="age:graduation_degree", confidence=0.35,
                                   levels={"decade": _decade(est)}, graduation_year=int(m.value), degree=ex.get("degree")))
        elif m.kind == "person_name":
            out.append(ctx.cue("real_name", m.value, m.start, m.end, rule=m.rule, confidence=0.4, first_person=True,
                               addressed=True))
    return out


EXTRACTORS = (reading_cues,)
