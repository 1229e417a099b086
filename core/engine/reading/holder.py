"""Holders: whose fact a clause states. `holder_before(text, start, pos)` reads the clause from
`start` up to `pos` (and a few characters past it, for "my husband and I") and names its subject:
self (the poster), other:<relation or pronoun> (my brother, 他, a friend's birthday), or the
person a quotation belongs to. The subject lexicons live here; rules.base.Ctx asks through them."""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from core.engine.reading.data_file import Words, load_model
from core.engine.reading.kin import KIN_EN, KIN_ZH, canon_en, canon_zh, fold_zh
from core.engine.reading.lang import Pack, pack, patterns, text_packs, words
from core.engine.places import resolve_levels

HolderKind = Literal["self", "other", "generic", "unknown"]


@dataclass(frozen=True)
class Holder:
    kind: HolderKind = "self"
    who: str = ""            # other: the relation, pronoun or name ("brother", "she", "Sarah")
    rule: str = ""           # which reading rule decided it

    @property
    def is_self(self) -> bool:
        return self.kind == "self"

    @property
    def label(self) -> str:
        """"self", "other:brother", "generic", "unknown" (what a cue and a hypothesis record)."""
        return f"other:{self.who}" if self.kind == "other" and self.who else self.kind


SELF = Holder("self", rule="default")


# ---------------------------------------------------------------- the reading's word data
class ReadingWords(BaseModel):
    """The words sections of core/data/recognizers/mentions.json: the reading's word lists and regex
    alternations by language, each with its reason (holder_*: here; mentions_* and the rest: mentions.py).
    The reading floor cannot import the rules' loader (rules/recognizer_data.py, a floor up); a test
    validates this file with it too."""
    model_config = ConfigDict(extra="forbid")
    about: str
    recognizer: dict[str, Any]
    words: dict[str, Words]


WORDS_FILE = Path(__file__).resolve().parents[2] / "data" / "recognizers" / "mentions.json"
WORDS = load_model(WORDS_FILE, ReadingWords, ValueError).words
_SLOT = re.compile(r"\{([a-z_]+)\}")


def data_words(key: str, lang: str | None = None) -> str:
    """A word list of the file (one language's, or all in file order) as one regex alternation: the
    first alternative that matches wins."""
    return "|".join(w for code, ws in WORDS[key].entries.items() if lang in (None, code) for w in ws)


def data_rx(key: str, flags: int = 0, **slots: str) -> re.Pattern[str]:
    """An alternation of the file compiled once, each {slot} filled with what the Python gives (a
    language pack's words) or else with the file's word list of that name."""
    def fill(m: re.Match[str]) -> str:
        k = m.group(1)
        return slots[k] if k in slots else data_words(k) if k in WORDS else m.group(0)
    try:
        return re.compile(_SLOT.sub(fill, data_words(key)), flags)
    except re.error as e:
        raise ValueError(f"{WORDS_FILE}: field words.{key}: not a regular expression ({e})") from None


_EN, _ZH = pack("en"), pack("zh")
# Words that put someone else in the subject position of a clause (the en pack's other_subjects).
OTHER_EN = words(_EN.other_subjects)
OTHER_SUBJ = data_rx("holder_other_subject", re.I, kin=OTHER_EN, pro=words(_EN.other_pronouns))
# a kin noun without a determiner opening its clause: "hubby cooked", "Mum says", "wifey is a nurse"
BARE_KIN = data_rx("holder_bare_kin", re.I, kin=words(_EN.bare_kin))
# every kin or relation term of kin.KIN_ZH (and the 我-forms of one-character ones: mentions.json), longest first
_KIN_ZH_ALT = "|".join(sorted({*KIN_ZH, *WORDS["holder_kin_zh_forms"].entries["zh"]}
                              - set(WORDS["holder_kin_zh_not_other"].entries["zh"]), key=len, reverse=True))
