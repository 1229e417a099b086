"""A semantic cue is firm only with a word anchor (core/engine/rules/semantic_anchor.py): chatter
that merely sits near a prototype in the embedding becomes a hint, held and never projected."""
from __future__ import annotations

from pathlib import Path

import pytest

from core.engine.rules.semantic import annotate
from core.engine.rules.semantic_anchor import anchored, anchors, stem, value_lexicon
from core.engine.types import Cue, EvidenceNode
from db.store import open_db
from tools.base import Recorder


@pytest.fixture()
def db(tmp_path: Path):
    d = open_db(tmp_path / "runs.db")
    yield d
    d.conn.close()


def _sem(text: str, db, attr: str) -> list[Cue]:
    n = EvidenceNode(node_id="e1", post_id="p1", modality="text", carrier="caption", content=text, data={"cues": []})
    annotate(Recorder(db, run_id="r1", step=1), [n])
    return [c for c in n.data.cues if c.cue.startswith("semantic:") and c.attribute == attr]


def test_stems_join_inflections_and_drop_function_words() -> None:
    assert stem("coding") == stem("code") and stem("debugging") == stem("debug") and stem("retired") == stem("retirement")
    assert stem("running") == "run"
    assert anchors("I went to the") == frozenset()
    assert "面包" in anchors("新开的面包店") and not any(len(a) == 1 for a in anchors("新开的面包店"))


def test_generic_words_are_no_anchor_but_the_values_own_words_are() -> None:
    lex = value_lexicon("occupation", "software_engineer")
    assert stem("code") in lex and stem("debugging") in lex
    assert "work" not in lex and stem("went") not in value_lexicon("relationship", "in_relationship")
    # 已经 ("already") is in many Chinese prototypes: no anchor
    assert not anchored("1979年出生的人已经开始怀旧了", "occupation", "retired")
    assert anchored("去寺庙烧香，心静了", "religion", "buddhist")


@pytest.mark.parametrize("text,bank,value,want", [
    ("zero plans, zero regrets, full day on the sofa", "relationship", "single", False),
    ("not me on the ward since 7", "relationship", "single", False),
    ("focus on career now - relationship can wait", "relationship", "single", True),    # the bank's keywords
    ("腿软了但精神还在", "relationship", "single", False),
    ("还是单身，挺好", "relationship", "single", True),
    ("typed 'per my last email' and deleted it three times", "occupation", "delivery", False),
    ("retired now - no commute chess anymore!", "occupation", "retired", True),
])
def test_anchor(text: str, bank: str, value: str, want: bool) -> None:
    assert anchored(text, bank, value) is want


def test_an_unanchored_match_is_a_hint_and_an_anchored_one_is_firm(db) -> None:
    loose = _sem("tiny life update: groomsman again, third suit this year", db, "health_condition")
    assert loose and all(c.data.semantic.hint and c.data.semantic.unanchored for c in loose), \
        [(c.value, c.data) for c in loose]
    assert all(c.confidence <= 0.07 for c in loose)
    firm = _sem("Debugging production code until 2am again, shipping this feature is killing me", db, "occupation")
    assert firm and firm[0].value == "Software Engineer" and not firm[0].data.semantic.hint
    assert not firm[0].data.semantic.unanchored


@pytest.mark.parametrize("text,want", [
    ("Girls excel in science and boys love art – breaking stereotypes left & right.", True),
    ("guys are slaying the makeup game lately", True),
    ("现在的女生们都很独立", True),
    ("Crunching numbers in tech, still often the only gal in meetings!", False),   # one woman: the poster
    ("I was the only woman there, again.", False),                                 # first person
    ("我们女生也能修电脑", False),
    ("It took constant proving of competence beyond male counterparts.", False),
])
def test_women_and_men_as_groups_are_nobodys_gender(text: str, want: bool) -> None:
    from core.engine.rules.semantic_anchor import generic_group

    assert generic_group(text, "gender") is want
    assert generic_group(text, "occupation") is False       # the guard reads gender sentences only


def test_a_gender_match_on_people_in_general_is_a_hint(db) -> None:
    loose = _sem("Girls excel in science and boys love art these days", db, "gender")
    assert all(c.data.semantic.hint for c in loose), [(c.value, c.data) for c in loose]
    own = _sem("still the only woman in most of my meetings at work", db, "gender")
    assert own and own[0].value == "female" and not own[0].data.semantic.hint


