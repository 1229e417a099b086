"""The post's own date is "now" for age arithmetic, and an age is stated as of the account's latest
post (issue 34 item 2): "my 30th" posted in 2019 is 36 in 2026; "Leaving Cert 2009" read in an account
whose posts end in 2016 is the 20s, not the 30s; a zodiac year (本命年) with the post's date allows one
birth year in twelve and a stated age none of them fits is held. Real rules, the real engine."""
from __future__ import annotations

from pathlib import Path

from core.engine.rules import extract_cues
from core.engine.rules.age_arithmetic import age_range_as_of, zodiac_birth_years
from tests.hard_negatives import Case, profile_of


def _age_cue(text: str):
    return next(c for c in extract_cues(text) if c.attribute == "age")


# ------------------------------------------------------------------------------------------ the arithmetic
def test_a_birthday_number_counts_from_its_post() -> None:
    c = _age_cue("Celebrating my 30th birthday with the family!")
    assert age_range_as_of(c, "2019-06-01", "2026-03-01") == (36, 36)
    assert age_range_as_of(c, "2019-06-01", "2026-07-01") == (37, 37)
    assert age_range_as_of(c, "2026-03-01", "2026-03-01") == (30, 30)


def test_an_exam_year_counts_to_the_latest_post_not_the_machine_year() -> None:
    c = _age_cue("Leaving Cert 2009 feels like yesterday, I was so nervous")
    assert age_range_as_of(c, "2015-05-01", "2016-05-01") == (24, 26)
    assert age_range_as_of(c, "2026-05-01", "2026-05-01") == (34, 36)


def test_an_age_read_otherwise_is_not_re_projected() -> None:
    c = _age_cue("in my 30s and loving it")
    assert age_range_as_of(c, "2019-06-01", "2026-03-01") is None


def test_zodiac_years_positive_and_negative() -> None:
    assert {1994, 1982, 2006} <= set(zodiac_birth_years("整理老照片，翻到2018年本命年带一家人去北京", 2026))
    assert {2014, 2002, 1990} <= set(zodiac_birth_years("本命年，妈妈从老家寄来了红袜子", 2026))
    assert zodiac_birth_years("我妈本命年，给她买了红围巾", 2026) == []          # kin: someone else's
    assert zodiac_birth_years("今年是马年，街上好热闹", 2026) == []               # no zodiac year said


# ------------------------------------------------------------------------------------------ the engine
def _post(caption: str, ts: str) -> dict:
    return {"caption": caption, "timestamp": ts}


def test_engine_my_30th_in_2019_is_36_at_the_latest_post(tmp_path: Path) -> None:
    prof, _ = profile_of(tmp_path, Case("old-30th", [
        _post("Celebrating my 30th birthday with the family!", "2019-06-01T10:00:00+00:00"),
        _post("Rainy walk to the shops.", "2024-02-01T10:00:00+00:00"),
        _post("New plants for the balcony.", "2026-03-01T10:00:00+00:00")]))
    assert prof.get("age") == "36, 30s", prof.get("age")


def test_engine_an_exam_year_in_an_older_account(tmp_path: Path) -> None:
    prof, _ = profile_of(tmp_path, Case("old-lc", [_post("Leaving Cert 2009 and I was so nervous", "2015-06-01T10:00:00+00:00"),
                                                    _post("Sunday roast.", "2016-05-01T10:00:00+00:00")]))
    assert prof.get("age") == "20s", prof.get("age")


def test_engine_a_zodiac_year_no_stated_age_fits_holds_it(tmp_path: Path) -> None:
    # born 2014 / 2002 / 1990 by the zodiac year of 2026: a stated 30 fits none
    prof, _ = profile_of(tmp_path, Case("zodiac-30", [_post("本命年，妈妈寄来了红袜子", "2026-02-17T10:00:00+00:00"),
                                                       _post("我今年30岁了", "2026-03-01T10:00:00+00:00")]))
    assert prof.get("age") is None, prof.get("age")


def test_engine_a_zodiac_year_that_fits_keeps_the_age(tmp_path: Path) -> None:
    prof, _ = profile_of(tmp_path, Case("zodiac-36", [_post("本命年，妈妈寄来了红袜子", "2026-02-17T10:00:00+00:00"),
                                                       _post("我今年36岁了", "2026-03-01T10:00:00+00:00")]))
    assert prof.get("age") and "36" in prof["age"], prof.get("age")
