"""A stop's own name out of unsegmented text: the words glued before it cut off (从天府广场站 ->
天府广场站; 下夜班在上海路站 -> 上海路站). On the reading floor: the rules (is this entity a stop?)
and the values written for people (aggregators/value_text) name a stop the same way. The words are
`station_prefixes` and `station_cut_after` of core/data/value_templates.json."""
from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path

from pydantic import BaseModel

from core.engine.reading.data_file import load_model


class StopWords(BaseModel):
    """The two lists of value_templates.json this module reads (its other fields: value_text.Templates)."""
    station_prefixes: list[str] = []
    station_cut_after: list[str] = []


@lru_cache(maxsize=1)
def _words() -> StopWords:
    return load_model(Path(str(resources.files("core").joinpath("data/value_templates.json"))), StopWords, ValueError)


def station(name: str) -> str:
    """A station name without the words unsegmented text glues before it (what follows the last
    `station_cut_after` word, two characters at least; a leading `station_prefixes` word dropped)."""
    w = _words()
    s = " ".join(name.split())
    for p in sorted(w.station_prefixes, key=len, reverse=True):
        if s.startswith(p) and len(s) > len(p) + 1:
            s = s[len(p):]
            break
    cut = max((s.rfind(x) + len(x) for x in w.station_cut_after if x in s[1:]), default=0)
    if cut and len(s) - cut >= 3 and not s.isascii():
        s = s[cut:]
    return s
