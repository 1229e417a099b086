"""Commute, routine and venue values a person can read (issue 34; issue 37 item 7): one short
sentence built from parts (when, how, where), never a quote of a post, a hashtag or a clause said
twice. Real offline investigations over small accounts, and the templates as data."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from core.engine.aggregators import value_text
from tests.engine_user import run_profile


def _profile(tmp_path: Path, posts: list[dict]) -> dict[str, str]:
    return run_profile(tmp_path, posts, platform="instagram")


BUS_MORNINGS = [  # Monday to Wednesday, local time (+01:00)
    {"timestamp": "2025-09-08T07:05:00+01:00", "caption": "Took the bus again, the 42 was packed this morning."},
    {"timestamp": "2025-09-09T07:10:00+01:00", "caption": "On the bus at Elm Park, raining, as always."},
    {"timestamp": "2025-09-10T07:15:00+01:00", "caption": "Caught the bus late again, my commute is a mess."},
]


def test_three_weekday_morning_bus_posts_make_one_sentence(tmp_path: Path) -> None:
    value = _profile(tmp_path, BUS_MORNINGS).get("commute", "")
    assert value.startswith("weekday mornings about 07:10"), value
    assert "bus" in value, value
    # no quote, no post's words beyond the parts, no list of clauses
    assert not re.search(r"[“”\"|#;]", value), value
    for caption in BUS_MORNINGS:
        assert caption["caption"][:20] not in value, value
    assert len(value) <= 80, value


def test_hashtag_and_quote_only_posts_give_no_dump(tmp_path: Path) -> None:
    posts = [{"timestamp": ts, "tags": ["commute", "mondaymood", "blessed"],
              "caption": "“Mind the gap,” they said. #commute #blessed #grind"}
             for ts in ("2025-09-08T08:10:00+01:00", "2025-09-09T08:05:00+01:00", "2025-09-10T08:20:00+01:00")]
    value = _profile(tmp_path, posts).get("commute", "")
    for word in ("#", "“", "Mind the gap", "blessed", "grind", "mondaymood", "|"):
        assert word not in value, value
    # what stays is what the parts give: the time of day, nothing invented
    assert value in ("", "weekday mornings about 08:10"), value


def test_a_habit_sentence_is_not_quoted_and_not_repeated(tmp_path: Path) -> None:
    posts = [{"timestamp": ts, "caption": "6:30am gym before work, every weekday, no excuses"}
             for ts in ("2025-09-08T06:40:00+01:00", "2025-09-09T06:45:00+01:00", "2025-09-10T06:35:00+01:00")]
    value = _profile(tmp_path, posts).get("daily_routine", "")
    assert "gym" in value, value
    assert value.count("gym") == 1, value          # said once, not "X; X (X)"
    assert "no excuses" not in value and "(" not in value, value


def test_a_caption_read_as_an_activity_is_dropped_not_dumped() -> None:
    assert value_text.phrase("gym before work") == "gym before work"
    assert value_text.phrase("工作日早上六点半去健身房") == "工作日早上六点半去健身房"
    for dump in ("#gymlife", "chai > coffee · window seat always · Dilli ki ladki",
                 "Always have one handy just in case yet ironically always seem to be borrowing them",
                 "“Mind the gap”", "commute | Line 2"):
        assert value_text.phrase(dump) is None, dump


def test_templates_are_data_in_english_and_chinese() -> None:
    en, zh = value_text.words("en"), value_text.words("zh")
    when_en = value_text.when(["Mon", "Tue", "Wed"], "morning", ["07:08", "07:10", "07:14"], en)
    assert value_text.commute_sentence(when_s=when_en, modes=["bus"], lines=["42"],
                                       stations=["Elm Park", "City Centre"]) \
        == "weekday mornings about 07:10, bus 42, between Elm Park and City Centre"
    when_zh = value_text.when(["Mon", "Tue", "Wed"], "morning", ["07:08", "07:10", "07:14"], zh)
    assert value_text.commute_sentence(when_s=when_zh, modes=["metro"], lines=["1号线"],
                                       stations=[value_text.station("从天府广场站")], lang="zh") \
        == "工作日早上约07:10，地铁1号线，在天府广场站"
    assert value_text.words("fr") is en            # a language with no templates: English
    # two working days stay named (a schedule), a part of day alone reads as one
    assert value_text.when(["Tuesday", "Thursday"], "evening", [], en) == "Tuesday and Thursday evenings"
    assert value_text.when(["Tuesday", "Thursday"], "", [], en) == "on Tuesdays and Thursdays"
    assert value_text.when(["Sat", "Sun"], "", [], en) == "on weekends"
    assert value_text.said_part("swim at lunchtime, every day") == "midday"


def test_where_the_ride_heads_and_a_system_name_are_parts_not_quotes() -> None:
    sent = "Santolan station 5:45am, LRT-2 papuntang Cubao tapos MRT to Ayala"
    assert value_text.said_towards(sent) == ["Cubao", "Ayala"]
    assert value_text.said_systems(sent) == ["LRT", "MRT"]
    assert value_text.said_towards("27 min to Office") == []          # a route card's label, no place
    assert value_text.said_modes("蹬着单车去上班") == ["bike"]
    assert value_text.said_stations("Morning view from the Angel platform, Northern line") == ["Angel"]
    assert value_text.said_stations("at the bus stop again") == []      # no name before the station word
    assert value_text.commute_sentence(when_s="weekday mornings about 05:50", modes=["metro"], lines=["MRT"],
                                       stations=["Santolan station"], towards=["Cubao", "Ayala"]) \
        == "weekday mornings about 05:50, metro MRT, from Santolan station towards Cubao, Ayala"


def test_a_broken_template_file_names_the_file_and_field(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    raw = json.loads((Path(value_text.__file__).parents[2] / value_text.DATA).read_text(encoding="utf-8"))
    del raw["languages"]["en"]["when"]
    bad = tmp_path / "core"
    (bad / "data").mkdir(parents=True)
    (bad / "data" / "value_templates.json").write_text(json.dumps(raw), encoding="utf-8")
    monkeypatch.setattr(value_text.resources, "files", lambda pkg: bad)
    value_text.templates.cache_clear()
    try:
        with pytest.raises(ValueError, match=r"value_templates\.json: field languages\.en\.when"):
            value_text.templates()
    finally:
        value_text.templates.cache_clear()
