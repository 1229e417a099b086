"""Language packs: the function words the reading uses, one JSON file a language
(core/data/lang/<code>.json, plus every *.json of the folders named by ARGUS_LANG_PACKS,
os.pathsep-separated). A pack holds first-person forms, negation, kin and other people's words with
their relation, generic subjects, and statement templates (age, home) that the generic recognizers
of rules/lang_cues.py read; validated at load, a fault is one line naming the file, the entry and
the field. English and Chinese are read by the hand-written patterns of reading/ and rules/, which
build their word alternations from the en / zh packs; every other pack is read by the generic
machinery alone (`generic_reader`), so a new language is a data file (docs/rules.md).

Which packs a text is read with: a sentence that py3langid (reading/language_id.py, through
reading/document.Document.languages) names with confidence as the language of a pack is read with
that pack (`sentence_packs`); every other sentence, and a text too short for any confident sentence,
with the packs whose own words it uses (`detect` words and self forms, two distinct hits at least)
or whose script it is written in (kana, hangul), which is also what makes a new pack usable at once.
"""
from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from core.engine.reading.data_file import check_regex, check_regex_map, load_model

PACK_DIR = Path(__file__).resolve().parents[2] / "data" / "lang"
ENV = "ARGUS_LANG_PACKS"
Script = Literal["latin", "han", "kana", "hangul"]
_SCRIPT_RX = {"kana": re.compile(r"[\u3040-\u30ff]"), "hangul": re.compile(r"[\uac00-\ud7af\u1100-\u11ff]")}


class PackError(ValueError):
    """A language pack that cannot be read (one line: file, entry, field)."""


class Feminine(BaseModel):
    """How a masculine job title becomes feminine in a gendered language (enfermero -> enfermera, Lehrer ->
    Lehrerin, traducteur -> traductrice): masculine -> feminine endings, tried longest first, on each word before the first
    stop word ('técnico de farmacia' -> 'técnica de farmacia'); forms that are other common words are listed
    in `not` (es 'música', 'técnica'). Read by rules/occupation_taxonomy.py."""
    model_config = ConfigDict(extra="forbid")

    suffixes: dict[str, str]
    stop_words: list[str] = []
    single_word: bool = False          # only one-word titles (German adjectives decline: no rule for them)
    not_: list[str] = Field(default=[], alias="not")


def _each(v: list[str], regex=lambda t: t) -> list[str]:
    """Every entry non-empty and a regex once `regex` makes it one (a template's slots filled)."""
    for i, t in enumerate(v):
        if not t.strip():
            raise ValueError(f"entry {i}: empty")
        try:
            check_regex(regex(t))
        except ValueError as e:
            raise ValueError(f"entry {i} {t!r}: {e}") from None
    return v


def _template(slots: tuple[str, ...]):
    """A template list's check: each slot once, the rest a regex (regex fragments allowed)."""
    def check(t: str) -> str:
        for slot in slots:
            if t.count(slot) != 1:
                raise ValueError("needs " + " and ".join(slots) + (" once each" if len(slots) > 1 else " once"))
            t = t.replace(slot, slot[1:-1] if len(slots) > 1 else "")
        return t
    return AfterValidator(lambda v: _each(v, check))


def _relations(v: dict[str, str]) -> dict[str, str]:
    for w, rel in v.items():
        if not w.strip() or not rel.strip():
            raise ValueError(f"entry {w!r}: empty word or relation")
    return v


def _one_to_one(v: dict[str, str]) -> dict[str, str]:
    for a, b in v.items():
        if len(a) != 1 or len(b) != 1:
            raise ValueError(f"entry {a!r}: one character to one character (offsets must hold)")
    return v


# a pack's word lists: words or regex fragments, each non-empty and compiling
Regexes = Annotated[list[str], AfterValidator(_each)]
Relations = Annotated[dict[str, str], AfterValidator(_relations)]


