"""A statement about people in general is nobody's fact (`generic_statement`): below the rules'
context, which holds such a rule cue as a hint (base.Ctx.cue), and the semantic layer's anchors
(semantic_anchor.py, which re-exports it)."""
from __future__ import annotations

import re

from core.engine.reading.holder import FIRST_PERSON, GENERIC
from core.engine.reading.kin import fold_zh

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
_LEAD = (r"(?:(?:even|some|most|many|all|the|these|those|such|real|good|bad|big|new|old|certain|other)\s+)?"
         r"(?:(?!(?:how|why|what|when|where|who|which|whether|if)\b)[a-z-]+\s+){0,2}")
# a plural noun right before a verb of the plural present (or a past / modal one): "Degrees open",
# "seasoned relationships got", "Budget spreadsheets help"
_PLURAL_SUBJECT = re.compile(
    r"\A\W*" + _LEAD + r"(?P<n>[a-z]{2,}[^s'’\W]s)\s+(?:(?:only|often|always|never|rarely|usually|just|really|barely|hardly|still|all)\s+)?"
    r"(?:are|aren'?t|were|can|can'?t|could|should|will|won'?t|might|may|must|do|don'?t|did|didn'?t|got|get|open|help|show|"
    r"make|mean|need|take|give|go|come|hit|feel|seem|look|matter|work|pay|cost|teach|change|tend|bring|turn|keep|let|"
    r"count|define|decide|shape|cover)\b", re.I)
# a gerund phrase as the subject of a verb a few words on: "Facing thesis defense panels really brings
# out", "Studying something captivating vs actually working in the field can be wildly different"
_GERUND_SUBJECT = re.compile(
    r"\A\W*(?P<g>[a-z]{2,}ing)\b(?:\s+[\w'’-]+){0,8}?\s+(?:really\s+|just\s+|always\s+|often\s+|never\s+)?"
    r"(?:is|isn'?t|was|wasn'?t|can|can'?t|could|should|will|won'?t|might|may|must|does|doesn'?t|has|hasn'?t|brings|makes|"
    r"helps|gets|takes|feels|means|beats|opens|turns|goes|keeps|gives|matters|teaches|requires|depends|seems)\b", re.I)
# a noun phrase of one or two words before a verb of the singular present: "Street art turns gridlock
# into museum visits", "Education opens doors"
_SINGULAR_SUBJECT = re.compile(
    r"\A\W*(?:the\s+)?(?:[a-z-]+\s+)?(?P<n>[a-z]{3,})\s+(?:really\s+|just\s+|always\s+|often\s+|never\s+)?"
    r"(?:brings|makes|helps|turns|opens|shows|teaches|beats|changes|requires|needs|depends|means|matters|costs|pays|gets)\b", re.I)
# "Being a nurse means comfy shoes matter", "Being divorced isn't the end of the world": said by one who is
_NOT_GERUND = frozenset("morning evening nothing something everything anything thing king spring ring wedding building "
                        "during ceiling wing sibling darling pudding string bring sing sting swing cling fling being".split())


_NOT_PLURAL = frozenset("years days weeks months hours minutes times kids guys folks things parents thanks news this thus plus "
                        "bus gas yes does has was its hers ours yours theirs".split())


def _general_subject(clause: str) -> bool:
    m = _PLURAL_SUBJECT.match(clause)
    if m and m.group("n").lower() not in _NOT_PLURAL:
        return True
    g = _GERUND_SUBJECT.match(clause)
    return bool(g and g.group("g").lower() not in _NOT_GERUND) or bool(_SINGULAR_SUBJECT.match(clause))

# people in general opening a Chinese clause: 现在的年轻人, 很多打工人, 大部分家长 (beside reading.holder.GENERIC)
_PEOPLE_ZH = re.compile(r"\A[\W_]*(?:现在的|如今的|现在|如今|很多|有些|好多|大部分|大多数)?(?:年轻人|人们|打工人|上班族|女生|男生|女人|男人|"
                        r"家长|父母们|大家)")


# a clause dated to a moment tells an episode, not a general truth: "divorce papers are a year old today"
_EPISODE = re.compile(r"(?i)\b(?:today|tonight|yesterday|this\s+(?:morning|afternoon|evening|week|weekend|month|year)|"
                      r"last\s+(?:night|week|weekend|month|year)|right\s+now)\b|今天|昨天|今晚|昨晚|这周|上周|今年|去年")
_SECOND_PERSON = re.compile(r"(?i)\b(?:you|your|yours|yourself|you're|youre|you've|ya)\b|你(?!们)|您")


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
