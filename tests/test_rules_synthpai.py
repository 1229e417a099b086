"""SynthPAI-style Reddit comments (written for these tests, casual and indirect) and the cue
each one should yield. A reader would infer the expected value from the comment alone."""
from __future__ import annotations

import unicodedata

import pytest

from core.engine.rules import extract_cues

COMMENTS = [
    # (comment, attribute, level or None, expected value/substring)
    ("lol same, as a 34yo woman in a male-dominated field I get mansplained weekly", "age", "exact_age", "34"),
    ("lol same, as a 34yo woman in a male-dominated field I get mansplained weekly", "gender", None, "female"),
    ("Here in Zurich the trams are never late, it's almost boring tbh", "home_location", "city", "Zurich"),
    ("ugh, night shifts at the ward again. my patients are sweethearts though", "occupation", "role", "Nurse"),
    ("honestly after 10 years of grading papers I can spot ChatGPT essays instantly", "occupation", "role", "Teacher"),
    ("my hubby and I just celebrated our 5th anniversary, still feels like yesterday", "relationship_status", None, "married"),
    ("Can confirm, back when I did my masters in Edinburgh the rain was constant", "education", "level", "Master's degree"),
    ("I pull in about 45k a year and rent still eats half of it", "income_level", "band", "middle"),
    ("my commute is 40 min on the Piccadilly line every morning, I've memorised every ad", "commute", None, "metro"),
    ("F here, 5'4\" and every pair of jeans is too long", "physical_appearance", None, "163 cm"),
    ("retired teacher here, finally have time for my tomatoes", "occupation", "role", "Teacher"),
    ("we went to Lisbon for our honeymoon and I still dream about the pastéis", "travel_history", None, "Lisbon"),
    ("as a devout Catholic I can't agree with this take", "religion", None, "Christianity"),
    ("my therapist keeps telling me my anxiety isn't a personality trait lmao", "mental_health", None, "anxiety"),
    ("been vegan since my IBS diagnosis, game changer", "health_condition", None, "chronic illness"),
    ("fwiw I've been a structural engineer for 15 years and this bridge design is fine", "occupation", "specialty", "Structural"),
    ("my husband and I run a small bakery in Lyon, weekends are chaos", "occupation", "role", "Business Owner"),
    ("my husband and I run a small bakery in Lyon, weekends are chaos", "work_location", "city", "Lyon"),
    ("i'm a uni student in Melbourne, can confirm public transport is a nightmare", "home_location", "city", "Melbourne"),
    ("At my age (62) I don't care what people think anymore", "age", "exact_age", "62"),
    ("as a woman in her 40s, I can tell you perimenopause is no joke", "age", "decade", "40s"),
    ("I grew up in Mumbai but moved to London for work 10 years ago", "home_location", "city", "London"),
    ("My salary is around 60k euros before tax, which is decent for Berlin", "income_level", "band", "middle"),
    ("Speaking as someone who did their PhD in astrophysics, this article is nonsense", "education", "level", "PhD"),
    ("34/M here, any advice on negotiating rent?", "age", "exact_age", "34"),
    ("Me (F30) and my partner keep arguing about chores", "gender", None, "female"),
    ("Born in Seoul, raised in LA, now in Berlin", "home_location", "city", "Berlin"),
]


def _fold(s: str) -> str:
    """Accents folded ("Zürich" == "Zurich"): both spellings name the city."""
    return "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c))


@pytest.mark.parametrize("text,attr,lv,expected", COMMENTS)
def test_reddit_style_comment(text, attr, lv, expected):
    got = [c for c in extract_cues(text) if c.attribute == attr and c.first_person]
    assert got, f"no {attr} cue in: {text}"
    if lv:
        vals = {_fold((c.data.levels or {}).get(lv) or "") for c in got}
        assert _fold(expected) in vals, (vals, text)
    else:
        assert any(expected.lower() in c.value.lower() for c in got), ([c.value for c in got], text)
    for c in got:
        assert c.span in text


@pytest.mark.parametrize("text,attr", [
    ("my brother is a nurse and he hates night shifts", "occupation"),
    ("my mom turned 60 last week", "age"),
    ("my wife's sister is gay and honestly the coolest person", "sexual_orientation"),
    ("my friend just moved to Berlin, jealous", "home_location"),
    ("My mom runs a bakery in Lyon", "work_location"),
    ("Lmao my boyfriend (he's 31) still can't cook", "age"),
    ("Sold my Honda Civic last year", "assets"),
])
def test_reddit_third_person_is_not_the_poster(text, attr):
    assert not [c for c in extract_cues(text) if c.attribute == attr and c.first_person], text
