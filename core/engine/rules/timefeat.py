"""Time features of a post timestamp, in the poster's own local time (the offset written in
the timestamp is kept; no conversion to the machine's zone)."""
from __future__ import annotations

from datetime import datetime

from core.engine.reading.daywords import WEEKDAYS, WEEKEND
from core.timestamps import parse_timestamp, plausible

# the parts of a day by the hour each ends before (the night runs from 22:00 to 5:00)
_PARTS = ((5, "night"), (9, "early_morning"), (12, "morning"), (14, "midday"), (18, "afternoon"), (22, "evening"), (24, "night"))


def _parse(ts: str) -> datetime | None:
    """A parsed timestamp inside the plausible window (core/timestamps.py), else None."""
    dt = parse_timestamp(ts)
    return dt if dt is not None and plausible(dt) else None


def day_part(hour: int) -> str:
    return next(part for end, part in _PARTS if hour < end)


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
        "weekday": (WEEKDAYS + WEEKEND)[dt.weekday()],
        "is_weekday": dt.weekday() < 5,
        "date": dt.date().isoformat(),
        "part": day_part(dt.hour),
    }
