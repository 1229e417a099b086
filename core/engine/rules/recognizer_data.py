"""Recognizer data files (core/data/recognizers/<family>.json), one schema and one reader for every
family: the recognizer block (name, attributes, levels, languages, reads), word lists, maps,
lexicons, patterns and scores, validated at load (any fault one line naming the file and the
field; a language the recognizer does not declare is refused) and compiled once per process.

A pattern is written one of two ways. A `template` whose `{slot}` names are filled from data: the
entry's own slots (alternatives by language, joined in file order: a regex alternation is ordered,
the first alternative that matches wins), the file's word lists, or a value the rule's Python
supplies (an alternation it derives from a table). Or ordered `parts`, each one language's words
inside its own `wrap`, joined by "|": for an alternation whose languages interleave (en, zh, en)
or whose languages need different boundaries, which one slot by language cannot keep in order.
Quantifiers such as `{0,3}` are no slot names.
"""
from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from core.engine.reading.data_file import Words
from core.engine.rules.data_file import Recognizer, Scores as ScoreMap, load_model

DIR = Path(__file__).resolve().parents[2] / "data" / "recognizers"
_SLOT = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
_FLAGS = {"i": re.I, "m": re.M, "s": re.S, "x": re.X}


class RecognizerDataError(ValueError):
    """A recognizer data file that cannot be read: the message names the file and the field."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# a two-letter language code, or "mul" for one list of several Latin-script languages: any other key of a
# list or map is refused by Family._undeclared (only "mul" and the codes the recognizer block declares pass)
Lang = str


class Mapping(_Strict):
    """Terms by language, each to its canonical value (a string, a number or a list of them)."""
    reason: str = Field(min_length=1)
    entries: dict[Lang, dict[str, Any]]

    def all(self) -> dict[str, Any]:
        return {k: v for d in self.entries.values() for k, v in d.items()}


class LexEntry(_Strict):
    """One canonical value and its terms by language (with its sector or alias where it has one)."""
    value: str = Field(min_length=1)
    terms: dict[Lang, list[str]]
    sector: str | None = None
    alias: str | None = None


class Lexicon(_Strict):
    """Canonical values, each with its terms by language, in file order."""
    reason: str = Field(min_length=1)
    entries: list[LexEntry] = Field(min_length=1)


class Part(_Strict):
    """One language's alternatives inside its wrap ("\\b(?:{words})\\b"; further lists as `slots`)."""
    lang: Lang
    words: list[str] = Field(min_length=1)
    wrap: str = "{words}"
    slots: dict[str, list[str]] = {}

    @model_validator(mode="after")
    def _check(self) -> "Part":
        for name in ("words", *self.slots):
            if "{" + name + "}" not in self.wrap:
                raise ValueError(f"wrap must hold {{{name}}}")
        return self

    def source(self) -> str:
        alts = {"words": self.words, **self.slots}
        return _SLOT.sub(lambda m: "|".join(alts[m.group(1)]) if m.group(1) in alts else m.group(0), self.wrap)


class Pattern(_Strict):
    """One regex: its template and its slots' alternatives by language (or its ordered parts), its
    flags, and what a rule does with a match (value, confidence, role, sector) where the rule
    reads those from data."""
    reason: str = Field(min_length=1)
    template: str | None = Field(default=None, min_length=1)
    slots: dict[str, dict[Lang, list[str]]] = {}
    parts: list[Part] | None = Field(default=None, min_length=1)
    flags: str = Field(default="", pattern=r"^[imsx]*$")
    value: str | None = None
    confidence: float | None = Field(default=None, ge=0, le=1)
    role: str | None = None
    sector: str | None = None

    @model_validator(mode="after")
    def _check(self) -> "Pattern":
        if (self.template is None) == (self.parts is None):
            raise ValueError("a pattern has a template or parts (one of them)")
        if self.parts is not None and self.slots:
            raise ValueError("slots belong to a template (a part has its own)")
        return self

    def languages(self) -> list[tuple[str, str]]:
        """(field, language) for every language the pattern holds."""
        if self.parts is not None:
            return [(f"parts.{i}.lang", p.lang) for i, p in enumerate(self.parts)]
        return [(f"slots.{k}.{lang}", lang) for k, s in self.slots.items() for lang in s]

    def source(self, words: dict[str, Words], given: dict[str, str]) -> str:
        """The regex: slots filled first (their alternatives may name a value the Python gives)."""
        if self.parts is not None:
            return "|".join(p.source() for p in self.parts)

        def own(m: re.Match[str]) -> str:
            k = m.group(1)
            return "|".join(w for ws in self.slots[k].values() for w in ws) if k in self.slots else m.group(0)

        def outer(m: re.Match[str]) -> str:
            k = m.group(1)
            if k in given:
                return given[k]
            if k in words:
                return "|".join(words[k].all())
            raise KeyError(k)
        return _SLOT.sub(outer, _SLOT.sub(own, self.template or ""))

    def re_flags(self) -> int:
        f = 0
        for c in self.flags:
            f |= _FLAGS[c]
        return f


