"""The word lists and maps that features / entities / forms / sensitive / addressee / health_context
kept in Python are data now (issue #33): each is read from its data file, and the rule reads it."""
from __future__ import annotations

from core.engine.rules.addressee import heading, load
from core.engine.rules.entities import money_entities
from core.engine.rules.health_context import health_context
from core.engine.rules.recognizer_data import family


def test_money_multipliers_are_data() -> None:
    assert family("money").map("multipliers") == {"k": 1000, "thousand": 1000, "grand": 1000, "m": 1000000,
                                                   "million": 1000000, "千": 1000, "万": 10000}
    assert [e.data.amount for e in money_entities("房租2万元, rent is $5k")] == [20000.0, 5000.0]


def test_health_context_is_a_recognizer_family() -> None:
    d = family("health_context")
    assert "diagnos" in d.words("health", "en") and "确诊" in d.words("health", "zh")
    assert health_context("Diagnosed last year") and not health_context("kale chips and leggings")


def test_heading_small_words_come_from_the_addressee_bank() -> None:
    assert {"and", "of", "the", "vs"} <= load().small
    assert heading("Yoga Mats: Reviews and Recommendations") and not heading("Hey you, read this")


def test_forms_and_sensitive_tables_are_data() -> None:
    forms, sens = family("forms"), family("sensitive")
    assert forms.map("dollar_prefixes")["NT"] == "TWD" and forms.map("sex")["女"] == "female"
    assert forms.pattern("age_value").fullmatch("34 y/o") and forms.pattern("annual").search("年薪")
    assert set(sens.words("orientation_short")) == {"bi", "pan", "ace", "straight"}
    assert sens.pattern("condition_number").search("孕20周").group(0) == "孕20周"
    assert family("features").words("route_work_ends", "zh") == ["公司", "单位", "上班"]
