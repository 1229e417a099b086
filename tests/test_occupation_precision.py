"""Occupation precision (issue 34): no job from one sentence's nearest prototype alone, from a generic
word of working (shift, patients, 夜班), or from a title used to address someone else (王老师, 谢谢老师).
Real rules (extract_cues) and the real engine (offline backend, the shipped embedder, real SQLite);
each negative has a counter-example where the job is still read."""
from __future__ import annotations

import pytest

from core.engine.rules import extract_cues
from core.engine.rules.semantic_anchor import occupation_anchor
from tests.hard_negatives import Case, check


def _roles(text: str, carrier: str = "caption") -> set[str]:
    return {c.value for c in extract_cues(text, carrier=carrier)
            if c.attribute == "occupation" and c.holder == "self" and c.data.stance is None
            and not c.cue.startswith("semantic:")}


# ------------------------------------------------------------------------------- a title addressed
@pytest.mark.parametrize("text", [
    "王老师\n各位家长：下周三春游，地点园博园，请自带午饭和水。\n豆豆妈\n收到\n乐乐爸\n收到，谢谢老师",
    "李医生\n明天上午复查，记得空腹",
    "今天又麻烦张师傅跑一趟，谢谢师傅",
    "小王老师\n作业已经发群里了",
])
def test_a_title_addressed_to_someone_else_is_not_the_posters_job(text: str) -> None:
    assert not _roles(text, "screenshot") and not _roles(text, "caption"), _roles(text, "screenshot")


@pytest.mark.parametrize("text, role", [
    ("坐标重庆｜小学老师｜两个娃的妈", "Teacher"),
    ("杭州｜95后｜儿科医生", "Doctor"),
])
def test_a_bio_title_is_still_the_posters_job(text: str, role: str) -> None:
    assert role in _roles(text, "profile"), _roles(text, "profile")


@pytest.mark.parametrize("lang, text", [
    ("en", "Thanks Dr. Patel, see you at the follow-up next week."),
    ("en", "thank you teacher for the lovely report card!"),
    ("zh", "谢谢王老师这学期的照顾"),
])
def test_thanks_to_a_titled_person_gives_no_job(lang: str, text: str) -> None:
    assert not _roles(text), (lang, _roles(text))


# ------------------------------------------------------------------- generic words of working
@pytest.mark.parametrize("sentence", [
    "People ask if I get lonely, mate I've got three dogmen in my ear all shift.",
    "Spätdienst im CT: ein Patient, der das Kontrastmittel 'warm wie Glühwein' fand.",
    "下夜班在上海路站等车，困到灵魂出窍。",
])
def test_a_generic_word_of_working_ties_no_occupation(sentence: str) -> None:
    assert occupation_anchor(sentence, "nurse") is None


def test_an_honorific_for_any_tradesman_anchors_no_job() -> None:
    # 师傅 is said to any driver, mechanic, chef or craftsman: it ties the sentence to none of them
    assert occupation_anchor("老婆说我是'职业病'，坐车都要看别个师傅咋个转弯。", "mechanic") is None
    assert occupation_anchor("我是修车师傅，今天换了三台车的机油", "mechanic") == "role"


def test_a_role_word_and_a_job_activity_still_anchor() -> None:
    assert occupation_anchor("Another nurse shift done, my patients were lovely today.", "nurse") == "role"
    assert occupation_anchor("Library shift again: cataloguing, shelving and helping patrons find books all day.",
                             "librarian") == "work"


def test_night_shift_alone_is_no_nurse() -> None:
    assert "Nurse" not in _roles("又是夜班，值班到天亮。")
    assert "Nurse" in _roles("我是护士，今天又是夜班。")


CASES = [
    # one sentence nearest the nurse prototypes by a hair, tied only by a word of working
    Case("crane-cab-shift", ["View from the cab this arvo, 60-odd metres up. People ask if I get lonely, "
                             "mate I've got three dogmen in my ear all shift."], absent={"occupation": "Nurse"}),
    Case("de-ct-late-shift", ["Spätdienst im CT: zwei Polytraumen, ein Thorax in zwei Ebenen nach dem anderen und ein "
                              "Patient, der das Kontrastmittel 'warm wie Glühwein' fand. Strahlenschutz zuerst."],
         absent={"occupation": "Nurse"}),
    Case("zh-night-shift-bus", ["下夜班在上海路站等车，困到灵魂出窍。"], absent={"occupation": "Nurse"}),
    # counter-examples: a role word, or a job's activity clearly nearest one occupation
    Case("own-nurse-shift", ["Another nurse shift done, my patients were lovely today."], present={"occupation": "Nurse"}),
    Case("librarian-shift", ["Library shift again: cataloguing, shelving and helping patrons find books all day."],
         present={"occupation": "Librarian"}),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_engine_occupation_precision(case: Case, tmp_path) -> None:
    check(tmp_path, case)


ONE_SENTENCE = [
    # the job's activity said as work, but its nearest prototype (Fitness) leads the next (therapist) by a hair
    Case("yoga-clients-once", ["advanced yoga poses for greater flexibility, my clients loved it"],
         absent={"occupation": "Fitness"}),
    Case("yoga-clients-twice", ["advanced yoga poses for greater flexibility, my clients loved it",
                                "Taught three yoga classes at the studio today, then two private clients."],
         present={"occupation": "Fitness"}),
]


@pytest.mark.parametrize("case", ONE_SENTENCE, ids=[c.id for c in ONE_SENTENCE])
def test_one_sentence_near_two_jobs_is_a_guess(case: Case, tmp_path) -> None:
    check(tmp_path, case)
