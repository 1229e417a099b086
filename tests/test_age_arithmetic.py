"""Age by arithmetic (issue 34): a school-leaving exam or graduation year read with the table of
typical ages (core/data/age_milestones.json), and a birthday number in the languages the table
claims. Each case runs the real engine (offline backend, real SQLite) on a user made of its posts;
negatives (someone else's birthday, an anniversary, years of a company, a price) must claim no age."""
from __future__ import annotations

import json

import pytest

from core.engine.rules import extract_cues
from core.engine.rules.age_arithmetic import AgeTableError, DATA, load_table
from core.engine.rules.identity import REF_YEAR
from tests.hard_negatives import Case, check

C = Case
# an exam year whose age range (17-19 then) is 33-35 now, whatever this year is: one decade
Y18 = REF_YEAR - 16
DEC = "30s"

POSITIVE = [
    C("en-leaving-cert", [f"I sat my Leaving Cert in {Y18} and still have nightmares about Irish oral"], present={"age": DEC}),
    C("zh-gaokao", [f"我高考那年是{Y18}，现在想想时间过得真快"], present={"age": DEC}),
    C("de-abitur", [f"Ich habe mein Abitur {Y18 + 1} gemacht und vermisse die Zeit"], present={"age": DEC}),
    C("fr-bac", [f"J'ai eu mon bac en {Y18}, que de souvenirs"], present={"age": DEC}),
    C("ko-suneung", [f"내가 수능 본 게 {Y18 + 1}년이었는데 아직도 기억나"], present={"age": DEC}),
    C("ja-center", [f"私は{Y18}年にセンター試験を受けた"], present={"age": DEC}),
    C("zh-birthday-cjk-numeral", ["今天是我的三十岁生日，许了个愿"], present={"age": "30"}),
    C("zh-birthday-traditional", ["今天是我的30歲生日，謝謝大家"], present={"age": "30"}),
    C("de-birthday", ["Heute feiere ich meinen 40. Geburtstag mit der Familie"], present={"age": "40"}),
    C("es-birthday", ["Hoy celebro mis 35 años con mi gente"], present={"age": "35"}),
    C("pt-birthday", ["Fiz 30 anos hoje! Obrigada a todos"], present={"age": "30"}),
    C("fr-birthday", ["Je fête mes 40 ans ce soir avec les copains"], present={"age": "40"}),
    C("fr-printemps", ["35 printemps aujourd'hui, merci pour tous vos messages"], present={"age": "35"}),
    C("tl-na-ako", ["30 na ako! Salamat sa lahat ng bumati"], present={"age": "30"}),
    C("zh-gaokao-pro-drop", [f"高考那年是{Y18}，那时候天天刷题"], present={"age": DEC}),
    C("de-abi-years-later", [f"Abi {Y18 + 1}, {REF_YEAR - Y18 - 1} Jahre später"], present={"age": DEC}),
    C("en-turned-in-year", [f"I turned 30 in {REF_YEAR - 12}, feels like another life"],
      present={"age": "40s"}, absent={"age": "30"}),
    C("en-year-i-turned", [f"Got my licence in {REF_YEAR - 12}, the same year I turned 30. Still love driving"],
      present={"age": "40s"}, absent={"age": "30"}),
    C("en-years-since-aged", ["12 years since my first shift behind the bar, aged 21."], present={"age": "30s"}),
    C("de-reunion-after-years", [f"Abi {Y18 + 1} – Treffen nach {REF_YEAR - Y18 - 1} Jahren in unserer alten Schule"],
      present={"age": DEC}),
]

