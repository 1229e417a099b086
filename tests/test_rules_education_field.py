"""Field of study: a major is a degree programme (bachelor's unless the clause names another level);
trailing chatter ("here", "vs ...") is not part of the field; "studying something" names no field."""
from __future__ import annotations

import pytest

from core.engine.rules import extract_cues


def _edu(text: str) -> list[tuple[str, dict]]:
    return [(c.value, c.data.levels or {}) for c in extract_cues(text) if c.attribute == "education"]


@pytest.mark.parametrize("text, field, level", [
    ("Majored in CompEng; now crafting games in tech city!", "CompEng", "Bachelor's degree"),
    ("I majored in marketing at NYU", "Marketing", "Bachelor's degree"),
    ("fellow psych major here lol", "Psych", "Bachelor's degree"),
    ("i did my masters in history and majored in art", "History", "Master's degree"),   # the clause's level wins
])
def test_a_major_is_a_degree_programme(text: str, field: str, level: str) -> None:
    got = {v: lv for v, lv in _edu(text)}
    assert got[field] == {"level": level, "field": field}


def test_trailing_chatter_is_not_part_of_the_field() -> None:
    assert _edu("funny how life works - diploma in gastronomy here but ended up cooking") == [
        ("Gastronomy", {"field": "Gastronomy"})]


@pytest.mark.parametrize("text", [
    "Studying something captivating vs actually working in the field can be wildly different!",
    "studying stuff for my driving test",
])
def test_studying_something_names_no_field(text: str) -> None:
    assert _edu(text) == []


def test_studying_a_subject_without_a_major_keeps_no_level() -> None:
    # "I studied economics" may be a course or a degree: the field only, no level guessed
    assert _edu("I studied economics in Paris") == [("Economics", {"field": "Economics"})]
