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
    # a CJK text is read folded (歳 -> 岁, 誕 -> 诞): the table's patterns are folded the same way
    C("ja-birthday-folded", ["今日は私の30歳の誕生日です。ケーキを焼いた"], present={"age": "30"}),
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
    C("ja-mother-birthday", ["今日は母の60歳の誕生日です。ケーキを焼いた"], absent={"age": "60"}),
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


def test_a_bad_pattern_anywhere_in_the_table_is_named_at_load(tmp_path) -> None:
    """Every pattern of the table compiles at load, a bad one named by its field (issue 33)."""
    raw = json.loads(DATA.read_text(encoding="utf-8"))
    raw["bare_age"]["other_wish"] = "(unclosed"
    bad = tmp_path / "age_milestones.json"
    bad.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(AgeTableError, match=r"age_milestones\.json: field bare_age\.other_wish: .*not a regular expression"):
        load_table(bad)


def test_future_wording_is_data() -> None:
    from core.engine.rules.age_arithmetic import _future
    t = load_table()
    assert "明年" in t.future.words["zh"] and "備考" in t.future.words["ja"]
    assert _future().search("Good luck to everyone") and _future().search("備考中") and not _future().search("the willow")
    assert not [c for c in extract_cues(f"Good luck to everyone sitting the Leaving Cert {REF_YEAR - 1}!") if c.attribute == "age"]


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


# ------------------------------------------------------------------ years since, milestones since, eras (issue 34)
R = REF_YEAR
NOW = f"{R}-03-01T10:00:00+00:00"     # the post's own date is "now": dated in the reference year


def _at_now(caption: str) -> dict:
    return {"caption": caption, "timestamp": NOW}


SINCE_POSITIVE = [
    # number words through number-parser (the old table had no "twenty-two")
    C("en-years-since-compound-word", [_at_now("Twenty-two years since I started on the tools at 21, still love it.")],
      present={"age": "40s"}),
    C("es-hace-anos-con", [_at_now("Hoy hace 12 años que serví mi primera copa en una terraza, con 21 recién cumplidos.")],
      present={"age": "33"}),
    C("es-hace-word", [_at_now("Hace diez años que empecé en la cocina, con 22 años y muchas ganas.")], present={"age": "30s"}),
    C("zh-years-since", [_at_now("十五岁跟着我妈学绣，今年整三十年了。")], present={"age": "40s"}),
    C("fr-il-y-a", [_at_now("Il y a 12 ans, j'ai ouvert mon atelier à 21 ans.")], present={"age": "30s"}),
    C("de-vor-jahren", [_at_now("Vor 12 Jahren habe ich mit 21 Jahren als Azubi angefangen.")], present={"age": "30s"}),
    C("pt-ha-anos", [_at_now("Há 12 anos comecei a trabalhar aqui com 21 anos.")], present={"age": "30s"}),
    C("ja-years-ago-at", [_at_now("12年前、21歳でこの店に入った。")], present={"age": "30s"}),
    C("ja-at-then-years", [_at_now("21歳の時に上京してからもう12年。")], present={"age": "30s"}),
    C("ko-years-ago-native", [_at_now("12년 전 스물한 살에 처음 입사했다.")], present={"age": "30s"}),
    C("ja-seijin-since", [_at_now("今日は成人の日。私の成人式からもう12年…振袖の写真見て震えた。")], present={"age": "30s"}),
    C("en-class-of", [_at_now(f"Class of {R - 16} reunion tonight. Sixteen years and everyone has kids.")],
      present={"age": "30s"}),
    C("es-generacion", [_at_now(f"Diez años de haber salido de la escuela (generación {R - 14}-{R - 10}). Reunión en el patio.")],
      present={"age": "30s"}),
    C("zh-tw-roc-nianci", [_at_now(f"我們{R - 32 - 1911}年次的，是不是都開始會腰痛了？")], present={"age": "30s"}),
    C("ja-heisei-born", [_at_now(f"平成{R - 32 - 1988}年生まれです。よろしくお願いします")], present={"age": "30s"}),
    C("ko-international-age", [_at_now("한국 나이로 스물아홉, 만으로는 스물일곱. 그냥 만 나이로 살래요.")], present={"age": "27"}),
    C("ko-international-digits", [_at_now("저는 만 34세 직장인입니다")], present={"age": "34"}),
]