OTHER_ZH = data_rx("holder_other_subject_zh", kin=_KIN_ZH_ALT, pro=words(_ZH.other_pronouns))
# people in general as the subject ("Women lead culinary teams", "Most nurses I know ...", "人们都说"):
# a generic statement, nobody's own fact
GENERIC = data_rx("holder_generic_subject", re.I, en=words(_EN.generic_subjects), zh=words(_ZH.generic_subjects))
# "I'm a student", "as a teacher": the noun is the poster's role, not another subject
PREDICATE = data_rx("holder_predicate")
SELF_WORD = re.compile(rf"\b(?:{words(_EN.self_words)})\b|{words(_ZH.self_words)}", re.I)
# 我 opening a sentence is the poster unless it is a possessor: 我舅舅 / 我的叔叔 (any kin or relation
# term of kin.KIN_ZH) is the uncle's clause ("我舅舅做了二十年厨师" is no occupation of the poster)
_MY_KIN_ZH = "|".join(sorted({*KIN_ZH, *WORDS["holder_my_kin_zh"].entries["zh"]}, key=len, reverse=True))
# a first-person word anywhere in a text (I, my, we, ours, 我): the poster speaks of themself
FIRST_PERSON = re.compile(rf"(?i)\b(?:{words(_EN.first_person)})\b|{words(_ZH.first_person)}")
SELF_START = data_rx("holder_self_start", re.I, kin=_MY_KIN_ZH)
# "Happy 30th birthday to my best friend": the ordinal is the celebrated person's age
_HAPPY_BEFORE = data_rx("holder_happy_before")
_TO_ME = data_rx("holder_to_me")


_MY_SIBLING = {"我姐": "older sister", "我哥": "older brother", "我妹": "younger sister", "我弟": "younger brother"}


# who the other subject of a wish, congratulations or a RIP is (OTHER_SUBJ / OTHER_ZH groups), and the rule
_WISHED = {"bday": ("birthday person", "subject:birthday_wish"), "congrats": ("addressee", "subject:congratulated"),
           "rip": ("deceased", "subject:rip")}


def _other(m: re.Match) -> Holder:
    g = m.groupdict()
    if kin := g.get("kin"):
        return Holder("other", canon_en(kin) or canon_zh(kin) or canon_zh(kin.lstrip("我咱的"))
                      or _MY_SIBLING.get(kin, kin.lower()), rule="subject:kin")
    if g.get("pro"):
        return Holder("other", g["pro"].lower().split("'")[0], rule="subject:pronoun")
    who, rule = next(_WISHED[k] for k in _WISHED if g.get(k))
    return Holder("other", who, rule=rule)


KIN_NAMES = frozenset(KIN_EN)

# a possessor right before the noun at `pos`: "for her asthma", "Sophie's inhaler", "他的糖尿病" - the
# thing is theirs whoever the clause's subject is (not after a predicate of the poster: "I'm her nurse").
# "their" is left out: "as someone who did their PhD" is the poster (a singular they)
_POSSESSOR = data_rx("holder_possessor")
_SAINT = data_rx("holder_saint")
_NOT_A_POSSESSOR = frozenset(_EN.not_possessors)   # today's, Mother's Day, the world's (the en pack)


# a person named as the clause's subject right before what they have or are: "Ella's been diagnosed
# with type 1 diabetes", "Max has a chest infection", "Sarah is a nurse" (a few words at most between)
_NAMED_SUBJ = data_rx("holder_named_subject")
_NOT_A_NAME = frozenset(_EN.not_names)   # days, months, common nouns opening a clause (the en pack)


def named_subject(text: str, start: int, pos: int) -> Holder | None:
    """A first name opening the clause as its subject, the fact after a few words ("Ella's been
    diagnosed with …", "Max has a …"); None for pronouns, kin words, days and the like."""
    m = _NAMED_SUBJ.match(text, start, pos) if pos - start <= 80 else None
    if not m or m.end() != pos:
        return None
    name = m.group("name")
    if name.lower() in _NOT_A_NAME or name.lower() in KIN_NAMES or _is_place(name):
        return None          # "Paris is lovely", "Canada is my home": a place is no person
    return Holder("other", name, rule="subject:name")


@lru_cache(maxsize=4096)
def _is_place(name: str) -> bool:
    return bool(resolve_levels(name))


