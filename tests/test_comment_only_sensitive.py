"""Issue 26: commenters can say anything about the account, and several of them can repeat it. A
sensitive attribute (health, mental health, orientation, religion, politics) is never concluded from
other accounts' comments alone (core/engine/aggregators/base.py OTHER_OK: comments may name the
account's name, birthday and age only); the account's own post stating the same still counts."""
from __future__ import annotations

from pathlib import Path

import pytest

from hard_negatives import Case, check

FLOOD = [
    Case("health-by-commenters", [{"caption": "Quiet week, lots of tea.", "comments": [
        {"author": "ann_k", "text": "You have diabetes, remember your insulin before dinner!"},
        {"author": "bo_99", "text": "Your diabetes is no joke, take your insulin"},
        {"author": "cy_3", "text": "Diabetic like you, I always carry insulin"}]}],
        absent={"health_condition": "diabetes"}),
    Case("religion-by-commenters", [{"caption": "Nice weekend with friends.", "comments": [
        {"author": "ann_k", "text": "You are such a devout Catholic, see you at mass"},
        {"author": "bo_99", "text": "Our Catholic friend, always at Sunday mass"},
        {"author": "cy_3", "text": "You Catholics and your mass"}]}],
        absent={"religion": "Christianity"}),
    Case("orientation-by-commenters", [{"caption": "Brunch was good.", "comments": [
        {"author": "ann_k", "text": "You are gay and proud, love it"},
        {"author": "bo_99", "text": "Our favourite gay guy!"}]}],
        absent={"sexual_orientation": "gay"}),
    Case("politics-by-commenters", [{"caption": "Long day at work.", "comments": [
        {"author": "ann_k", "text": "You vote Green every single time"},
        {"author": "bo_99", "text": "You Green Party voters"}]}],
        absent={"political_views": "green"}),
    Case("health-zh-by-commenters", [{"caption": "今天喝了很多茶。", "comments": [
        {"author": "阿明", "text": "你的糖尿病要注意，记得打胰岛素"},
        {"author": "小红", "text": "糖尿病别吃甜的了你"}]}],
        absent={"health_condition": "糖尿病"}),
]
OWN = [
    Case("health-own-post", ["I have diabetes, insulin before every meal now.", "Quiet week, lots of tea."],
         present={"health_condition": "diabetes"}),
    Case("religion-own-post", ["As a devout Catholic I never miss Sunday mass.", "Nice weekend with friends."],
         present={"religion": "Christian"}),
]


@pytest.mark.parametrize("case", FLOOD, ids=lambda c: c.id)
def test_other_accounts_alone_give_no_sensitive_claim(tmp_path: Path, case: Case) -> None:
    check(tmp_path, case)


@pytest.mark.parametrize("case", OWN, ids=lambda c: c.id)
def test_the_accounts_own_post_still_gives_it(tmp_path: Path, case: Case) -> None:
    check(tmp_path, case)