SINCE_NEGATIVE = [
    C("es-hace-padre", [_at_now("Hace 10 años que mi padre abrió el bar, con 23 años.")], absent={"age": "30s"}),
    C("fr-il-y-a-father", [_at_now("Il y a 12 ans, mon père a ouvert son atelier à 21 ans.")], absent={"age": "30s"}),
    C("de-vor-jahren-father", [_at_now("Vor 12 Jahren hat mein Vater mit 21 Jahren die Firma gegründet.")],
      absent={"age": "30s"}),
    C("de-mit-colleagues", [_at_now("Vor 12 Jahren mit 21 Kollegen gestartet, heute sind wir 300.")], absent={"age": "30s"}),
    C("pt-ha-anos-mother", [_at_now("Há 12 anos minha mãe abriu a loja com 21 anos.")], absent={"age": "30s"}),
    C("ja-father-years-ago", [_at_now("父は12年前、21歳で入社した。")], absent={"age": "30s"}),
    C("ja-brother-then-years", [_at_now("兄は21歳の時に上京してからもう12年。")], absent={"age": "30s"}),
    C("ko-father-years-ago", [_at_now("12년 전 아버지는 스물한 살에 입사하셨다.")], absent={"age": "30s"}),
    C("zh-years-since-other", [_at_now("他十五岁跟着师傅学绣，今年整三十年了。")], absent={"age": "40s"}),
    C("zh-years-since-daughter", [_at_now("我女儿十五岁学琴，今年三年了")], absent={"age": "10s"}),
    C("ja-mother-seijin", [_at_now("母の成人式からもう12年だって")], absent={"age": "30s"}),
    C("en-class-of-sister", [_at_now(f"My sister's class of {R - 16} reunion tonight")], absent={"age": "30s"}),
    C("en-class-of-congrats", [_at_now(f"Congrats to the class of {R - 16} graduates!")], absent={"age": "30s"}),
    C("es-generacion-prepa-three-years", [_at_now(f"Reunión de la generación {R - 13}-{R - 10} de la prepa")],
      absent={"age": "20s"}),
    C("es-generacion-sister", [_at_now(f"Mi hermana es de la generación {R - 14}-{R - 10}, hoy tiene reunión")],
      absent={"age": "30s"}),
    C("zh-tw-nianci-not-a-person", [_at_now(f"這件衣服{R - 32 - 1911}年次的款式")], absent={"age": "30s"}),
    C("zh-tw-mother-nianci", [_at_now("我妈60年次的，今年退休了")], absent={"age": "50s"}),
    C("ko-sibling-international", [_at_now("동생은 만으로 스물다섯")], absent={"age": "25"}),
    C("ko-money", [_at_now("만 원짜리 27개 샀어")], absent={"age": "27"}),
]


@pytest.mark.parametrize("case", SINCE_POSITIVE, ids=lambda c: c.id)
def test_age_from_years_since_milestones_and_eras(tmp_path, case: Case) -> None:
    check(tmp_path, case)


@pytest.mark.parametrize("case", SINCE_NEGATIVE, ids=lambda c: c.id)
def test_no_age_from_others_years_since_milestones_or_eras(tmp_path, case: Case) -> None:
    check(tmp_path, case)


def test_number_words_come_from_the_library() -> None:
    from core.engine.rules.number_words import word_int

    assert [word_int(w) for w in ("twenty", "FIFTY", "twenty-five", "diez", "veinticinco", "스물일곱", "서른", "三十", "十五")] == \
        [20, 50, 25, 10, 25, 27, 30, 30, 15]
    assert [word_int(w) for w in ("the", "years", "", "스물일곱살이", "整三十")] == [None] * 5


def test_since_arithmetic_is_in_the_evidence() -> None:
    def infer(text: str, rule: str) -> str:
        return next(c for c in extract_cues(text) if c.cue == rule).data.inference

    assert infer("十五岁跟着我妈学绣，今年整三十年了。", "age:years_since") == "15 then + 30 years -> 45-46"
    assert infer("Hoy hace 12 años que serví mi primera copa, con 21 recién cumplidos.", "age:years_since") == \
        "21 then (just turned) + 12 years -> 33-33"
    assert infer("私の成人式からもう12年", "age:milestone_since:seijin") == \
        "成人式 (coming-of-age ceremony) at 19-20 + 12 years -> 31-32"
    assert infer(f"我們{R - 32 - 1911}年次的", "age:era_birth_year") == \
        f"ROC year {R - 32 - 1911} + 1911 = born {R - 32} -> 31-32 in {R}"
    assert infer("만으로는 스물일곱", "age:international") == "만 (international age) 스물일곱 = 27"


def test_since_age_counts_from_the_post_date() -> None:
    """"私の成人式からもう12年" posted three years before the account's latest post is three years older now."""
    from core.engine.rules.age_arithmetic import age_range_as_of

    cue = next(c for c in extract_cues("私の成人式からもう12年") if c.cue == "age:milestone_since:seijin")
    assert age_range_as_of(cue, "2020-01-12", "2023-02-01") == (34, 35)
    era = next(c for c in extract_cues("我們83年次的") if c.cue == "age:era_birth_year")
    assert age_range_as_of(era, "2020-01-12", "2026-04-01") == (31, 32)