def possessor_before(text: str, start: int, pos: int) -> Holder | None:
    """The possessor of the noun phrase ending at `pos` when it is someone else ("her asthma",
    "Sophie's asthma inhaler"), else None."""
    pre = text[max(start, pos - 40):pos]
    m = _POSSESSOR.search(pre)
    if not m or PREDICATE.search(pre, 0, m.start()):
        return None
    if m.group("name"):
        if m.group("name").lower() in _NOT_A_POSSESSOR or m.group("name").lower() in KIN_NAMES:
            return None      # "Mum's" / "Dad's" are kin subjects (OTHER_SUBJ / BARE_KIN read them)
        if text[pos:pos + 1].isupper() or _SAINT.search(pre, 0, m.start("name")):
            return None      # a name of a place or firm: "St Paul's Church", "Joe's Coffee"
        return Holder("other", m.group("name"), rule="possessor:name")
    return Holder("other", m.group("pro").lower(), rule="possessor:pronoun")


def holder_before(text: str, start: int, pos: int, packs: tuple[Pack, ...] = ()) -> Holder:
    """The subject of the clause [start, pos): the nearest subject before `pos` wins; a kin noun
    opening the clause is someone else ("hubby cooked"); "my husband and I" is the poster. A
    possessor right before the position ("for her asthma") holds it. `packs`: the generic language
    packs the text is written in (reading/lang.py), whose kin, pronouns and self words count too."""
    if (p := possessor_before(text, start, pos)) is not None:
        return p
    pre = text[start:pos]
    if (n := named_subject(text, start, pos)) is not None and not SELF_WORD.search(pre):
        return n
    ext = pre + text[pos:pos + 6]
    last_other, holder = -1, SELF
    for m in OTHER_SUBJ.finditer(ext):
        if m.end() <= len(pre) + 1 and not PREDICATE.search(pre, 0, m.start()) and m.end() > last_other:
            last_other, holder = m.end(), _other(m)
    for m in OTHER_ZH.finditer(pre):
        if m.end() > last_other:
            last_other, holder = m.end(), _other(m)
    for p in packs:
        pp = patterns(p.code)
        for m in (pp.other.finditer(pre) if pp.other is not None else ()):
            if m.end() > last_other:
                who = pp.kin_of(m) or (m.group("pro") or "").lower()
                last_other, holder = m.end(), Holder("other", who, rule=f"subject:{p.code}")
        if last_other < 0 and pp.generic is not None and (g := pp.generic.match(pre)):
            last_other, holder = g.end(), Holder("generic", rule=f"subject:{p.code}_generic")
    if last_other < 0 and (b := BARE_KIN.match(pre)) and b.end() <= len(pre):
        last_other = b.end()
        holder = Holder("other", canon_en(b.group("kin").split()[-1]) or b.group("kin").lower(), rule="subject:bare_kin")
    if last_other < 0 and (g := GENERIC.match(pre)) and g.end() <= len(pre):
        last_other, holder = g.end(), Holder("generic", rule="subject:generic")
    if last_other < 0:
        if _HAPPY_BEFORE.search(pre) and not _TO_ME.match(text[pos:pos + 40]):
            return Holder("other", "birthday person", rule="subject:birthday_wish")
        return SELF
    last_self = -1
    for m in SELF_WORD.finditer(pre):
        # "我妈妈" — the 我 belongs to the relation phrase, not a self subject
        if m.group(0) == "我" and (z := OTHER_ZH.match(pre, m.start())) and z.end() > m.end():
            continue
        # "my/our" phrases were consumed by OTHER_SUBJ; bare "I" after them wins
        last_self = max(last_self, m.end())
    for p in packs:
        if (sw := patterns(p.code).self_word) is not None:
            for m in sw.finditer(pre):
                last_self = max(last_self, m.end())
    return SELF if last_self > last_other else holder


# ---------------------------------------------------------------- quotations and reposts
# a quotation: an opening mark after a space / start, a closing one before a space / punctuation / end
_QUOTED = re.compile(r"(?:^|(?<=[\s(\[:：]))[\"“«「『](?!\s)([^\"”»」』\n]{12,}?)(?<!\s)[\"”»」』](?=$|[\s.,!?;:)\]—–\-~，。！？])",
                     re.M)
# names are capitalised (no re.I: "just say" is no attribution to a "just")
_ATTRIB_AFTER = data_rx("holder_attribution_after")
_ATTRIB_BEFORE = data_rx("holder_attribution_before")
REPOST = data_rx("holder_repost", re.I)


