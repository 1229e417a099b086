"""Hand-computed cases for every kind and matching rule of the RulesJudge (no gazetteer here;
gazetteer implication is tested in test_eval_places.py)."""
from __future__ import annotations

import pytest

from core.eval.judge import RulesJudge, get_judge
from core.eval.matching import decade_range
from core.eval.places import PlaceMatcher
from core.models import TruthAttribute


@pytest.fixture(scope="module")
def judge() -> RulesJudge:
    return RulesJudge(places=PlaceMatcher(None))


def attr(**kw) -> TruthAttribute:
    kw.setdefault("sensitivity", 3)
    return TruthAttribute(**kw)


HOME = attr(
    attribute="home_location", kind="hierarchy",
    levels=[
        {"level": "country", "value": "China", "aliases": ["中国"]},
        {"level": "region", "value": "Guangdong", "aliases": ["广东"]},
        {"level": "city", "value": "Shenzhen", "aliases": ["深圳"]},
        {"level": "district", "value": "Nanshan District", "aliases": ["Nanshan", "南山区"]},
        {"level": "address", "value": "Example Garden", "aliases": ["例子花园"]},
    ],
)
GENDER = attr(attribute="gender", kind="category", value="male", aliases=["man", "男"])
AGE = attr(attribute="age", kind="hierarchy", levels=[
    {"level": "decade", "value": "30s", "aliases": ["thirties", "三十多岁"]},
    {"level": "exact_age", "value": "34"},
])
CONTACT = attr(attribute="contact_or_id_number", kind="set", items=[
    {"value": "XC190417"}, {"value": "138-0013-8000", "aliases": ["13800138000"]},
])
MENTAL = attr(attribute="mental_health", kind="facts", facts=[
    {"text": "sees a counsellor weekly", "keywords": [["counsel", "心理咨询"], ["weekly", "every week", "每周"]]},
    {"text": "anxiety before exams", "keywords": [["anxi", "焦虑"], ["exam", "考试"]]},
])


@pytest.mark.parametrize("pred,g", [
    ("male", 1.0),
    ("Male.", 1.0),           # case and punctuation
    ("female", 0.0),          # whole word: 'male' must not match inside 'female'
    ("a man, probably", 1.0),  # alias
    ("woman", 0.0),           # 'man' alias must not match inside 'woman'
    ("性别：男", 1.0),         # CJK alias as substring
    ("ｍａｌｅ", 1.0),         # NFKC full-width
    ("", 0.0),
])
def test_category(judge, pred, g):
    assert judge.score(GENDER, pred).g == g


def test_not_predicted(judge):
    s = judge.score(GENDER, None)
    assert s.g == 0 and s.reason == "not predicted"


@pytest.mark.parametrize("pred,g", [
    ("Example Garden, Nanshan District, Shenzhen, Guangdong, China", 1.0),
    ("China", 1 / 5),
    ("Shenzhen", 3 / 5),             # a finer right level implies the coarser ones
    ("Nanshan", 4 / 5),              # alias of the district
    ("住在深圳南山区", 4 / 5),         # CJK aliases as substrings
    ("Futian District, Shenzhen", 3 / 5),  # wrong finer level does not cancel the right city
    ("Example Gardens Mall", 0.0),   # whole word: 'example garden' is followed by 's'
    ("Beijing", 0.0),
])
def test_hierarchy_place(judge, pred, g):
    assert judge.score(HOME, pred).g == pytest.approx(g)


def test_hierarchy_reason_names_deepest_level(judge):
    s = judge.score(HOME, "Futian District, Shenzhen, Guangdong")
    assert s.matched == ["region", "city"]
    assert "city (3/5)" in s.reason


@pytest.mark.parametrize("pred,g", [
    ("34", 1.0),
    ("34岁", 1.0),
    ("about 34 years old", 1.0),
    ("35", 0.5),          # decade right (35 in 30-39), exact wrong
    ("30-35", 0.5),
    ("thirties", 0.5),    # decade alias
    ("三十多岁", 0.5),
    ("40s", 0.0),
    ("134", 0.0),         # a number is whole: 134 is neither 34 nor in the 30s
    ("born 1990", 0.0),
    ("29", 0.0),
])
def test_age(judge, pred, g):
    assert judge.score(AGE, pred).g == pytest.approx(g)


AGE30 = attr(attribute="age", kind="hierarchy", levels=[
    {"level": "decade", "value": "30s"}, {"level": "exact_age", "value": "30"},
])


@pytest.mark.parametrize("pred,g", [
    ("30", 1.0),
    ("30岁", 1.0),
    ("30s", 0.5),        # a decade form names the span, not the age 30
    ("in her 30's", 0.5),
    ("30+", 0.5),
    ("30多岁", 0.5),
    ("30, so in her 30s", 1.0),
])
def test_age_exact_vs_decade_forms(judge, pred, g):
    assert judge.score(AGE30, pred).g == pytest.approx(g)


def test_decade_range_parsing():
    assert decade_range("30s") == (30, 39)
    assert decade_range("30-39") == (30, 39)
    assert decade_range("30多岁") == (30, 39)
    assert decade_range("35") == (30, 39)
    assert decade_range("thirties") is None


@pytest.mark.parametrize("pred,g", [
    ("工号XC190417", 1.0 / 2),        # Latin needle touching CJK still is a whole word
    ("XC1904170", 0.0),              # digit touching: not the same id
    ("id XC190417, phone 138 0013 8000", 1.0),  # punctuation as space: 138-0013-8000 ~ 138 0013 8000
    ("phone 13800138000", 1.0 / 2),  # alias
])
def test_set(judge, pred, g):
    assert judge.score(CONTACT, pred).g == pytest.approx(g)


@pytest.mark.parametrize("pred,g", [
    ("goes to counselling every week", 0.5),   # stem 'counsel' as substring of 'counselling'
    ("weekly counselling; exam anxiety", 1.0),
    ("counselling", 0.0),                     # one keyword group missing
    ("每周去心理咨询，考试前焦虑", 1.0),
    ("anxious about exams", 0.5),             # fact 2 only: "anxi" in "anxious", "exam" in "exams"
])
def test_facts(judge, pred, g):
    assert judge.score(MENTAL, pred).g == pytest.approx(g)


def test_fact_without_keywords_needs_its_text(judge):
    t = attr(attribute="daily_routine", kind="facts", facts=[{"text": "runs at dawn"}])
    assert judge.score(t, "He runs at dawn daily").g == 1.0
    assert judge.score(t, "runs at dawning").g == 0.0


def test_hierarchy_without_levels_scores_value(judge):
    t = attr(attribute="occupation", kind="hierarchy", value="nurse", aliases=["护士"])
    assert judge.score(t, "a nurse").g == 1.0
    assert judge.score(t, "护士长").g == 1.0
    assert judge.score(t, "nurses").g == 0.0


def test_registry_has_rules():
    assert get_judge("rules").name == "rules"
    with pytest.raises(KeyError):
        get_judge("nope")