class Scores(_Strict):
    """Base confidences by rule id ('education:level': 0.65): a rule's belief for one mention."""
    reason: str = Field(min_length=1)
    entries: ScoreMap


class PatternList(_Strict):
    """Ordered patterns read in turn by one rule (each with its value and confidence)."""
    reason: str = Field(min_length=1)
    items: list[Pattern] = Field(min_length=1)


class RecognizerFile(_Strict):
    about: str = Field(min_length=1)
    recognizer: Recognizer
    words: dict[str, Words] = {}
    maps: dict[str, Mapping] = {}
    lexicons: dict[str, Lexicon] = {}
    patterns: dict[str, Pattern] = {}
    pattern_lists: dict[str, PatternList] = {}
    scores: Scores | None = None
    rules: list[dict[str, Any]] = []    # a family's declared rules, validated by rules/data_runner.Rules


class Family:
    """One loaded data file: words, maps and compiled patterns by key."""

    def __init__(self, path: Path):
        self.path = path
        self.data = load_model(path, RecognizerFile, RecognizerDataError)
        if bad := self._undeclared():
            raise RecognizerDataError(f"{path}: field {bad[0]}: {bad[1]!r} is a language the recognizer does not declare")

    def _undeclared(self) -> tuple[str, str] | None:
        """The first field holding a language the recognizer does not declare ("mul" is any)."""
        ok = set(self.data.recognizer.languages) | {"mul"}
        d = self.data
        used = [(f"patterns.{k}.{f}", lang) for k, p in d.patterns.items() for f, lang in p.languages()]
        used += [(f"pattern_lists.{k}.items.{i}.{f}", lang) for k, pl in d.pattern_lists.items()
                 for i, p in enumerate(pl.items) for f, lang in p.languages()]
        used += [(f"{kind}.{k}.entries.{lang}", lang) for kind, sec in (("words", d.words), ("maps", d.maps))
                 for k, w in sec.items() for lang in w.entries]
        used += [(f"lexicons.{k}.entries.{i}.terms.{lang}", lang) for k, lx in d.lexicons.items()
                 for i, e in enumerate(lx.entries) for lang in e.terms]
        return next(((f, lang) for f, lang in used if lang not in ok), None)

    def words(self, key: str, lang: str | None = None) -> list[str]:
        """A word list in file order: every language's, or one language's ([] if it has none)."""
        w = self._get(self.data.words, "words", key)
        return w.all() if lang is None else list(w.entries.get(lang, []))

    def words_by_lang(self, key: str) -> dict[str, list[str]]:
        return self._get(self.data.words, "words", key).entries

    def map(self, key: str) -> dict[str, Any]:
        return self._get(self.data.maps, "maps", key).all()

    def fill(self, text: str) -> str:
        """`text` with every {name} of a pattern of this file replaced by that pattern's source (a
        rule list's regex that embeds a shared alternation: "\\bif\\s+you\\s+are\\s+{ai}\\b")."""
        for key in self.data.patterns:
            text = text.replace("{" + key + "}", self.source(key))
        return text

    def scores(self) -> dict[str, float]:
        if self.data.scores is None:
            raise RecognizerDataError(f"{self.path}: field scores: missing")
        return self.data.scores.entries

    def lexicon(self, key: str) -> list[LexEntry]:
        return self._get(self.data.lexicons, "lexicons", key).entries

    def source(self, key: str, **given: str) -> str:
        return self._source(self._get(self.data.patterns, "patterns", key), f"patterns.{key}", given)

    def pattern(self, key: str, **given: str) -> re.Pattern[str]:
        return re.compile(self.source(key, **given), self.data.patterns[key].re_flags())

    def patterns(self, key: str, **given: str) -> list[tuple[Pattern, re.Pattern[str]]]:
        """The list's entries with their compiled regexes, in file order."""
        return [(p, re.compile(src, p.re_flags())) for p, src in self.sources(key, **given)]

    def sources(self, key: str, **given: str) -> list[tuple[Pattern, str]]:
        """The list's entries with their regex sources (for a rule that compiles them per use)."""
        pl = self._get(self.data.pattern_lists, "pattern_lists", key)
        return [(p, self._source(p, f"pattern_lists.{key}.items.{i}", given)) for i, p in enumerate(pl.items)]

    def _source(self, p: Pattern, where: str, given: dict[str, str]) -> str:
        try:
            src = p.source(self.data.words, given)
            re.compile(src, p.re_flags())
        except KeyError as e:
            raise RecognizerDataError(f"{self.path}: field {where}.template: unknown slot {e.args[0]}") from None
        except re.error as e:
            raise RecognizerDataError(f"{self.path}: field {where}: not a regex ({e})") from None
        return src

    def _get(self, d: dict[str, Any], kind: str, key: str) -> Any:
        if key not in d:
            raise RecognizerDataError(f"{self.path}: field {kind}.{key}: missing")
        return d[key]


@cache
def family(name: str) -> Family:
    """core/data/recognizers/<name>.json, read once per process."""
    return Family(DIR / f"{name}.json")
