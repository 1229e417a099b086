"""General cues from external text: a country or city in a sentence about travelling (wherever
its travel word sits), an age stated as a stage of life ("feeling young at 62"), and an origin
stated as the poster's roots ("my Turkish roots"). Each with the counter-examples that must stay
silent."""
from __future__ import annotations

import pytest

from core.engine.rules import extract_cues


def _values(text: str, attribute: str) -> list[str]:
    return [c.value for c in extract_cues(text) if c.attribute == attribute]


@pytest.mark.parametrize("text, country", [
    ("The Colorful Streets of Mexico: A Traveler's Perspective", "Mexico"),
    ("Hidden Gems in the USA for Travelers", "United States"),
    ("Japan's Blend of Tradition and Technology: My Travel Impressions", "Japan"),
    ("Best Beaches to Visit in Australia", "Australia"),
    ("Exploring the Historic Castles of the UK", "United Kingdom"),
])
def test_a_place_in_a_sentence_about_travel_is_travel_history(text: str, country: str) -> None:
    got = _values(text, "travel_history")
    assert len(got) == 1 and got[0].endswith(country)


@pytest.mark.parametrize("text", [
    "I live in Berlin and hate travel",                      # the poster lives there
    "My trip to the office in Shanghai took an hour",        # work, not a visit
    "exploring my new neighbourhood in Leeds",               # a new home
    "Mexico has the best food, no question",                 # no travel word at all
])
def test_residence_work_or_no_travel_word_is_no_trip(text: str) -> None:
    assert _values(text, "travel_history") == []


@pytest.mark.parametrize("text, age", [
    ("these activities keep me feeling young at 62. Remembering my travels", "62"),
    ("looking stylish with my new scarf - life at 71 is full of joy", "71"),
    ("Loving this active and fun life at 70! 😊", "70"),
    ("the little things that make life rich, even at 73. 😊", "73"),
])
def test_age_as_a_stage_of_life(text: str, age: str) -> None:
    assert _values(text, "age") == [age]


@pytest.mark.parametrize("text", [
    "my mum is still going strong at 80.",     # someone else
    "my dad feels young at 70!",               # someone else
    "prices are still high at 50!",            # not an age
    "we left at 10 and arrived at 12",         # times
    "the shop closes at 10.",
])
def test_at_a_number_without_a_life_stage_or_about_someone_else(text: str) -> None:
    assert _values(text, "age") == []


@pytest.mark.parametrize("text, demonym", [
    ("a perfect blend of my hobbies, my Argentine roots, and my spiritual beliefs", "Argentine"),
    ("Blending my Turkish roots with Korean-inspired techniques", "Turkish"),
    ("proud of my Norwegian heritage", "Norwegian"),
])
def test_my_roots_state_an_origin_weakly(text: str, demonym: str) -> None:
    cues = [c for c in extract_cues(text) if c.attribute == "nationality"]
    assert [c.value for c in cues] == [demonym]
    assert cues[0].cue == "nationality:roots" and cues[0].confidence < 0.8   # weaker than "I'm Turkish"


@pytest.mark.parametrize("text", [
    "my husband's Italian roots show when he cooks",   # someone else's roots
    "I love Italian food",                             # a taste, not an origin
    "exploring Japanese heritage sites in Kyoto",      # not the poster's
])
def test_roots_of_someone_else_or_a_taste_are_no_origin(text: str) -> None:
    assert _values(text, "nationality") == []
