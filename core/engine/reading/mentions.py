"""Typed mentions: what a sentence names and whose it is. `read_mentions(reading)` is the one
reading pass over a text's reading (its sentences with stance and main-clause holder, and the
mentions below; rules/reading_cues.read(text) reads a raw text, hostile sentences blanked); the
offline rules turn the holder-bearing mentions into cues (rules/reading_cues.py) and read every
cue's holder through the same reading of the text (reading.holder.TextReading, which the rules'
context extends).

Mention kinds: person_name, kin, role, organisation, place, time, age, field. This module finds
kin terms (with whose relation each is: "my", "our", a bare 老公 or "hubby" are the poster's; "his
wife" is not), names addressed to the account in others' comments, and ages and years read from
context ("the big 3-0", "my 40th", "30 today", "can't believe you're 29", a class year beside a
degree); roles, organisations and places are the rules' cues, given as mentions by `of_cue`.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from core.engine.reading.holder import SELF, WORDS, Holder, TextReading, data_rx, data_words
from core.engine.reading.kin import IMPLIED_OWN_ZH, canon_en, canon_zh
from core.engine.reading.lang import patterns
from core.engine.reading.sentences import sentence_spans

if TYPE_CHECKING:
    from core.engine.types import Cue

MentionKind = Literal["person_name", "kin", "role", "organisation", "place", "time", "age", "field"]
CUE_KIND: dict[str, MentionKind] = {
    "real_name": "person_name", "family_and_relations": "kin", "occupation": "role", "workplace": "organisation",
    "school": "organisation", "home_location": "place", "work_location": "place", "travel_history": "place",
    "age": "age", "birth_date": "time", "contact_or_id_number": "field",
}


@dataclass(frozen=True)
class Mention:
    start: int
    end: int
    text: str
    kind: MentionKind
    value: str                # canonical: the relation, the age, the name, the year
    holder: str               # Holder.label: whose it is ("self" = the poster / the account's person)
    stance: str               # the sentence's stance (TextReading.stance)
    rule: str
    extra: tuple[tuple[str, str], ...] = ()   # kind-specific facts: ("future", "1"), ("decade_only", "1")


@dataclass
class SentenceReading:
    start: int
    end: int
    stance: str
    holder: str
    mentions: list[Mention] = field(default_factory=list)


@dataclass
class Reading:
    text: str
    sentences: list[SentenceReading]

    @property
    def mentions(self) -> list[Mention]:
        return [m for s in self.sentences for m in s.mentions]


# ---------------------------------------------------------------- kin
# "the wife and I", "date night with the husband", "hubby cooked", "our little one": the poster's own
IMPLIED_EN = data_rx("mentions_implied_own_en", re.I | re.M)
_DETERMINED = data_rx("mentions_determined")
IMPLIED_ZH = data_rx("mentions_implied_own_zh", kin="|".join(IMPLIED_OWN_ZH))
_ZH_OTHER_OWNER = data_rx("mentions_other_owner_zh")


def _kin(rd: TextReading, stance_of) -> list[Mention]:
    t = rd.masked
    out: list[Mention] = []
    for m in IMPLIED_EN.finditer(t):
        kin = m.group("kin") or m.group("bare")
        rel = canon_en(re.sub(r"\s+", " ", kin.lower())) or ("child" if "little" in kin.lower() else None)
        if rel is None or _DETERMINED.search(t[max(0, m.start() - 14):m.start()]):
            continue
        if (m.group("det") or "").lower() == "the" and rel not in ("wife", "husband"):
            continue     # "the little ones" of a classroom; "the wife" / "the husband" are the speaker's
        out.append(Mention(m.start(), m.end(), rd.text[m.start():m.end()], "kin", rel, "self", stance_of(m.start()),
                           "kin:en_implied"))
    if rd.has_cjk:
        for m in IMPLIED_ZH.finditer(t):
            s = m.start("kin")
            if _ZH_OTHER_OWNER.search(t[max(0, m.start() - 4):m.start()]):
                continue
            rel = canon_zh(m.group("kin"))
            if rel:
                out.append(Mention(s, m.end("kin"), rd.text[s:m.end("kin")], "kin", rel, "self", stance_of(s),
                                   "kin:zh_implied"))
    for p in rd.packs:
        # a generic language pack: the poster's possessive right before a family word ("mijn zus", "mi esposo")
        pp = patterns(p.code)
        for m in (pp.own_kin.finditer(t) if pp.own_kin is not None else ()):
            rel = pp.kin_of(m)
            if m.groupdict().get("k2") and pp.other_owner is not None and pp.other_owner.search(t, max(0, m.start() - 12), m.start()):
                continue     # "友達の兄", "친구 엄마": a friend's
            if rel:
                out.append(Mention(m.start(), m.end(), rd.text[m.start():m.end()], "kin", rel, "self", stance_of(m.start()),
                                   f"kin:{p.code}_possessive"))
    return out


# ---------------------------------------------------------------- ages and years from context
def _en_zh(key: str) -> re.Pattern[str]:
    """A word list of mentions.json: its English words whole, its Chinese ones as substrings."""
    return re.compile(rf"(?i)\b(?:{data_words(key, 'en')})\b|{data_words(key, 'zh')}")


_FUTURE = _en_zh("future")
_BIG = data_rx("mentions_big_age")
_BIG_WORD = {"two": 20, "three": 30, "four": 40, "five": 50, "six": 60, "seven": 70, "eight": 80}
_MY_NTH = data_rx("mentions_my_nth")
# what may follow "my 40th" when it is an age: a birthday word, a time, a verb, or nothing ("my 40th marathon" is not)
_NTH_NEXT = data_rx("mentions_nth_next")
_N_TODAY = data_rx("mentions_n_today")
_BIRTHDAY_WORD = data_rx("mentions_birthday_word")
_YOU_AGE = data_rx("mentions_addressed_age")
_CLASS_YEAR = data_rx("mentions_class_year")
# a degree beside a class year, with its typical graduation age (mentions.json degree_*: the first named wins)
_DEGREE = [(level, age, _en_zh(key)) for level, age, key in
           (("PhD", 28, "degree_phd"), ("Master's degree", 24, "degree_master"), ("Bachelor's degree", 22, "degree_bachelor"),
            ("High school", 18, "degree_high_school"))]


def _ages(rd: TextReading, stance_of) -> list[Mention]:
    t = rd.masked
    out: list[Mention] = []

    def add(m: re.Match, n: int, rule: str, holder: Holder | None = None, **extra: str) -> None:
        h = holder or rd.holder(m.start())
        fut = _FUTURE.search(t[max(0, m.start() - 30):m.end() + 30])
        ex = tuple(sorted({**extra, **({"future": "1"} if fut else {})}.items()))
        out.append(Mention(m.start(), m.end(), rd.text[m.start():m.end()], "age", str(n), h.label, stance_of(m.start()),
                           rule, ex))

    for m in _BIG.finditer(t):
        n = (int(m.group("n")) if m.group("n") else _BIG_WORD[m.group("w").lower()] if m.group("w")
             else int(m.group("t")) * 10 + int(m.group("o")))
        add(m, n, "age:big_n")
    for m in _MY_NTH.finditer(t):
        n = int(m.group("n"))
        s, e = rd.sentence(m.start())
        if 13 <= n <= 100 and (_BIRTHDAY_WORD.search(t, s, e) or _NTH_NEXT.match(t, m.end())):
            add(m, n, "age:my_nth")
    bday_text = bool(_BIRTHDAY_WORD.search(t))
    for m in _N_TODAY.finditer(t):
        if bday_text and 13 <= int(m.group("n")) <= 100:
            add(m, int(m.group("n")), "age:n_today")
    if rd.by_other:
        # a comment to the account: "you" is the account's person
        for m in _YOU_AGE.finditer(t):
            if m.group("d"):
                add(m, int(m.group("d")), "age:addressed", SELF, decade_only="1")
            else:
                n = int(m.group("n") or m.group("n2") or m.group("n3"))
                if 13 <= n <= 100:
                    add(m, n, "age:addressed", SELF)
    for m in _CLASS_YEAR.finditer(t):
        s, e = rd.sentence(m.start())
        sent = t[s:e]
        deg = next(((lvl, years) for lvl, years, rx in _DEGREE if rx.search(sent)), None)
        if deg is None:
            continue
        y = m.group("y").lstrip("'")
        year = int(y) if len(y) == 4 else (2000 + int(y) if int(y) <= 30 else 1900 + int(y))
        out.append(Mention(m.start(), m.end(), rd.text[m.start():m.end()], "time", str(year), rd.holder(m.start()).label,
                           stance_of(m.start()), "time:graduation", (("degree", deg[0]), ("typical_age", str(deg[1])))))
    return out


# ---------------------------------------------------------------- names addressed to the account
_NAME = r"[A-Z][a-z]{2,14}"
ADDRESSED = data_rx("mentions_addressed_name", re.M, name=_NAME)
NOT_A_NAME = frozenset(WORDS["not_a_name"].entries["en"])


def addressed_names(rd: TextReading) -> list[Mention]:
    """First names a comment by someone else calls the account's person by ("Congrats Priya!!")."""
    if not rd.by_other:
        return []
    out = []
    for m in ADDRESSED.finditer(rd.masked):
        g = next(k for k in ("n", "n2", "n3") if m.group(k))
        name = m.group(g)
        if name.lower() in NOT_A_NAME or canon_en(name):
            continue
        out.append(Mention(m.start(g), m.end(g), rd.text[m.start(g):m.end(g)], "person_name", name, "self",
                           "self", "name:addressed"))
    return out


