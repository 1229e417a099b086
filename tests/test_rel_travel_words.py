"""Issue 34 (travel_history): trip wording in the languages people post in. Words right before a
place in es / de / fr / pt ("Semana Santa en Oaxaca", "Wochenende in Innsbruck"), words right
after it ("Dubai layover", "Lisbon bound", 京都へ), and a public holiday's days off or a family
taken somewhere in a Chinese clause (五一去济南, 带一家人去北京) make the place a trip; living,
moving and going home do not."""
from __future__ import annotations

import pytest

from core.engine.rules import extract_cues


def _trips(text: str) -> list[str]:
    return [c.value for c in extract_cues(text) if c.attribute == "travel_history" and not c.data.presence]


@pytest.mark.parametrize("text,place", [
    ("Semana Santa en Oaxaca: mole, mezcal y los retablos de Santo Domingo.", "Oaxaca"),           # es
    ("Wochenende in Innsbruck mit der Seilschaft. Nordkette bei Sonnenuntergang.", "Innsbruck"),   # de
    ("Super séjour à Lyon avec les copines, on a tout mangé.", "Lyon"),                              # fr
    ("Três dias em Lisboa com a família, que calor.", "Lisboa"),                                     # pt
    ("Dubai layover = sunset at the Marina and shawarma.", "Dubai"),                                 # en, after
    ("Lisbon bound for Eilidh & João's wedding!!", "Lisbon"),                                        # en, after
    ("兄の結婚式で京都へ。お義姉さん綺麗すぎた。", "Kyoto"),                                           # ja, へ
    ("五一去济南看了趵突泉，人从众。", "Jinan"),                                                      # zh, holiday
    ("整理老照片，翻到2018年带一家人去北京，儿子才抱在手上。", "Beijing"),                             # zh, family taken
])
def test_trip_wording_makes_a_trip(text, place):
    assert any(place in v for v in _trips(text)), (_trips(text), text)


@pytest.mark.parametrize("text", [
    "Vivo en Oaxaca desde hace años.",          # es: lives there
    "Ich wohne in Innsbruck.",                   # de
    "J'habite à Lyon depuis dix ans.",          # fr
    "Moro em Lisboa há dez anos.",               # pt
    "来月、京都へ引っ越します。",                 # ja: moving, not a trip
    "Home in Leeds for the weekend.",            # going home
    "五一在北京加班，哪也没去。",                  # zh: a holiday worked at home, no 去
    "Savannah for the weekend with Denise.",     # a bare region name (a region of Ghana): no trip claimed
])
def test_living_moving_and_home_are_no_trip(text):
    assert not _trips(text), (_trips(text), text)