NEGATIVE = [
    C("en-brother-leaving-cert", [f"My brother's Leaving Cert {Y18} results came in the post"], absent={"age": DEC}),
    C("en-exam-to-come", [f"Good luck to everyone sitting the Leaving Cert {REF_YEAR}!"], absent={"age": "10s"}),
    C("zh-friend-30", ["我朋友的30岁生日，我们给她准备了蛋糕"], absent={"age": "30"}),
    C("zh-anniversary", ["公司成立30周年，全体员工聚餐"], absent={"age": "30"}),
    C("zh-price", ["这件衣服才40块，太划算了"], absent={"age": "40"}),
    C("de-friend-40", ["Der 40. Geburtstag meiner Freundin war ein Fest"], absent={"age": "40"}),
    C("de-company", ["30 Jahre unserer Firma, ein schönes Jubiläum"], absent={"age": "30"}),
    C("es-career", ["Celebro mis 20 años de carrera en la empresa"], absent={"age": "20"}),
    C("fr-marriage", ["Nous fêtons nos 30 ans de mariage"], absent={"age": "30"}),
    C("pt-price", ["A camisa custou só 40 reais"], absent={"age": "40"}),
    C("en-friend-30th", ["Happy 30th birthday to my best friend Anna!"], absent={"age": "30"}),
    C("en-anniversary", ["It's our 30th anniversary this week"], absent={"age": "30"}),
    C("en-company-years", ["30 years of the company, proud to be part of it"], absent={"age": "30"}),
    C("en-price", ["the shirt was only 40 at the shop"], absent={"age": "40"}),
    C("en-sister-turned-in-year", [f"My sister turned 30 in {REF_YEAR - 4} and threw a huge party"], absent={"age": "30"}),
    C("zh-exam-essay", [f"{Y18}年高考作文题真难，网上都在讨论"], absent={"age": DEC}),
    C("fr-mother-printemps", ["Maman fête ses 60 printemps aujourd'hui"], absent={"age": "60"}),
    C("en-year-dad-turned", [f"In {REF_YEAR - 12}, the year my dad turned 60, we moved house"], absent={"age": "70"}),
    C("en-years-since-dad", ["20 years since my dad started at 23. Proud of him"], absent={"age": "40s"}),
    C("en-years-since-address", ["10 years since the shop opened at 21 Main Street"], absent={"age": "30s"}),
    C("en-years-since-two-decades", ["twenty years since I started at 19, still love it"], absent={"age": "30s"}),
    C("tl-price", ["Bumili ako ng kape, 40 na lang ang pera ko"], absent={"age": "40"}),
]


@pytest.mark.parametrize("case", POSITIVE, ids=lambda c: c.id)
def test_age_read_by_arithmetic(tmp_path, case: Case) -> None:
    check(tmp_path, case)


@pytest.mark.parametrize("case", NEGATIVE, ids=lambda c: c.id)
def test_no_age_from_others_or_numbers(tmp_path, case: Case) -> None:
    check(tmp_path, case)


def test_arithmetic_is_in_the_evidence() -> None:
    cue = next(c for c in extract_cues(f"I did my Leaving Cert in {Y18}.") if c.cue == "age:milestone:leaving_cert")
    assert cue.data.graduation_year == Y18
    assert cue.data.inference == (f"Leaving Cert {Y18} at 17-19 -> born ~{Y18 - 19}-{Y18 - 17} -> "
                                  f"{REF_YEAR - Y18 + 17}-{REF_YEAR - Y18 + 19} in {REF_YEAR}")


def test_range_across_two_decades_says_nothing() -> None:
    y = REF_YEAR - 22     # 17-19 then -> 39-41 now: 30s or 40s
    assert not [c for c in extract_cues(f"I did my Leaving Cert in {y}.") if c.attribute == "age"]


def test_bad_table_names_file_entry_and_field(tmp_path) -> None:
    raw = json.loads(DATA.read_text(encoding="utf-8"))
    raw["milestones"][1]["age_min"] = "eighteen"
    bad = tmp_path / "age_milestones.json"
    bad.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(AgeTableError, match=r"age_milestones\.json: entry a_level, field age_min"):
        load_table(bad)
    raw["milestones"][1]["age_min"] = 25
    bad.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(AgeTableError, match=r"entry a_level, field age_min: 25 is above age_max 19"):
        load_table(bad)


def test_shipped_table_loads() -> None:
    t = load_table()
    assert {m.id for m in t.milestones} >= {"gcse", "a_level", "leaving_cert", "gaokao", "abitur", "bac", "suneung"}


def _plaque_user(tmp_path, caption: str, lines: list[str], **want: dict[str, str]) -> None:
    from tests.engine_user import render_text_image
    from tests.hard_negatives import write_user

    case = Case("plaque", [{"caption": caption, "images": [{"file": "images/cake.png"}]}], **want)
    udir = write_user(tmp_path, case)
    render_text_image(udir / "images" / "cake.png", lines, size=(700, 400), font_size=70)
    check(tmp_path, case)


def test_cake_plaque_beside_own_birthday_post_is_the_age(tmp_path) -> None:
    """"Happy 40th Priya" read off a cake (real OCR) beside the poster's own birthday post."""
    _plaque_user(tmp_path, "my birthday today, thank you all for coming", ["Happy 40th", "Priya"], present={"age": "40"})


def test_cake_plaque_at_a_friends_party_is_not_the_age(tmp_path) -> None:
    """The same plaque under "my best friend's birthday" is the friend's: no age for the account."""
    _plaque_user(tmp_path, "my best friend's birthday party, such a fun night", ["Happy 40th", "Priya"],
                 absent={"age": "40"})
