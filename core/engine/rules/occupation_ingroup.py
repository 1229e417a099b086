"""Occupations said in the plural of a group the poster belongs to (core/data/recognizers/ingroup.json):
"us teachers" (firm; "we historians", "we bakers" with a title people also hold as a pastime, the
taxonomy's hobby_titles guard, a hint), and a job's stereotype the post answers no ("think all bakers
adore waking up early? nah": a hint, held as a guess). The titles are occupations.json's English ones
in the plural (rules/occupation_taxonomy.py's index); whose group it is, quotation and hypotheticals
come from the shared reading (Ctx.cue). A bad file is one error naming the file and the field."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, field_validator

from core.engine.reading.data_file import check_regex, load_model
from core.engine.rules.base import Ctx
from core.engine.rules.data_file import Recognizer
from core.engine.rules.occupation_taxonomy import index
from core.engine.types import Cue
from tools import regex_cache

PATH = Path(__file__).resolve().parents[2] / "data" / "recognizers" / "ingroup.json"


class InGroupError(ValueError):
    """ingroup.json does not follow its schema: file and field in one line."""


class Pattern(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(min_length=1)
    why: str = Field(min_length=10)
    regex: str
    hint: bool = False

    @field_validator("regex")
    @classmethod
    def _slot(cls, v: str) -> str:
        if v.count("{T}") != 1:
            raise ValueError("must hold the plural-title slot {T} exactly once")
        check_regex(v.replace("{T}", "titles"))
        return v


class InGroupFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    recognizer: Recognizer
    patterns: list[Pattern] = Field(min_length=1)


def load(path: Path = PATH) -> InGroupFile:
    f = load_model(path, InGroupFile, InGroupError)
    for p in f.patterns:
        if p.id not in f.recognizer.scores:
            raise InGroupError(f"{path}: field recognizer.scores: no score for pattern {p.id!r}")
    return f


def plural(title: str) -> str:
    """English plural of a title's last word: nurse -> nurses, secretary -> secretaries, policeman ->
    policemen, coach -> coaches, chef -> chefs."""
    if title.endswith("man"):
        return title[:-3] + "men"
    if re.search(r"[^aeiou]y$", title):
        return title[:-1] + "ies"
    if re.search(r"(?:s|sh|ch|x|z)$", title):
        return title + "es"
    return title + "s"


@lru_cache(maxsize=1)
def _compiled() -> tuple[InGroupFile, dict[str, tuple[str, str, bool]], list[tuple[Pattern, re.Pattern[str]]]]:
    f = load()
    ix = index()
    titles: dict[str, tuple[str, str, bool]] = {}
    for key, o in ix.latin.get("en", {}).items():
        if len(key) > 3 and o.role:      # a pastime's title too ("we bakers"): then a hint, below
            titles.setdefault(plural(key), (o.role, o.sector, key in ix.hobby))
    ordered = sorted(sorted(titles), key=len, reverse=True)      # ties in one order: one pattern in every process
    alt = "(?P<t>" + "|".join(re.escape(t).replace(r"\ ", r"\s+") for t in ordered) + ")"
    # an alternation of ~1,000 plural titles: about 1 s to compile, so compiled once per interpreter and
    # kept on disk (tools.regex_cache)
    pats = [(p, regex_cache.compile(p.regex.replace("{T}", alt), re.I, name=f"ingroup-{p.id}")) for p in f.patterns]
    return f, titles, pats


def occupation_ingroup(ctx: Ctx) -> list[Cue]:
    t = ctx.masked
    low = t.lower()
    if not any(w in low for w in ("we ", "us ", "all ")):
        return []
    f, titles, pats = _compiled()
    out: list[Cue] = []
    for p, rx in pats:
        for m in rx.finditer(t):
            key = " ".join(m.group("t").lower().split())
            role, sector, pastime = titles[key]
            s, e = m.span("t")
            if ctx.negated(s):
                continue
            out.append(ctx.cue("occupation", role, s, e, rule=f"occupation_ingroup:{p.id}",
                               confidence=f.recognizer.scores[p.id], levels={"sector": sector, "role": role},
                               first_person=True, entry=p.id, hint=p.hint or pastime or None))
    return out


EXTRACTORS = (occupation_ingroup,)
