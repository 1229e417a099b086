"""Birth dates an age statement implies (issue 34): "turned 30 in 2014" is born 2014 - 30 = 1984, and
a birthday number said with today ("35 printemps aujourd'hui", "Fiz 30 anos hoje", "今天是我的三十岁生日")
dates the birthday on the post's date. Hard negatives: someone else's, a past birthday (no today word),
a today word in another clause, a future one. Each case runs the real engine on a user made of its posts."""
from __future__ import annotations

from pathlib import Path

import pytest

from core.engine.rules import extract_cues
from tests.hard_negatives import Case, profile_of


def _post(caption: str, ts: str = "2026-04-03T10:00:00+00:00") -> dict:
    return {"caption": caption, "timestamp": ts}


def _filler() -> list[dict]:
    return [_post("Walked the dog by the river.", "2026-05-01T10:00:00+00:00")]


TURNED = [
    ("en-turned-in", "I turned 30 in 2014, feels like another life", "1984"),
    ("en-same-year", "Passed my driving test in 2014, the same year I turned 30. Still nervous on motorways", "1984"),
]


@pytest.mark.parametrize("cid,text,year", TURNED, ids=[t[0] for t in TURNED])
def test_turned_n_in_a_year_gives_the_birth_year(tmp_path: Path, cid: str, text: str, year: str) -> None:
    prof, _ = profile_of(tmp_path, Case(cid, [_post(text, "2026-02-01T10:00:00+00:00")] + _filler()))
    assert prof.get("birth_date") and year in prof["birth_date"], prof.get("birth_date")


@pytest.mark.parametrize("text", ["My dad turned 60 in 2014, we threw him a party",
                                  "He turned 30 in 2014, lucky him",
                                  "I will turn 30 in 2030 and plan a trip"])
def test_someone_elses_or_a_future_turning_gives_no_birth_year(tmp_path: Path, text: str) -> None:
    prof, _ = profile_of(tmp_path, Case("neg", [_post(text, "2026-02-01T10:00:00+00:00")] + _filler()))
    assert prof.get("birth_date") is None, prof.get("birth_date")


TODAY = [
    ("fr-printemps", "35 printemps aujourd'hui. Gâteau au miel de châtaignier, évidemment.", "April 3, 1991"),
    ("pt-hoje", "Fiz 30 anos hoje! Obrigada a todos", "April 3, 1996"),
    ("zh-jintian", "今天是我的三十岁生日，许了个愿", "April 3, 1996"),
    ("de-heute", "Heute feiere ich meinen 40. Geburtstag mit der Familie", "April 3, 1986"),
    ("es-hoy", "Hoy celebro mis 35 años con mi gente", "April 3, 1991"),
]


@pytest.mark.parametrize("cid,text,date", TODAY, ids=[t[0] for t in TODAY])
def test_a_birthday_number_today_dates_the_birthday(tmp_path: Path, cid: str, text: str, date: str) -> None:
    prof, _ = profile_of(tmp_path, Case(cid, [_post(text)] + _filler()))
    assert prof.get("birth_date") and date in prof["birth_date"], prof.get("birth_date")


NOT_TODAY = [
    ("pt-past", "Fiz 38 anos. O meu marido fez bolo de bolacha"),          # turned 38: not said to be today
    ("es-yesterday", "Ayer celebré mis 35 años con mi gente"),
    ("es-sister", "Hoy mi hermana celebra sus 35 años"),
    ("fr-other-clause", "Je fête mes 40 ans samedi, aujourd'hui je range la maison"),
    ("zh-next-year", "明年今天是我的三十岁生日"),
]


@pytest.mark.parametrize("cid,text", NOT_TODAY, ids=[t[0] for t in NOT_TODAY])
def test_no_birthday_today_without_today(tmp_path: Path, cid: str, text: str) -> None:
    prof, _ = profile_of(tmp_path, Case(cid, [_post(text)] + _filler()))
    assert not prof.get("birth_date") or "April 3" not in prof["birth_date"], prof.get("birth_date")


def test_the_cues_name_their_arithmetic() -> None:
    c = next(c for c in extract_cues("I turned 30 in 2014, feels like another life") if c.attribute == "birth_date")
    assert c.value == "1984" and c.data.inference == "turned 30 in 2014 -> born 1984"
    assert any(c.attribute == "birth_date" and c.data.is_today for c in extract_cues("Fiz 30 anos hoje!"))