# ------------------------------------------------------------------ an age said alone on the account's birthday post
def _bday_post(caption: str, *wishes: str) -> dict:
    return {"caption": caption, "timestamp": NOW, "comments": [{"author": f"friend{i}", "text": w} for i, w in enumerate(wishes)]}


BARE_POSITIVE = [
    C("en-bare-word-with-wishes", [_bday_post("Fifty. FIFTY. The whole family came over and the candles went in upside down.",
                                              "happy birthday daddy!!")], present={"age": "50"}),
    C("en-bare-digits-own-birthday", [_bday_post("40! My birthday dinner with the gang, thank you all")], present={"age": "40"}),
    C("hi-latn-ho-gayi", [_bday_post("29 ho gayi yaar. Mummy ne phir se call kiya.", "Happy birthday didi! treat kab?")],
      present={"age": "29"}),
]

BARE_NEGATIVE = [
    C("en-bare-no-birthday", [_at_now("Fifty. That's how many kilometres I ran this week.")], absent={"age": "50"}),
    C("en-bare-wish-to-your-dad", [_bday_post("Fifty. FIFTY. What a party for him.", "happy birthday to your dad!!")],
      absent={"age": "50"}),
    C("en-bare-poster-wishes-someone", [_bday_post("Sixty. Happy birthday to my mum, the best there is.", "happy birthday!!")],
      absent={"age": "60"}),
    C("hi-latn-score-no-birthday", [_at_now("50 ho gaya bhai, century next time")], absent={"age": "50"}),
]


@pytest.mark.parametrize("case", BARE_POSITIVE, ids=lambda c: c.id)
def test_bare_age_on_own_birthday_post(tmp_path, case: Case) -> None:
    check(tmp_path, case)


@pytest.mark.parametrize("case", BARE_NEGATIVE, ids=lambda c: c.id)
def test_no_bare_age_without_the_accounts_birthday(tmp_path, case: Case) -> None:
    check(tmp_path, case)


# ------------------------------------------------------------------ the year one was born, said by a dated event
EVENT_POSITIVE = [
    C("yue-born-macau-handover", [_at_now("我出世嗰年澳門回歸，今年生日同屋企人去咗食葡國菜。")],
      present={"age": "20s", "birth_date": "1999"}),
    C("zh-born-hk-handover", [_at_now("我出生那年香港回归，爸妈说那天全家都在看电视")], present={"age": "20s"}),
    C("en-born-wall-fell", [_at_now("The year I was born, the Berlin Wall fell. Dad still talks about it.")],
      present={"age": "30s", "birth_date": "1989"}),
    C("es-born-wall", [_at_now("Nací el año de la caída del muro de Berlín, o eso dice mi madre.")], present={"age": "30s"}),
    C("ja-born-quake", [_at_now("私が生まれた年は阪神淡路大震災があった年です")], present={"age": "30s"}),
    C("zh-tw-roc-birth-year", [_at_now(f"我們{R - 32 - 1911}年次的，是不是都開始會腰痛了？")],
      present={"birth_date": str(R - 32)}),
]

EVENT_NEGATIVE = [
    C("zh-son-born-olympics", [_at_now("我儿子出生那年北京奥运，一晃长这么大了")], absent={"age": "10s", "birth_date": "2008"}),
    C("en-son-born-olympics", [_at_now("My son was born the year of the Beijing Olympics")], absent={"birth_date": "2008"}),
    C("zh-event-without-birth", [_at_now("香港回归那年我们全家去了深圳")], absent={"age": "20s", "birth_date": "1997"}),
    C("en-two-events", [_at_now("The year I was born? Somewhere between the moon landing and the fall of the Berlin Wall.")],
      absent={"birth_date": "1969"}),
]


@pytest.mark.parametrize("case", EVENT_POSITIVE, ids=lambda c: c.id)
def test_birth_year_from_a_dated_event_or_era(tmp_path, case: Case) -> None:
    check(tmp_path, case)


@pytest.mark.parametrize("case", EVENT_NEGATIVE, ids=lambda c: c.id)
def test_no_birth_year_from_others_or_bare_events(tmp_path, case: Case) -> None:
    check(tmp_path, case)


def test_event_birth_year_is_in_the_evidence() -> None:
    cue = next(c for c in extract_cues("我出世嗰年澳門回歸") if c.cue == "age:event_birth_year")
    assert cue.data.birth_cohort == 1999
    assert cue.data.inference == f"born the year of 澳門回歸 (1999) -> {R - 2000}-{R - 1999} in {R}"
