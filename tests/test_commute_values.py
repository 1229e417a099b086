"""Commute values that carry what a person (and the scorer) needs (issue 34, "values a person can
read"): the stops and lines as the posts write them. Each case is a kind seen in more than one data
set, not a sentence: a Chinese stop glued to the words before it (下夜班在上海路站), a system whose
own name is its mode word (Glasgow's Subway, London's Tube), "on the platform at X", a line named
with a slash (East/West Line), a stop with two names ("two stops to Edgewood/Candler Park")."""
from __future__ import annotations

from pathlib import Path

from core.engine.aggregators.value_text import commute_sentence, mode_names, said_stations, said_towards, station
from core.engine.rules.features import good_station, text_features
from tests.engine_user import run_profile


def test_a_stop_glued_after_a_locative_word_keeps_its_own_name() -> None:
    assert station("下夜班在上海路站") == "上海路站"
    assert good_station("下夜班在上海路站")          # was a sentence (8 characters), now the stop's name
    assert station("从天府广场站") == "天府广场站"
    assert station("天府广场站") == "天府广场站"
    assert not good_station("今天的阳光很好照在我家楼下的车站")   # a sentence ending in 站 stays none


def test_a_system_named_by_its_mode_word_is_written_as_read() -> None:
    assert mode_names("Subway's rammed, standing all the way in.") == {"metro": "subway"}
    assert mode_names("Took the metro again.") == {}
    assert commute_sentence(when_s="weekday mornings", modes=["metro"], lines=[], stations=[],
                            names={"metro": "subway"}) == "weekday mornings, subway"
    # a Chinese value keeps its own words
    assert "地铁" in commute_sentence(when_s="", modes=["metro"], lines=[], stations=[], lang="zh",
                                    names={"metro": "subway"})


def test_the_platform_at_a_stop_and_a_stop_with_two_names() -> None:
    assert said_stations("5:10 on the platform at Currambine again.") == ["Currambine"]
    assert said_stations("Waiting on the platform at the back.") == []
    assert said_towards("Two stops to Edgewood/Candler Park, then walk.") == ["Edgewood/Candler Park"]
    assert "c" in text_features("Two stops to Edgewood/Candler Park, then walk.").sentences[0][2]
    assert "c" not in text_features("Two of us went to Candler Park.").sentences[0][2]
    assert text_features("DECATUR\nEast / West Line").transit_lines == ["East / West Line"]


MONDAYS = ("2026-01-12", "2026-01-19", "2026-01-26")


def test_a_chinese_commute_names_both_stops(tmp_path: Path) -> None:
    posts = [{"timestamp": "2026-02-23T07:12:00+08:00", "caption": "早班6:50出门，在元通站坐2号线，车上补觉。"},
             {"timestamp": "2026-03-06T08:05:00+08:00", "caption": "下夜班在上海路站等车，2号线，困到灵魂出窍。"}]
    v = run_profile(tmp_path, posts, platform="rednote").get("commute", "")
    assert "上海路" in v and "元通" in v and "2号线" in v, v


def test_an_english_commute_keeps_the_stop_and_where_it_heads(tmp_path: Path) -> None:
    posts = [{"timestamp": f"{d}T07:45:00-05:00",
              "caption": "Decatur station 7:40, same bench as every weekday. Two stops to Edgewood/Candler Park, then walk."}
             for d in MONDAYS]
    v = run_profile(tmp_path, posts).get("commute", "")
    assert "Decatur" in v and "Edgewood/Candler Park" in v, v


def test_shift_work_is_the_posters_routine_in_several_languages(tmp_path: Path) -> None:
    from core.engine.rules.extract import extract_cues

    def shifts(t: str) -> list[tuple[str, bool]]:
        return [(c.value, bool(c.first_person)) for c in extract_cues(t) if c.attribute == "daily_routine"]

    assert shifts("夜班。呼吸机报警响了一整晚。") == [("night shifts (夜班)", True)]
    assert shifts("Frühdienst. U2 um 6:41.") == [("early shifts (Frühdienst)", True)]
    assert shifts("I'm on night shift all week.") == [("night shifts", True)]
    # someone else's shift is theirs, an advert's is nobody's routine
    assert all(not fp for _, fp in shifts("My husband is on night shift again."))
    assert all(not fp for _, fp in shifts("老公今天上夜班，我一个人带娃。"))
    posts = [{"timestamp": f"{d}T19:30:00+08:00", "caption": "今天早班，五点四十出场，累。"}
             for d in ("2026-03-02", "2026-03-09", "2026-03-16")]
    v = run_profile(tmp_path, posts, platform="rednote").get("daily_routine", "")
    assert "early shifts" in v and "evening" not in v, v     # the posting hour is not the shift's
