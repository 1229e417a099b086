"""Time features of a post timestamp, in the poster's own local time (the offset written in
the timestamp is kept; no conversion to the machine's zone)."""
from __future__ import annotations

from datetime import datetime

from core.timestamps import parse_timestamp, plausible

_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _parse(ts: str) -> datetime | None:
    """A parsed timestamp inside the plausible window (core/timestamps.py), else None."""
    dt = parse_timestamp(ts)
    return dt if dt is not None and plausible(dt) else None


def day_part(hour: int) -> str:
    if 5 <= hour < 9:
        return "early_morning"
    if 9 <= hour < 12:
        return "morning"
    if 12 <= hour < 14:
        return "midday"
    if 14 <= hour < 18:
        return "afternoon"
    if 18 <= hour < 22:
        return "evening"
    return "night"


def time_features(ts: str | None) -> dict:
    """{"local_time","hour","weekday","is_weekday","date","part"}; {} if unparsable."""
    if not ts or not isinstance(ts, str):
        return {}
    dt = _parse(ts)
    if dt is None:
        return {}
    return {
        "local_time": dt.strftime("%H:%M"),
        "hour": dt.hour,
        "weekday": _WEEKDAYS[dt.weekday()],
        "is_weekday": dt.weekday() < 5,
        "date": dt.date().isoformat(),
        "part": day_part(dt.hour),
    }
