"""Issue 34 (relationship_status, gender, family_and_relations): someone else's wedding says nothing
of the poster's status (its semantic "engaged" cue is dropped); "proud grandpa moment" labels the
poster; "my wee sister" is a sister."""
from __future__ import annotations

import pytest

from core.engine.rules import extract_cues
from tests.engine_user import run_profile


def test_someone_elses_wedding_is_no_engagement(tmp_path):
    posts = [{"timestamp": "2026-05-20T08:00:00+01:00",
              "caption": "Lisbon bound for Eilidh & João's wedding!! Studio's shut till Tuesday."},
             {"timestamp": "2026-05-23T22:00:00+01:00",
              "caption": "Most beautiful wedding I've ever been to. Sunburnt shoulders, full heart."}]
    assert run_profile(tmp_path, posts).get("relationship_status") in (None, "married", "in a relationship")


@pytest.mark.parametrize("text,has", [
    ("Lisbon bound for Eilidh & João's wedding!!", True),
    ("Portland for my cousin's wedding!", True),
    ("去参加朋友的婚礼", True),
    ("Planning our wedding, send help", False),
    ("My wedding dress arrived today", False),
    ("我们的婚礼定在五月", False),
])
def test_others_wedding_words(text, has):
    from core.engine.rules.lifestyle import OTHERS_WEDDING
    assert bool(OTHERS_WEDDING.search(text)) is has, text


@pytest.mark.parametrize("text,gender", [
    ("Proud grandpa moment at Kiara's daughter's pre-K graduation.", "male"),
    ("proud mum moment, she read her first book!", "female"),
    ("Proud son moment: he passed his driving test", None),      # said by either parent
])
def test_proud_parent_moment(text, gender):
    got = {c.value for c in extract_cues(text) if c.attribute == "gender" and c.first_person}
    assert got == ({gender} if gender else set()), (got, text)


def test_wee_sister():
    assert "sister" in {c.value for c in extract_cues("My wee sister just passed her paramedic exams!")
                        if c.attribute == "family_and_relations"}