def quotations(text: str) -> list[tuple[int, int, Holder]]:
    """(start, end, holder) of quoted passages of a dozen characters or more that the text
    attributes to someone else ('"I'm a nurse ..." - my sister', 'my uncle says "..."'): their
    words, not the poster's statement. An unattributed quotation is often the poster's own words
    ('... and I said "yes I can code"'), so it keeps the clause's holder."""
    out = []
    for m in _QUOTED.finditer(text):
        a = _ATTRIB_AFTER.match(text, m.end()) or _ATTRIB_BEFORE.search(text[max(0, m.start() - 40):m.start()])
        if not a:
            continue
        kin = a.groupdict().get("kin")
        if kin and kin.lower() in ("self", "own"):
            continue
        who = (canon_en(kin) if kin else None) or (canon_zh(a.group("zh")) if a.groupdict().get("zh") else None) \
            or a.groupdict().get("name") or (kin or "")
        if who.lower() in ("i", "me", "we") or a.groupdict().get("zh") in ("我", "我们"):
            continue
        out.append((m.start(1), m.end(1), Holder("other", who or "quoted", rule="quote")))
    return out


# ---------------------------------------------------------------- one text, read once
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_PHRASE_STOP = set(",，、;；.。!！?？\n()（）[]【】")
_CLAUSE_END = data_rx("holder_clause_end")


_NEG_EN = re.compile(rf"\b(?:{words(_EN.negation + _EN.irrealis)})\b[^.!?\n]{{0,25}}$", re.I)
_NEG_ZH = data_rx("holder_negated_zh", neg=words(_ZH.negation))


# sentence stance (Ctx.stance): questions, quoted / reported speech, hypotheticals, negation
_QUESTION = data_rx("holder_question")
# reported speech and hypotheticals: the en and zh packs' reported_speech / hypothetical (en on word boundaries)
_QUOTE = re.compile(rf"\b(?:{words(_EN.reported_speech)})\b|{words(_ZH.reported_speech)}", re.I)
_QUOTE_WRAP = re.compile(r"^\s*(?:>|[\"“«「『][^\"”»」』]{8,}[\"”»」』]\s*$)")
_HYPO = re.compile(rf"\b(?:{words(_EN.hypothetical)})\b|{words(_ZH.hypothetical)}", re.I)
_NEG_SENT = data_rx("holder_negated_sentence", re.I)