@pytest.mark.parametrize("text,want", [
    ("Took a taxi to the airport after the flight, the driver was nice", True),   # a passenger
    ("打车去机场，司机人很好", True),
    ("my uber was late again this morning", True),
    ("another long night of fares and passengers in my cab", False),            # the driver's own night
    ("今天拉了二十趟客，晚高峰的乘客都赶着去火车站", False),
])
def test_a_ride_taken_is_no_driving_job(text: str, want: bool) -> None:
    from core.engine.rules.semantic_anchor import visit_only

    assert visit_only(text, "occupation", "driver") is want


@pytest.mark.parametrize("text,value", [
    ("Ran the staff meeting as principal this morning, then parents' complaints all afternoon", "Principal"),
])
def test_jobs_told_through_work_situations(db, text: str, value: str) -> None:
    cues = _sem(text, db, "occupation")
    assert cues and cues[0].value == value and not cues[0].data.semantic.hint, [(c.value, c.data) for c in cues]


def test_a_passenger_or_a_parent_is_no_driver_or_principal(db) -> None:
    for text in ("Took a cab to the airport after the flight, the driver was nice",
                 "My kid's principal sent another email about the school fundraiser"):
        firm = [c for c in _sem(text, db, "occupation") if not c.data.semantic.hint]
        assert not [c for c in firm if c.value in ("Taxi Driver", "Driver", "Principal")], [(c.value, c.data) for c in firm]


def test_the_banks_table_is_data_and_judges_in_its_order() -> None:
    """Which guards a bank's matches pass, in which order, its margin and its role levels are
    semantic_anchor.json's banks table (issue 33); judge() runs them and names the first that fails."""
    from core.engine.rules import semantic
    from core.engine.rules.banks import read_banks
    from core.engine.rules.recognizer_data import family
    from core.engine.rules.semantic_anchor import TABLE, judge

    banks = family("semantic_anchor").map("banks")
    assert banks["age"]["guards"] == TABLE.banks["age"].guards == ["anchored", "generic_statement", "attained"]
    assert semantic.MARGIN == {b: e["margin"] for b, e in banks.items()}
    assert all(g.reason for g in TABLE.guards.values())
    # a man or a woman named is a gender, not an orientation: the gender bank's keywords anchor no orientation
    assert TABLE.banks["orientation"].not_anchored_by == "gender" and TABLE.banks["orientation"].why
    assert {p.bank: p.attribute for p in read_banks() if p.attribute} \
        == {b: r.attribute for b, r in TABLE.banks.items()}
    proto = {(p.bank, p.id): p for p in read_banks()}
    # "只有高中学历" anchors an age value, then fails the attained guard: schooling finished, not an age now
    age = next(p for p in read_banks() if p.bank == "age" and p.lang == "zh")
    assert judge("我只有高中学历，" + age.text, age) == ("attained", None)
    assert judge("Another nurse shift done, my patients were lovely today.", proto[("occupation", "nurse")]) \
        == (None, "role")
    assert judge("Debugging production code until 2am again", proto[("occupation", "software_engineer")]) \
        == (None, "activity")
    assert judge("zero plans, zero regrets, full day on the sofa", proto[("relationship", "single")]) \
        == ("unanchored", None)
    # a bank the table does not list has the anchored guard only (and semantic.MARGIN_DEFAULT)
    from core.engine.rules.banks import Prototype
    from core.engine.rules.semantic_anchor import applies
    toy = Prototype("toy", "toy_attribute", "x", "X", (), "a toy statement", "en")
    assert applies("anchored", "toy") and not applies("visit_only", "toy") and not applies("visit_only", "gender")
    assert judge("nothing in common here", toy) == ("unanchored", None)


def test_a_bad_banks_table_entry_is_refused_naming_file_entry_and_field(tmp_path, monkeypatch) -> None:
    import json

    from core.engine.rules import semantic_anchor as sa
    from core.engine.rules.recognizer_data import Family, RecognizerDataError

    doc = json.loads(sa._D.path.read_text(encoding="utf-8"))
    banks = doc["maps"]["banks"]["entries"]["mul"]
    for bad, field in ((dict(banks["age"], guards=["anchored", "nope"]), "banks.age.guards: unknown guard 'nope'"),
                       (dict(banks["age"], margin=2), "banks.age.margin"),
                       (dict(banks["age"], levels=["role"]), "banks.age.levels: no role anchor"),
                       (dict(banks["age"], not_anchored_by="gender"), "banks.age.not_anchored_by"),
                       (dict(banks["age"], extra=1), "banks.age.extra")):
        banks["age"] = bad
        path = tmp_path / "semantic_anchor.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        monkeypatch.setattr(sa, "_D", Family(path))
        with pytest.raises(RecognizerDataError, match=f"semantic_anchor.json: maps: field {field}"):
            sa._table()
