"""Which days of the week a text names, in every language of the packs (core/data/daywords.json).
On the reading floor: the rules (a route's stops are no day names) and the aggregators (a post's
text that says "Slow Saturday" dates no weekday habit) both read it."""
from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from core.engine.reading.data_file import load_model

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
WEEKEND = ("Saturday", "Sunday")


class DayWords(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    schema_: str = Field(alias="schema")
    note: str = ""
    days: dict[str, list[str]]


@lru_cache(maxsize=1)
def _patterns() -> list[tuple[tuple[str, ...], re.Pattern[str]]]:
    words = load_model(Path(str(resources.files("core").joinpath("data/daywords.json"))), DayWords, ValueError)
    out = []
    for day, ws in words.days.items():
        named = WEEKEND if day == "weekend" else (day,)
        alts = "|".join(rf"\b{re.escape(w)}s?\b" if w.isascii() else re.escape(w) for w in ws)
        out.append((named, re.compile(alts, re.I)))
    return out


def named_days(text: str) -> set[str]:
    """The weekdays a text names ("Slow Saturday" -> {"Saturday"}, 周末 -> {"Saturday", "Sunday"})."""
    return set(_named_days(text))


@lru_cache(maxsize=4096)
def _named_days(text: str) -> frozenset[str]:
    # the aggregators ask it of the same sentences at every step (7,000 asks of 8 patterns in 20 users)
    return frozenset(d for named, rx in _patterns() if rx.search(text) for d in named)
