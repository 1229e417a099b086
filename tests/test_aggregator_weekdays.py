"""Weekday and time-of-day conclusions (the commute, routines) use the post's local weekday and
refuse posts whose own text says otherwise (issue 37: a commute "weekday mornings around 10:00"
drawn from Saturday posts that say it is a slow Saturday). Real offline investigations."""
from __future__ import annotations

from pathlib import Path

from core.engine.aggregators.weekdays import named_days
from tests.engine_user import run_profile


def _profile(tmp_path: Path, posts: list[dict]) -> dict[str, str]:
    return run_profile(tmp_path, posts, platform="rednote")


SLOW_SATURDAYS = [  # Saturdays, local time (+01:00), each saying so
    {"timestamp": "2025-09-06T10:00:00+01:00", "tags": ["commute", "weekend"],
     "caption": "Slow Saturday. Took the tube on the Victoria line to the market, my commute line but empty."},
    {"timestamp": "2025-09-13T10:20:00+01:00", "tags": ["commute"],
     "caption": "Slow Saturday again, Victoria line was empty for once."},
    {"timestamp": "2025-09-20T09:50:00+01:00", "tags": ["commute"],
     "caption": "Another slow Saturday on the tube, Victoria line."},
]


def test_saturday_posts_that_say_so_make_no_weekday_commute(tmp_path: Path) -> None:
    prof = _profile(tmp_path, SLOW_SATURDAYS)
    assert "weekday" not in prof.get("commute", ""), prof.get("commute")


def test_weekday_timestamps_whose_text_says_saturday_date_no_weekday_morning(tmp_path: Path) -> None:
    # the same captions stamped on weekday mornings (a scheduled post, a wrong clock): the text wins
    posts = [{**p, "timestamp": ts} for p, ts in zip(SLOW_SATURDAYS, ("2025-09-08T10:00:00+01:00",
                                                                      "2025-09-09T10:20:00+01:00",
                                                                      "2025-09-10T09:50:00+01:00"))]
    prof = _profile(tmp_path, posts)
    assert "weekday" not in prof.get("commute", ""), prof.get("commute")


def test_weekday_commute_posts_still_make_the_commute(tmp_path: Path) -> None:
    # the control: the same line on weekday mornings, saying so, is a weekday-morning commute
    posts = [{"timestamp": ts, "tags": ["commute"], "caption": f"{day}. Victoria line again, packed as usual."}
             for ts, day in (("2025-09-08T08:10:00+01:00", "Monday"), ("2025-09-09T08:05:00+01:00", "Tuesday"),
                             ("2025-09-10T08:20:00+01:00", "Wednesday"))]
    prof = _profile(tmp_path, posts)
    assert "weekday mornings about 08:10" in prof.get("commute", ""), prof


def test_the_local_weekday_counts_not_the_utc_one(tmp_path: Path) -> None:
    # Saturday 07:30 at +14:00 is Friday 17:30 UTC (a weekday evening peak there): local time wins
    posts = [{"timestamp": ts, "caption": "Victoria line again, packed."}
             for ts in ("2025-09-06T07:30:00+14:00", "2025-09-13T07:40:00+14:00", "2025-09-20T07:20:00+14:00")]
    prof = _profile(tmp_path, posts)
    assert "weekday" not in prof.get("commute", ""), prof.get("commute")


def test_day_words_are_data_in_both_languages() -> None:
    assert named_days("Slow Saturday") == {"Saturday"}
    assert named_days("慢悠悠的周六") == {"Saturday"}
    assert named_days("什么都没干的周末也很好") == {"Saturday", "Sunday"}
    assert named_days("climbing on Mondays") == {"Monday"}
    assert named_days("Saturdays are for climbing") == {"Saturday"}
    assert named_days("a dynamic day") == set()
