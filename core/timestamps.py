"""Parsing post timestamps and the plausibility window they must fall in.

A timestamp before EARLIEST or after the run date + 1 day is implausible (a typo, a hostile
2041 or 9999-12-31): the loader reports it, and time features ignore it, so it never moves
age, routine or birth inference.
"""
from __future__ import annotations

import re
from datetime import date, datetime, timedelta, timezone

EARLIEST = date(2000, 1, 1)
_FORMATS = ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y/%m/%d %H:%M:%S", "%Y/%m/%d %H:%M", "%Y-%m-%d", "%Y/%m/%d")


def parse_timestamp(ts: str) -> datetime | None:
    """ISO 8601 (with Z), a few common layouts, or unix seconds; None when unparsable."""
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
            return datetime.fromtimestamp(float(s), tz=timezone.utc)
        except (OverflowError, OSError, ValueError):
            return None
    return None


def latest_plausible() -> date:
    return datetime.now(timezone.utc).date() + timedelta(days=1)


def plausible(dt: datetime) -> bool:
    """Inside [2000-01-01, run date + 1 day] (the poster's local date)."""
    return EARLIEST <= dt.date() <= latest_plausible()


def implausible_reason(ts: str) -> str | None:
    """Why a (parsable) timestamp is outside the window, or None."""
    dt = parse_timestamp(ts)
    if dt is None or plausible(dt):
        return None
    return (f"timestamp {ts!r} is outside the plausible window {EARLIEST.isoformat()} .. "
            f"{latest_plausible().isoformat()} (ignored for age, routine and birth inference)")
