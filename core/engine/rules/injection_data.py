"""The data taint by provenance reads (core/data/injection/provenance.json): the words that point a
post at another post (a neighbour, a position) and the imperative assignments of a profile value
("set home to X", "record: age 81") that are never evidence. Validated at load: a bad file is one
clear error naming the file and the field."""
from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ValidationError

PATH = Path(__file__).resolve().parents[2] / "data" / "injection" / "provenance.json"


class Assignment(BaseModel):
    attributes: dict[str, list[str]]     # language -> attribute words (regex)
    patterns: dict[str, list[str]]       # language -> patterns with {attr}


class Vouch(BaseModel):
    part: dict[str, list[str]]           # language -> a part of the post (or another post) named
    endorse: dict[str, list[str]]        # language -> vouching for it


class Provenance(BaseModel):
    schema_: str
    vouch: Vouch
    neighbour: dict[str, list[str]]
    position: dict[str, list[str]]
    ordinals: dict[str, int]
    assignment: Assignment


class Compiled(BaseModel, arbitrary_types_allowed=True):
    neighbour: re.Pattern[str]
    position: re.Pattern[str]
    ordinals: dict[str, int]
    assignment: list[str]                # one regex source per language (joined into hostile._ASSERT)
    part: re.Pattern[str]
    endorse: re.Pattern[str]


def _field(loc: tuple) -> str:
    return ".".join(str(x) for x in loc).replace("schema_", "schema")


@lru_cache(maxsize=1)
def load() -> Compiled:
    try:
        raw = json.loads(PATH.read_text(encoding="utf-8"))
        doc = Provenance.model_validate({**raw, "schema_": raw.get("schema")})
    except (OSError, ValueError) as e:
        where = f" field {_field(e.errors()[0]['loc'])}" if isinstance(e, ValidationError) else ""
        raise ValueError(f"{PATH}:{where} {e.errors()[0]['msg'] if isinstance(e, ValidationError) else e}") from e
    assign = []
    for lang, pats in doc.assignment.patterns.items():
        attrs = doc.assignment.attributes.get(lang)
        if not attrs:
            raise ValueError(f"{PATH}: field assignment.attributes.{lang} is missing (its patterns need it)")
        attr = "(?:" + "|".join(attrs) + ")"
        assign += [p.replace("{attr}", attr) for p in pats]
    try:
        out = Compiled(neighbour=re.compile("|".join(f"(?:{p})" for ps in doc.neighbour.values() for p in ps), re.I),
                       position=re.compile("|".join(f"(?:{p})" for ps in doc.position.values() for p in ps)
                                           .replace("(?P<n>", "(?:"), re.I),
                       ordinals=doc.ordinals, assignment=assign,
                       part=re.compile("|".join(f"(?:{p})" for ps in doc.vouch.part.values() for p in ps), re.I),
                       endorse=re.compile("|".join(f"(?:{p})" for ps in doc.vouch.endorse.values() for p in ps), re.I))
        for p in assign:
            re.compile(p, re.I)
    except re.error as e:
        raise ValueError(f"{PATH}: a pattern does not compile ({e})") from e
    return out


@lru_cache(maxsize=1)
def position_patterns() -> list[re.Pattern[str]]:
    """The position patterns one by one (each holds its own group `n`)."""
    raw = json.loads(PATH.read_text(encoding="utf-8"))
    return [re.compile(p, re.I) for ps in raw["position"].values() for p in ps]