# ---------------------------------------------------------------- the pass
def read_mentions(rd: TextReading, *, every_sentence: bool = False) -> Reading:
    """The sentences and mentions of a text being read (the masked text: hostile sentences blanked).
    A sentence's stance and holder are read when a mention needs them (every_sentence: for all)."""
    spans = sentence_spans(rd.masked)
    known: dict[int, SentenceReading] = {}

    def sentence_at(pos: int) -> SentenceReading | None:
        i = bisect.bisect_right(spans, (pos, len(rd.masked) + 1)) - 1
        if i < 0 or not spans[i][0] <= pos < spans[i][1]:
            return None
        if i not in known:
            s, e = spans[i]
            main = max(s, min(rd.clause_end(s), e) - 1)     # the subject of its first (main) clause
            st = rd.stance(s, e)
            quoted = next((h for a, b, h in rd.quotes() if a < e and s < b), None) if st == "quote" else None
            known[i] = SentenceReading(s, e, st, (quoted or rd.holder(main)).label)
        return known[i]

    def stance_of(pos: int) -> str:
        sr = sentence_at(pos)
        return sr.stance if sr is not None else "self"

    ms = sorted(_kin(rd, stance_of) + _ages(rd, stance_of) + addressed_names(rd), key=lambda m: (m.start, m.end))
    for m in ms:
        sr = sentence_at(m.start)
        if sr is not None:
            sr.mentions.append(m)
    if every_sentence:
        for s, _ in spans:
            sentence_at(s)
    return Reading(rd.text, [known[i] for i in sorted(known)])


def of_cue(cue: "Cue", start: int, end: int, stance: str) -> Mention | None:
    """A rule cue as a mention (roles, organisations, places ...: the rules find those)."""
    kind = CUE_KIND.get(cue.attribute)
    if kind is None:
        return None
    return Mention(start, end, cue.span, kind, cue.value, cue.holder, stance, cue.cue)
