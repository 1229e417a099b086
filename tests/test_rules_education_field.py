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


def _levels(text: str) -> list[tuple[str, str]]:
    return [(c.value, c.cue) for c in extract_cues(text) if c.attribute == "education"]


@pytest.mark.parametrize("text, level", [
    ("Master's? Check. Now the startup daydreams.", "Master's degree"),
    ("Switched lanes post-linguistics masters - now doing UX research!", "Master's degree"),
    ("PhD done, job hunting next.", "PhD"),
    ("Finally wrapped the bachelor's degree, onto the real world", "Bachelor's degree"),
])
def test_a_degree_in_a_clause_without_subject_is_the_posters(text: str, level: str) -> None:
    """Casual posts drop the subject: a degree beside a word of having or finishing it is the poster's."""
    assert (level, "education:level_dropped_subject") in _levels(text) or (level, "education:level") in _levels(text)


@pytest.mark.parametrize("text", [
    "Funny how PhDs get overlooked when stereotypes enter the scene.",   # plural: people who hold one
    "Expectations can sometimes overshadow your PhD gown!",             # generic "you"
    "The Masters was a great golf tournament after all.",               # no degree word of holding it
    "Old masters like Rembrandt still draw crowds after all these years.",
    "Master's programs are overpriced, check the fees first.",          # "check" is not said of the degree
    "My sister's PhD done at last, so proud of her!",                   # another person's degree
])
def test_a_degree_of_no_one_in_particular_is_no_education_cue(text: str) -> None:
    assert not [v for v, rule in _levels(text) if rule == "education:level_dropped_subject"]
