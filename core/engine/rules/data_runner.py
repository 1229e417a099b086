"""The generic runner of a recognizer declared by data alone (its block says `"runner": "patterns"`):
patterns with scores, lexicons by language, context words that raise or lower a score, as Presidio's
PatternRecognizer does. A new recognizer (or a toy attribute's, tests/test_toy_attribute.py) needs no
Python: its file is validated at load (one error naming file, entry and field) and every cue goes
through the shared reading (Ctx.cue: holder, quote, hypothetical) like the Python rules' cues.

    {"recognizer": {"name": ..., "attributes": [...], "languages": [...], "reads": [...], "runner": "patterns",
                    "scores": {"base": 0.6}},
     "patterns": [{"id": "my-pet", "lang": "en", "regex": "\\bmy (?P<value>dog|cat)\\b", "score": 0.6}],
     "lexicons": [{"id": "breeds", "lang": "en", "terms": ["golden retriever"], "value": "dog"}],
     "context": [{"words": {"en": ["vet", "walkies"]}, "delta": 0.1, "why": "..."}]}

A pattern's value is its `value`, else its named group `value`, else the text matched; `attribute`
defaults to the recognizer's only attribute; `"hint": true` marks its readings as hints (held as a
guess, never projected alone, as a weak similarity reading is). Context words within `window` characters of a hit move its
score by `delta` (kept in (0, 1]).
"""
from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from core.engine.reading.data_file import check_regex
from core.engine.rules.base import Ctx, Lexicon
from core.engine.rules.data_file import Recognizer
from core.engine.types import Cue


class DataRunnerError(ValueError):
    """A data recognizer's file that does not follow its schema: file, entry and field in one line."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Pattern(_Strict):
    id: str = Field(min_length=1)
    lang: str
    regex: str
    attribute: str | None = None
    value: str | None = None
    level: str | None = None
    score: float | None = Field(default=None, gt=0, le=1)
    ignore_case: bool = True
    hint: bool = False          # a reading that is held, never projected alone (aggregators.generic.is_hint)

    @field_validator("regex")
    @classmethod
    def _compiles(cls, v: str) -> str:
        return check_regex(v)


class LexiconEntry(_Strict):
    id: str = Field(min_length=1)
    lang: str
    terms: list[str] = Field(min_length=1)
    value: str | None = None                    # default: the term as listed
    attribute: str | None = None
    level: str | None = None
    score: float | None = Field(default=None, gt=0, le=1)


class Context(_Strict):
    words: dict[str, list[str]]
    delta: float = Field(ge=-1, le=1)
    window: int = Field(default=60, ge=1)
    why: str = ""


class PatternFile(_Strict):
    recognizer: Recognizer
    about: str = ""
    patterns: list[Pattern] = []
    lexicons: list[LexiconEntry] = []
    context: list[Context] = []

    @model_validator(mode="after")
    def _declared(self) -> "PatternFile":
        r = self.recognizer
        if "base" not in r.scores:
            raise ValueError("recognizer.scores: a data recognizer needs a 'base' score")
        for kind, items in (("patterns", self.patterns), ("lexicons", self.lexicons)):
            for i, p in enumerate(items):
                if p.lang not in r.languages:
                    raise ValueError(f"{kind}[{i}] ({p.id}): field lang: {p.lang!r} is not declared by the recognizer")
                attr = p.attribute or (r.attributes[0] if len(r.attributes) == 1 else None)
                if attr not in r.attributes:
                    raise ValueError(f"{kind}[{i}] ({p.id}): field attribute: {attr!r} is not declared by the recognizer")
        if not self.patterns and not self.lexicons:
            raise ValueError("patterns / lexicons: a data recognizer needs at least one")
        # what the runner reads of a Document: the masked text (patterns, context words), the lexicon hits
        for field, needed in (("masked", True), ("lexicon", bool(self.lexicons))):
            if needed and field not in r.reads:
                raise ValueError(f"recognizer.reads: the runner reads {field!r} of this file's Document: declare it")
        return self


def load(raw: dict[str, Any], source: str) -> PatternFile:
    try:
        return PatternFile.model_validate(raw)
    except ValidationError as e:
        err = e.errors()[0]
        loc = ".".join(str(x) for x in err["loc"]) or "file"
        raise DataRunnerError(f"{source}: field {loc}: {err['msg'].removeprefix('Value error, ')}") from None


def runner(raw: dict[str, Any], source: str) -> Any:
    """The extractor of one data recognizer (its `recognizer` attribute is the registry name)."""
    f = load(raw, source)
    r = f.recognizer
    only = r.attributes[0] if len(r.attributes) == 1 else None
    pats = [(p, re.compile(p.regex, re.I if p.ignore_case else 0)) for p in f.patterns]
    lexs = [(x, Lexicon(x.terms)) for x in f.lexicons]
    ctx_words = [(c, re.compile("|".join(rf"\b{re.escape(w)}\b" if w.isascii() else re.escape(w)
                                         for ws in c.words.values() for w in ws), re.I)) for c in f.context]

    def score(ctx: Ctx, base: float, s: int, e: int) -> float:
        for c, rx in ctx_words:
            if rx.search(ctx.masked, max(0, s - c.window), min(len(ctx.masked), e + c.window)):
                base += c.delta
        return min(1.0, max(0.01, base))

    def run(ctx: Ctx) -> list[Cue]:
        out: list[Cue] = []
        for p, rx in pats:
            for m in rx.finditer(ctx.masked):
                grp = m.groupdict().get("value")
                value = p.value or (grp if grp else m.group(0))
                s, e = m.span()
                out.append(ctx.cue(p.attribute or only or "", value.strip(), s, e, rule=f"{r.name}:{p.id}",
                                   confidence=score(ctx, p.score or r.scores["base"], s, e), level=p.level, entry=p.id,
                                   hint=p.hint or None))
        for x, lex in lexs:
            for s, e, term in ctx.lexicon_hits(lex):
                out.append(ctx.cue(x.attribute or only or "", x.value or term, s, e, rule=f"{r.name}:{x.id}",
                                   confidence=score(ctx, x.score or r.scores["base"], s, e), level=x.level, entry=x.id))
        return out

    run.__name__ = r.name
    run.recognizer = r.name  # type: ignore[attr-defined]
    return run
