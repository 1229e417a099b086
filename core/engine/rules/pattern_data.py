"""Patterns and word lists as data (issue 33): one reader for core/data/recognizers/<family>.json.

A family file declares its recognizer (name, attributes, levels, languages, reads: the shape of
occupations.json) and its named `patterns` and `words`. A pattern is a list of parts in regex order;
each part is a word list of one language (the alternatives, written as regex) with an optional
`wrap` template around it ("\\b(?:{words})\\b", and further named word lists as `slots`); the parts are joined by "|" into one regex source,
so alternative order, boundaries and flags are exactly what the data says. A word list is a set of
plain words per language. Every pattern and word list says why it exists (`reason`).

Faults are one line naming the file, the entry and the field (rules/data_file.load_model)."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, model_validator

from core.engine.rules.data_file import Recognizer, load_model

FOLDER = Path(__file__).resolve().parents[2] / "data" / "recognizers"


class PatternDataError(ValueError):
    """A recognizer family file that does not follow its schema: one line naming file, entry and field."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)



class Part(_Strict):
    lang: str = Field(min_length=2)       # ISO 639-1, or "mul" for one word list of several Latin-script languages
    words: list[str] = Field(min_length=1)
    wrap: str = "{words}"
    slots: dict[str, list[str]] = {}      # further word lists the wrap names as {slot}


    @model_validator(mode="after")
    def _wrap_has_words(self) -> "Part":
        for name in ("words", *self.slots):
            if "{" + name + "}" not in self.wrap:
                raise ValueError(f"wrap must hold {{{name}}}")
        return self

    def source(self) -> str:
        out = self.wrap.replace("{words}", "|".join(self.words))
        for name, alts in self.slots.items():
            out = out.replace("{" + name + "}", "|".join(alts))
        return out


class Pattern(_Strict):
    reason: str = Field(min_length=10)
    ignore_case: bool = False
    parts: list[Part] = Field(min_length=1)

    def source(self) -> str:
        return "|".join(p.source() for p in self.parts)


class WordList(_Strict):
    reason: str = Field(min_length=10)
    words: dict[str, list[str]] = Field(min_length=1)      # by language


class ValueMap(_Strict):
    reason: str = Field(min_length=10)
    values: dict[str, dict[str, str]] = Field(min_length=1)   # by language: word as read -> canonical value


class FamilyFile(_Strict):
    about: str = Field(min_length=10)
    recognizer: Recognizer
    scores: dict[str, float] = {}                           # rule id -> confidence the Python gives it
    patterns: dict[str, Pattern] = {}
    words: dict[str, WordList] = {}
    maps: dict[str, ValueMap] = {}

    def undeclared(self) -> str | None:
        """The first field holding a language the recognizer does not declare, or None."""
        langs = set(self.recognizer.languages) | {"mul"}
        for name, p in self.patterns.items():
            for i, part in enumerate(p.parts):
                if part.lang not in langs:
                    return f"patterns.{name}.parts.{i}.lang: {part.lang!r}"
        for kind, entries in (("words", self.words), ("maps", self.maps)):
            for name, w in entries.items():
                for lang in (w.words if isinstance(w, WordList) else w.values):
                    if lang not in langs:
                        return f"{kind}.{name}.{lang}: {lang!r}"
        return None


def load(path: Path) -> FamilyFile:
    f = load_model(path, FamilyFile, PatternDataError)
    bad = f.undeclared()
    if bad:
        raise PatternDataError(f"{path}: field {bad} is a language the recognizer does not declare")
    return f


@lru_cache(maxsize=None)
def family(name: str) -> FamilyFile:
    """core/data/recognizers/<name>.json, read and validated once."""
    return load(FOLDER / f"{name}.json")


def source(fam: str, pattern: str) -> str:
    """The regex source of a pattern (to be embedded in a larger regex by the caller)."""
    return family(fam).patterns[pattern].source()


@lru_cache(maxsize=None)
def regex(fam: str, pattern: str) -> re.Pattern[str]:
    """A pattern compiled once, with the flags its data declares."""
    p = family(fam).patterns[pattern]
    return re.compile(p.source(), re.I if p.ignore_case else 0)


def words(fam: str, name: str, lang: str | None = None) -> list[str]:
    """A word list in data order: one language's, or every language's in file order."""
    by_lang = family(fam).words[name].words
    return list(by_lang.get(lang, [])) if lang else [w for ws in by_lang.values() for w in ws]


def value_map(fam: str, name: str) -> dict[str, str]:
    """A map from the words a pattern reads to canonical values, every language's merged."""
    return {k: v for by in family(fam).maps[name].values.values() for k, v in by.items()}


def score(fam: str, rule: str) -> float:
    return family(fam).scores[rule]


def fill(fam: str, text: str) -> str:
    """`text` with every {name} of a pattern of the family replaced by that pattern's source (a rule
    list's regex that embeds a shared alternation: "\\bif\\s+you\\s+are\\s+{ai}\\b")."""
    for name in family(fam).patterns:
        text = text.replace("{" + name + "}", source(fam, name))
    return text
