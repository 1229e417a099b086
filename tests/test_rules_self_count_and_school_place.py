"""Two misreads seen on a demo account: a partner word outvoting the poster's own words about
themself, and a school name cut before its place ("King's College London")."""
from __future__ import annotations

from core.engine.rules import extract_cues


def _vals(text: str, attribute: str) -> list[tuple[str, float]]:
    return [(c.value, c.confidence) for c in extract_cues(text) if c.attribute == attribute and c.first_person]


def test_the_only_guy_in_a_class_is_the_posters_gender_and_outweighs_a_partner_word() -> None:
    (male, conf), = _vals("Still the only guy in the pottery class lol", "gender")
    (female, partner_conf), = _vals("Anniversary dinner with my husband tonight", "gender")
    assert male == "male" and female == "female" and conf > partner_conf
    assert _vals("I'm the only woman on the night shift", "gender") == [("female", conf)]
    assert _vals("He is the only guy in class", "gender") == []       # someone else
    assert _vals("Not the only guy in the class, thankfully", "gender") == []


def test_a_college_keeps_its_place_name() -> None:
    assert _vals("Graduated from King's College London in 2015", "school")[0][0] == "King's College London"
    assert _vals("Alumni dinner, University College Dublin", "school")[0][0] == "University College Dublin"
    # a weekday or an ordinary word after the name is no part of it
    assert _vals("Back at Boston College Monday", "school")[0][0] == "Boston College"
    assert _vals("I went to Boston College and loved it", "school")[0][0] == "Boston College"
