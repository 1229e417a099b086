"""A statement about people in general is nobody's fact (`generic_statement`): below the rules'
context, which holds such a rule cue as a hint (base.Ctx.cue), and the semantic layer's anchors
(semantic_anchor.py, which re-exports it)."""
from __future__ import annotations

import re

from core.engine.reading.holder import FIRST_PERSON, GENERIC
from core.engine.reading.kin import fold_zh
from core.engine.rules.recognizer_data import family

_D = family("generic")      # core/data/recognizers/generic.json (rules/recognizer_data.py)

# "Degrees open doors but don't chain you down", "even seasoned relationships got their own spark",
# "Rediscovering solo hobbies post-breakup isn't mandatory": a sentence of a life-state bank
# (education, relationship, income, age) whose clause has a general subject - people in general
# (reading.holder.GENERIC), a plural noun or a gerund phrase before its verb - and no first person
# is an opinion about the world, not the poster's own degree, marriage or pay; so is an occupation
# sentence of that verb form ("Street art turns gridlock into museum visits"). Casual posts drop the
# "I" ("Five years married today", "pension plan enrolment hit different", "Loving the new job"):
# a clause without such a subject stays the poster's.
_GENERAL_BANKS = frozenset({"education", "relationship", "income", "age", "occupation"})
_CLAUSES = re.compile(r"[;:!?.…\n，。！？；：]+|\s[-–—]+\s|\s[-–—]{2,}\s?")
_PLURAL_SUBJECT = _D.pattern("plural_subject")
# a gerund phrase as the subject of a verb a few words on: "Facing thesis defense panels really brings
# out", "Studying something captivating vs actually working in the field can be wildly different"
_GERUND_SUBJECT = _D.pattern("gerund_subject")
# a noun phrase of one or two words before a verb of the singular present: "Street art turns gridlock
# into museum visits", "Education opens doors"
_SINGULAR_SUBJECT = _D.pattern("singular_subject")
# "Being a nurse means comfy shoes matter", "Being divorced isn't the end of the world": said by one who is
_NOT_GERUND = frozenset(_D.words("not_gerund", "en"))


_NOT_PLURAL = frozenset(_D.words("not_plural", "en"))


def _general_subject(clause: str) -> bool:
    m = _PLURAL_SUBJECT.match(clause)
    if m and m.group("n").lower() not in _NOT_PLURAL:
        return True
    g = _GERUND_SUBJECT.match(clause)
    return bool(g and g.group("g").lower() not in _NOT_GERUND) or bool(_SINGULAR_SUBJECT.match(clause))

# people in general opening a Chinese clause: 现在的年轻人, 很多打工人, 大部分家长 (beside reading.holder.GENERIC)
_PEOPLE_ZH = _D.pattern("people_zh")


# a clause dated to a moment tells an episode, not a general truth: "divorce papers are a year old today"
_EPISODE = _D.pattern("episode")
_SECOND_PERSON = _D.pattern("second_person")


def generic_statement(sentence: str, bank: str, *, reader_is_poster: bool = False) -> bool:
    """True when a sentence of a life-state bank speaks of people in general, not of the poster.
    `reader_is_poster`: a comment by someone else, whose "you" is the account's person."""
    if bank not in _GENERAL_BANKS:
        return False
    sentence = fold_zh(sentence)        # 現在的年輕人 reads as 现在的年轻人
    if FIRST_PERSON.search(sentence):
        return False
    if bank != "occupation" and not reader_is_poster and _SECOND_PERSON.search(sentence):
        return True             # "when your salary barely covers the rent": the reader's, or anyone's
    clauses = [c for c in _CLAUSES.split(sentence) if c.strip() and not _EPISODE.search(c)]
    # a group of workers as a subject ("Nurses' Experiences", "teachers deserve more") is an
    # occupation's topic, which occupation_anchor reads; the verb forms below still apply
    people = bank != "occupation"
    return any((people and bool(GENERIC.match(c) or _PEOPLE_ZH.match(c))) or _general_subject(c) for c in clauses)