class Pack(BaseModel):
    """One language's function words. Word entries are words or regex fragments (`neighbou?r`),
    matched case-insensitively on word boundaries in Latin script; templates are words separated by
    spaces with one placeholder ({n}: an age, {place}: a place the gazetteer resolves)."""
    model_config = ConfigDict(extra="forbid")

    code: str = Field(pattern=r"^[a-z]{2,3}$")
    name: str
    scripts: list[Script] = ["latin"]
    # False: read by the hand-written patterns of reading/ and rules/ (en, zh), not the generic recognizers
    generic_reader: bool = True
    detect: Regexes = []             # common words that tell a text is in this language
    self_words: Regexes = []         # first-person subject words (I, I'm / 我, 本人)
    first_person: Regexes = []       # any first-person word (I, my, we, our)
    self_copula: Regexes = []        # "I am" forms
    self_possessive: Regexes = []    # my, our
    other_possessive: Regexes = []   # his, her, their, your
    other_pronouns: Regexes = []     # he, she, they
    negation: Regexes = []
    irrealis: Regexes = []           # wish I were, if I was, pretend: no fact stated
    hypothetical: Regexes = []       # a sentence that imagines (if I were, I want to be / 如果我): its stance
    reported_speech: Regexes = []    # a sentence that reports others' words (according to, he said / 据报道)
    kin: Relations = {}              # family word -> canonical relation (sister, husband, ...)
    people: Relations = {}           # other people's words -> relation (friend, colleague, boss)
    other_subjects: Regexes = []     # words putting someone else in the subject (en: kin, people and more)
    generic_subjects: Regexes = []   # people in general (people, everyone / 人们)
    bare_kin: Regexes = []           # kin words opening a clause without a determiner: someone else ("hubby cooked")
    implied_own: Regexes = []        # kin words that, bare, are the poster's own (老公, 兄, "Papa" opening a sentence)
    possessive_after: bool = False      # the possessive follows the noun ("adik saya")
    kin_suffixes: Regexes = []       # particles after a kin word in scripts without spaces (の, は / 이, 랑)
    subject_suffixes: Regexes = []   # of those, the ones that make it the clause's subject (は, が / 이, 가, 는)
    # one character -> one character the patterns read through (traditional -> simplified)
    fold: Annotated[dict[str, str], AfterValidator(_one_to_one)] = {}
    age_statements: Annotated[list[str], _template(("{n}",))] = []         # "ik ben {n} jaar": the poster's age
    home_statements: Annotated[list[str], _template(("{place}",))] = []    # "ik woon in {place}": the poster's home
    # a ride between two named stops ("desde {a} hasta {b}", "{a}から{b}まで"; regex fragments allowed,
    # a space is any whitespace), read only in a sentence naming a line or a way of travel below
    commute_routes: Annotated[list[str], _template(("{a}", "{b}"))] = []
    transit_lines: Regexes = []      # line names as written (L6, Línea 3, 御堂筋線, 2호선): patterns
    # travel mode (value_templates.json modes) -> its words
    transit_modes: Annotated[dict[str, list[str]], AfterValidator(
        lambda v: check_regex_map(v, "mode {key!r} word {pattern!r}"))] = {}
    # capitalised words that are no person (lower case, whole words; en): before 's, "today's", "Mother's Day"
    # is no possessor (holder.possessor_before); opening a clause, "Monday was", "Coffee is" no named subject
    not_possessors: list[str] = []
    not_names: list[str] = []
    feminine: Feminine | None = None   # feminine forms of job titles (gendered languages)


def pack_dirs() -> list[Path]:
    extra = [Path(p) for p in os.environ.get(ENV, "").split(os.pathsep) if p.strip()]
    return [PACK_DIR, *extra]


@lru_cache(maxsize=1)
def packs() -> dict[str, Pack]:
    """Every pack, by code; a pack of an extra folder replaces the shipped one of its code."""
    out: dict[str, Pack] = {}
    for d in pack_dirs():
        if not d.is_dir():
            raise PackError(f"{d}: no such folder ({ENV})" if d != PACK_DIR else f"{d}: no such folder")
        for f in sorted(d.glob("*.json")):
            p = load_model(f, Pack, PackError)
            if p.code != f.stem:
                raise PackError(f"{f}: field code: {p.code!r} is not the file's name {f.stem!r}")
            out[p.code] = p
    return out


def pack(code: str) -> Pack:
    return packs()[code]


def words(frags: list[str]) -> str:
    """A pack list as one regex alternation (in the pack's order: earlier entries win)."""
    return "|".join(frags)


def _sides(t: str, slot: str) -> tuple[str, str]:
    """A statement template's words before and after its slot as regexes: spaces between words take any
    whitespace; a space next to the slot must be there, none may be."""
    a, b = t.split(slot)
    pre, post = r"\s+".join(a.split()), r"\s+".join(b.split())
    pre = pre + (r"\s*" if a and not a.endswith(" ") else r"\s+" if a else "")
    post = (r"\s*" if b and not b.startswith(" ") else r"\s+" if b else "") + post
    return pre, post


def template(t: str, slot: str, slot_rx: str) -> str:
    """A statement template as a regex, the slot its pattern."""
    pre, post = _sides(t, slot)
    return pre + slot_rx + post


# ---------------------------------------------------------------- choosing the packs of a text
_LATIN_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


@lru_cache(maxsize=1)
def _generic() -> tuple[tuple[Pack, frozenset[str], re.Pattern[str] | None], ...]:
    out = []
    for p in packs().values():
        if not p.generic_reader:
            continue
        cues = frozenset(w.lower() for w in p.detect + p.self_words + p.self_possessive if re.fullmatch(r"[\w'’]+", w))
        script = next((_SCRIPT_RX[s] for s in p.scripts if s in _SCRIPT_RX), None)
        out.append((p, cues, script))
    return tuple(out)


