"""One reader for the engine's data files (language packs, recognizer data): JSON validated by a
pydantic model, any fault one line naming the file and the field (the error class is the caller's).
It lives on the reading floor so the reading (language packs) and the rules above it share it."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound=BaseModel)


def load_model(path: Path, model: type[M], error: type[Exception]) -> M:
    try:
        return model.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except json.JSONDecodeError as e:
        raise error(f"{path}: not JSON ({e.msg}, line {e.lineno})") from None
    except ValidationError as e:
        err = e.errors()[0]
        raise error(f"{path}: field {'.'.join(str(x) for x in err['loc'])}: {err['msg']}") from None


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
