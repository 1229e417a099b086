"""Time features of a post timestamp, in the poster's own local time (the offset written in
the timestamp is kept; no conversion to the machine's zone)."""
from __future__ import annotations

import re
from datetime import datetime

_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_FORMATS = ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y/%m/%d %H:%M:%S", "%Y/%m/%d %H:%M", "%Y-%m-%d", "%Y/%m/%d")


def _parse(ts: str) -> datetime | None:
    s = ts.strip()
    if not s or len(s) > 64:
        return None
    if s.endswith("Z") or s.endswith("z"):
        s = s[:-1] + "+00:00"
    try:
        return datetime.fromisoformat(s)
    except ValueError:
        pass
    for fmt in _FORMATS:
        try:
            return datetime.strptime(s, fmt)
        except ValueError:
            continue
    if re.fullmatch(r"\d{10}(?:\.\d+)?", s):  # unix seconds: no zone known, read as UTC
        try:
            from datetime import timezone

            return datetime.fromtimestamp(float(s), tz=timezone.utc)
        except (OverflowError, OSError, ValueError):
            return None
    return None


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
