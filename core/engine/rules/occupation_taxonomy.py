"""Occupations from an open taxonomy: core/data/recognizers/occupations.json (ISCO-08 unit groups as the
backbone, titles, alternate titles and abbreviations in en / zh / es / de / fr / pt / ja / ko / ms) read as
one declared recognizer (rules/recognizer_data.py's file: its contexts' patterns, scores, and guards as
word lists with the reason each exists; validated at load, a bad entry errors naming file, entry and field).

What it reads, all exact-title matches (no fuzzy matching: a wrong job is worse than none):
- self_statement / work_statement / as_a_clause: the poster names their own job in a sentence
  ("I'm a pharmacy technician", "soy enfermera", "我是一名药剂师", "看護師です", "As a paramedic, I ...");
- image_line: a line of OCR'd text on a badge, name tag, patch, roster, payslip, certificate or signature
  that is a title (seniority words and a department or company after a separator allowed);
- signature: a name followed by a job's letters ("Jane Doe, RN"): the only place a bare abbreviation
  counts, besides a badge line and "I'm an RN";
- tasks: two or more of one entry's jargon phrases in the poster's own text ("SBT ... PSV ... 呼吸机").
Titles are also indexed in their traditional Chinese spellings (OpenCC) and, in es / pt / fr / de, their
feminine forms (the language pack's `feminine` endings).
Whose job it is and how it is said come from the shared reading (Ctx.cue -> reading/holder.py: a quote,
a wish or a hypothetical is dropped downstream; someone else's clause is theirs). It runs only on a text
where the closed role table of rules/socio.py read no occupation (so its readings stay as they were).
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from core.engine.reading.holder import CJK
from core.engine.rules.base import IMAGE_TEXT_CARRIERS, Ctx
from core.engine.rules.data_file import Recognizer, check_scores, load_model  # noqa: F401  (the shared block)
from core.engine.rules.recognizer_data import RecognizerFile
from core.engine.types import Cue
from tools import disk_cache, regex_cache

_IMAGE_CARRIERS = frozenset(IMAGE_TEXT_CARRIERS) | {"receipt", "ticket", "image_scene"}
DATA = Path(__file__).resolve().parents[2] / "data" / "recognizers" / "occupations.json"
_HANGUL = re.compile(r"[\uac00-\ud7af]")


class TaxonomyError(ValueError):
    """A recognizer data file that does not follow its schema: one line naming file, entry and field."""


class Occupation(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str = Field(min_length=3)
    isco: str = Field(pattern=r"^\d{4}$")       # ISCO-08 unit group, 4 digits
    isco_major: str = Field(min_length=3)
    sector: str = Field(min_length=2)           # the coarse level projected (engine sectors: Healthcare, ...)
    role: str = Field(min_length=2)             # the finer level projected
    titles: dict[str, list[str]]
    abbreviations: list[str] = []
    # typical task and jargon phrases by language ("counting pills", "配药", "SBT"): two or more of one entry
    # in the poster's own text choose it among every entry with tasks (`_tasks`)
    tasks: dict[str, list[str]] = {}

    @field_validator("titles")
    @classmethod
    def _titles(cls, v: dict[str, list[str]]) -> dict[str, list[str]]:
        for lang in ("en", "zh"):
            if not v.get(lang):
                raise ValueError(f"needs at least one {lang!r} title")
        for lang, ts in v.items():
            if any(not t.strip() for t in ts):
                raise ValueError(f"an empty {lang!r} title")
        return v


# the contexts' statement patterns ({T}: the title) and every other word list Index reads, all `words`
# entries of the file with their reasons (guards included: 'not_a_job_yet', 'job_advert', ...)
_STATEMENTS = ("self_statement", "work_statement", "as_a_clause")
_WORDS = (*_STATEMENTS, "image_carriers", "image_weak_carriers", "image_separators", "image_modifiers", "image_leading",
          "image_trailing", "signature_honorifics", "clause_initial", "self_topic", "not_a_job_yet", "not_a_job_after",
          "job_advert", "addressed_document", "hobby_titles", "pastime_jargon", "title_followed_by")


class TaxonomyFile(RecognizerFile):
    """A recognizer file (rules/recognizer_data.py: `words` with their reasons, `scores`) with the occupations."""
    occupations: list[Occupation] = Field(min_length=1)

    @model_validator(mode="after")
    def _check(self) -> "TaxonomyFile":
        if self.scores is None:
            raise ValueError("field scores: missing")
        check_scores(self.scores.entries)
        for k in _WORDS:
            if k not in self.words:
                raise ValueError(f"field words.{k}: missing")
        for k in _STATEMENTS:
            for lang, ps in self.words[k].entries.items():
                if bad := next((p for p in ps if p.count("{T}") != 1), None):
                    raise ValueError(f"field words.{k}.entries.{lang}: pattern {bad!r} must hold the title slot {{T}} "
                                     "exactly once")
        langs = set(self.recognizer.languages)
        ids: set[str] = set()
        seen: dict[tuple[str, str], str] = {}
        for i, o in enumerate(self.occupations):
            if o.id in ids:
                raise ValueError(f"occupations[{i}] ({o.id}): id repeats an earlier entry")
            ids.add(o.id)
            for lang, ts in o.titles.items():
                if lang not in langs:
                    raise ValueError(f"occupations[{i}] ({o.id}): field 'titles.{lang}': language not declared by the recognizer")
                for t in ts:
                    other = seen.setdefault((lang, t.lower()), o.id)
                    if other != o.id:
                        raise ValueError(f"occupations[{i}] ({o.id}): field 'titles.{lang}': {t!r} is already a title of {other}")
        return self


def load(path: Path = DATA) -> TaxonomyFile:
    """The file, validated; TaxonomyError names the file, the entry (by its id or name) and the field."""
    return load_model(path, TaxonomyFile, TaxonomyError, key=("id", "name"))


# ---------------------------------------------------------------------------------------- index
_WORD = re.compile(r"[^\W\d_][\w'’.&+-]*|\d+", re.U)
_SEP_WS = re.compile(r"\s+")


def _key(s: str) -> str:
    return _SEP_WS.sub(" ", s.strip().lower())


class Index:
    """Lookups built once from the file: titles by language (Latin by lower-cased words, CJK / Hangul by
    string), abbreviations (case-sensitive), compiled context patterns, guards."""

    def __init__(self, f: TaxonomyFile):
        self.file = f
        self.scores = f.scores.entries if f.scores else {}
        w = {k: v.entries for k, v in f.words.items()}        # by language
        every = {k: v.all() for k, v in f.words.items()}      # every language's, in file order
        self.latin: dict[str, dict[str, Occupation]] = {}
        self.cjk: dict[str, Occupation] = {}
        self.any_latin: dict[str, Occupation] = {}
        for o in f.occupations:
            for lang, ts in o.titles.items():
                for t in ts:
                    if CJK.search(t) or _HANGUL.search(t):
                        self.cjk.setdefault(t, o)
                    else:
                        self.latin.setdefault(lang, {}).setdefault(_key(t), o)
                        self.any_latin.setdefault(_key(t), o)
        # derived forms never replace a title written in the file (setdefault, after all of them)
        for o in f.occupations:
            for t in o.titles.get("zh", ()):
                for v in traditional(t):
                    self.cjk.setdefault(v, o)          # 药师 -> 藥師 (OpenCC)
            for lang, ts in o.titles.items():
                for t in ts:
                    for v in feminine(t, lang):
                        self.latin.setdefault(lang, {}).setdefault(v, o)   # restaurador -> restauradora
                        self.any_latin.setdefault(v, o)
        self.cjk_max = max((len(t) for t in self.cjk), default=1)
        self.hobby = {_key(t) for t in every["hobby_titles"]}
        self.tasks = _TaskIndex(f.occupations, self.hobby)
        self.abbr = {a: o for o in f.occupations for a in o.abbreviations}
        self.before = {x.lower() for x in every["not_a_job_yet"]}
        self.before |= {v for x in w["not_a_job_yet"].get("zh", ()) for v in traditional(x)}
        self.before_cjk = [x for x in self.before if CJK.search(x)]
        self.after = sorted({x.lower() for x in every["not_a_job_after"]}, key=len, reverse=True)
        self.advert = [x.lower() for x in every["job_advert"]]
        self.addressed = [x.lower() for x in every["addressed_document"]]
        self.follow_ok = frozenset(every["title_followed_by"])
        self.pastime_work = [x.lower() for x in every["pastime_jargon"]]
        self.clause_initial = set(every["clause_initial"])
        self.self_topic = w["self_topic"]
        self.carriers, self.weak = set(every["image_carriers"]), set(every["image_weak_carriers"])
        titles = "|".join(re.escape(x) for x in every["signature_honorifics"])
        self.name = re.compile((rf"^(?:(?:{titles})\.?\s+)?" if titles else "^") + _NAME_SHAPE)
        self.modifiers = {_key(m) for m in every["image_modifiers"]}
        self.leading = sorted({_key(m) for m in every["image_leading"]}, key=len, reverse=True)
        self.trailing = {_key(m) for m in every["image_trailing"]}
        self.sep = re.compile("|".join(re.escape(s) for s in sorted(every["image_separators"], key=len, reverse=True)))
        # every pattern's words before the title in one alternation per script (one scan of a text), mapped
        # back to the patterns by their normalised words; patterns with no words before ('{T}として働いて')
        # are found by their words after
        self.tables = {lang: {**self.latin.get("en", {}), **tab} for lang, tab in self.latin.items()}
        self.prefixes: dict[str, dict[str, list[tuple[str, str, str]]]] = {"latin": {}, "cjk": {}}
        self.suffixes: dict[str, list[tuple[str, str]]] = {}
        for ctx_name in ("work_statement", "self_statement", "as_a_clause"):
            for lang, ps in w[ctx_name].items():
                kind = "cjk" if lang in ("zh", "ja", "ko") else "latin"
                if lang == "zh":     # the same statements written in traditional characters (我當{T} / 我当{T})
                    ps = list(dict.fromkeys([*ps, *(v for p in ps for v in traditional(p))]))
                for p in ps:
                    pre, suf = p.split("{T}")
                    if pre.strip():
                        self.prefixes[kind].setdefault(_key(pre), []).append((ctx_name, lang, suf))
                    else:
                        self.suffixes.setdefault(suf, []).append((ctx_name, lang))
        self.prefix_rx = {kind: _alternation(keys, kind == "latin") for kind, keys in self.prefixes.items()}
        self.suffix_rx = re.compile("|".join(re.escape(x) for x in sorted(self.suffixes, key=len, reverse=True)))


def badge_words() -> tuple[str, ...]:
    """The documents that carry a job title (guard someone_elses_badge), lower case."""
    g = index().file.words.get("someone_elses_badge")
    return tuple(w.lower() for w in (g.all() if g else ()))


@lru_cache(maxsize=1)
def _converters() -> tuple[Any, ...]:
    """OpenCC's simplified -> traditional converters (mainland, Taiwan, Hong Kong standards): the taxonomy
    lists simplified titles once and reads 藥師, 護理師-style texts through them (docs/rules.md: why OpenCC)."""
    import opencc

    return tuple(opencc.OpenCC(c) for c in ("s2t", "s2tw", "s2hk"))


def traditional(s: str) -> list[str]:
    """The traditional-character spellings of a simplified string (none when it has no CJK or is the same)."""
    if not CJK.search(s):
        return []
    memo = _traditional_memo()
    got = memo.get(s)
    if got is None:
        got = memo[s] = list(dict.fromkeys(v for c in _converters() if (v := c.convert(s)) != s))
        _TRADITIONAL_NEW[0] = True
    return list(got)


# The conversions of the taxonomy's strings, kept on disk between processes (tools.disk_cache) under
# OpenCC's version: loading its three converters and converting ~2,000 strings is 0.1-0.15 s per process.
_TRADITIONAL_NEW = [False]


@lru_cache(maxsize=1)
def _traditional_key() -> str:
    from importlib.metadata import version

    return disk_cache.key_of("opencc-traditional/1", [], f"opencc {version('opencc')}")


@lru_cache(maxsize=1)
def _traditional_memo() -> dict[str, list[str]]:
    got = disk_cache.load("opencc-traditional", _traditional_key())
    return got if isinstance(got, dict) else {}


def _save_traditional() -> None:
    if _TRADITIONAL_NEW[0]:
        disk_cache.save("opencc-traditional", _traditional_key(), _traditional_memo())
        _TRADITIONAL_NEW[0] = False


def feminine(title: str, lang: str) -> list[str]:
    """The feminine form of a masculine title by the language pack's endings (restaurador -> restauradora,
    Tätowierer -> Tätowiererin, tatoueur -> tatoueuse); [] where the pack has no rule or nothing changes."""
    from core.engine.reading.lang import packs

    p = packs().get(lang)
    rule = p.feminine if p else None
    if rule is None:
        return []
    words = _key(title).split(" ")
    if rule.single_word and len(words) > 1:
        return []
    ends = sorted(rule.suffixes.items(), key=lambda kv: len(kv[0]), reverse=True)
    out, changed = [], False
    for i, w in enumerate(words):
        if w in rule.stop_words:
            out += words[i:]
            break
        new = next((w[: -len(m)] + fem for m, fem in ends if w.endswith(m) and len(w) > len(m) + 1), w)
        changed |= new != w
        out.append(new)
    form = " ".join(out)
    return [form] if changed and form not in rule.not_ else []


class _TaskIndex:
    """Every entry's task and jargon phrases ('SBT', '呼吸机', 'refret', 'Kontrastmittel') in one alternation:
    a phrase in capitals is matched as written (an abbreviation), any other case-insensitively on word
    boundaries (Latin) or as a substring (CJK; simplified and traditional)."""

    def __init__(self, occupations: list[Occupation], hobby: set[str]):
        self.entries: dict[str, list[Occupation]] = {}
        self.hobby = {o.id for o in occupations if any(_key(t) in hobby for t in o.titles.get("en", ()))}
        exact: set[str] = set()
        folded: set[str] = set()
        for o in occupations:
            for ps in o.tasks.values():
                for p in ps:
                    for v in (p, *traditional(p)):
                        key = v if _CAPS.fullmatch(v) else v.lower()
                        if o not in self.entries.setdefault(key, []):
                            self.entries[key].append(o)
                        (exact if _CAPS.fullmatch(v) else folded).add(v)

        self.exact = _phrases_rx(exact, 0)
        self.folded = _phrases_rx(folded, re.I)


def _phrases_rx(words: set[str], flags: int, grouped: bool = True) -> re.Pattern[str] | None:
    """One alternation of the phrases, longest first: CJK / Hangul / kana as written, Latin between word
    edges with any run of spaces between words. `grouped`: the same alternatives, in the same order,
    behind a look-ahead for their first character, one group per first character (characters equal
    under `flags` share a group), so a position tries the phrases that can start there instead of
    all ~1,400 (Python's re has no trie); the groups sit in a tree of look-aheads by first character.
    A phrase starting with a space leaves them ungrouped."""
    ordered = sorted(sorted(words), key=len, reverse=True)     # ties in one order: one pattern in every process
    alts = [(re.escape(w) if CJK.search(w) or _HANGUL.search(w) or _KANA.search(w)
             else _LATIN_L + re.escape(w).replace(r"\ ", r"\s+") + _LATIN_R) for w in ordered]
    if not alts:
        return None
    if not grouped or any(not w or w[0].isspace() for w in ordered):
        return re.compile("|".join(alts), flags)
    # the classes of first characters equal under the flags (re.I: 'k', 'K' and the Kelvin sign); a
    # character without case (CJK, digits) is equal to itself only
    cls: dict[str, str] = {}
    cased: list[str] = []
    for c in dict.fromkeys(w[0] for w in ordered):
        if not flags & re.I or c.lower() == c.upper() == c:
            cls[c] = c
            continue
        cls[c] = next((d for d in cased if re.fullmatch(re.escape(d), c, flags)), c)
        if cls[c] == c:
            cased.append(c)
    groups: dict[str, list[str]] = {}
    for w, a in zip(ordered, alts):
        groups.setdefault(cls[w[0]], []).append(a)
    members: dict[str, list[str]] = {}
    for c, k in cls.items():
        members.setdefault(k, []).append(c)

    def tree(keys: list[str]) -> str:
        # groups behind look-aheads, 8 to a level: a position passes one look-ahead per level (the
        # classes are disjoint), so it tries about 8 per level instead of one per first character
        if len(keys) <= _FANOUT:
            return "|".join(f"(?=[{''.join(re.escape(c) for c in members[k])}])(?:{'|'.join(groups[k])})"
                            for k in keys)
        size = -(-len(keys) // _FANOUT)
        parts = [keys[i:i + size] for i in range(0, len(keys), size)]
        return "|".join(f"(?=[{''.join(re.escape(c) for k in part for c in members[k])}])(?:{tree(part)})"
                        for part in parts)

    return regex_cache.compile(tree(sorted(groups)), flags, name=f"occupation-phrases-{int(flags)}")   # 0.25 s to compile


_FANOUT = 8


_CAPS = re.compile(r"[A-Z0-9&-]{2,6}")
_CODE = re.compile(r"[A-Z]{2,3}(?:-[A-Z]{2})?")      # a language code or grade in capitals after a title
# Latin word edges that a CJK neighbour does not block ("患者SBT又没过": SBT is a word there)
_LATIN_L, _LATIN_R = r"(?<![A-Za-z0-9\u00c0-\u024f'’])", r"(?![A-Za-z0-9\u00c0-\u024f])"
_KANA = re.compile(r"[\u3040-\u30ff]")


def _alternation(keys: dict[str, Any], latin: bool) -> re.Pattern[str]:
    """The patterns' words before the title, longest first, any run of spaces between words; a Latin
    pattern starts at a word boundary."""
    alts = [r"\s+".join(re.escape(w) for w in k.split()) for k in sorted(keys, key=len, reverse=True)]
    lead = r"(?<![\w'])" if latin else ""
    return re.compile(lead + "(?:" + "|".join(alts) + r")\s*", re.I)


@lru_cache(maxsize=4)
def index(path: str = str(DATA)) -> Index:
    ix = Index(load(Path(path)))
    _save_traditional()
    return ix


# ---------------------------------------------------------------------------------------- runner
def merge(ctx: Ctx, found: list[Cue]) -> list[Cue]:
    """`found` (the rules' cues of one text) with the taxonomy's occupation cues: added where the rules
    read no occupation; where they did, a longer taxonomy title ending where the rules' role term ends
    replaces that cue (the longest title wins: "pharmacy technician" is no "technician" = Mechanic).
    The jargon of a job (`_tasks`) is chosen among every entry with task phrases: it replaces the role
    table's indirect cues of another role (夜班 ... SBT, PSV, 呼吸机 is a respiratory therapist's night)."""
    ix = index()
    found = [_labelled(c, ix) if c.cue == "label:position" else c for c in found]
    mine = _image_lines(ctx, ix) if ctx.carrier in ix.carriers else _statements(ctx, ix)
    if not mine:
        jargon = _tasks(ctx, ix)
        if jargon is None:
            return found
        occ = [c for c in found if c.attribute == "occupation"]
        if any(c.cue != "occupation:indirect" for c in occ):
            return found       # a stated job or a title: the jargon adds nothing
        return [c for c in found if c.attribute != "occupation" or c.value == jargon.value] + \
            ([] if any(c.value == jargon.value for c in occ) else [jargon])
    if not any(c.attribute == "occupation" for c in found):
        return found + [m for m, _ in mine]
    return [next((m for m, ts in mine if _longer(m, ts, c)), c) if c.attribute == "occupation" else c for c in found]


def _labelled(c: Cue, ix: Index) -> Cue:
    """A labelled position ("Job title: Pharmacy Technician", rules/labels.py) that is a taxonomy title
    gets the entry's sector and role; its value as written stays the finest level in any language (a
    form's "审计" is said more finely than the role Accountant)."""
    v = c.value.strip()
    o = ix.cjk.get(v) if (CJK.search(v) or _HANGUL.search(v)) else ix.any_latin.get(_key(v))
    if o is None:
        return c
    levels = {"sector": o.sector, "role": o.role}
    if _key(v) != _key(o.role):
        levels["specialty"] = v          # the document's own wording stays the finest level (审计, Tax officer)
    return c.model_copy(update={"value": o.role, "level": "specialty" if "specialty" in levels else "role",
                                "data": c.data.model_copy(update={"levels": levels, "entry": o.id})})


def _longer(mine: Cue, title_start: int, c: Cue) -> bool:
    """The taxonomy's title (from `title_start` to the end of `mine`) ends where the rules' cue `c` ends,
    names another role, and is longer than the role-table term that cue read."""
    if c.data.end is None or mine.data.end != c.data.end or mine.value == c.value or (c.data.levels or {}).get("specialty"):
        return False
    words = c.span.lower().split()
    term = max((len(" ".join(words[-n:])) for n in range(1, min(4, len(words)) + 1)
                if " ".join(words[-n:]) in _old_terms() or " ".join(words[-n:]).rstrip("s") in _old_terms()), default=0)
    if not term and c.span and CJK.search(c.span):
        term = max((n for n in range(1, len(c.span) + 1) if c.span[-n:] in _old_terms()), default=0)
    return 0 < term < mine.data.end - title_start


@lru_cache(maxsize=1)
def _old_terms() -> frozenset[str]:
    from core.engine.rules.lexicon import OCCUPATIONS    # the closed role table (rules/socio.py reads it)

    return frozenset(w.lower() for o in OCCUPATIONS for w in (*o["en"], *o["zh"]))


def _cue(ctx: Ctx, o: Occupation, s: int, e: int, context: str, score: float, title: str | None = None) -> Cue:
    """The cue of entry `o`; the title as written is its specialty where it is finer than the role
    ("Quantity Surveyor" in the ISCO group of civil engineering technicians), never an abbreviation."""
    levels = {"sector": o.sector, "role": o.role}
    if title and _key(title) != _key(o.role) and any(_key(title) == _key(x) for x in o.titles["en"]):
        levels["specialty"] = title.title()      # an English title: a translation is no finer level
    return ctx.cue("occupation", o.role, s, e, rule=f"occupation:taxonomy:{context}", confidence=score,
                   levels=levels, entry=o.id, original=title)


def _after_ok(low: str, end: int, ix: Index, english: bool) -> bool:
    """The title is not the head of something else ('a nurse at heart', 'a paramedic costume', '护士的女儿')."""
    rest = low[end:end + 24].lstrip()
    if english and rest[:1].isalpha() and rest[:1].isascii() and not any(rest.startswith(a) for a in ix.after):
        # another word follows: only a preposition or a clause boundary keeps the title a job
        w = rest.split(" ", 1)[0].strip(".,;:!?)")
        return w in ix.follow_ok
    return not any(rest.startswith(a) for a in ix.after)




def _latin_title(low: str, pos: int, table: dict[str, Occupation], abbr: dict[str, Occupation], text: str
                 ) -> tuple[int, Occupation, str] | None:
    """Longest title (up to 5 words) starting at `pos`, else a known abbreviation (case as listed)."""
    words = list(_WORD.finditer(low, pos, min(len(low), pos + 80)))
    if not words or words[0].start() != pos:
        return None
    for n in range(min(5, len(words)), 0, -1):
        # words must be adjacent (spaces or a hyphen between them)
        if n > 1 and any(low[words[k].end():words[k + 1].start()].strip() not in ("", "-") for k in range(n - 1)):
            continue
        end = words[n - 1].end()
        key = _key(low[pos:end]).rstrip(".")
        if key in table:
            return end, table[key], "title"
    tok = text[words[0].start():words[0].end()].rstrip(".")
    if tok in abbr:
        return words[0].start() + len(tok), abbr[tok], "abbreviation"
    return None


def _cjk_title(t: str, pos: int, ix: Index, before: bool = False) -> tuple[int, Occupation] | None:
    """The longest CJK title starting at `pos` (`before`: ending at it): its other end and its entry."""
    for n in range(min(ix.cjk_max, pos if before else len(t) - pos), 0, -1):
        o = ix.cjk.get(t[pos - n:pos] if before else t[pos:pos + n])
        if o is not None:
            return (pos - n if before else pos + n), o
    return None


def _opener(t: str, ctx: Ctx, pos: int) -> bool:
    """Some word stands before `pos` in its clause ('ibu saya seorang ...': the mother's)."""
    return bool(re.search(r"\w", t[ctx.clause_start(pos):pos]))


_CLAUSE_CJK = re.compile(r"[。！？!?\n、，,；;]")


def _poster_topic(t: str, ctx: Ctx, pos: int, lang: str, ix: Index) -> bool:
    """The clause before a Japanese / Korean title names nobody, or names the poster ('私は', '저는')."""
    cut = max((m.end() for m in _CLAUSE_CJK.finditer(t, 0, pos)), default=0)
    before = t[cut:pos].strip()
    return not before or any(w in before for w in ix.self_topic.get(lang, ()))


def _source(ctx: Ctx) -> str:
    """The text as written where it is not masked: CJK titles are looked up unfolded (the reading folds
    traditional characters: 看護師 must stay 看護師), hostile spans stay blank (same length)."""
    if not ctx.has_cjk:
        return ctx.masked
    return "".join(m if m == " " else o for o, m in zip(ctx.text, ctx.masked))


def _score(ix: Index, ctx_name: str) -> float:
    """A statement's score: a work statement scores as a self statement."""
    return ix.scores["as_a_clause" if ctx_name == "as_a_clause" else "self_statement"]


def _statements(ctx: Ctx, ix: Index) -> list[tuple[Cue, int]]:
    t, low = _source(ctx), ctx.lower
    out: list[tuple[Cue, int]] = []
    done: set[int] = set()
    cjk = ctx.has_cjk or bool(_HANGUL.search(t))
    for m in ix.prefix_rx["latin"].finditer(t):
        for ctx_name, lang, suf in ix.prefixes["latin"].get(_key(m.group(0)), ()):
            hit = _latin_title(low, m.end(), ix.tables.get(lang, {}), ix.abbr, t)
            if not hit or m.end() in done:
                continue
            end, o, how = hit
            if suf and not re.match(r"\s*" + re.escape(suf.strip()), low[end:end + 10], re.I):
                continue
            if ctx_name == "self_statement" and _key(low[m.end():end]).rstrip(".") in ix.hobby:
                continue       # "I'm a photographer" is a pastime as often as a job (guard hobby_titles)
            if not suf and not _after_ok(low, end, ix, lang == "en"):
                continue
            if ctx.negated(m.start()) or (lang in ix.clause_initial and _opener(t, ctx, m.start())):
                continue
            done.add(m.end())
            score = ix.scores["abbreviation_statement"] if how == "abbreviation" else _score(ix, ctx_name)
            out.append((_cue(ctx, o, m.start(), end, ctx_name, score, None if how == "abbreviation" else t[m.end():end]),
                        m.end()))
    if not cjk:
        return out
    for m in ix.prefix_rx["cjk"].finditer(t):
        pos = m.end()
        hit = _cjk_title(t, pos, ix)
        if not hit or pos in done:
            continue
        end, o = hit
        for ctx_name, lang, suf in ix.prefixes["cjk"].get(_key(m.group(0)), ()):
            if suf and not t[end:].lstrip().startswith(suf.strip()):
                continue
            if any(t[end:].startswith(a) for a in ix.after) or ctx.negated(m.start()):
                continue
            if any(t[max(0, m.start() - 6):m.start()].endswith(b) for b in ix.before_cjk):
                continue
            done.add(pos)
            out.append((_cue(ctx, o, m.start(), end + (len(suf) if suf else 0), ctx_name, _score(ix, ctx_name),
                             t[pos:end]), pos))
            break
    for sm in ix.suffix_rx.finditer(t) if ix.suffixes else ():
        # '{T}として働いて', '{T}로 일하고': the title ends where the words after it start
        hit = _cjk_title(t, sm.start(), ix, before=True)
        if not hit or sm.start() in done or ctx.negated(hit[0]):
            continue
        for ctx_name, lang in ix.suffixes[sm.group(0)]:
            if _poster_topic(t, ctx, hit[0], lang, ix):
                done.add(sm.start())
                out.append((_cue(ctx, hit[1], hit[0], sm.end(), ctx_name, _score(ix, ctx_name), t[hit[0]:sm.start()]),
                            hit[0]))
                break
    return out


def _tasks(ctx: Ctx, ix: Index) -> Cue | None:
    """The poster's own text naming two or more task or jargon phrases of one entry, more than of any
    other ('SBT ... PSV ... 高流量 ... 呼吸机' -> Respiratory Therapist; 'refret, neck reset' -> Instrument
    Maker): that entry, weakly (score `tasks`). Phrases said of someone else, negated, or on an image
    (a screenshot's labels are not the poster's talk) do not count; the jargon of a job people also
    do as a pastime (gardener, beekeeper) counts only where the text speaks of work."""
    if ctx.carrier in _IMAGE_CARRIERS or ctx.carrier == "hashtag" or ix.tasks.folded is None:
        return None
    t = _source(ctx)
    hits: dict[str, set[str]] = {}
    spans: dict[str, list[tuple[int, int]]] = {}
    by_id: dict[str, Occupation] = {}
    for rx, exact in ((ix.tasks.exact, True), (ix.tasks.folded, False)):
        for m in rx.finditer(t) if rx is not None else ():
            if ctx.negated(m.start()) or not ctx.is_self(m.start()):
                continue
            key = m.group(0) if exact else _key(m.group(0))
            for o in ix.tasks.entries.get(key, ()):
                hits.setdefault(o.id, set()).add(key)
                spans.setdefault(o.id, []).append((m.start(), m.end()))
                by_id[o.id] = o
    ranked = sorted(hits, key=lambda i: len(hits[i]), reverse=True)
    if not ranked or len(hits[ranked[0]]) < 2 or (len(ranked) > 1 and len(hits[ranked[1]]) >= len(hits[ranked[0]])):
        return None
    best = by_id[ranked[0]]
    from core.engine.rules.semantic_anchor import says_work   # work wording (semantic_anchor.json)

    if best.id in ix.tasks.hobby and not (says_work(t) or any(w in ctx.lower for w in ix.pastime_work)):
        return None
    s0, e0 = min(a for a, _ in spans[best.id]), max(b for _, b in spans[best.id])
    return _cue(ctx, best, s0, e0, "tasks", ix.scores["tasks"])


_SENTENCE_END = re.compile(r"[。！？!?]|\.\s*$")


def _long(piece: str) -> bool:
    """Longer than a department, company or name beside a title (5 words, 8 CJK characters)."""
    return len(piece.split()) > 5 or len(CJK.findall(piece)) > 8


# a signing name beside a title ("Dr. Jane Doe | Pharmacist"): an honorific (the signature context's), 1-3 words
_NAME_SHAPE = r"[A-Z][a-zA-Z'’-]+(?:\s+[A-Z]\.?)?(?:\s+[A-Z][a-zA-Z'’-]+){0,2}$"


def _segment_title(seg: str, ix: Index) -> tuple[Occupation, str] | None:
    """A line segment that is [modifiers] title: the occupation and the title as written."""
    s = seg.strip().strip("*•·-–—:：()[]\"'")
    if not s or len(s) > 60:
        return None
    if CJK.search(s) or _HANGUL.search(s):
        if s.startswith(tuple(ix.before_cjk)):
            return None
        o = ix.cjk.get(s)
        if o is None:
            for m in sorted((m for m in ix.modifiers if CJK.search(m) and s.startswith(m)), key=len, reverse=True):
                o = ix.cjk.get(s[len(m):])
                if o:
                    break
        return (o, s) if o else None
    low = _key(s)
    lead = next((p for p in ix.leading if low.startswith(p + " ")), None)
    caps = [bool(_CODE.fullmatch(w)) for w in s.split()]
    words = low.split(" ")
    if lead:
        n = len(lead.split(" "))
        words, caps = words[n:], caps[n:]
    while words and words[0] in ix.modifiers:
        words, caps = words[1:], caps[1:]
    while len(words) > 1 and (words[-1] in ix.trailing or caps[-1]):
        words, caps = words[:-1], caps[:-1]    # 'Tradutora EN', 'Sumiller profesional
    if not words or words[0] in ix.before or (len(words) > 1 and words[0].rstrip("-") in ix.before):
        return None
    key = " ".join(words)
    o = ix.any_latin.get(key)
    return (o, key) if o else None


def _image_lines(ctx: Ctx, ix: Index) -> list[tuple[Cue, int]]:
    t = _source(ctx)
    low = ctx.lower
    if any(w in low for w in ix.advert):
        return []          # a job advert (guard job_advert)
    if ctx.carrier != "badge" and any(w in low for w in ix.addressed):
        return []          # a letter or prescription from a professional (guard addressed_document)
    weak = ctx.carrier in ix.weak
    out: list[tuple[Cue, int]] = []
    pos = 0
    for line in t.split("\n"):
        start, pos = pos, pos + len(line) + 1
        if not line.strip() or ":" in line or "：" in line:
            continue       # "Title: X" is a labelled field (rules/labels.py, rules/forms.py)
        # the line's pieces between separators, with their offsets ("Senior Underwriter | Marine")
        cuts = [0] + [x for m in ix.sep.finditer(line) for x in (m.start(), m.end())] + [len(line)]
        pieces = [(start + cuts[i], line[cuts[i]:cuts[i + 1]]) for i in range(0, len(cuts), 2)]
        pieces = [(o, p) for o, p in pieces if p.strip()]
        if _SENTENCE_END.search(line) or (len(pieces) > 1 and any(_long(p) for _, p in pieces)):
            continue       # a chat message or a sentence ("管家，楼上又在电钻了"): someone speaking, no printed title
        named = len(pieces) > 1 and any(ix.name.match(p.strip()) for _, p in pieces)
        for off, piece in pieces:
            hit = _segment_title(piece, ix)
            s0 = off + len(piece) - len(piece.lstrip())
            if hit:
                o, key = hit
                if weak and key in ix.hobby:
                    continue   # a tee shirt's 'PHOTOGRAPHER' (guard hobby_titles)
                out.append((_cue(ctx, o, s0, off + len(piece.rstrip()), "image_line",
                                 ix.scores["image_line_weak_carrier" if weak else "image_line"], key), s0))
                break
            tok = piece.strip().rstrip(".")
            if tok in ix.abbr and (ctx.carrier == "badge" or named):
                out.append((_cue(ctx, ix.abbr[tok], s0, s0 + len(tok), "image_line" if ctx.carrier == "badge" else "signature",
                                 ix.scores["signature"]), s0))
                break
    if len({c.value for c, _ in out}) > 1:
        return []          # a roster or a team page lists several people's titles: none is known to be the poster's
    return out
