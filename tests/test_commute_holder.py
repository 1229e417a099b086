"""Whose commute (issue 34, holder): the holder of a ride is decided like any fact, so a kinship
subject or a third person makes a commute theirs, never the account's ("my husband takes the 7:10
bus", "他老公每天早上坐地铁"). Real offline investigations, English and Chinese, with the poster's own
ride as the control."""
from __future__ import annotations

from pathlib import Path

from core.engine.rules.features import text_features
from tests.engine_user import run_profile

MONDAYS = ("2025-03-03", "2025-03-10", "2025-03-17")


def _posts(text: str, offset: str) -> list[dict]:
    return [{"timestamp": f"{d}T07:30:00{offset}", "caption": text} for d in MONDAYS]


def test_a_husbands_bus_is_no_commute_of_the_account(tmp_path: Path) -> None:
    prof = run_profile(tmp_path, _posts("My husband takes the 7:10 bus to work every morning, bless him.", "+00:00"))
    assert "commute" not in prof, prof


def test_a_third_persons_metro_ride_in_chinese_is_no_commute(tmp_path: Path) -> None:
    prof = run_profile(tmp_path, _posts("他老公每天早上坐地铁2号线去上班，太辛苦了。", "+08:00"), platform="rednote")
    assert "commute" not in prof, prof


def test_the_posters_own_ride_is_still_the_commute(tmp_path: Path) -> None:
    en = run_profile(tmp_path / "en", _posts("I take the 7:10 bus to work every morning.", "+00:00"))
    assert "weekday mornings" in en.get("commute", ""), en
    zh = run_profile(tmp_path / "zh", _posts("我每天早上坐地铁2号线去上班。", "+08:00"), platform="rednote")
    assert "2号线" in zh.get("commute", ""), zh


def test_the_sentence_flag_marks_someone_elses_ride() -> None:
    assert "o" in text_features("My sister rides the tube to Angel daily.").sentences[0][2]
    assert "o" in text_features("他老公每天早上坐地铁2号线上班。").sentences[0][2]
    assert "o" not in text_features("I ride the tube to Angel daily.").sentences[0][2]
    assert "o" not in text_features("我每天早上坐地铁2号线上班。").sentences[0][2]
