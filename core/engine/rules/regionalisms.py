"""Regional vocabulary (core/data/recognizers/regionalisms.json): a word used in one country only
("konbini", "arvo", "matric", "jandals", "lakh", the naira sign, NHS, HDB) is a weak cue of the
poster's home country. Each hit is a home_location cue marked `kind="regionalism"`: the places
aggregator leaves it alone and aggregators/regional.py weighs it (held from one cue, claimed from two
independent ones). Whose word it is, quotation and hypotheticals come from the shared reading (Ctx.cue).
Validated at load: a bad entry is one error naming the file, the entry and the field."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, model_validator

from core.engine.reading.data_file import load_model, validate
from core.engine.rules.base import Ctx, Lexicon
from core.engine.rules.data_file import Recognizer
from core.engine.types import Cue

PATH = Path(__file__).resolve().parents[2] / "data" / "recognizers" / "regionalisms.json"
KIND = "regionalism"
# a term of letters, digits and word punctuation is matched as whole words; anything else (₹, R$) literally
_WORDLIKE = re.compile(r"[\w'’ .()&-]+")


class RegionalismError(ValueError):
    """regionalisms.json does not follow its schema: file, entry and field in one line."""


class Entry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    term: str = Field(min_length=1)
    lang: str = Field(min_length=2)
    country: str = Field(min_length=2)
    city: str | None = None
    strength: float = Field(gt=0, le=1)
    note: str = Field(min_length=3)


class RegionalFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    recognizer: Recognizer
    about: str = ""
    entries: list[Entry] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique(self) -> "RegionalFile":
        seen: dict[str, int] = {}
        for i, e in enumerate(self.entries):
            if e.lang not in self.recognizer.languages:
                raise ValueError(f"entries[{i}] ({e.term}): field lang: {e.lang!r} is not declared by the recognizer")
            key = e.term.lower()
            if key in seen:   # one term, one country: a word two countries share is no cue (leave it out)
                raise ValueError(f"entries[{i}] ({e.term}): field term: already listed as entries[{seen[key]}]")
            seen[key] = i
        return self


def load(raw: object, source: str) -> RegionalFile:
    """`raw` validated; a bad entry is named by its term ("entries[3] (arvo): field strength")."""
    return validate(raw, RegionalFile, RegionalismError, source, key="term")


@lru_cache(maxsize=1)
def table() -> tuple[dict[str, tuple[Lexicon, dict[str, Entry]]], list[tuple[str, Entry]]]:
    """Per language: the Lexicon of word-like terms and term -> entry; and the literal (symbol) terms."""
    f = load_model(PATH, RegionalFile, RegionalismError, key="term")
    by_lang: dict[str, dict[str, Entry]] = {}
    literal: list[tuple[str, Entry]] = []
    for e in f.entries:
        if _WORDLIKE.fullmatch(e.term) and re.search(r"[^\W\d_]", e.term):
            by_lang.setdefault(e.lang, {})[e.term] = e
        else:
            literal.append((e.term, e))
    return {lang: (Lexicon(list(terms)), terms) for lang, terms in by_lang.items()}, literal


def _cue(ctx: Ctx, e: Entry, s: int, t: int) -> Cue:
    levels = {"country": e.country, **({"city": e.city} if e.city else {})}
    return ctx.cue("home_location", e.country if not e.city else f"{e.city}, {e.country}", s, t,
                   rule=f"regional_vocab:{e.term}", confidence=e.strength, levels=levels, kind=KIND, entry=e.term)


def regional_vocab(ctx: Ctx) -> list[Cue]:
    """Home-country cues from regional words in the text's own language (hostile spans masked)."""
    lexicons, literal = table()
    out: list[Cue] = []
    lang = ctx.lang
    if lang in lexicons:
        lex, terms = lexicons[lang]
        for s, t, term in ctx.lexicon_hits(lex):
            out.append(_cue(ctx, terms[term], s, t))
    for term, e in literal:
        if e.lang != lang:
            continue
        i = ctx.masked.find(term)
        if i >= 0:
            out.append(_cue(ctx, e, i, i + len(term)))
    return out


EXTRACTORS = (regional_vocab,)
