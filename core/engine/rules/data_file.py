"""One reader for the recognizers' data files: JSON validated by a pydantic model, any fault one
line naming the file and the field (the error class is the caller's)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

M = TypeVar("M", bound=BaseModel)


def load_model(path: Path, model: type[M], error: type[Exception]) -> M:
    try:
        return model.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except json.JSONDecodeError as e:
        raise error(f"{path}: not JSON ({e.msg}, line {e.lineno})") from None
    except ValidationError as e:
        err = e.errors()[0]
        raise error(f"{path}: field {'.'.join(str(x) for x in err['loc'])}: {err['msg']}") from None


# what a recognizer may say it reads of a text: the reading's fields (rules/base.Ctx, reading/holder.TextReading)
READS = ("text", "masked", "lines", "sentences", "carrier", "lang", "by_other", "holder", "stance", "negation",
         "tokens", "hashtags", "lexicon", "places", "entities", "embedding")


class Recognizer(BaseModel):
    """The `recognizer` block every recognizer's data file (and each entry of registry.json) carries:
    what it is called, the attributes it may emit cues for, the languages it reads, the fields of the
    text's reading it reads, its base scores; `part_of` names the recognizer whose reading a helper
    table serves (health_context serves health_condition). Read by rules/registry.py."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=2, pattern=r"^[a-z][a-z0-9_]*$")
    attributes: list[str] = Field(min_length=1)
    levels: list[str] = []
    languages: list[str] = Field(min_length=1)
    reads: list[str] = Field(min_length=1)
    scores: dict[str, float] = {}
    part_of: str | None = None
    runner: Literal["patterns"] | None = None   # run by rules/data_runner.py from the file's patterns (no Python)
    about: str = ""

    @field_validator("reads")
    @classmethod
    def _reads(cls, v: list[str]) -> list[str]:
        bad = [r for r in v if r not in READS]
        if bad:
            raise ValueError(f"unknown field(s) {bad} (a recognizer reads {', '.join(READS)})")
        return v

    @field_validator("scores")
    @classmethod
    def _scores(cls, v: dict[str, float]) -> dict[str, float]:
        for k, x in v.items():
            if not 0 < x <= 1:
                raise ValueError(f"score {k!r} must be in (0, 1], got {x}")
        return v
