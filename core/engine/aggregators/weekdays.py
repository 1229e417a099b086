"""Which days a post's own text says it is about (core/data/daywords.json), so weekday and
time-of-day conclusions (the commute, routines) rest on the post's local weekday only when its
text does not say otherwise: "Slow Saturday" is not a weekday morning, whatever the clock says."""
from __future__ import annotations

from core.engine.aggregators.base import GraphFacts
from core.engine.reading.daywords import WEEKDAYS, WEEKEND, named_days

__all__ = ["WEEKDAYS", "WEEKEND", "named_days", "said_days", "contradicted", "text_says_otherwise", "local_weekday"]


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
