"""A family file's declared rules (rules/data_runner.Rules, issue 33): a Python rule's
`for m in rx.finditer(t): if <guard>: continue; out.append(ctx.cue(...))` loop as one data entry --
pattern, value / levels templates, map lookups, guards with their why, named Python checks, cases --
run in file order, each fault one error naming the file, the entry and the field."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from core.engine.rules.data_runner import DataRunnerError, Rules
from core.engine.rules.documents import document
from core.engine.rules.recognizer_data import Family

_WHY = "a test's why"


def _family(tmp_path: Path, rules: list[dict[str, Any]]) -> Family:
    raw = {
        "about": "a toy family", "recognizer": {"name": "toy", "attributes": ["pets", "mood"], "languages": ["en", "zh"],
                                                "reads": ["masked", "holder", "negation", "carrier"]},
        "words": {"pets": {"reason": _WHY, "entries": {"en": ["dog"]}},
                  "quiet": {"reason": _WHY, "entries": {"en": ["calm"]}}},
        "maps": {"kinds": {"reason": _WHY, "entries": {"en": {"dog": "dog", "cat": "cat", "guinea pig": "cavy"}}}},
        "patterns": {"pet": {"reason": _WHY, "template": "\\bmy\\s+(?:old\\s+)?(?P<p>dog|cat|guinea\\s+pig)(?:\\s+(?P<n>[A-Z]\\w+))?",
                             "flags": "i"},
                     "vet": {"reason": _WHY, "template": "\\bvet\\b", "flags": "i"}},
        "pattern_lists": {"moods": {"reason": _WHY, "items": [
            {"reason": _WHY, "template": "\\bhappy\\b", "value": "up", "confidence": 0.7},
            {"reason": _WHY, "template": "\\bcalm\\b|平静", "value": "even", "confidence": 0.4}]}},
        "scores": {"reason": _WHY, "entries": {"pets:my": 0.6, "pets:vet": 0.8}},
        "rules": rules,
    }
    path = tmp_path / "toy.json"
    path.write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
    return Family(path)


_PET = {"id": "pets:my", "step": "pets", "attribute": "pets", "pattern": "pet", "value": "{p>>kinds}",
        "levels": {"kind": "{@value}"}, "data": {"name": "{n}", "pet": {"in_words": "pets"}}, "score": "pets:my",
        "guards": [{"drop_if": [{"is": "negated"}], "why": "'I never had my dog': no pet"}],
        "cases": [{"id": "pets:vet", "score": "pets:vet", "guards": [
            {"drop_if": [{"is": "match", "pattern": "vet", "in": "window", "chars": [0, 20], "not": True}], "why": _WHY}]},
                  {"id": "pets:my", "first_person": True}],
        "why": "my pet, its kind by the map and its name"}
_MOOD = {"id": "mood:{@item}", "step": "moods", "attribute": "mood", "pattern_list": "moods", "value": "{@item}",
         "original": "{0}", "original_if": "non_ascii", "data": {"keyword": "{0}"},
         "guards": [{"drop_if": [{"is": "carrier", "values": ["hashtag"]}], "why": "a tag is anyone's mood"},
                    {"drop_if": [{"is": "in_words", "words": "quiet", "lower": True}, {"is": "says_i", "in": "sentence",
                                                                                      "not": True}], "why": _WHY},
                    {"drop_if": [{"is": "shouted"}], "why": "a named Python check"}],
         "why": "a mood by the list's items (value, confidence)"}


def _rules(tmp_path: Path, rules: list[dict[str, Any]]) -> Rules:
    r = Rules(_family(tmp_path, rules))

    @r.check("shouted")
    def _shouted(ctx: Any, t: str, m: re.Match[str], pos: int) -> bool:
        return m.group(0).isupper()
    return r


def test_a_declared_rule_reads_value_levels_data_cases_and_guards(tmp_path: Path) -> None:
    r = _rules(tmp_path, [_PET, _MOOD])
    cues = r.run(document("My dog Rex goes to the vet. I never had my cat. My old Guinea  Pig Bo is calm."), "pets")
    assert [(c.cue, c.value, c.confidence, c.data.levels, c.data.name, c.data.pet, c.first_person) for c in cues] == [
        ("pets:vet", "dog", 0.8, {"kind": "dog"}, "Rex", True, True),         # the first case: a vet word after it
        ("pets:my", "cavy", 0.6, {"kind": "cavy"}, "Bo", None, True)]        # folded map key; the negated cat dropped
    assert [c.span for c in cues] == ["My dog Rex", "My old Guinea  Pig Bo"]
    assert r.run(document("My hamster"), "pets") == [] and r.run(document("my dog"), "no such step") == []


def test_a_pattern_list_rule_takes_each_item_s_value_and_score_in_file_order(tmp_path: Path) -> None:
    r = _rules(tmp_path, [_PET, _MOOD])
    cues = r.run(document("So calm today, happy too. I am calm. 我很平静. HAPPY"), "moods")
    # items in file order (happy before calm), a hit after another; 'calm' kept only where the sentence says I
    assert [(c.cue, c.value, c.confidence, c.data.keyword, c.data.original) for c in cues] == [
        ("mood:up", "up", 0.7, "happy", None), ("mood:even", "even", 0.4, "calm", None),
        ("mood:even", "even", 0.4, "平静", "平静")]
    assert r.run(document("happy", carrier="hashtag"), "moods") == []      # a guard of the text alone


def test_first_only_keeps_one_cue_per_pattern(tmp_path: Path) -> None:
    r = _rules(tmp_path, [{**_PET, "first_only": True, "cases": []}])
    assert [c.value for c in r.run(document("my dog and my cat"), "pets")] == ["dog"]


@pytest.mark.parametrize(("change", "error"), [
    ({"colour": "red"}, r"toy\.json: rules\[0\] \(pets:my\): field colour: Extra inputs"),
    ({"pattern_list": "moods"}, r"rules\[0\] \(pets:my\): field : Value error, a rule reads a pattern or a pattern_list"),
    ({"guards": [{"drop_if": [{"is": "negated"}]}]}, r"rules\[0\] \(pets:my\): field guards\.0\.why: Field required"),
])
def test_a_bad_rule_is_one_error_naming_file_entry_and_field(tmp_path: Path, change: dict, error: str) -> None:
    with pytest.raises(DataRunnerError, match=error):
        Rules(_family(tmp_path, [{**_PET, **change}]))


def test_an_unknown_pattern_or_check_is_named_at_first_run(tmp_path: Path) -> None:
    r = Rules(_family(tmp_path, [{**_PET, "pattern": "nope"}]))
    with pytest.raises(DataRunnerError, match=r"toy\.json: rules\[0\] \(pets:my\): unknown name 'nope' \(a pattern, map, list or check\)"):
        r.run(document("my dog"), "pets")
    r = Rules(_family(tmp_path, [_MOOD]))       # the check 'shouted' never registered
    with pytest.raises(DataRunnerError, match=r"rules\[0\] \(mood:\{@item\}\): unknown name 'shouted'"):
        r.run(document("happy"), "moods")


def test_socio_and_lifestyle_loops_are_declared_rules() -> None:
    from core.engine.rules import lifestyle, socio
    assert {r.id for r in socio._R.rules} >= {"education:level_zh", "school:abbr_zh", "income:phrase", "consumption:{@item}"}
    # a degree without subject beside a finishing word: the second case, through the named check
    assert [(c.cue, c.value) for c in socio.education(document("Master's? Check."))] == [
        ("education:level_dropped_subject", "Master's degree")]
    strong, plain = socio.school(document("我北大毕业的")), socio.school(document("我在北大的食堂吃饭"))
    assert [(c.value, c.confidence, c.data.levels) for c in strong] == [
        ("北京大学", socio._S["school:abbr_zh_strong"], {"city": "Beijing", "institution": "北京大学"})]
    assert [c.confidence for c in plain] == [socio._S["school:abbr_zh"]]
    fam = lifestyle.family_and_relations(document("Proud mom of two. 我老公和女儿, 我家猫叫咪咪"))
    assert [(c.cue, c.value) for c in fam] == [("family:zh", "husband"), ("family:zh", "cat"),
                                               ("family:parent_of", "2 children"), ("family:zh_coord", "daughter"),
                                               ("family:pet_name", "cat 咪咪")]


def test_a_span_may_read_the_first_group_that_matched_and_a_map_s_number_is_text_in_a_template(tmp_path: Path) -> None:
    rule = {"id": "pets:my", "step": "span", "attribute": "pets", "pattern": "pet", "value": "{p>>years}s",
            "start": "n|p", "end": "n|p", "data": {"typical_age": "{p>>years}"}, "score": "pets:my", "why": _WHY}
    r = _rules(tmp_path, [rule])
    r |= {"years": {"dog": 12, "cat": 15}}       # a map the module gives, its values numbers
    cues = r.run(document("My dog Rex and my cat."), "span")
    # the name when there is one, else the pet word; the number written into "{...}s", kept a number alone
    assert [(c.span, c.value, c.data.typical_age) for c in cues] == [("Rex", "12s", 12), ("cat", "15s", 15)]


def test_identity_loops_are_declared_rules() -> None:
    from core.engine.rules import identity
    ids = {r.id for r in identity._R.rules}
    assert ids >= {"gender:self", "gender:facility", "age:student_year", "nationality:roots"}
    # whose words a gendered self-description is: the speaker's after "as a", the mother's when set off after her
    own = identity.gender(document("As a mom I know."))
    mom = identity.gender(document("My mom, as a widow, raised us."))
    assert [(c.cue, c.value, c.first_person) for c in own] == [("gender:self", "female", True)]
    assert [c.first_person for c in mom if c.cue == "gender:self"] != [True]
    # the facility's gender by the map, captions only; the quotation's speaker is someone else
    room = "I was changing in the men's locker room"
    assert [(c.cue, c.value) for c in identity.gender(document(room))] == [("gender:facility", "male")]
    assert not identity.gender(document(room, carrier="sign"))
    assert not identity.gender(document("Elle a dit : « je suis prête »"))
    assert [(c.value, c.span) for c in identity.gender(document("Muito obrigada!"))] == [("female", "obrigada")]
    dyed = identity.physical_appearance(document("I dyed my hair PINK"))
    assert [(c.value, c.confidence) for c in dyed] == [("pink hair (dyed)", 0.65)]      # "{c>>}": lower-cased
    # a school year's decade by the typical age it keeps; a retirement not negated; a country's demonym
    assert [(c.value, c.data.typical_age) for c in identity.age(document("大三的我"))] == [("20s", 20)]
    assert [c.value for c in identity.age(document("I'm not retired"))] == []
    roots = [c for c in identity.nationality(document("my UK roots")) if c.cue == "nationality:roots"]
    assert [(c.value, c.data.country) for c in roots] == [("British", "United Kingdom")]
    assert [(c.value, c.data.original) for c in identity.real_name(document("证书上写着黄若曦"))] == [("黄若曦", "黄若曦")]


def test_a_carrier_guard_may_name_a_word_list_and_identity_keeps_one_list_of_image_carriers(tmp_path: Path) -> None:
    rule = {**_MOOD, "guards": [{"drop_if": [{"is": "carrier", "words": "quiet"}], "why": "carriers by a word list"}]}
    r = _rules(tmp_path, [rule])
    assert [c.value for c in r.run(document("happy"), "moods")] == ["up"]
    assert r.run(document("happy", carrier="calm"), "moods") == []        # the list's word is the carrier
    from core.engine.rules import identity
    listed = frozenset(identity._D.words("image_carriers"))
    assert identity._FACILITY_CARRIERS == listed and "sign" in listed
    guards = [t for r in identity._R.rules if r.id.startswith("gender:facility") for g in r.guards for t in g.drop_if
              if t.is_ == "carrier"]
    assert guards and all(t.words == "image_carriers" and not t.values for t in guards)
    # the emoji reading and the facility rule both skip what a sign says
    assert not identity.gender(document("🙋‍♀️ the men's locker room", carrier="sign"))
    assert [c.cue for c in identity.gender(document("🙋‍♀️ changing in the men's locker room"))] == [
        "gender:facility", "gender:emoji"]