@lru_cache(maxsize=4096)
def text_packs(text: str) -> tuple[Pack, ...]:
    """The generic-reader packs a text is written in: two distinct words of the pack (or one that is
    a possessive before one of its family words), or its script (kana, hangul). Usually none (English and Chinese are read by the hand-written patterns)."""
    gp = _generic()
    if not gp:
        return ()
    toks: set[str] | None = None
    out = []
    for p, cues, script in gp:
        if script is not None:
            if script.search(text):
                out.append(p)
            continue
        if toks is None:
            toks = {w.lower() for w in _LATIN_WORD.findall(text)}
        hits = len(toks & cues)
        # two of its words, or one beside a family word of its own ("mijn zus"): a short text speaks it
        if hits >= 2 or (hits == 1 and (k := patterns(p.code).own_kin) is not None and k.search(text)):
            out.append(p)
    return tuple(out)


def reset() -> None:
    """Forget the loaded packs (a test that changed ARGUS_LANG_PACKS)."""
    packs.cache_clear()
    _generic.cache_clear()
    patterns.cache_clear()
    text_packs.cache_clear()


# ---------------------------------------------------------------- a generic pack's compiled patterns
def alt(ws) -> str:
    """A regex alternation of literal words, longest first (so 'software engineer' beats 'engineer')."""
    return "|".join(re.escape(w) for w in sorted(set(ws), key=len, reverse=True))


_KANJI = r"\u3400-\u9fff"
_HANGUL = r"\uac00-\ud7af"


class PackPatterns:
    """The patterns the generic reader builds from one pack (Latin script: whole words, any case;
    other scripts: no word boundaries, particles attach: a kin word must be followed by one of the
    pack's `kin_suffixes` and not be part of a longer word)."""

    def __init__(self, p: Pack):
        if "han" in p.scripts and p.code != "zh" and "zh" in packs():
            p = _folded(p, str.maketrans(pack("zh").fold))   # a CJK text is read folded (reading/kin.fold_zh)
        latin = "latin" in p.scripts
        b, gap = (r"\b", r"\s+") if latin else ("", r"\s*")
        self.b = b
        rel = {**p.people, **p.kin}
        self.relation = {k.lower(): v for k, v in rel.items()}
        if latin:
            end = subj_end = r"\b"
            start = r"\b"
        else:
            end = "(?=" + "|".join([*p.kin_suffixes, r"\s", r"[^\w]", r"$"]) + ")"
            # "兄の結婚式" is the brother's wedding, the poster's clause; "兄は医者" is his
            subj_end = "(?=" + "|".join(p.subject_suffixes or ["(?!)"]) + ")"
            # a kin word inside a longer word is none (祖父 holds 父, 여동생 holds 동생); kana before it is a particle
            start = f"(?<![{_KANJI}])" if "kana" in p.scripts else f"(?<![{_HANGUL}])"

        def phrase(poss: list[str], kin_words, g: str, end: str = end) -> str | None:
            kin_alt = alt(kin_words)
            if not kin_alt or not poss:
                return None
            if p.possessive_after:            # Malay / Indonesian: "adik saya", "suami aku"
                return rf"{start}(?P<{g}>{kin_alt}){gap}(?:{words(poss)}){b}"
            return rf"{b}(?:{words(poss)}){gap}(?P<{g}>{kin_alt}){end}"

        implied = alt(p.implied_own)
        if implied and latin:                # a bare family word opening a sentence: "Papa hatte ..."
            implied_rx = rf"(?:^|(?<=[.!?\n])\s*|(?<=[.!?]\s))(?P<{{g}}>{implied}){{e}}"
        elif implied:                          # humble / own forms with a particle: 兄の, 남편이랑
            implied_rx = rf"{start}(?P<{{g}}>{implied}){{e}}"
        else:
            implied_rx = None
        # someone else as the clause's subject: "mijn zus", "zijn vriend", 兄は, a third-person pronoun
        parts = [x for x in (phrase(p.self_possessive + p.other_possessive, rel, "k1", subj_end),
                             implied_rx.format(g="k2", e=subj_end) if implied_rx else None,
                             rf"{b}(?P<pro>{words(p.other_pronouns)}){b}" if p.other_pronouns else None) if x]
        self.other = re.compile("|".join(parts), re.I | re.M) if parts else None
        self.self_word = re.compile(rf"{b}(?:{words(p.self_words)}){b}", re.I) if p.self_words else None
        self.generic = (re.compile(rf"\A[\W_]*(?:{words(p.generic_subjects)}){b}", re.I) if p.generic_subjects else None)
        self.negation = re.compile(rf"{b}(?:{words(p.negation + p.irrealis)}){b}", re.I) if p.negation or p.irrealis else None
        # the poster's own kin: "mijn zus", "mi esposo", "suami saya", 私の母, a humble 兄の
        own = [x for x in (phrase(p.self_possessive, p.kin, "k1"), implied_rx.format(g="k2", e=end) if implied_rx else None) if x]
        self.own_kin = re.compile("|".join(own), re.I | re.M) if own else None
        # a possessor of someone else right before an implied kin word ("友達の兄", "친구 엄마"): not the poster's
        owners = [words(p.other_possessive)] if p.other_possessive else []
        if p.people:
            owners.append(alt(p.people))
        self.other_owner = re.compile(rf"(?:{'|'.join(owners)})\s*(?:の|的)?\s*\Z", re.I) if owners else None
        self.age = [re.compile(b + template(t, "{n}", r"(?P<n>[1-9]\d)") + (r"(?!\d)" if not latin else r"\b"), re.I)
                    for t in p.age_statements]
        self.home = [template_parts(t, "{place}", b) for t in p.home_statements]
        name = _STOP_NAME["hangul" if "hangul" in p.scripts else "kana" if "kana" in p.scripts else "latin"]
        self.routes = [re.compile(b + re.sub(r" +", r"\\s+", t).replace("{a}", f"(?P<a>{name})").replace("{b}", f"(?P<b>{name})"),
                                  re.I) for t in p.commute_routes]
        self.lines = re.compile(rf"{b}(?:{words(p.transit_lines)}){b}", re.I) if p.transit_lines else None
        self.modes = [(m, re.compile(rf"{b}(?:{words(ws)}){b}", re.I)) for m, ws in p.transit_modes.items() if ws]

    def kin_of(self, m: re.Match) -> str | None:
        """The relation a match of `other` / `own_kin` names (None: a pronoun)."""
        g = m.groupdict()
        w = g.get("k1") or g.get("k2")
        return self.relation.get(w.lower()) if w else None


