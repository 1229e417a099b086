"""Issue 34 (family_and_relations): a parent or grandparent word written as a name, capitalised and
with no determiner, is one's own ("for Mum's 70th", "Mam's attic", "Sunday with Mama"); 我妈 / 我爸
are one's mother and father; 貓 (traditional) is a cat. Not a label of oneself ("Mom of two",
"Dad here"), an idiom ("Mum's the word", "Dad jokes", "Mom jeans"), a name's title ("Mama June",
"Papa John's"), someone else's ("his Mum's car", "Anna's Mum"), nor a commenter's."""
from __future__ import annotations

import pytest

from core.engine.rules import extract_cues


def _family(text: str, **kw) -> set[str]:
    return {c.value for c in extract_cues(text, **kw) if c.attribute == "family_and_relations"}


@pytest.mark.parametrize("text,relation", [
    ("Flying back to Scotland for Mum's 70th.", "mother"),
    ("Clearing out Mam's attic today, found my old school reports.", "mother"),
    ("Sunday with Mama and Migs at the park.", "mother"),
    ("Mummy called again about the wedding.", "mother"),
    ("Told Dad about the new job and he cried.", "father"),
    ("Grandma turns 90 tomorrow!", "grandmother"),
    ("跟着我妈学绣花，学了三年。", "mother"),
    ("我爸又去钓鱼了", "father"),
    ("我家橘貓又胖了", "cat"),
])
def test_own_parent_and_pet(text, relation):
    assert relation in _family(text), (_family(text), text)


@pytest.mark.parametrize("text", [
    "Mom of two here, any tips for sleep?",
    "Dad here, any tips?",
    "Mum's the word on the surprise party.",
    "Dad jokes are the best jokes.",
    "Mom jeans are back in fashion.",
    "Mama June is on TV again.",
    "Ordered Papa John's for the team.",
    "His Mum's car was blocking the drive.",
    "Anna's Mum was there too.",
    "MOM SAID NO",
])
def test_not_ones_own_parent(text):
    assert not ({"mother", "father"} & _family(text)), (_family(text), text)


def test_a_commenters_mum_is_theirs():
    assert "mother" not in _family("Say hi to Mum for me!", by_other=True)


def test_sex_field_on_a_childs_form_is_not_the_posters_gender(tmp_path):
    """Issue 34 (gender): the sex field of a form the post gives to someone else ("my son's school
    form") is theirs, as its name is; the same form posted as one's own still gives the gender."""
    from tests.engine_user import run_profile

    form = ["ST MARY'S PRIMARY SCHOOL", "ENROLMENT FORM", "Name: Oliver Grant", "Sex: M", "Class: P2"]
    child = [{"timestamp": "2026-03-02T20:00:00+00:00", "caption": "Filling in my son's school form, again",
              "images": [{"file": "images/form.png"}]}]
    assert "gender" not in run_profile(tmp_path / "a", child, images={"form.png": form})
    own = [{"timestamp": "2026-03-02T20:00:00+00:00", "caption": "Filling in the evening class form, again",
            "images": [{"file": "images/form.png"}]}]
    assert run_profile(tmp_path / "b", own, images={"form.png": form}).get("gender") == "male"


@pytest.mark.parametrize("text,attr", [
    ("동생은 부산에 살아요", "home_location"),       # the younger sibling lives in Busan
    ("아버지는 부산에 살아요", "home_location"),     # the father does
])
def test_korean_kin_subject_holds_the_fact(text, attr):
    """Issue 34 (holder): a bare Korean kin word with a subject particle (동생은, 아버지는) is the
    clause's subject, someone else; "이랑" (with) is no subject particle."""
    assert not [c for c in extract_cues(text) if c.attribute == attr and c.first_person], text


def test_korean_self_and_with_kin_stay_the_posters():
    assert [c for c in extract_cues("저는 부산에 살아요") if c.attribute == "home_location" and c.first_person]
    assert [c for c in extract_cues("여동생이랑 부산 여행") if c.attribute == "travel_history" and c.first_person]
