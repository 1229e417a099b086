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
from typing import Iterable

from core.engine.rules.base import CJK

_WORD = re.compile(r"[a-z]+")
_SUFFIXES = ("ations", "ation", "ments", "ment", "ings", "ing", "ers", "er", "ies", "ied", "es", "ed", "ly", "al",
             "s", "e", "y")
STOP_EN = frozenset("""
a about after again all also am an and any anyone are as at back be been before being but by can cant could day days
did do does doing done dont down each even ever every few for from get gets getting go going got had has have having
he her here him his home how i im ive id ill if in into is it its job just keep know last life like lot love made make
many me more
most much my myself new next no non not now of off on once one only or other our out over own people re really right
said same see she should since so some still such take than that the their them then there these they thing things
think this those though through time times to too today tonight up us very want was way we week well were what when
where which while who why will with without work working would year years yet you your ago
went came come coming left took take gave give saw seen told felt feel found put let use used try tried start started
finally first second third best better two three four five six seven eight nine ten half
""".split())
# common Chinese function / filler characters: shared ones say nothing about the topic
STOP_ZH = frozenset("我的了是在很也就都和有不这那个一今天吗吧呢啊呀还你他她们着过到去来上下说要会对好人多大小么什为没"
                    "就被把给让从自己又再才能可以得地啦哈嘛哦呗些点儿里年月日时候每已经始起出开想看用真最太更次后前然")


def stem(word: str) -> str:
    w = word.lower()
    for suf in _SUFFIXES:
        if w.endswith(suf) and len(w) - len(suf) >= 3:
            w = w[: -len(suf)]
            break
    if len(w) >= 4 and w[-1] == w[-2] and w[-1] not in "aeiou":
        w = w[:-1]          # running -> runn -> run
    return w[:5]


def anchors(text: str) -> frozenset[str]:
    """Content stems and Chinese two-character runs ("面包") of a text."""
    t = text.lower().replace("\u2019", "'")
    words = {stem(w) for w in _WORD.findall(re.sub(r"'[a-z]+", "", t)) if len(w) >= 3 and w not in STOP_EN}
    pairs = {a + b for a, b in zip(t, t[1:]) if CJK.match(a) and CJK.match(b) and a not in STOP_ZH and b not in STOP_ZH}
    return frozenset(words | pairs)


MAX_VALUES = 3


@lru_cache(maxsize=1)
def _generic() -> frozenset[str]:
    """Anchors that say nothing about one value: used by the neutral bank, or by the prototypes of
    more than `MAX_VALUES` values across the banks ("went", "years", "已经", "工作")."""
    from core.engine.rules.banks import read_banks

    protos = read_banks()
    seen: dict[str, set[tuple[str, str]]] = {}
    neutral: set[str] = set()
    for p in protos:
        a = anchors(p.text)
        if not p.attribute:
            neutral |= a
        for x in a:
            seen.setdefault(x, set()).add((p.bank, p.id))
    return frozenset(neutral | {x for x, vals in seen.items() if len(vals) > MAX_VALUES})


@lru_cache(maxsize=4096)
def value_lexicon(bank: str, value_id: str) -> frozenset[str]:
    """The anchors of a value: its prototypes, name and levels, minus the generic ones."""
    from core.engine.rules.banks import read_banks

    own: set[str] = set()
    for p in read_banks():
        if p.bank == bank and p.id == value_id:
            for t in (p.text, p.value, *(v for _, v in p.levels)):
                own |= anchors(t)
    return frozenset(own - _generic())


@lru_cache(maxsize=64)
def _keywords(bank: str) -> tuple[frozenset[str], tuple[str, ...]]:
    """A bank's topic `keywords` (curated, never filtered): Latin ones as stems, Chinese ones whole."""
    from core.engine.rules.banks import bank_keywords

    words = [k for k in bank_keywords(bank)]
    zh = tuple(k for k in words if CJK.search(k))
    return frozenset().union(*(anchors(k) for k in words if not CJK.search(k))), zh


def anchored(sentence: str, bank: str, value_id: str) -> bool:
    mine = anchors(sentence)
    if mine & value_lexicon(bank, value_id):
        return True
    latin, zh = _keywords(bank)
    return bool(mine & latin) or any(k in sentence for k in zh)


# -- a venue visited is no occupation --------------------------------------------------------
# A sentence whose only word in common with an occupation is a venue ("a new bakery opened near
# home", "又去药房拿药了", "library until closing") is about a visit: customers go to bakeries,
# pharmacies and libraries. It anchors the occupation only where working there is stated.
VENUE_EN = re.compile(
    r"\b(?:(?:farmers'?|flea|night|fish|flower|book|coffee|bike|car)\s+(?:markets?|shops?|stores?|stalls?)|bakery|bakeries|bakehouse|pharmacy|pharmacies|drugstore|chemist'?s|library|libraries|shop|shops|store|stores"
    r"|market|markets|supermarket|caf[eé]s?|coffee ?shop|restaurants?|diner|bistro|bar|pub|gym|salon|barbershop"
    r"|clinic|hospital|garage|bookstore|bookshop|boutique|mall|museum|gallery|studio|kitchen)\b", re.I)
VENUE_ZH = re.compile(r"[\u4e00-\u9fff]{1,3}?(?:店|房|馆|铺|坊|市场|超市|诊所|医院|药局|餐厅|商场)")
WORK_EN = re.compile(
    r"\b(?:work(?:s|ed|ing)?|shifts?|jobs?|boss|manager|colleagues?|co-?workers?|customers?|clients?|patients?"
    r"|staff|hired|employed|apprentice|my (?:own )?(?:shop|store|bakery|café|cafe|restaurant|clinic|salon|studio)"
    r"|i (?:run|own|manage) (?:a|the|my))\b", re.I)
WORK_ZH = re.compile(r"上班|下班|工作|值班|加班|同事|老板|顾客|客人|病人|患者|我的店|我们店|自己的店|入职|实习|打工|兼职|排班|早班|晚班|夜班|店长")


def says_work(sentence: str) -> bool:
    """The sentence speaks of working (a shift, a job, colleagues, customers, 上班, 同事 ...)."""
    return bool(WORK_EN.search(sentence) or WORK_ZH.search(sentence))


_HEAD_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]{3,}")
_FIRST_PERSON = re.compile(r"(?i)\b(?:i|i'm|im|i've|i'd|me|my|myself|we|our|us)\b|我")


def headline(sentence: str) -> bool:
    """A title, not a statement: most words of four letters or more capitalised ("Advanced Yoga Poses
    for Greater Flexibility", "Tips for Beginners in Painting") and no first person."""
    words = _HEAD_WORD.findall(sentence)
    caps = sum(w[0].isupper() for w in words)
    return len(words) >= 3 and caps >= 0.7 * len(words) and not _FIRST_PERSON.search(sentence)


def visit_only(sentence: str, bank: str, value_id: str) -> bool:
    """True when `sentence` anchors the occupation `value_id` only through a venue word and says
    nothing of working there (then the semantic cue is a hint, never projected alone)."""
    if bank != "occupation" or says_work(sentence):
        return False
    if not (VENUE_EN.search(sentence) or VENUE_ZH.search(sentence)):
        return False
    rest = VENUE_ZH.sub(" ", VENUE_EN.sub(" ", sentence))
    return not anchored(rest, bank, value_id)
