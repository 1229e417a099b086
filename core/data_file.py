"""One reader for the data files of the engine and the tools (language packs, recognizer data,
tools/data/transit.json): JSON validated by a pydantic model, any fault one line naming the file,
the entry and the field (the error class is the caller's). It sits on the bottom floor so the tools,
which never import the engine, read through it too (core/engine/reading/data_file.py re-exports it)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound=BaseModel)


Key = str | tuple[str, ...] | None


def load_model(path: Path, model: type[M], error: type[Exception], key: Key = None) -> M:
    """`path` read as JSON and validated by `model`. With `key` (a field name, or several: the first the
    entry has), a bad entry of a list is named by that field of the entry too: "entries[3] (arvo): field
    strength" rather than "field entries.3.strength"."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise error(f"{path}: not JSON ({e.msg}, line {e.lineno})") from None
    return validate(raw, model, error, str(path), key)


def validate(raw: object, model: type[M], error: type[Exception], source: str, key: Key = None) -> M:
    """`raw` (parsed JSON) validated by `model`; a fault is one `error` naming `source` and where."""
    try:
        return model.model_validate(raw)
    except ValidationError as e:
        err = e.errors()[0]
        if not err["loc"]:   # a whole-file validator's message names its own entry and field
            raise error(f"{source}: {err['msg'].removeprefix('Value error, ')}") from None
        raise error(f"{source}: {_where(raw, err['loc'], key)}{err['msg']}") from None


def _where(raw: object, loc: tuple, key: Key) -> str:
    """'field a.b.c: ', or with `key` and a list entry at the head of `loc`: 'a[i] (KEY): field c: '."""
    if key and len(loc) >= 2 and isinstance(loc[1], int) and isinstance(raw, dict):
        entries = raw.get(loc[0])
        entry = entries[loc[1]] if isinstance(entries, list) and loc[1] < len(entries) else None
        keys = (key,) if isinstance(key, str) else key
        name = next((entry[k] for k in keys if k in entry), "?") if isinstance(entry, dict) else "?"
        rest = ".".join(str(x) for x in loc[2:])
        return f"{loc[0]}[{loc[1]}] ({name}): " + (f"field {rest}: " if rest else "")
    return f"field {'.'.join(str(x) for x in loc)}: "
