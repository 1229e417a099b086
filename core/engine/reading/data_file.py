"""The reader for the engine's data files (language packs, recognizer data) is core/data_file.py
(one line naming the file, the entry and the field; the tools read through it too), re-exported here
for the reading and the rules above it; the word-list entry both floors' files share; and the regex
checks their validators share."""
from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field

from core.data_file import load_model, validate  # noqa: F401 (the engine's import path)


class Words(BaseModel):
    """A word list by language ("en": [...], "zh": [...]) and why the reading or the rules read it: the
    entry of a recognizer file's `words` (rules/recognizer_data.py; reading/holder.py reads mentions.json's
    on the floor below the rules)."""
    model_config = ConfigDict(extra="forbid")
    reason: str = Field(min_length=1)
    entries: dict[str, list[str]]

    def all(self) -> list[str]:
        return [w for ws in self.entries.values() for w in ws]


def check_regex(pattern: str) -> str:
    """`pattern` when it compiles; else the one ValueError every data file's validator gives (pydantic
    puts the file's field before it)."""
    try:
        re.compile(pattern)
    except re.error as e:
        raise ValueError(f"not a regular expression: {e}") from None
    return pattern


def check_regex_map(v: dict[str, list[str]], where: str) -> dict[str, list[str]]:
    """Every pattern of each list in `v` compiles; `where` names a bad one ({key}, {pattern})."""
    for key, patterns in v.items():
        for pattern in patterns:
            try:
                check_regex(pattern)
            except ValueError as e:
                raise ValueError(f"{where.format(key=key, pattern=pattern)}: {e}") from None
    return v
