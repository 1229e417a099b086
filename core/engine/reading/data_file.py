"""The reader for the engine's data files (language packs, recognizer data) is core/data_file.py
(one line naming the file, the entry and the field; the tools read through it too), re-exported here
for the reading and the rules above it; and the regex checks their validators share."""
from __future__ import annotations

import re

from core.data_file import load_model, validate  # noqa: F401 (the engine's import path)


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
