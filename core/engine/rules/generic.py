"""A statement about people in general is nobody's fact (`generic_statement`): below the rules'
context, which holds such a rule cue as a hint (base.Ctx.cue), and the semantic layer's anchors
(semantic_anchor.py, which re-exports it)."""
from __future__ import annotations

import re

from core.engine.reading.holder import FIRST_PERSON, GENERIC
from core.engine.reading.kin import fold_zh
from core.engine.rules.family_patterns import compiled
from core.engine.rules.recognizer_data import family

_D = family("generic")      # core/data/recognizers/generic.json (rules/recognizer_data.py)
_P = compiled(_D)           # its patterns by key, each with the reason it exists in the file

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
# "Being a nurse means comfy shoes matter", "Being divorced isn't the end of the world": said by one who is
_NOT_GERUND = frozenset(_D.words("not_gerund", "en"))
_NOT_PLURAL = frozenset(_D.words("not_plural", "en"))


def _general_subject(clause: str) -> bool:
    """A plural noun, a gerund phrase or a short noun phrase as the clause's subject (patterns plural_subject,
    gerund_subject, singular_subject)."""
    m = _P.plural_subject.match(clause)
    if m and m.group("n").lower() not in _NOT_PLURAL:
        return True
    g = _P.gerund_subject.match(clause)
    return bool(g and g.group("g").lower() not in _NOT_GERUND) or bool(_P.singular_subject.match(clause))


def generic_statement(sentence: str, bank: str, *, reader_is_poster: bool = False) -> bool:
    """True when a sentence of a life-state bank speaks of people in general, not of the poster.
    `reader_is_poster`: a comment by someone else, whose "you" is the account's person."""
    if bank not in _GENERAL_BANKS:
        return False
    sentence = fold_zh(sentence)        # 現在的年輕人 reads as 现在的年轻人
    if FIRST_PERSON.search(sentence):
        return False
    if bank != "occupation" and not reader_is_poster and _P.second_person.search(sentence):
        return True             # "when your salary barely covers the rent": the reader's, or anyone's
    clauses = [c for c in _CLAUSES.split(sentence) if c.strip() and not _P.episode.search(c)]  # an episode: no rule
    # a group of workers as a subject ("Nurses' Experiences", "teachers deserve more") is an
    # occupation's topic, which occupation_anchor reads; the verb forms below still apply
    people = bank != "occupation"
    return any((people and bool(GENERIC.match(c) or _P.people_zh.match(c))) or _general_subject(c) for c in clauses)
