"""Hard negatives of issue 22, kinds 4 and 5, through the real engine (Investigation, offline; the
documents are rendered images read by the real OCR model):

4. documents are forms, not lines: a surname-first or all-caps name is the full name in the usual
   order, a date of birth is not the letter's date, an invitation's names are its hosts' and its
   venue is not home, a payslip gives the employer, a council / building notice gives the home area;
5. places are resolved by consistency: a street named after a city is not that city, a consistent
   network (stations, council, home wording) outvotes one name match, a one-off trip (a wedding
   abroad, a conference, relatives, an afternoon out) is travel, not home.
Every case asserts the wrong conclusion absent and, where the posts support one, the right one
present; counter-examples check the same words still work where they mean what they say.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

from core.engine.loop import Investigation
from core.fonts import cjk_font
from engine_user import _font

# (caption, image rows [(text, x, y)] or None), one list per user
DOCS: dict[str, list[tuple[str, list[tuple[str, int, int]] | None]]] = {
    "en_clinic": [("Well, that explains the tiredness. Letter came today.", [
        ("Riverside Medical Clinic", 40, 30), ("Patient:", 40, 120), ("LEE, JORDAN", 330, 120),
        ("Date of birth", 40, 190), ("14/03/1992", 330, 190), ("Date: 02/11/2024", 40, 260),
        ("Diagnosis", 40, 330), ("Type 2 diabetes", 40, 380)])],
    "zh_clinic": [("体检报告出来了，唉。", [
        ("市第一人民医院门诊病历", 40, 30), ("姓名：王小明", 40, 120), ("出生日期：1988年6月2日", 40, 190),
        ("就诊日期：2024年3月5日", 40, 260), ("诊断：过敏性鼻炎", 40, 330)])],
    "en_invitation": [("So happy for these two!", [
        ("Together with their families", 40, 30), ("EMMA WONG & DANIEL CHAN", 40, 110),
        ("request the pleasure of your company", 40, 190), ("Venue: The Grand Hotel, Kuala Lumpur", 40, 270),
        ("RSVP by 1 September", 40, 350)])],
    "zh_invitation": [("收到请柬啦，好开心", [
        ("请柬", 40, 30), ("新郎 张伟  新娘 李娜", 40, 110), ("诚邀您光临我们的婚礼", 40, 190),
        ("地点：杭州西湖国宾馆", 40, 270)])],
    "en_payslip": [("Payday at last.", [
        ("PAYSLIP", 40, 30), ("Employer", 40, 110), ("Northwind Logistics Ltd", 40, 160),
        ("Position: Warehouse Supervisor", 40, 240), ("Gross pay: £2,450.00", 40, 310), ("Pay date 28/02/2025", 40, 380)])],
    "en_card_issue_date": [("New library card, finally.", [
        ("CITY LIBRARY", 40, 30), ("Name: Sam Carter", 40, 110), ("Date of issue: 05/06/2019", 40, 190)])],
    "zh_notice": [("物业又发通知了", [
        ("阳光花园物业管理处", 40, 30), ("停水通知", 40, 110), ("尊敬的业主：", 40, 190), ("辖区：南山区", 40, 270),
        ("本周六9:00-17:00停水", 40, 350)])],
    "en_council": [("Great, they're changing the bins again.", [
        ("Hackney Council", 40, 30), ("Notice to residents", 40, 110), ("Address: 12 Mare Street, Hackney", 40, 190),
        ("Bin collection changes from 4 March", 40, 270)])],
}

PLACES: dict[str, list[str]] = {
    "en_street_in_network": ["Sales on Oxford Street were mad today, spent way too much.",
                             "Northern line delays again on the way to work, Camden Town station packed.",
                             "Islington Council finally fixed the potholes on our street.",
                             "Sunday roast at our local pub down the road."],
    "en_street_alone": ["Sales on Oxford Street were mad today, spent way too much."],
    "en_rue_de_paris": ["Coffee on Rue de Paris before work, as every morning."],
    "zh_street_in_network": ["南京路步行街人好多，逛了一下午。", "每天挤地铁2号线上班，静安寺站人太多了。", "周末在家附近的徐汇区公园散步。"],
    "zh_street_alone": ["南京路步行街人好多，逛了一下午。"],
    "en_wedding_abroad": ["Flew to Bali for my cousin's wedding, what a week!", "Bali sunsets are unreal. Wedding was gorgeous.",
                          "Back home in Manchester, raining of course.",
                          "Metrolink to work again, Piccadilly Gardens stop is chaos."],
    "zh_conference": ["来成都参加行业会议，三天。", "成都的火锅果然名不虚传。", "回到深圳，南山区的家最舒服。", "地铁1号线上班，科技园站。"],
    "en_relatives": ["Visiting my grandparents in Cork this weekend.", "Home in Dublin, back to work tomorrow.",
                     "Dublin Bus late again."],
    "en_afternoon_out": ["Spent a lovely afternoon in Bath.", "Work was long today."],
    # codes pin the city: a London number and postcode outvote one name match
    "en_codes_network": ["Best curry around, call 020 7946 0321 to book a table.", "The surgery moved to N1 9GU, so much closer.",
                         "Lovely day out in Oxford with the kids."],
    "zh_codes_network": ["预约电话：021-6888 1234，周末人多。", "寄快递填邮编：200040，总算记住了。", "去苏州玩了一天，园林真美。"],
    # counter-examples: the same kinds of words where they do say home
    "en_counter_lives": ["I live in Leeds and I love it here.", "Another rainy day."],
    "en_counter_oxford": ["College dinner again tonight, I love living in Oxford.", "Cycling to the lab, Oxford traffic is fine."],
    "zh_counter_nanjing": ["在南京生活五年了，今天又去新街口。", "南京的夏天太热了，在家吹空调。"],
    "zh_counter_lives": ["我住在成都高新区，每天坐地铁上班。"],
    # another person's home named without a trip is neither the poster's home nor a trip
    "en_others_home": ["My grandparents live in Cork.", "Home in Dublin, back to work tomorrow.", "Dublin Bus late again."],
}


def _doc_image(path: Path, rows: list[tuple[str, int, int]]) -> None:
    img = Image.new("RGB", (1000, 460), "white")
    d = ImageDraw.Draw(img)
    zh = cjk_font()
    for text, x, y in rows:
        cjk = any("\u4e00" <= ch <= "\u9fff" for ch in text)
        if cjk and zh is None:
            pytest.skip("no CJK font installed (make fonts)")
        d.text((x, y), text, fill="black", font=ImageFont.truetype(str(zh), 30) if cjk else _font(30))
    img.save(path)


@pytest.fixture(scope="module")
def profiles(tmp_path_factory) -> dict[str, dict[str, str]]:
    root = tmp_path_factory.mktemp("hardneg45")
    cases: dict[str, list[tuple[str, list | None]]] = {**DOCS, **{k: [(c, None) for c in v] for k, v in PLACES.items()}}
    out = {}
    for uid, posts in cases.items():
        udir = root / "users" / uid
        (udir / "images").mkdir(parents=True)
        (udir / "profile.json").write_text(json.dumps({"user_id": uid, "platform": "x"}), encoding="utf-8")
        lines = []
        for i, (caption, rows) in enumerate(posts):
            post = {"post_id": f"p{i}", "timestamp": f"2025-03-{i + 3:02d}T20:05:00+00:00", "caption": caption}
            if rows:
                _doc_image(udir / "images" / f"p{i}.png", rows)
                post["images"] = [{"file": f"images/p{i}.png"}]
            lines.append(json.dumps(post, ensure_ascii=False))
        (udir / "posts.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        pred = Investigation.start(root / "runs.db", udir).run()
        out[uid] = {a.attribute: a.value for a in pred.attributes}
    return out


def _has(p: dict[str, str], attr: str, *words: str) -> bool:
    v = p.get(attr, "").casefold()
    return any(w.casefold() in v for w in words)


# ---------------------------------------------------------------- kind 4: documents as forms

def test_surname_first_name_and_the_date_of_birth_field(profiles) -> None:
    p = profiles["en_clinic"]
    assert _has(p, "real_name", "Jordan Lee") and not _has(p, "real_name", "Lee Jordan", "LEE, JORDAN"), p
    assert _has(p, "birth_date", "1992") and not _has(p, "birth_date", "2024", "November 2"), p
    assert _has(p, "health_condition", "diabetes"), p


def test_zh_form_name_dob_and_diagnosis_not_the_visit_date(profiles) -> None:
    p = profiles["zh_clinic"]
    assert _has(p, "real_name", "王小明"), p
    assert _has(p, "birth_date", "1988") and not _has(p, "birth_date", "2024"), p
    assert _has(p, "health_condition", "鼻炎"), p


@pytest.mark.parametrize("uid,names,venue", [
    ("en_invitation", ("Emma", "Daniel", "Wong", "Chan"), ("Kuala Lumpur",)),
    ("zh_invitation", ("张伟", "李娜"), ("杭州", "Hangzhou")),
])
def test_invitation_names_are_hosts_and_its_venue_is_no_home(profiles, uid, names, venue) -> None:
    p = profiles[uid]
    assert not _has(p, "real_name", *names), p
    assert not _has(p, "home_location", *venue), p


def test_payslip_employer_and_income_and_no_birthday_from_the_pay_date(profiles) -> None:
    p = profiles["en_payslip"]
    assert _has(p, "workplace", "Northwind"), p
    assert "income_level" in p, p
    assert not _has(p, "birth_date", "2025", "February 28"), p


def test_issue_date_is_no_birth_date_but_the_name_still_reads(profiles) -> None:
    p = profiles["en_card_issue_date"]
    assert _has(p, "real_name", "Sam Carter"), p
    assert "birth_date" not in p and not _has(p, "age", "2019"), p


@pytest.mark.parametrize("uid,home", [("zh_notice", ("Nanshan", "南山")), ("en_council", ("Hackney", "London"))])
def test_locality_notice_gives_the_home_area(profiles, uid, home) -> None:
    assert _has(profiles[uid], "home_location", *home), profiles[uid]


# ---------------------------------------------------------------- kind 5: places by consistency

@pytest.mark.parametrize("uid,wrong,right", [
    ("en_street_in_network", ("Oxford",), ("London",)),
    ("en_street_alone", ("Oxford",), ()),
    ("en_rue_de_paris", ("Paris", "France"), ()),
    ("zh_street_in_network", ("Nanjing", "南京"), ("Shanghai", "上海")),
    ("zh_street_alone", ("Nanjing", "南京"), ()),
])
def test_a_street_named_after_a_city_is_not_that_city(profiles, uid, wrong, right) -> None:
    p = profiles[uid]
    assert not _has(p, "home_location", *wrong), p
    if right:
        assert _has(p, "home_location", *right), p


@pytest.mark.parametrize("uid,wrong,right", [
    ("en_codes_network", ("Oxford",), ("London",)),
    ("zh_codes_network", ("Suzhou", "苏州"), ("Shanghai", "上海")),
])
def test_postcodes_and_area_codes_outvote_one_name(profiles, uid, wrong, right) -> None:
    p = profiles[uid]
    assert not _has(p, "home_location", *wrong) and _has(p, "home_location", *right), p


@pytest.mark.parametrize("uid,trip,home", [
    ("en_wedding_abroad", ("Bali",), ("Manchester",)),
    ("zh_conference", ("Chengdu", "成都"), ("Shenzhen", "Nanshan")),
    ("en_relatives", ("Cork",), ("Dublin",)),
    ("en_afternoon_out", ("Bath",), ()),
])
def test_a_one_off_trip_is_travel_not_home(profiles, uid, trip, home) -> None:
    p = profiles[uid]
    assert not _has(p, "home_location", *trip), p
    if home:
        assert _has(p, "home_location", *home), p
    if uid != "en_afternoon_out":
        assert _has(p, "travel_history", *trip), p


def test_another_persons_home_without_a_visit_is_no_trip(profiles) -> None:
    p = profiles["en_others_home"]
    assert _has(p, "home_location", "Dublin") and not _has(p, "travel_history", "Cork"), p


def test_the_wedding_abroad_resolves_to_the_well_known_place(profiles) -> None:
    assert _has(profiles["en_wedding_abroad"], "travel_history", "Indonesia"), profiles["en_wedding_abroad"]
    assert not _has(profiles["en_wedding_abroad"], "travel_history", "Cameroon")


@pytest.mark.parametrize("uid,home", [
    ("en_counter_lives", ("Leeds",)),
    ("en_counter_oxford", ("Oxford",)),
    ("zh_counter_nanjing", ("Nanjing", "南京")),
    ("zh_counter_lives", ("Chengdu", "成都")),
])
def test_counter_examples_still_give_home(profiles, uid, home) -> None:
    assert _has(profiles[uid], "home_location", *home), profiles[uid]
