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
    # (issue 34: one sentence whose nearest job leads the next, therapist, by a hair is a guess; a second post
    # that agrees makes it a reading: tests/test_occupation_precision.py)
    C("en-yoga-statement", ["advanced yoga poses for greater flexibility, my clients loved it",
                            "Taught three yoga classes at the studio today, then two private clients."],
      present={"occupation": "Fitness"}),
]


@pytest.mark.parametrize("case", HEADLINES, ids=[c.id for c in HEADLINES])
def test_pastime_headline(case: Case, tmp_path) -> None:
    check(tmp_path, case)


DENOMINATIONS = [
    # Catholic words name the denomination, not only "Christianity"
    C("en-mass", ["Sunday mass with my parish, then brunch"], present={"religion": "Catholic"}),
    C("zh-mass", ["周日去教堂望弥撒。"], present={"religion": "Catholic"}),
    # Protestant church words name theirs too (a church bulletin, a self-statement)
    C("en-baptist", ["Ushering this morning at Missionary Baptist Church"], present={"religion": "Baptist"}),
    C("en-methodist", ["I'm a Methodist and proud of our food bank"], present={"religion": "Methodist"}),
    # the Philippines' Catholic Holy Week and Advent practices, named in English posts
    C("en-visita-iglesia", ["Visita Iglesia last night with Mama, seven churches. Good Friday duty today."],
      present={"religion": "Catholic"}),
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


# commute: a stop named by the gazetteer is the station (the judge needs the station, not only the line)
STATION_TEXT = [
    C("en-tap-in-at-station", [{"caption": "workday routine: tap in at Angel, ride the Northern line, pretend i'm awake",
                                "timestamp": "2025-09-02T07:50:00+01:00"}],
      present={"commute": "Angel"}, absent={"commute": "stations the Northern line"}),
    # counter-example: the same stop named on a weekend afternoon post is no commute
    C("en-station-weekend", [{"caption": "lunch near Angel with the girls",
                              "timestamp": "2025-09-06T13:30:00+01:00"}], absent={"commute": "Angel"}),
]


@pytest.mark.parametrize("case", STATION_TEXT, ids=[c.id for c in STATION_TEXT])
def test_commute_station_in_text(case: Case, tmp_path) -> None:
    check(tmp_path, case)


SIGNS = [
    # a sign that is only a station's name, on a weekday peak-hour post, is where the poster boards
    pytest.param("sign-peak", ["Kipling"], "2025-09-02T08:30:00-04:00", True),
    # counter-examples: the same sign on a Saturday afternoon; a sign that also says other things
    pytest.param("sign-weekend", ["Kipling"], "2025-09-06T15:00:00-04:00", False),
    pytest.param("sign-shop", ["Kipling Bagels"], "2025-09-02T08:30:00-04:00", False),
]


@pytest.mark.parametrize("cid,lines,ts,boards", SIGNS, ids=[p.values[0] for p in SIGNS])
def test_commute_station_sign(cid: str, lines: list[str], ts: str, boards: bool, tmp_path) -> None:
    from tests.hard_negatives import write_user

    sign = {"caption": "so quiet this morning", "timestamp": ts, "images": [{"file": "images/sign.png"}]}
    line = {"caption": "Line 2 again, same seat", "timestamp": "2025-09-03T08:10:00-04:00"}
    case = C(cid, [sign, line], **({"present": {"commute": "Kipling"}} if boards else {"absent": {"commute": "Kipling"}}))
    udir = write_user(tmp_path, case)
    _photo_of_sign(udir / "images" / "sign.png", lines)
    check(tmp_path, case)


def _photo_of_sign(path, lines: list[str]) -> None:
    """White letters on a sign panel inside a noisy photo (a flat white image reads as a screenshot)."""
    import random

    from PIL import Image, ImageDraw

    from tests.engine_user import _font

    rnd = random.Random(7)
    img = Image.new("RGB", (1080, 810))
    img.putdata([(rnd.randrange(40, 140), rnd.randrange(40, 140), rnd.randrange(40, 140)) for _ in range(1080 * 810)])
    d = ImageDraw.Draw(img)
    d.rectangle((60, 80, 1020, 130 + 80 * len(lines)), fill=(20, 40, 120))
    for i, ln in enumerate(lines):
        d.text((100, 110 + i * 80), ln, fill="white", font=_font(52))
    img.save(path)


SCHOOL_NAMES = [
    # a second discipline after "and" is still the university's name
    C("en-science-and-technology", ["Back on campus at Southern University of Science and Technology for my master's"],
      present={"school": "Southern University of Science and Technology"}),
    # counter-example: "and" before a place starts another thing, not the name
    C("en-and-a-city", ["Graduated from University of Leeds and Sheffield is where I live now"],
      present={"school": "University of Leeds"}, absent={"school": "Leeds and Sheffield"}),
]


@pytest.mark.parametrize("case", SCHOOL_NAMES, ids=[c.id for c in SCHOOL_NAMES])
def test_school_name_with_and(case: Case, tmp_path) -> None:
    check(tmp_path, case)


BIRTH_COHORT = [
    # "作为88年的" (as one born in '88) states the birth year; with a birthday post it completes the date
    C("zh-cohort-year", [{"caption": "今天是本人的生日，允许自己放纵一天", "timestamp": "2025-06-03T20:00:00+08:00"},
                         "作为88年的，熬夜真的扛不住了"], present={"birth_date": "1988"}),
    # counter-example: a year of something else after 作为 is no birth year
    C("zh-graduate-year", ["作为2015年的毕业生，回母校看看"], absent={"birth_date": "2015"}),
]


@pytest.mark.parametrize("case", BIRTH_COHORT, ids=[c.id for c in BIRTH_COHORT])
def test_birth_cohort(case: Case, tmp_path) -> None:
    check(tmp_path, case)