# a stop's name in a route template: capitalised words (with "de", "del", "la" ... between) in Latin
# script; a run of kanji / katakana or of hangul in scripts without spaces, as short as the template allows
_STOP_NAME = {
    "latin": r"(?-i:[A-ZÀ-ÖØ-Þ][\w'’.-]*(?:\s+(?:(?:de|del|la|las|los|le|du|des|da|do|dos|das|am|an)\s+)?"
             r"[A-ZÀ-ÖØ-Þ][\w'’.-]*){0,3})",
    "kana": rf"(?<![{_KANJI}\u30a0-\u30ff])[{_KANJI}\u30a0-\u30ff]{{1,10}}?",
    "hangul": rf"(?<![{_HANGUL}])[{_HANGUL}]{{1,8}}?",
}


def _folded(p: Pack, table: dict) -> Pack:
    """The pack with its words written as the folded text reads them (歳 -> 岁: same length; its code
    and scripts are ASCII)."""
    return Pack.model_validate_json(p.model_dump_json(by_alias=True).translate(table))


def template_parts(t: str, slot: str, b: str) -> tuple[re.Pattern[str] | None, re.Pattern[str] | None]:
    """A statement template around a slot as (what must end right before it, what must start right after)."""
    a, z = t.split(slot)
    pre, post = _sides(t, slot)
    return (re.compile(b + pre + r"\Z", re.I) if a.strip() else None), (re.compile(post, re.I) if z.strip() else None)


@lru_cache(maxsize=64)
def patterns(code: str) -> PackPatterns:
    return PackPatterns(pack(code))


# ---------------------------------------------------------------- the packs by sentence language
# a sentence py3langid names with at least this confidence is read with its language's pack; the rest of
# the text is read with the packs whose own words it uses (text_packs), as before
CONFIDENT = 0.9


def sentence_packs(text: str, languages: list[tuple[int, int, str, float]]) -> tuple[Pack, ...]:
    """The generic-reader packs of a text given its sentences' languages (reading/document.Document
    .languages): a sentence identified with confidence as the language of a pack brings that pack
    (none for English and Chinese, read by the hand-written patterns); every other sentence -- too
    short, unsure, or in a language no pack names (py3langid's "id" for a Malay pack's text) -- is
    read with the pack-word rule (text_packs), as is a text with no confident sentence at all."""
    known = packs()
    confident = {code for _, _, code, p in languages if p >= CONFIDENT and code in known}
    if not confident:
        return text_packs(text)
    rest = " ".join(text[s:e] for s, e, code, p in languages if p < CONFIDENT or code not in known)
    by_words = {p.code for p in text_packs(rest)} if rest.strip() else set()
    return tuple(p for p, _, script in _generic()
                 if p.code in confident or p.code in by_words or (script is not None and script.search(text)))
