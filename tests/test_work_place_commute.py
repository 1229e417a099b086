"""Work location by weekday commute (issue 34, Places: "work location by weekday daytime
recurrence"), on the real engine: a weekday commute by city transport inside the home city puts
work in that city (city level, the posts and days in the chain); weekends, a commute that names
another city and someone else's commute put nothing there."""
from __future__ import annotations

from pathlib import Path

from tests.engine_user import run_profile

HOME = [
    {"timestamp": "2025-03-01T20:00:00+00:00", "caption": "Cosy night in. I live in Leeds and honestly love this city."},
    {"timestamp": "2025-04-12T19:30:00+00:00", "caption": "Back home in Leeds after a long week, takeaway on the sofa."},
]


def _commute(days: list[str], text: str) -> list[dict]:
    return [{"timestamp": f"{d}T08:05:00+00:00", "caption": text} for d in days]


MONDAYS = ["2025-03-03", "2025-03-10", "2025-03-17"]
SATURDAYS = ["2025-03-08", "2025-03-15", "2025-03-22"]
OWN = "Monday again, squeezed onto Line 2 at Kirkstall station on my way to work. Packed as usual."


def test_a_weekday_commute_inside_the_home_city_puts_work_there(tmp_path: Path) -> None:
    prof = run_profile(tmp_path, HOME + _commute(MONDAYS, OWN))
    assert "Leeds" in prof.get("home_location", "")
    assert "Leeds" in prof.get("work_location", ""), prof


def test_weekend_rides_are_no_work_commute(tmp_path: Path) -> None:
    prof = run_profile(tmp_path, HOME + _commute(SATURDAYS, OWN.replace("Monday", "Saturday")))
    assert "work_location" not in prof, prof


def test_a_commute_naming_another_city_says_nothing_of_work(tmp_path: Path) -> None:
    text = "Monday again, squeezed onto the 7:50 train at Leeds station on my way to work in Manchester. Packed as usual."
    prof = run_profile(tmp_path, HOME + _commute(MONDAYS, text))
    assert "Leeds" not in prof.get("work_location", ""), prof


def test_someone_elses_commute_is_not_the_posters_work(tmp_path: Path) -> None:
    text = "My husband squeezed onto Line 2 at Kirkstall station on his way to work again this Monday."
    prof = run_profile(tmp_path, HOME + _commute(MONDAYS, text))
    assert "work_location" not in prof, prof


ZH_HOME = [
    {"timestamp": "2025-03-01T20:00:00+08:00", "caption": "周末在家追剧。我住在成都，这城市太巴适了。"},
    {"timestamp": "2025-04-12T19:30:00+08:00", "caption": "下班回到成都的家，火锅安排上。"},
]


def test_a_chinese_weekday_metro_commute_puts_work_in_the_home_city(tmp_path: Path) -> None:
    text = "周一，地铁2号线人挤人，我从春熙路站坐去上班，每天都这样。"
    prof = run_profile(tmp_path, ZH_HOME + _commute(MONDAYS, text))
    assert "Chengdu" in prof.get("home_location", ""), prof
    assert "Chengdu" in prof.get("work_location", ""), prof


def test_a_ride_on_a_trip_is_no_work_commute(tmp_path: Path) -> None:
    text = "Holiday in Leeds! Monday morning, squeezed onto Line 2 at Kirkstall station on my way to the museum."
    prof = run_profile(tmp_path, [{"timestamp": "2025-03-01T20:00:00+00:00", "caption": "Cosy night in at home."}]
                       + _commute(MONDAYS, text))
    assert "work_location" not in prof, prof



def test_a_ride_on_a_metro_regions_system_says_nothing_of_the_work_city(tmp_path: Path) -> None:
    # LRT-2 runs through several cities of Metro Manila: home in Marikina says nothing of where the ride ends
    home = [{"timestamp": "2025-03-01T20:00:00+08:00", "caption": "Marikina girl forever. Home in Marikina, kape muna."},
            {"timestamp": "2025-04-12T19:30:00+08:00", "caption": "Back home in Marikina after a long week."}]
    rides = [{"timestamp": "2025-03-03T05:50:00+08:00", "tags": ["commute", "lrt2"],
              "caption": "Santolan station 5:45am, LRT-2 papuntang Cubao tapos MRT to Ayala. Sana may upuan."},
             {"timestamp": "2025-03-11T05:48:00+08:00", "tags": ["commute"],
              "caption": "Santolan ulit, 5:45am. Pare-pareho kami ng mukha ng mga kasabay ko sa platform."}]
    prof = run_profile(tmp_path, home + rides)
    assert "Marikina" in prof.get("home_location", "") and "LRT" in prof.get("commute", ""), prof
    assert "work_location" not in prof, prof
