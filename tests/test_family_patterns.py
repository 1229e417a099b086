"""Issue 33: a rule module reads its family's patterns by key (rules/family_patterns.py) instead of a
Python name per pattern, and the guards, regexes and word lists that identity.py and lifestyle.py
held inline are entries of identity.json / lifestyle.json with their language."""
from __future__ import annotations

import json
import re

import pytest

from core.engine.rules.family_patterns import compiled
from core.engine.rules.recognizer_data import Family, family


def test_every_data_filled_pattern_is_compiled_by_key_and_python_filled_ones_are_left_out(tmp_path):
    raw = json.loads(family("identity").path.read_text(encoding="utf-8"))
    raw["patterns"] = {
        "plain": {"reason": "r", "template": r"\bhi\b", "flags": "i"},
        "from_words": {"reason": "r", "template": "(?:{hair_colours}) hair"},
        "given": {"reason": "r", "template": "{i_am} here"},
        "given_in_slot": {"reason": "r", "template": "(?:{x})", "slots": {"x": {"en": ["{i_am} ok"]}}},
    }
    path = tmp_path / "toy.json"
    path.write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
    p = compiled(Family(path))
    assert p.plain.search("Hi there") and p.plain.flags & re.I
    assert p.from_words.search("my brown hair")
    with pytest.raises(AttributeError, match=r"toy\.json: field patterns\.given: missing"):
        p.given  # noqa: B018
    with pytest.raises(AttributeError, match="given_in_slot"):
        p.given_in_slot  # noqa: B018


def test_identity_guards_and_dates_are_data():
    from core.engine.rules import identity
    d = family("identity")
    assert identity._P.bd_en.pattern == d.source("bd_en")
    assert d.words_by_lang("months") == {"en": d.words("months")} and "sept?(?:ember)?" in d.words("months")
    assert identity._P.bd_en.search("my birthday is March 14, 1992").group("y") == "1992"
    assert identity._P.id_words.search("staff no") and identity._P.id_words.search("工号")
    assert identity._AGE_LEAD.match("I'm 34") and identity._P.age_unit.search("34 yrs")
    assert identity._NAT.search("I'm a proud Kenyan").group("d") == "Kenyan"
    assert identity._HEIGHT.search("身高170").group("zcm") == "170"
    assert identity._MONTH_NAMES == d.words("month_names", "en") and len(identity._MONTH_NAMES) == 12
    assert "了" in d.words("name_particles", "zh") and identity._NAME_PARTICLES == frozenset(d.words("name_particles"))
    from core.engine.rules.extract import extract_cues
    assert [c.value for c in extract_cues("我叫王芳了") if c.attribute == "real_name"] == ["王芳"]
    assert identity._WEIGHT_UNITS["斤"] == "jin" and identity._R._map("facility_gender")["男"] == "male"
    assert "出生" in identity._BIRTHDAY_OPENERS_ZH
    assert [c.value for c in extract_cues("体重110斤") if c.attribute == "physical_appearance"] == ["weighs 55 kg (体重110斤)"]


def test_lifestyle_guards_and_word_lists_are_data():
    from core.engine.rules import lifestyle
    d = family("lifestyle")
    assert d.data.patterns["work_zh"].slots["before"].keys() == {"zh"}
    assert lifestyle._P.work_zh.search("公司在") and not lifestyle._P.work_zh.search("去")
    assert lifestyle._P.hometown_trigger.search("grew up in") and lifestyle._P.hometown_trigger.search("老家在")
    assert lifestyle._RECURRING.search("as usual") and lifestyle._RECURRING.search("照例")
    assert d.map("child_counts")["two"] == "2 children" and "相亲" in lifestyle._SINGLE_WEAK
    assert lifestyle._P.pet_named_zh.search("我家猫叫咪咪").group("n") == "咪咪"
    assert "hashtag" not in d.data.patterns     # dead: reading/document.py reads the hashtags


def test_semantic_anchor_staff_and_self_clause_are_data():
    from core.engine.rules import semantic_anchor as sa
    d = family("semantic_anchor")
    assert "female" in d.words("staff_det", "en") and sa._roles_rx().pattern.startswith("(?i)\\b(?:the|my|our|")
    assert sa._roles_rx().search("the driver was nice") and not sa._roles_rx().search("I drive")
    assert sa._P.self_clause_zh.match("我是护士").group(1) == "护士"
    assert sa._COMMON_SENSE == sa.anchors("engage")


def test_document_names_surnames_and_greeting_words_are_data():
    from core.engine.rules import document_names as dn
    d = dn.load()
    assert "周" in d.words("holder_surnames", "zh") and dn.reader().surnames_zh == set(d.words("holder_surnames", "zh"))
    assert dn.reader().cjk("周思宁") == "周思宁" and dn.reader().cjk("你思宁") is None
    assert "快" in d.words("greeting_not_name_chars", "zh") and dn.greeting_names("生日快乐 大家") == []
    assert "hope" in d.words("greeting_followers", "en") and dn.greeting_names("congrats Aoife hope it was fun") == ["Aoife"]


def test_name_candidates_signed_by_words_are_data():
    from pathlib import Path

    from core.engine.rules import document_names as dn, name_candidates as nc
    assert "por" in dn.data().words("signed_by", "pt") and nc._data().signed_by.search("revisto por ")
    assert any(c.kind == "initial" for c in nc.name_candidates("revisto por B. Salgueiro\nAtelier"))
    assert "por|by" not in Path(nc.__file__).read_text(encoding="utf-8")      # no word list spelled in Python


def test_the_regex_linearity_corpus_walks_a_family_s_compiled_patterns():
    """The compiled patterns of identity / lifestyle / semantic_anchor / socio live in a dict (keys.Keys),
    so tests/regex_corpus.py, which walks module-level dicts, still checks every one of them."""
    from core.engine.rules import identity, lifestyle, semantic_anchor, socio
    from tests.regex_corpus import user_text_patterns
    walked = {id(p) for _, p in user_text_patterns()}
    for mod in (identity, lifestyle, semantic_anchor):
        assert mod._P and all(id(p) in walked for p in mod._P.values()), mod.__name__
    assert all(id(p) in walked for p in socio._P.values())


def test_a_key_named_like_a_dict_method_is_refused():
    from core.engine.rules.keys import Keys
    assert Keys({"field_en": 1}).field_en == 1
    with pytest.raises(ValueError, match="toy.json: field patterns.items: an entry may not be named like a dict method"):
        Keys({"items": 1}, "toy.json: field patterns.")
