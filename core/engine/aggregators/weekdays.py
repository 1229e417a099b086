"""Which days a post's own text says it is about (core/data/daywords.json), so weekday and
time-of-day conclusions (the commute, routines) rest on the post's local weekday only when its
text does not say otherwise: "Slow Saturday" is not a weekday morning, whatever the clock says."""
from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources

from pydantic import BaseModel

from core.engine.aggregators.base import GraphFacts

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
WEEKEND = ("Saturday", "Sunday")


class DayWords(BaseModel):
    schema_: str
    note: str = ""
    days: dict[str, list[str]]


@lru_cache(maxsize=1)
def _patterns() -> list[tuple[tuple[str, ...], re.Pattern[str]]]:
    raw = json.loads(resources.files("core").joinpath("data/daywords.json").read_text(encoding="utf-8"))
    words = DayWords(schema_=raw.pop("schema"), **raw)
    out = []
    for day, ws in words.days.items():
        named = WEEKEND if day == "weekend" else (day,)
        alts = "|".join(rf"\b{re.escape(w)}s?\b" if w.isascii() else re.escape(w) for w in ws)
        out.append((named, re.compile(alts, re.I)))
    return out


def named_days(text: str) -> set[str]:
    """The weekdays a text names ("Slow Saturday" -> {"Saturday"}, 周末 -> {"Saturday", "Sunday"})."""
    return {d for named, rx in _patterns() if rx.search(text) for d in named}


def said_days(f: GraphFacts, post_id: str) -> set[str]:
    """The days the poster's own sentences name, in any language of daywords.json (not only the
    sentences the English / Chinese day-word flag "d" of rules/features.py marks: "Lunes libre")."""
    return {d for raw, _, _ in f.sentences(post_id) for d in named_days(raw)}


def contradicted(f: GraphFacts, post_id: str) -> bool:
    """The post's text names days, none of them the post's local weekday ("Slow Saturday" posted on
    a Tuesday): its timestamp dates no habit."""
    t = f.time.get(post_id)
    said = said_days(f, post_id)
    return bool(said) and t is not None and t.weekday not in said


def text_says_otherwise(f: GraphFacts, post_id: str) -> bool:
    """Contradicted, or its text names only weekend days: it speaks of no working day."""
    said = said_days(f, post_id)
    return bool(said) and (contradicted(f, post_id) or not said & set(WEEKDAYS))


def local_weekday(f: GraphFacts, post_id: str) -> bool:
    """Posted on a weekday (its own time zone) and its text does not say otherwise."""
    t = f.time.get(post_id)
    return t is not None and t.is_weekday and not text_says_otherwise(f, post_id)
