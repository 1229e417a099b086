"""The activity timeline of the audit report: posts by weekday and hour as an inline SVG grid
(the routine a follower can read off the timestamps), in the time the posts carry."""
from __future__ import annotations

from collections import Counter
from datetime import datetime

from core.textsafe import html_text as escape  # the output boundary: html.escape of printable text

DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def counts(timestamps: list[str | None]) -> Counter[tuple[int, int]]:
    """(weekday, hour) -> posts; unreadable timestamps are left out."""
    out: Counter[tuple[int, int]] = Counter()
    for ts in timestamps:
        try:
            t = datetime.fromisoformat(str(ts).replace("Z", "+00:00"))
        except ValueError:
            continue
        out[(t.weekday(), t.hour)] += 1
    return out


def summary(c: Counter[tuple[int, int]]) -> str:
    """One sentence: when most posts go out."""
    if not c:
        return "No post carries a readable time."
    hours: Counter[int] = Counter()
    days: Counter[int] = Counter()
    for (d, h), n in c.items():
        hours[h] += n
        days[d] += n
    (h, nh), = hours.most_common(1)
    (d, nd), = days.most_common(1)
    total = sum(c.values())
    return (f"{total} posts with a time. The busiest hour is {h:02d}:00–{h:02d}:59 ({nh} posts); "
            f"the busiest day is {DAYS[d]} ({nd} posts). A follower can read this routine too.")


def svg(c: Counter[tuple[int, int]], *, cell: int = 22) -> str:
    left, top = 36, 18
    w, h = left + 24 * cell + 4, top + 7 * cell + 4
    peak = max(c.values(), default=0)
    parts = [f"<svg class='timeline' viewBox='0 0 {w} {h}' role='img' aria-label='posts by weekday and hour'>"
             "<title>posts by weekday and hour</title>"]
    for hour in range(0, 24, 3):
        parts.append(f"<text class='ax' x='{left + hour * cell + 2}' y='12'>{hour:02d}</text>")
    for d, name in enumerate(DAYS):
        y = top + d * cell
        parts.append(f"<text class='ax' x='0' y='{y + cell * 0.7:.0f}'>{name}</text>")
        for hour in range(24):
            n = c.get((d, hour), 0)
            shade = 0.0 if not peak else n / peak
            fill = "#eef0f4" if not n else f"rgba(194,59,59,{0.25 + 0.75 * shade:.2f})"
            parts.append(f"<rect class='cell' x='{left + hour * cell}' y='{y}' width='{cell - 2}' height='{cell - 2}'"
                         f" fill='{fill}'><title>{escape(name)} {hour:02d}:00: {n} post{'s' if n != 1 else ''}"
                         "</title></rect>")
    parts.append("</svg>")
    return "".join(parts)
