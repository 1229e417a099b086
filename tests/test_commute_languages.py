"""Commutes written in the languages of the packs (issue 34): a route between two named stops is
data in each pack (core/data/lang/*.json: commute_routes, transit_lines, transit_modes) read by the
one generic reader (rules/lang_cues.py), and the commute aggregator writes the stops and the line as
written. Day words in every pack's language stop a weekday conclusion the post's text contradicts
(issue 37). Positive and negative cases per language; real offline investigations where the value
matters."""
from __future__ import annotations

from pathlib import Path

import pytest

from core.engine.aggregators.weekdays import named_days
from core.engine.rules.extract import extract_cues
from tests.engine_user import run_profile


def _route(text: str) -> tuple[list[str], list[str]] | None:
    cs = [c for c in extract_cues(text) if c.attribute == "commute" and c.cue.endswith("_route")]
    return (cs[0].data.stations or [], cs[0].data.lines or []) if cs else None


@pytest.mark.parametrize("text, stops, line", [
    ("Línea 3 desde Etiopía hasta Coyoacán, como todos los días.", ["Etiopía", "Coyoacán"], "Línea 3"),
    ("Cada día lo mismo: L6 desde Oporto hasta Cuatro Caminos.", ["Oporto", "Cuatro Caminos"], "L6"),
    ("昭和町から御堂筋線で梅田まで。月曜の朝はいつも満員。", ["昭和町", "梅田"], "御堂筋線"),
    ("장산역에서 2호선 타고 광안까지. 월요일 아침 지하철은 언제나 전쟁.", ["장산", "광안"], "2호선"),
    ("Jeden Morgen mit der U2 von Sendlinger Tor nach Marienplatz.", ["Sendlinger Tor", "Marienplatz"], "U2"),
    ("Tous les matins, ligne 4 de Montparnasse à Châtelet.", ["Montparnasse", "Châtelet"], "ligne 4"),
    ("Todo dia pego o metrô de Vila Madalena para Sé, linha 2.", ["Vila Madalena", "Sé"], "linha 2"),
    ("Setiap pagi naik LRT dari Kelana Jaya ke KLCC.", ["Kelana Jaya", "KLCC"], "LRT"),
])
def test_a_route_in_each_pack_language_gives_both_stops_and_the_line(text: str, stops: list[str], line: str) -> None:
    got = _route(text)
    assert got is not None, text
    assert got[0] == stops and line in got[1], got


@pytest.mark.parametrize("text", [
    "Marchamos desde el Ángel hasta el Zócalo con mis amigas.",          # no line, no travel word: a march
    "Mi marido toma el metro desde Oporto hasta Cuatro Caminos.",         # the husband's ride
    "No tomo el metro desde Oporto hasta Cuatro Caminos.",                # negated
    "夫は毎朝昭和町から御堂筋線で梅田まで通勤している。",                    # the husband's ride
    "남편은 장산역에서 2호선 타고 광안까지 출근해요.",                       # the husband's ride
    "Mein Mann fährt jeden Morgen mit der U-Bahn von Sendlinger Tor nach Marienplatz.",
    "Ich arbeite von Montag bis Freitag, meistens mit der U-Bahn.",       # a span of days, no stops
    "Wir fahren von Berlin nach Hamburg.",                                 # no line, no travel word
])
def test_no_route_without_a_ride_of_the_posters_own(text: str) -> None:
    assert _route(text) is None, text


def _weekday_mornings(caption: str, offset: str) -> list[dict]:
    return [{"timestamp": f"{d}T08:10:00{offset}", "caption": caption}
            for d in ("2026-02-02", "2026-02-09", "2026-02-16")]   # Mondays


def test_a_spanish_route_becomes_the_commute_value(tmp_path: Path) -> None:
    prof = run_profile(tmp_path, _weekday_mornings("Línea 3 desde Etiopía hasta Coyoacán, como todos los días.", "-06:00"))
    v = prof.get("commute", "")
    assert "weekday mornings" in v and "Línea 3" in v and "Etiopía" in v and "Coyoacán" in v, prof


def test_a_japanese_route_becomes_the_commute_value(tmp_path: Path) -> None:
    prof = run_profile(tmp_path, _weekday_mornings("昭和町から御堂筋線で梅田まで。月曜の朝はいつも満員。", "+09:00"))
    v = prof.get("commute", "")
    assert "御堂筋線" in v and "昭和町" in v and "梅田" in v, prof


def test_someone_elses_korean_route_is_no_commute(tmp_path: Path) -> None:
    prof = run_profile(tmp_path, _weekday_mornings("남편은 장산역에서 2호선 타고 광안까지 출근해요.", "+09:00"))
    assert "장산" not in prof.get("commute", ""), prof


@pytest.mark.parametrize("text, days", [
    ("Sábado tranquilo en casa", {"Saturday"}), ("Lunes otra vez", {"Monday"}),
    ("Ein ruhiger Samstag", {"Saturday"}), ("Wochenende in Innsbruck", {"Saturday", "Sunday"}),
    ("samedi tranquille", {"Saturday"}), ("fim de semana na praia", {"Saturday", "Sunday"}),
    ("土曜の朝はのんびり", {"Saturday"}), ("월요일 아침 지하철", {"Monday"}), ("주말엔 시장", {"Saturday", "Sunday"}),
    ("Hujung minggu santai", {"Saturday", "Sunday"}), ("週末去爬山", {"Saturday", "Sunday"}),
    ("Cada día lo mismo", set()), ("毎朝満員", set()),
])
def test_day_words_are_data_in_every_pack_language(text: str, days: set[str]) -> None:
    assert named_days(text) == days


def test_a_weekday_timestamp_whose_spanish_text_says_saturday_makes_no_weekday_commute(tmp_path: Path) -> None:
    # stamped on weekday mornings, each caption saying it is a slow Saturday: the text wins in Spanish too
    prof = run_profile(tmp_path, _weekday_mornings("Sábado tranquilo: Línea 3 desde Etiopía hasta Coyoacán, vacía.", "-06:00"))
    assert "weekday" not in prof.get("commute", ""), prof
