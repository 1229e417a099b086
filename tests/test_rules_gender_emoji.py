"""Gendered person emoji the poster writes (🤷‍♀️, 👩‍💻, 🧘 ♂️) are a weak gender cue; emoji of
someone else, of a family or a couple, or of both genders are not."""
from __future__ import annotations

import pytest

from core.engine.rules import extract_cues


def _gender(text: str, carrier: str | None = None) -> list[str]:
    return [c.value for c in extract_cues(text, carrier=carrier) if c.attribute == "gender"]


@pytest.mark.parametrize("text, value", [
    ("switched lunch spots for homemade coding sprints 👩‍💻", "female"),
    ("growing up's overrated imo 🤷‍♀️", "female"),
    ("doing laundry at 2am because nobody else will 🤷‍♂️", "male"),
    ("morning yoga before work 🧘 ♀️ #calm", "female"),        # a broken ZWJ sequence (space) still reads
    ("cycling partway to work now 🚴🏽‍♂️", "male"),            # skin tone inside the sequence
])
def test_own_gendered_emoji_is_a_weak_cue(text: str, value: str) -> None:
    cues = [c for c in extract_cues(text) if c.attribute == "gender"]
    assert [c.value for c in cues] == [value]
    assert cues[0].cue == "gender:emoji" and cues[0].confidence < 0.5   # a hint per post, not a claim
    assert cues[0].span in text


@pytest.mark.parametrize("text", [
    "my sister just started at the hospital 👩‍⚕️",           # someone else's emoji
    "family day at the beach 👨‍👩‍👧",                         # a family
    "anniversary dinner 👩‍❤️‍👨",                                # a couple
    "race day 🚴‍♀️🚴‍♂️ with the club",                         # both genders
    "just a smile 😊 and a coffee ☕",                           # no gendered emoji
])
def test_emoji_that_say_nothing_about_the_poster(text: str) -> None:
    assert _gender(text) == []


def test_emoji_in_ocr_text_is_no_self_presentation() -> None:
    assert _gender("sale today 👩‍💻 laptops", carrier="ocr_text") == []
    assert _gender("sale today 👩‍💻 laptops") == ["female"]
