"""Hidden profiles: the consistency rules the issue names (age <-> education <-> occupation <->
income <-> family <-> location), checked on the truth values themselves, over many seeds."""
from __future__ import annotations

from datetime import date

import pytest

from core.bench.generate import world as W
from core.bench.generate.profiles import NOW, build_profile, consistency_problems
from core.schema import ATTRIBUTE_NAMES

PROFILES = [build_profile(f"u{i:03d}", 1000 + i, W.CITIES[i % len(W.CITIES)]) for i in range(240)]


def _age_on(birth: date, when: date) -> int:
    return when.year - birth.year - ((when.month, when.day) < (birth.month, birth.day))


def test_every_profile_has_all_28_attributes_with_sensitivity():
    for p in PROFILES:
        assert sorted(p.attrs) == sorted(ATTRIBUTE_NAMES)
        for ta in p.attrs.values():
            assert 1 <= ta.sensitivity <= 5


def test_generator_self_check_passes():
    bad = {p.user_id: consistency_problems(p) for p in PROFILES if consistency_problems(p)}
    assert not bad


def test_age_matches_birth_date_and_decade():
    for p in PROFILES:
        birth = date.fromisoformat(p.attrs["birth_date"].levels[-1].value)
        age = int(p.attrs["age"].levels[-1].value)
        assert _age_on(birth, NOW) == age
        decade = p.attrs["age"].levels[0].value
        assert decade == f"{age // 10 * 10}s"


def test_education_occupation_and_age_fit():
    for p in PROFILES:
        edu = p.attrs["education"].levels[0].value
        occ = p.attrs["occupation"].levels[-1].value
        age = p.age
        if edu.startswith("Master"):
            assert age >= 23, (p.user_id, edu, age)
        if edu == "PhD":
            assert age >= 27
        if occ == "Paediatrician":
            assert p.attrs["education"].levels[1].value == "Medicine" and edu in ("Master's degree", "PhD")
        if occ == "ICU nurse":
            assert p.attrs["education"].levels[1].value == "Nursing"
        if occ in ("Undergraduate student",):
            assert 17 <= age <= 24
        if occ in ("Food delivery rider", "Café shift lead"):
            assert edu == "High school diploma"


def test_income_follows_occupation():
    low_jobs = {"Food delivery rider", "Café shift lead", "Undergraduate student", "Master's student"}
    for p in PROFILES:
        band = p.attrs["income_level"].levels[0].value
        occ = p.attrs["occupation"].levels[-1].value
        if occ in {"Undergraduate student", "Master's student"}:
            assert band in ("Low income", "Lower-middle income")
        if occ in low_jobs:
            assert band not in ("Upper-middle income", "High income")
        if occ in ("Paediatrician", "M&A advisory", "Recommendation algorithms"):
            assert band in ("Upper-middle income", "High income")
        cur = p.attrs["income_level"].levels[1].value.split()[0]
        assert cur == p.city.currency_code


def test_family_follows_relationship_and_orientation():
    for p in PROFILES:
        status = p.attrs["relationship_status"].value
        items = [i.value.lower() for i in p.attrs["family_and_relations"].items]
        kids = [i for i in items if i.startswith(("son", "daughter"))]
        if kids:
            assert status in ("Married", "Divorced")
            for k in kids:
                kid_age = int(k.split("about ")[1].rstrip(")"))
                assert p.age - kid_age >= 18
        partner = [i for i in items if i in ("husband", "wife", "boyfriend", "girlfriend")]
        if status in ("Single", "Divorced"):
            assert not partner
        if status == "Married":
            assert partner and partner[0] in ("husband", "wife")
        if partner and p.attrs["sexual_orientation"].value == "Heterosexual":
            male_partner = partner[0] in ("husband", "boyfriend")
            assert male_partner == (p.gender == "female")
        if partner and p.attrs["sexual_orientation"].value in ("Gay", "Lesbian"):
            male_partner = partner[0] in ("husband", "boyfriend")
            assert male_partner == (p.gender == "male")


def test_locations_are_real_and_coherent():
    for p in PROFILES:
        home = {lv.level: lv.value for lv in p.attrs["home_location"].levels}
        work = {lv.level: lv.value for lv in p.attrs["work_location"].levels}
        city = next(c for c in W.CITIES if c.name.en == home["city"])
        assert home["country"] == city.country.en and home["region"] == city.region.en
        assert home["district"] in [d.en for d in city.districts]
        assert work["city"] == home["city"] and work["district"] in [d.en for d in city.districts]
        assert p.attrs["workplace"].levels[0].value == home["city"]
        sch = p.attrs["school"].levels
        if len(sch) == 3:   # a university: it must be one of the real universities of that city
            sc_city = next(c for c in W.CITIES if c.name.en == sch[0].value)
            assert sch[1].value in [u.en for u in sc_city.universities]
        commute = p.attrs["commute"].facts[0].text
        if "from " in commute and p.commute_station:
            assert p.commute_station in p.home_district.stations


def test_sensitivity_is_contextual():
    """The value decides: an undercover narcotics officer's occupation is 5, a teacher's 2."""
    by_occ = {}
    for p in PROFILES:
        by_occ.setdefault(p.attrs["occupation"].levels[-1].value, set()).add(p.attrs["occupation"].sensitivity)
    if "Undercover narcotics officer" in by_occ:
        assert by_occ["Undercover narcotics officer"] == {5}
    assert by_occ.get("Primary school maths teacher", {2}) == {2}
    sens = {p.attrs["health_condition"].facts[0].text: p.attrs["health_condition"].sensitivity for p in PROFILES}
    if "Hay fever" in sens and "Type 1 diabetes, uses insulin" in sens:
        assert sens["Hay fever"] < sens["Type 1 diabetes, uses insulin"]


@pytest.mark.parametrize("style", ["zh", "en", "mixed"])
def test_languages_and_platforms_are_all_present(style):
    langs = {(p.lang, p.platform) for p in PROFILES}
    assert any(lang == style for lang, _ in langs)
    if style == "zh":
        assert ("zh", "rednote") in langs
    if style == "en":
        assert ("en", "instagram") in langs
