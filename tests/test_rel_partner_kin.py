"""Issue 34 (relationship_status, gender): one's own boyfriend, girlfriend or fiancé(e), named in any
language pack's words ("mi novia", "남자친구랑", a bare 男朋友 opening a clause), says the poster is in a
relationship or engaged; one's own partner word that names a gender (husband, wife, boyfriend,
girlfriend in every pack) suggests the poster's gender as the low `gender:partner` hint, which the
generic aggregator drops for an account that speaks of Pride or queer life in any language. A
marriage said in a clause whose subject is one's own spouse is the poster's; 独り身 is single."""
from __future__ import annotations

import pytest

from core.engine.rules import extract_cues
from tests.engine_user import run_profile


def _own(text: str, attr: str) -> set[str]:
    return {c.value for c in extract_cues(text) if c.attribute == attr and c.first_person
            and c.holder == "self" and not c.data.hint}


@pytest.mark.parametrize("text,status,gender", [
    ("Domingo de cocido con mi novia y su hermano.", "in a relationship", "male"),                  # es
    ("Jantar com o meu namorado no sábado.", "in a relationship", "female"),                        # pt
    ("Dîner avec mon copain ce soir.", "in a relationship", "female"),                               # fr
    ("남자친구랑 광안리 산책. 드론쇼 보려고 세 시간 기다림.", "in a relationship", "female"),           # ko
    ("男朋友又在深圳加班，异地第三年，视频的时候他睡着了。", "in a relationship", "female"),            # zh, bare
    ("女朋友在银行，年薪二十万，我一个月到手五千出头。", "in a relationship", "male"),                  # zh, bare
    ("Meine Verlobte hat heute Geburtstag.", "engaged", None),                                       # de
    ("私の婚約者は優しい。", "engaged", None),                                                        # ja: 婚約者 names no gender
    ("O meu marido fez o jantar.", "married", "female"),                                             # pt
    ("Makan malam dengan suami saya.", "married", "female"),                                        # ms
    ("the missus works part time now", "married", "male"),                                           # en, implied
    ("Hubby made dinner tonight", "married", "female"),                                              # en, bare
])
def test_own_partner_word_gives_status_and_gender_hint(text, status, gender):
    assert status in _own(text, "relationship_status"), text
    genders = [c for c in extract_cues(text) if c.attribute == "gender" and c.cue == "gender:partner"]
    if gender is None:
        assert not genders, text
    else:
        assert {c.value for c in genders} == {gender}, text
        assert all(c.confidence <= 0.4 for c in genders)    # a hint: same-sex couples exist


@pytest.mark.parametrize("text", [
    "她的男朋友很帅",                   # her boyfriend
    "女朋友们一起去吃饭",                # (female) friends, plural
    "su novia es muy simpática",        # his girlfriend
    "친구 남자친구가 왔다",               # a friend's boyfriend
])
def test_someone_elses_partner_is_no_status_and_no_gender(text):
    assert not _own(text, "relationship_status"), text
    assert not _own(text, "gender"), text


def test_chinese_marriage_said_of_the_spouse_is_the_posters():
    # traditional script, a counted year of marriage in the clause after the husband's
    assert "married" in _own("情人節老公訂了餐廳，結婚第三年的真實。", "relationship_status")
    assert "married" in _own("结婚三年了，还是很甜", "relationship_status")
    # a sister's wedding stays hers
    assert "married" not in _own("我姐姐结婚了", "relationship_status")


def test_japanese_single():
    assert "single" in _own("兄の結婚式で京都へ。私はまだまだ独り身です。", "relationship_status")
    assert "single" not in _own("兄はまだ独り身です", "relationship_status")


def test_lesbian_self_description_is_female():
    assert "female" in _own("Sixteen years out as a lesbian and it still feels like the best day.", "gender")
    assert not _own("my sister is a lesbian", "gender")


def test_partner_gender_projected_and_dropped_for_queer_account_in_spanish(tmp_path):
    posts = [{"timestamp": "2026-03-01T12:00:00+01:00", "caption": "Domingo de cocido con mi novia y su hermano."},
             {"timestamp": "2026-03-08T12:00:00+01:00", "caption": "Paseo por el Retiro con mi novia, qué sol."}]
    prof = run_profile(tmp_path / "a", posts)
    assert prof.get("gender") == "male" and prof.get("relationship_status") == "in a relationship", prof
    queer = posts + [{"timestamp": "2026-06-28T12:00:00+02:00", "caption": "Orgullo con mi novia y medio equipo. Bollera y madrileña."}]
    prof = run_profile(tmp_path / "b", queer)
    assert "gender" not in prof and prof.get("relationship_status") == "in a relationship", prof
