"""A semantic cue needs a word anchor: the sentence shares a content word with the prototypes of
the value it matched (or the value's own name and levels, or one of the bank's topic `keywords`).

Why: multilingual-e5 similarities are compressed (0.80–0.88 for most sentence pairs), and some
prototypes sit close to any chatter ("being single suits me, no partner" was the nearest
relationship statement to "zero plans, zero regrets, full day on the sofa" and to "not me on the
ward since 7"). The embedding still chooses the value; the anchor only asks that the sentence is
about the thing at all. Words are compared by a light stem (suffix stripped, first five letters),
Chinese by a shared two-character run. Function words, words the neutral bank uses and words
shared by the prototypes of more than three values are no anchor. Measured: docs/semantic.md ("Word anchor").
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Callable, Literal

from pydantic import BaseModel, Field, model_validator

from core.engine.reading.data_file import validate
from core.engine.reading.holder import FIRST_PERSON
from core.engine.reading.kin import fold_zh
from core.engine.rules.banks import Prototype, bank_keywords, read_banks
from core.engine.rules.base import CJK, Ctx, Lexicon
from core.engine.rules.generic import generic_statement
from core.engine.rules.family_patterns import compiled
from core.engine.rules.lexicon import HOBBIES
from core.engine.rules.recognizer_data import RecognizerDataError, family

_D = family("semantic_anchor")      # core/data/recognizers/semantic_anchor.json (rules/recognizer_data.py)
_P = compiled(_D)                   # its patterns by key

_WORD = re.compile(r"[a-z]+")
# the word lists and guard patterns are data: core/data/recognizers/semantic_anchor.json
_SUFFIXES = tuple(_D.words("suffixes", "en"))
STOP_EN = frozenset(_D.words("stop", "en"))
# common Chinese function / filler characters: shared ones say nothing about the topic
STOP_ZH = frozenset(_D.words("stop", "zh"))


def stem(word: str) -> str:
    return full_stem(word)[:5]


def full_stem(word: str) -> str:
    """A word without its inflection, untruncated ("breakup" stays "breakup"; stem() keeps 5 letters)."""
    w = word.lower()
    for suf in _SUFFIXES:
        if w.endswith(suf) and len(w) - len(suf) >= 3:
            w = w[: -len(suf)]
            break
    if len(w) >= 4 and w[-1] == w[-2] and w[-1] not in "aeiou":
        w = w[:-1]          # running -> runn -> run
    return w


def _content_words(t: str) -> list[str]:
    """The Latin content words of a lowercased text: no clitic ('s, 're), no function word, three letters or more."""
    return [w for w in _WORD.findall(re.sub(r"'[a-z]+", "", t)) if len(w) >= 3 and w not in STOP_EN]


@lru_cache(maxsize=8192)      # pure; asked of the same sentences and prototypes again and again
def anchors(text: str) -> frozenset[str]:
    """Content stems and Chinese two-character runs ("面包") of a text."""
    t = text.lower().replace("\u2019", "'")
    pairs = {a + b for a, b in zip(t, t[1:]) if CJK.match(a) and CJK.match(b) and a not in STOP_ZH and b not in STOP_ZH}
    return frozenset({stem(w) for w in _content_words(t)} | pairs)


MAX_VALUES = 3


@lru_cache(maxsize=1)
def _generic() -> frozenset[str]:
    """Anchors that say nothing about one value: used by the neutral bank, or by the prototypes of
    more than `MAX_VALUES` values across the banks ("went", "years", "已经", "工作")."""
    seen: dict[str, set[tuple[str, str]]] = {}
    neutral: set[str] = set()
    for p in read_banks():
        a = anchors(p.text)
        if not p.attribute:
            neutral |= a
        for x in a:
            seen.setdefault(x, set()).add((p.bank, p.id))
    return frozenset(neutral | {x for x, vals in seen.items() if len(vals) > MAX_VALUES})


@lru_cache(maxsize=4096)
def _protos(bank: str, value_id: str) -> tuple[Prototype, ...]:
    """The prototype statements of one value of a bank."""
    return tuple(p for p in read_banks() if p.bank == bank and p.id == value_id)


@lru_cache(maxsize=4096)
def value_lexicon(bank: str, value_id: str) -> frozenset[str]:
    """The anchors of a value: its prototypes, name and levels, minus the generic ones."""
    own = set().union(*(anchors(t) for p in _protos(bank, value_id)
                        for t in (p.text, p.value, *(v for _, v in p.levels))))
    return frozenset(own - _generic())


@lru_cache(maxsize=64)
def _keywords(bank: str) -> tuple[frozenset[str], frozenset[str], tuple[str, ...]]:
    """A bank's topic `keywords` (curated, never filtered): Latin ones as stems and as whole words
    (`_words`), Chinese ones whole."""
    latin = [k for k in bank_keywords(bank) if not CJK.search(k)]
    zh = tuple(k for k in bank_keywords(bank) if CJK.search(k))
    return frozenset().union(*map(anchors, latin)), frozenset().union(*map(_words, latin)), zh


def anchored(sentence: str, bank: str, value_id: str) -> bool:
    mine = anchors(sentence)
    lex = value_lexicon(bank, value_id)
    if (rules := TABLE.banks.get(bank)) and rules.not_anchored_by:
        lex = lex - _keywords(rules.not_anchored_by)[0]     # its banks table entry says why
    if mine & lex:
        return True
    latin, whole, zh = _keywords(bank)
    # a topic keyword anchors by its whole word, not its 5-letter stem: "Did I break images" shares
    # "break" with "breakup" and says nothing of a relationship
    return bool(mine & latin and _words(sentence) & whole) or any(k in sentence for k in zh)


def _words(text: str) -> frozenset[str]:
    return frozenset(full_stem(w) for w in _content_words(text.lower().replace("\u2019", "'")))


# -- a venue visited is no occupation (why: semantic_anchor.json guards.visit_only) ----------------------------
def says_work(sentence: str) -> bool:
    """The sentence speaks of working (a shift, a job, colleagues, customers, 上班, 同事 ...)."""
    return bool(_P.work.search(sentence) or _P.work_zh.search(sentence))


_HEAD_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]{3,}")


def headline(sentence: str) -> bool:
    """A title, not a statement: most words of four letters or more capitalised ("Advanced Yoga Poses
    for Greater Flexibility", "Tips for Beginners in Painting") and no first person."""
    words = _HEAD_WORD.findall(sentence)
    caps = sum(w[0].isupper() for w in words)
    return len(words) >= 3 and caps >= 0.7 * len(words) and not FIRST_PERSON.search(sentence)


def visit_only(sentence: str, bank: str, value_id: str) -> bool:
    """True when `sentence` anchors the occupation `value_id` only through a venue word and says
    nothing of working there (then the semantic cue is a hint, never projected alone)."""
    if not applies("visit_only", bank) or says_work(sentence):
        return False
    if not (_P.venue.search(sentence) or _P.venue_zh.search(sentence)):
        return False
    # the staff a customer meets there are theirs too ("took a cab, the driver was nice", 打车…司机人很好)
    rest = _strip_staff(_P.venue_zh.sub(" ", _P.venue.sub(" ", sentence)))
    return not anchored(rest, bank, value_id)


# -- how strongly a sentence is tied to an occupation (its levels and why: semantic_anchor.json banks.occupation)
_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")

@lru_cache(maxsize=4096)
def role_lexicon(bank: str, value_id: str) -> frozenset[str]:
    """The anchors of a value's own name and levels ("Software Engineer", "Technology"), minus the
    generic ones: the words that name the role or its field rather than an activity of it."""
    own: set[str] = set()
    for p in _protos(bank, value_id):
        for t in (p.value, *(v for _, v in p.levels)):
            own |= anchors(t)
        if p.lang == "zh" and (m := _P.self_clause_zh.match(p.text)):
            own |= anchors(m.group(1))      # 我是护士 -> 护士, 我已经退休了 -> 退休
    return frozenset(own - _generic())


def _agent_noun(word: str, value: str) -> bool:
    """The word is the value's agent noun (the last word of its name: nurse, dentist, engineer), in
    the singular or plural, not a field or activity form of it (nursing, engineering, research)."""
    agent = value.split()[-1].lower() if value.split() else ""
    w = word.lower().replace("’", "'").removesuffix("'s").rstrip("'")
    return bool(agent) and w in (agent, agent + "s", agent + "es")


@lru_cache(maxsize=1)
def _pastimes():
    return Lexicon([w for en, zh in HOBBIES.values() for w in (*en, *zh)])


def without_pastimes(sentence: str) -> tuple[str, bool]:
    """The sentence with its pastime words (the hobbies lexicon: yoga, painting, coding, 烘焙)
    blanked, and whether it had any."""
    hits = Ctx(sentence, sentence, carrier=None, lang=None, fragment=True).lexicon_hits(_pastimes())   # one sentence
    chars = list(sentence)
    for a, b, _ in hits:
        chars[a:b] = " " * (b - a)
    return "".join(chars), bool(hits)


def _role_holder(sentence: str, start: int, ctx: Ctx, agent: bool) -> str:
    """Who holds a role noun of the sentence: "self", "plan" (after a modal or a wish: "should retire",
    "hoping to become a nurse"), or "other" (a relative's clause, or a
    determiner before the agent noun that is no predicate of the poster: "my barista", "the dentist
    says", "more male nurses"; the object of a verb of perception or dealing: "overhear electricians").
    A bare plural stays the poster's topic ("Mechanics and Auto Repair"), a plural possessive too
    ("Nurses' Experiences": measured, holding it cost a right nurse on PRISM)."""
    if not ctx.first_person(start):
        return "other"
    pre = sentence[max(0, start - 40):start]
    if _P.plan_before.search(pre):
        return "plan"
    if not agent:
        return "self"           # a field or activity form of the role ("nursing", "research")
    if _P.pred_before.search(pre):
        return "self"
    if _P.det_before.search(pre) or _P.object_before.search(pre):
        return "other"
    return "self"


def occupation_anchor(sentence: str, value_id: str) -> str | None:
    """How `sentence` is tied to the occupation `value_id`: "role" (a role word held by the poster),
    "work" (an activity word of the value in a sentence that speaks of working), "activity" or None.
    Pastime words count only where the sentence speaks of work ("I teach yoga classes at the studio
    for a living" is still a job)."""
    rest, pastime = without_pastimes(sentence)
    if pastime and says_work(sentence):
        rest = sentence
    roles = role_lexicon("occupation", value_id)
    lex = value_lexicon("occupation", value_id)
    value = next((p.value for p in _protos("occupation", value_id)), "")
    ctx = Ctx(rest, rest, carrier=None, lang=None, fragment=True)   # the sentence, pastimes blanked
    kind: str | None = None
    for m in _LATIN_WORD.finditer(rest):
        w = m.group(0)
        a = anchors(w)
        if not a or _P.venue.fullmatch(re.sub(r"['’]s$", "", w)):
            continue          # a venue is visited by customers ("Library's free", visit_only): no role word
        if a & roles:
            if _role_holder(rest, m.start(), ctx, _agent_noun(w, value)) == "self":
                return "role"
            continue
        if a & lex and w.lower() not in _GENERIC_WORK:
            kind = "activity"
    if CJK.search(rest):
        low = rest.lower()
        for x in anchors(rest):
            if not CJK.match(x[:1]) or x not in lex or x in _ADDRESS_TITLES:
                continue
            i = low.find(x)
            if x in roles and ctx.first_person(i):
                return "role"
            if x not in roles and x.lower() not in _GENERIC_WORK:
                kind = kind or "activity"
    if kind == "activity" and value_id not in _NOT_A_JOB and says_work(sentence):
        return "work"           # an activity of the job said as work ("yoga poses ..., my clients loved it")
    return kind


_ADDRESS_TITLES = frozenset(_D.words("address_titles", "zh"))   # 师傅: anyone's honorific, no one job's
# a word of working in general (shift, patients, 夜班): it ties a sentence to no one occupation (words.generic_work)
_GENERIC_WORK = frozenset(w.lower() for w in _D.words("generic_work"))
_NOT_A_JOB = frozenset(_D.words("not_a_job"))   # work wording says nothing for these


# -- how strongly a sentence is tied to a religion (its levels and why: semantic_anchor.json banks.religion) ----
_WORSHIP_VENUES = frozenset(anchors(" ".join(_D.words("worship_venues", "en")))
                            | set(_D.words("worship_venues", "zh")))


@lru_cache(maxsize=1)
def _pastime_stems() -> frozenset[str]:
    """The anchors of the hobbies lexicon's Latin terms ("meditative" shares "medit" with meditation)."""
    return frozenset().union(*(anchors(w) for en, _ in HOBBIES.values() for w in en))


def religion_anchor(sentence: str, value_id: str) -> str | None:
    """How `sentence` is tied to the religion `value_id`: "role", "activity" (a place of worship
    only) or None (nothing but a pastime, or another person's faith)."""
    rest, _ = without_pastimes(sentence)
    latin, _, zh = _keywords("religion")
    lex = value_lexicon("religion", value_id) | latin
    ctx = Ctx(rest, rest, carrier=None, lang=None, fragment=True)   # the sentence, pastimes blanked
    low = rest.lower()
    kind: str | None = None
    hits = [(m.start(), x) for m in _LATIN_WORD.finditer(rest) for x in anchors(m.group(0)) if x in lex]
    hits += [(low.find(x), x) for x in anchors(rest) if CJK.match(x[:1]) and x in lex]
    hits += [(i, k) for k in zh if (i := rest.find(k)) >= 0]
    for pos, x in hits:
        if x in _WORSHIP_VENUES or x in _pastime_stems():
            kind = kind or "activity"
        elif ctx.first_person(max(0, pos)):
            return "role"
    return kind


# -- people in general are nobody's gender (why: semantic_anchor.json guards.generic_group) -------------------
def generic_group(sentence: str, bank: str) -> bool:
    """True when a gender sentence speaks of women / men as groups only and not of the poster."""
    if not applies("generic_group", bank) or FIRST_PERSON.search(sentence) or _P.group_outing.search(sentence):
        return False
    if _P.group_zh.search(sentence):
        return True
    return bool(_P.group_en.search(sentence)) and not _P.gender_one.search(sentence)


def names_gendered_other(sentence: str, bank: str) -> bool:
    """True when a gender sentence names another person by a gendered pronoun or noun ("the lady
    waved at me", 老婆说我...): the embedder reads that person's gender as readily as the poster's."""
    return applies("gendered_other", bank) and bool(_P.gendered_other.search(fold_zh(sentence)))


# -- the staff a customer meets ----------------------------------------------------------------
# Beside a venue or a ride ("took a cab, the driver was nice", 打车去机场，司机人很好) a role noun is the
# staff the customer met, not the poster: visit_only drops them before it looks for another anchor.


@lru_cache(maxsize=1)
def _roles_rx() -> re.Pattern[str]:
    roles = {w for p in read_banks() if p.bank == "occupation" for w in re.findall(r"[a-z]{4,}", p.value.lower())}
    roles -= set(_D.words("not_staff"))
    alt = "|".join(sorted(roles | set(_D.words("extra_staff", "en")), key=len, reverse=True))
    return _D.pattern("staff", roles=alt)


def _strip_staff(text: str) -> str:
    """The text without the role nouns of the people a customer meets (EN with a determiner or in the
    plural; ZH bare: 司机, 服务员)."""
    return _P.staff_zh.sub(" ", _roles_rx().sub(" ", text))


# -- a sentence that names another value (why: semantic_anchor.json guards.names_rival) -----------------------
_COMMON_SENSE = anchors(" ".join(_D.words("common_verbs", "en")))     # "How to Engage Students": no engagement


@lru_cache(maxsize=16)
def _value_names(bank: str) -> dict[str, frozenset[str]]:
    """Per value (by its name) the words only its own name and levels use within the bank: Latin stems
    other than the attribute's own name ("relationship"), Chinese runs that are whole bank keywords
    (离婚, 单身; not 朋友 of 男朋友)."""
    ids: dict[str, set[str]] = {}
    attr = ""
    for p in read_banks():
        if p.bank == bank and p.attribute:
            ids.setdefault(p.value, set()).add(p.id)
            attr = p.attribute
    # the attribute's own name is the topic ("relationship can wait")
    topic = anchors(attr.replace("_", " ")) | _COMMON_SENSE
    zh = _keywords(bank)[2]
    names = {v: frozenset(w for i in vids for w in role_lexicon(bank, i)
                          if w not in topic and (not CJK.match(w[:1]) or w in zh)) for v, vids in ids.items()}
    return {v: frozenset(w for w in ws if sum(w in o for o in names.values()) == 1) for v, ws in names.items()}


def names_rival(sentence: str, bank: str, value: str) -> bool:
    """True when the sentence names another value of the bank (a word of that value's own name, no other
    value's) and not `value`."""
    if not applies("names_rival", bank):
        return False
    names = _value_names(bank)
    mine = anchors(fold_zh(sentence))       # 離婚 reads as 离婚
    if mine & names.get(value, frozenset()):
        return False
    return any(mine & ws for v, ws in names.items() if v != value)


# -- the banks table: which guards a bank's matches pass, in order ---------------------------------
# semantic_anchor.json maps "guards" (each check's flag and reason) and "banks" (per bank: attribute, margin,
# guards, the levels of its role anchor). The checks themselves are the Python above: what data cannot say.
_CHECKS: dict[str, Callable[[str, Prototype], bool]] = {
    "anchored": lambda s, p: not anchored(s, p.bank, p.id),
    "visit_only": lambda s, p: visit_only(s, p.bank, p.id),
    "names_rival": lambda s, p: names_rival(s, p.bank, p.value),
    "generic_statement": lambda s, p: generic_statement(s, p.bank),
    "generic_group": lambda s, p: generic_group(s, p.bank),
    "gendered_other": lambda s, p: names_gendered_other(s, p.bank),
    "attained": lambda s, p: bool(_P.attained.search(s)),
}
# how a sentence is tied to a value, for the banks whose table entry has levels
_ROLE: dict[str, Callable[[str, str], str | None]] = {"occupation": occupation_anchor, "religion": religion_anchor}


class Guard(BaseModel, extra="forbid", frozen=True):
    """A check a matched sentence must pass for a firm cue; failing it, the cue is a hint marked `flag`."""
    flag: Literal["unanchored", "visit", "rival", "generic", "other_person", "attained"]
    reason: str = Field(min_length=1)


class BankRules(BaseModel, extra="forbid", frozen=True):
    """One prototype bank's attribute, margin over the neutral bank, guards (names of `guards` entries, run
    in order), the levels its role anchor may answer ([]: none), the bank whose keywords are no anchor of
    it, and `why` (required with levels or not_anchored_by)."""
    attribute: str = Field(min_length=1)
    margin: float = Field(ge=0, le=1)
    guards: list[str] = Field(min_length=1)
    levels: list[Literal["role", "work", "activity"]] = []
    not_anchored_by: str = ""
    why: str = ""


class Table(BaseModel, extra="forbid"):
    """semantic_anchor.json's maps guards and banks, each guard a check of `_CHECKS`."""
    guards: dict[str, Guard]
    banks: dict[str, BankRules]

    @model_validator(mode="after")
    def _known(self) -> "Table":
        for bank, rules in self.banks.items():
            if bad := [g for g in rules.guards if g not in self.guards or g not in _CHECKS]:
                raise ValueError(f"field banks.{bank}.guards: unknown guard {bad[0]!r}")
            if rules.levels and (bank not in _ROLE or not rules.why):
                raise ValueError(f"field banks.{bank}.levels: no role anchor reads this bank, or no why")
            if rules.not_anchored_by and (not rules.why or rules.not_anchored_by not in self.banks):
                raise ValueError(f"field banks.{bank}.not_anchored_by: a bank of the table, with its why")
        return self


def _table() -> Table:
    raw = {"guards": _D.map("guards"), "banks": _D.map("banks")}
    return validate(raw, Table, RecognizerDataError, f"{_D.path}: maps")    # a fault names file, entry, field


TABLE = _table()
_UNLISTED = BankRules(attribute="?", margin=0, guards=["anchored"])   # a bank not in the table: MARGIN_DEFAULT


def applies(guard: str, bank: str) -> bool:
    """The bank's table entry holds `guard`."""
    return guard in TABLE.banks.get(bank, _UNLISTED).guards


def judge(sentence: str, p: Prototype) -> tuple[str | None, str | None]:
    """The flag of the first guard of `p`'s bank that the sentence fails (None: it passes them all), and how it
    is tied to the value where the bank has a role anchor ("role", "work", "activity"; none is unanchored)."""
    rules = TABLE.banks.get(p.bank, _UNLISTED)
    for g in rules.guards:
        if _CHECKS[g](sentence, p):
            return TABLE.guards[g].flag, None
    if not rules.levels:
        return None, None
    kind = _ROLE[p.bank](sentence, p.id)
    return ("unanchored", None) if kind is None else (None, kind)
