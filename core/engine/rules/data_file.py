"""The `recognizer` block every recognizer's data file carries and the base scores' type, for the
rules' data files; their reader (one line naming the file, the entry and the field) is
core/data_file.py, re-exported here for the rules as on the reading floor (reading/data_file.py)."""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator

from core.engine.reading.data_file import load_model  # noqa: F401 (the rules' import path)
from core.engine.reading.document import FIELDS

# what a recognizer may say it reads of a text: the Document's fields (reading/document.FIELDS)
READS = tuple(FIELDS)


def check_scores(v: dict[str, float]) -> dict[str, float]:
    """Base scores by rule id, each in (0, 1] (a pydantic validator's body: raises ValueError)."""
    for k, x in v.items():
        if not 0 < x <= 1:
            raise ValueError(f"score {k!r} must be in (0, 1], got {x}")
    return v


# base scores by rule id, each in (0, 1]: the recognizer block's and each family file's `scores`
Scores = Annotated[dict[str, float], AfterValidator(check_scores)]


class Recognizer(BaseModel):
    """The `recognizer` block every recognizer's data file (and each entry of registry.json) carries:
    what it is called, the attributes it may emit cues for, the languages it reads, the fields of the
    text's reading it reads, its base scores; `part_of` names the recognizer whose reading a helper
    table serves (health_context serves health_condition). Read by rules/registry.py."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=2, pattern=r"^[a-z][a-z0-9_]*$")
    attributes: list[str]              # [] for a reader that supports no attribute (hostile spans)
    levels: list[str] = []
    languages: list[Annotated[str, Field(pattern=r"^(?:[a-z]{2}|mul)$")]] = Field(min_length=1)   # language codes
    reads: list[str] = Field(min_length=1)
    scores: Scores = {}
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

