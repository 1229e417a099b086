"""Precision rules (issue 22, "precision >= 0.90"): the real engine (offline backend) on a user made
of the posts. A venue visited is no occupation (rules/semantic_anchor.visit_only); 我 before a kin
term is that relative's clause (reading/holder.SELF_START). Each case has a counter-example where the
right conclusion still appears."""
from __future__ import annotations

import pytest

from tests.hard_negatives import Case, check

C = Case
CASES = [
    # a visit to a venue is no occupation unless working there is stated
    C("zh-bakery-near-home", ["长宁区的家附近开了新面包店～"], absent={"occupation": "Baker"}),
    C("zh-bakery-found", ["发现一家宝藏面包店，可颂超酥。"], absent={"occupation": "Baker"}),
    C("zh-pharmacy-visit", ["家人们，又去药房拿药了"], absent={"occupation": "Pharmacist"}),
    C("en-library-visit", ["Library until closing again 🙃"], absent={"occupation": "Librarian"}),
    C("zh-bakery-shift", ["今天在面包店上早班，烤了两百个面包"], present={"occupation": "Baker"}),
    # 我 + kin term: the relative's fact, not the poster's
    C("zh-my-uncle-chef", ["我舅舅做了二十年厨师，还是很热爱."], absent={"occupation": "Chef"}),
    C("zh-my-uncle-firefighter", ["我叔叔做了二十年消防员，还是很热爱"], absent={"occupation": "Firefighter"}),
    C("zh-own-chef", ["我做了二十年厨师，还是很热爱."], present={"occupation": "Chef"}),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_precision_case(case: Case, tmp_path) -> None:
    check(tmp_path, case)


HEADLINES = [
    # a headline about a pastime is a topic of interest, not the poster's job
    C("en-yoga-headline", ["Advanced Yoga Poses for Greater Flexibility"], absent={"occupation": "Fitness"},
      present={"hobbies": "yoga"}),
    C("en-painting-headline", ["Tips for Beginners in Painting"], absent={"occupation": "Artist"}),
    # counter-examples: a headline naming a trade (no pastime), and the poster's own sentence
    C("en-trade-headline", ["Mechanics and Auto Repair"], present={"occupation": "Mechanic"}),
    C("en-yoga-statement", ["advanced yoga poses for greater flexibility, my clients loved it"], present={"occupation": "Fitness"}),
]


@pytest.mark.parametrize("case", HEADLINES, ids=[c.id for c in HEADLINES])
def test_pastime_headline(case: Case, tmp_path) -> None:
    check(tmp_path, case)


DENOMINATIONS = [
    # Catholic words name the denomination, not only "Christianity"
    C("en-mass", ["Sunday mass with my parish, then brunch"], present={"religion": "Catholic"}),
    C("zh-mass", ["周日去教堂望弥撒。"], present={"religion": "Catholic"}),
    # counter-example: a Protestant service stays Christianity without a denomination
    C("en-service", ["Sunday service at my church, then brunch"], present={"religion": "Christianity"},
      absent={"religion": "Catholic"}),
]


@pytest.mark.parametrize("case", DENOMINATIONS, ids=[c.id for c in DENOMINATIONS])
def test_denomination(case: Case, tmp_path) -> None:
    check(tmp_path, case)


FINER_HOBBIES = [
    # the hobby as fine as the evidence: film is named, not only photography
    C("en-film-photography", ["film photography cures everything."], present={"hobbies": "film photography"}),
    C("zh-film", ["周末扫街，胶片真的很上头"], present={"hobbies": "film photography"}),
    # counter-example: plain photography stays photography, no film invented
    C("en-photography", ["Sunday photo walk with my camera"], present={"hobbies": "photography"},
      absent={"hobbies": "film"}),
]


@pytest.mark.parametrize("case", FINER_HOBBIES, ids=[c.id for c in FINER_HOBBIES])
def test_finer_hobby(case: Case, tmp_path) -> None:
    check(tmp_path, case)