class TextReading:
    """One text being read: the original and its masked copy (hostile spans blanked, traditional kin
    characters folded: same length, offsets hold), language, carrier, clause bounds, quotations,
    and what the rules ask of a position: its clause, its holder, its sentence's stance, negation.
    The rules' context (rules.base.Ctx) is one; the reading pass (mentions.read) reads one too."""

    __slots__ = ("text", "masked", "lower", "carrier", "lang", "_bounds", "has_cjk", "_quotes", "repost", "by_other", "packs")

    def __init__(self, text: str, masked: str, *, carrier: str | None, lang: str | None, by_other: bool = False):
        self.text = text
        self.has_cjk = bool(CJK.search(text))
        # traditional kin / age / status characters read as simplified (same length: offsets hold)
        self.masked = fold_zh(masked) if self.has_cjk else masked
        self.lower = self.masked.lower()
        self.carrier = carrier
        self.by_other = by_other     # a comment by someone else: "you" is the account's person
        self.lang = lang or ("zh" if self.has_cjk else "en")
        # the generic language packs the text is written in (none for English and Chinese)
        self.packs = text_packs(self.masked)
        self._bounds: list[int] | None = None
        self._quotes: list[tuple[int, int, Holder]] | None = None
        self.repost = bool(REPOST.match(masked))   # a reposted text: someone else's words throughout

    # ---- clauses ----
    def _clause_starts(self) -> list[int]:
        if self._bounds is None:
            self._bounds = [0] + [m.end() for m in _CLAUSE_END.finditer(self.masked)]
        return self._bounds

    def clause_start(self, pos: int) -> int:
        starts = self._clause_starts()
        return starts[bisect.bisect_right(starts, pos) - 1]

    def clause_end(self, pos: int) -> int:
        starts = self._clause_starts()
        i = bisect.bisect_right(starts, pos)
        return starts[i] if i < len(starts) else len(self.masked)

    def prefix(self, pos: int) -> str:
        return self.masked[self.clause_start(pos):pos]

    def sentence(self, pos: int) -> tuple[int, int]:
        return self.clause_start(pos), self.clause_end(pos)

    def phrase(self, start: int, end: int) -> tuple[int, int]:
        """The comma-delimited piece of text holding [start, end) (for short facts values)."""
        s = start
        while s > 0 and self.masked[s - 1] not in _PHRASE_STOP:
            s -= 1
        e = end
        while e < len(self.masked) and self.masked[e] not in _PHRASE_STOP:
            e += 1
        while s < e and self.masked[s].isspace():
            s += 1
        while e > s and self.masked[e - 1].isspace():
            e -= 1
        return s, e

    # ---- subject / negation ----
    def holder(self, pos: int) -> Holder:
        """Whose fact the text at `pos` is: inside a quotation, the quoted person's; otherwise the
        subject of its clause (reading.holder: the nearest subject before `pos` wins)."""
        for a, b, h in self.quotes():
            if a <= pos < b:
                return h
        return holder_before(self.masked, self.clause_start(pos), pos, self.packs)

    def quotes(self) -> list[tuple[int, int, Holder]]:
        if self._quotes is None:
            self._quotes = quotations(self.masked)
        return self._quotes

    def first_person(self, pos: int) -> bool:
        """False when the nearest subject before `pos` in its clause is someone else."""
        return holder_before(self.masked, self.clause_start(pos), pos, self.packs).is_self

    def is_self(self, pos: int) -> bool:
        """The text at pos opens with I / 我, or its clause has no other subject before it."""
        return bool(SELF_START.match(self.masked, pos)) or self.first_person(pos)

    def negated(self, pos: int) -> bool:
        pre = self.prefix(pos)[-40:]
        if _NEG_EN.search(pre) or _NEG_ZH.search(pre):
            return True
        return any((n := patterns(p.code).negation) is not None and n.search(pre) for p in self.packs)

    def stance(self, start: int, end: int) -> str:
        """How the sentence [start, end) speaks: "question", "quote" (quoted or reported
        speech, news), "hypothetical" (if / wish / would), "negated" (I'm not / never ...),
        "other" (its subject is someone else: my sister the paediatrician, a friend's 25th
        birthday) or "self". Shared by the rules (cue data["stance"]) and the semantic cues."""
        s = self.masked[start:end]
        st = s.strip()
        if not st:
            return "other"
        if _QUESTION.search(st):
            return "question"
        if self.repost or 5 * sum(max(0, min(b, end) - max(a, start)) for a, b, _ in self.quotes()) >= 2 * len(st):
            return "quote"        # reposted, or mostly a quotation ('"I'm a nurse ..." - my sister')
        if _QUOTE.search(st) or _QUOTE_WRAP.match(st):
            return "quote"
        if _HYPO.search(st):
            return "hypothetical"
        if _NEG_SENT.search(st):
            return "negated"
        # the subject of the sentence's first clause (the main clause) decides
        first_end = min(self.clause_end(start), end)
        if not self.first_person(max(start, first_end - 1)) and not SELF_START.match(st):
            return "other"
        return "self"

    def speaker(self, start: int, rule: str, first_person: bool | None = None) -> tuple[str, Holder, bool]:
        """How and whose the text at `start` is, for a rule's cue there: (stance, holder, first
        person). A quotation or a repost is a quote; a sentence that quotes someone is the poster's
        outside the quotation ("my uncle says"); `first_person` is the rule's own say (None: the
        clause decides; False: someone else's, the clause names whom if it can)."""
        sa, sb = self.sentence(start)
        st = self.stance(sa, sb)
        quoted = next((h for a, b, h in self.quotes() if a <= start < b), None)
        if quoted is not None or self.repost:
            st = "quote"          # someone else's words inside this text (a quotation, a repost)
        elif st == "quote" and not (_QUOTE.search(self.masked, sa, sb) or _QUOTE_WRAP.match(self.masked[sa:sb].strip())):
            st = "self"           # the sentence quotes someone, but this cue is outside the quotation ("my uncle says")
        if first_person is None and SELF_START.match(self.masked, start):
            first_person = True   # the span itself opens with I / 我
        h = quoted or (self.holder(start) if first_person is None else (SELF if first_person else None))
        if h is None:             # the rule says someone else's; the clause names whom, if it can
            h = self.holder(start)
            h = h if not h.is_self else Holder("other", "someone", rule=rule)
        fp = h.is_self if first_person is None or quoted is not None else first_person
        return st, h, fp

