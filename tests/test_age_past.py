"""An age said of a past time ("when I was 21", "私は21歳の時", "我21岁那年", "저는 21살 때",
"cuando tenía 21 años") is no present age (issue 34): the stated-age rules of identity.json and the
language packs must not read it, and the present-tense form beside it still reads. Each case runs the
real engine (offline backend, real SQLite) on a user made of its posts."""
from __future__ import annotations

import pytest

from core.engine.rules import extract_cues
from tests.hard_negatives import Case, check

C = Case

PAST = [
    C("en-was-years-old", ["I was 21 years old when I moved to London, no idea what I was doing"], absent={"age": "21"}),
    C("en-when-i-was", ["Back when I was 25 years old I ran my first marathon"], absent={"age": "25"}),
    C("zh-that-year", ["我21岁那年去了北京，第一次一个人坐火车"], absent={"age": "21"}),
    C("zh-traditional-that-year", ["我21歲那年去了北京，第一次一個人坐火車"], absent={"age": "21"}),
    C("zh-when", ["我二十一岁的时候在工地搬砖"], absent={"age": "21"}),
    C("ja-toki", ["私は21歳の時に東京へ引っ越しました"], absent={"age": "21"}),
    C("ja-koro", ["僕は21歳の頃、毎晩バイトしていた"], absent={"age": "21"}),
    C("ko-ttae", ["저는 21살 때 서울에 처음 왔어요"], absent={"age": "21"}),
    C("es-cuando-tenia", ["Cuando tenía 21 años me mudé a Madrid sin nada"], absent={"age": "21"}),
    # someone else's age, and a hypothetical: no present age of the poster either
    C("en-someone-else", ["My brother was 21 years old when he moved to London"], absent={"age": "21"}),
    C("zh-hypothetical", ["如果我21岁时就知道这些就好了"], absent={"age": "21"}),
]

PRESENT = [
    C("en-now", ["I am 34 years old and I was 21 years old when I left home"], present={"age": "34"}),
    # "At N, I <past verb>" is no sure age then: a present age is often told so (PRISM: "At 74, I hiked ...")
    C("en-at-n-recent-past", ["At 74, I hiked in the Lake District, baked a scone, and visited an art gallery."],
      present={"age": "74"}),
    C("zh-now", ["我今年21岁了，刚毕业"], present={"age": "21"}),
    C("ja-now", ["私は21歳です。よろしくお願いします"], present={"age": "21"}),
    C("ko-now", ["저는 21살이에요. 대학생입니다"], present={"age": "21"}),
]


@pytest.mark.parametrize("case", PAST, ids=lambda c: c.id)
def test_an_age_then_is_no_present_age(tmp_path, case: Case) -> None:
    check(tmp_path, case)


@pytest.mark.parametrize("case", PRESENT, ids=lambda c: c.id)
def test_a_present_age_still_reads(tmp_path, case: Case) -> None:
    check(tmp_path, case)


@pytest.mark.parametrize("text", ["I was 21 years old when I moved", "我21岁那年去了北京", "私は21歳の時に東京へ",
                                  "저는 21살 때 서울에"])
def test_no_age_cue_from_an_age_then(text: str) -> None:
    assert [c.value for c in extract_cues(text) if c.attribute == "age"] == []
