"""A workplace is written as an organisation (issue 37 item 7): a badge's or form's department line
("Dept: Backend Platform", "部门：后端平台部", "부서: 품질관리팀") is never a workplace on its own; beside
an organisation named on the same badge or document the department is the workplace's finer level,
the spec's unit (issue 34 item 1: "Northwind Hospital / Radiology" -> "Radiology, Northwind Hospital"). Labels are data: core/data/recognizers/workplace_labels.json. Real rules and the
real engine (offline backend, real SQLite, the badge through real OCR); positive and negative cases."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.engine.rules import extract_cues
from core.engine.rules.recognizer_data import RecognizerDataError
from core.engine.rules.workplace_labels import DATA, header_organisation, load, unit_beside
from tests.engine_user import render_text_image
from tests.hard_negatives import Case, check, write_user


def _workplaces(text: str, carrier: str = "badge") -> list:
    return [c for c in extract_cues(text, carrier=carrier) if c.attribute == "workplace"]


# ------------------------------------------------------------------------------------------ the rules
@pytest.mark.parametrize("text", [
    "EMPLOYEE BADGE\nName: Zhou Jie\nStaff ID: TX204518\nDept: Backend Platform",
    "姓名：周杰\n工号：TX204518\n部门：后端平台部",
    "이름: 김하은\n부서: 품질관리팀",
    "Name: Anna Weber\nAbteilung: Einkauf",
    "Name: Li Wei, Sex: M, Dept: Radiology",
])
def test_a_department_alone_is_not_a_workplace(text: str) -> None:
    assert not _workplaces(text), [(c.value, c.cue) for c in _workplaces(text)]


@pytest.mark.parametrize("text, org, unit", [
    ("EMPLOYEE BADGE\nCompany: Acme Logistics\nName: Zhou Jie\nDept: Backend Platform", "Acme Logistics",
     "Backend Platform"),
    ("工作单位：海景科技有限公司\n姓名：周杰\n部门：后端平台部", "海景科技有限公司", "后端平台部"),
    ("회사: 한빛전자\n이름: 김하은\n부서: 품질관리팀", "한빛전자", "품질관리팀"),
])
def test_the_organisation_on_the_same_document_is_the_workplace(text: str, org: str, unit: str) -> None:
    got = _workplaces(text)
    assert [c.value for c in got] == [org], [(c.value, c.cue) for c in got]
    assert got[0].level == "organization" and unit not in got[0].value and "unit" not in got[0].data.levels


# a department beside the organisation on the same card, in every language of the data file
@pytest.mark.parametrize("lines, org, unit", [
    (["Northwind Hospital", "Radiology"], "Northwind Hospital", "Radiology"),
    (["Brightwater Eats", "Dept: Station 12"], "Brightwater Eats", "Station 12"),
    (["St. Raphael Medical Center", "Makati City", "ANGELICA M. DELA", "CRUZ", "Medical Technologist",
      "Laboratory . ID 2019-0862"], "St. Raphael Medical Center", "Laboratory"),
    (["LOTUS CROWN RESORT·COTAI", "Gaming Operations· Team D", "CHAN WING YAN"], "LOTUS CROWN RESORT", "Gaming Operations"),
    (["EMPLOYEE BADGE", "Company: Acme Logistics", "Name: Zhou Jie", "Dept: Backend Platform"], "Acme Logistics",
     "Backend Platform"),
    (["南京钟阜医院", "呼吸与危重症医学科", "呼吸治疗师", "工号 ZF2019-0437"], "南京钟阜医院", "呼吸与危重症医学科"),
    (["工作单位：海景科技有限公司", "姓名：周杰", "部门：后端平台部"], "海景科技有限公司", "后端平台部"),
    (["さくら総合病院", "放射線科", "山口 美咲"], "さくら総合病院", "放射線科"),
    (["회사: 한빛전자", "이름: 김하은", "부서: 품질관리팀"], "한빛전자", "품질관리팀"),
    (["Isarklinik Süd", "Institut für Radiologie", "K. Brandl"], "Isarklinik Süd", "Institut für Radiologie"),
    (["Hôpital Saint-Luc", "Service de Cardiologie"], "Hôpital Saint-Luc", "Service de Cardiologie"),
    (["Hospital del Mar", "Departamento de Pediatría"], "Hospital del Mar", "Departamento de Pediatría"),
    (["Banco Atlântico", "Departamento Jurídico"], "Banco Atlântico", "Departamento Jurídico"),
])
def test_a_department_beside_the_organisation_is_its_unit(lines: list[str], org: str, unit: str) -> None:
    assert header_organisation(lines) == org
    assert unit_beside(lines, org) == unit


@pytest.mark.parametrize("lines", [
    ["EMPLOYEE BADGE", "Name: Zhou Jie", "Staff ID: TX204518", "Dept: Backend Platform"],   # no organisation
    ["Sarah Chen", "Dept: Radiology"],                  # a person's name heads the card: no organisation word
    ["Department of Paediatrics"],                      # a department alone
    ["员工通行证", "No. BH258137"],                     # a card title is no organisation
    ["推荐算法组", "Recommendation Algorithms Team"],
    ["山口 美咲", "部署: 総務部"],
    ["김하은", "부서: 품질관리팀"],
    ["Anna Weber", "Abteilung: Einkauf"],
    ["Marie Dubois", "Service: Comptabilité"],
    ["Elena Vidal", "Departamento: Ventas"],
])
def test_no_organisation_no_unit(lines: list[str]) -> None:
    org = header_organisation(lines)
    assert org is None, org


def test_an_organisation_with_no_department_has_no_unit() -> None:
    lines = ["Northwind Hospital", "Jane Smith", "Staff Nurse", "ID 20931"]
    assert header_organisation(lines) == "Northwind Hospital" and unit_beside(lines, "Northwind Hospital") is None


def test_a_stated_employer_is_still_the_workplace() -> None:
    got = [c.value for c in _workplaces("Started my new job! I work at Northwind Traders as an analyst.", "text")]
    assert any("Northwind Traders" in v for v in got), got


# ------------------------------------------------------------------------------------------ the file
@pytest.mark.parametrize("edit, field", [
    (lambda d: d["words"].pop("unit_labels"), "unit_labels"),
    (lambda d: d["words"].update(organization_labels=["company"]), "organization_labels"),
])
def test_a_broken_file_errors_in_one_line_naming_file_and_field(tmp_path: Path, edit, field: str) -> None:
    raw = json.loads(DATA.read_text(encoding="utf-8"))
    edit(raw)
    bad = tmp_path / "workplace_labels.json"
    bad.write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(RecognizerDataError) as e:
        load(bad)
    msg = str(e.value)
    assert "workplace_labels.json" in msg and field in msg and "\n" not in msg, msg


# ----------------------------------------------------------------------------- the real engine, end to end
def _badge_case(tmp_path: Path, cid: str, lines: list[str], caption: str = "New access badge after the reorg. Backend team forever.",
                **kw) -> None:
    case = Case(cid, [{"caption": caption,
                       "images": [{"file": "images/badge.png"}]},
                      "Weekend walk by the canal with the dog."], **kw)
    udir = write_user(tmp_path, case)
    render_text_image(udir / "images" / "badge.png", lines, size=(720, 420))
    check(tmp_path, case)


def test_engine_the_demo_badge_names_no_workplace(tmp_path: Path) -> None:
    _badge_case(tmp_path, "demo-badge", ["EMPLOYEE BADGE", "Name: Zhou Jie", "Staff ID: TX204518",
                                         "Dept: Backend Platform"], absent={"workplace": "Backend Platform"})


def test_engine_a_badge_with_company_and_department_names_the_company(tmp_path: Path) -> None:
    _badge_case(tmp_path, "company-badge", ["EMPLOYEE BADGE", "Company: Acme Logistics", "Name: Zhou Jie",
                                            "Dept: Backend Platform"],
                present={"workplace": "Backend Platform, Acme Logistics"})


def test_engine_a_hospital_badge_keeps_its_department_as_the_unit(tmp_path: Path) -> None:
    _badge_case(tmp_path, "hospital-badge", ["Northwind Hospital", "Radiology", "Jane Smith"],
                caption="First shift on the ward with my new staff badge.", present={"workplace": "Radiology, Northwind Hospital"})


def test_engine_a_card_header_beside_a_department_field(tmp_path: Path) -> None:
    _badge_case(tmp_path, "header-badge", ["Brightwater Eats", "Dept: Station 12"],
                present={"workplace": "Station 12, Brightwater Eats"})


def test_engine_a_patients_hospital_letter_names_no_workplace(tmp_path: Path) -> None:
    case = Case("patient-letter", [{"caption": "Finally got my appointment date, fingers crossed.",
                                    "images": [{"file": "images/letter.png"}]}, "Weekend walk by the canal with the dog."],
                absent={"workplace": "Cardiology"})
    udir = write_user(tmp_path, case)
    render_text_image(udir / "images" / "letter.png", ["Northwind Hospital", "Department of Cardiology",
                                                       "Dear Mr Smith,", "Your appointment is on 4 May."], size=(720, 420))
    check(tmp_path, case)


@pytest.mark.parametrize("lines", [
    ["Northwind Hospital", "Radiology", "Appointment: 4 May 10:00", "Patient: John Smith"],
    ["博宇医院", "放射科", "患者：周杰", "预约时间：5月4日"],
    ["Isarklinik Süd", "Radiologie", "Termin: 4. Mai, 10 Uhr"],
    ["Hôpital Saint-Luc", "Service de Cardiologie", "Rendez-vous : 4 mai"],
    ["Hospital del Mar", "Departamento de Pediatría", "Paciente: Elena Vidal", "Cita: 4 de mayo"],
    ["さくら総合病院", "放射線科", "山口 美咲 様", "予約 5月4日"],
    ["서울병원", "영상의학과", "환자: 김하은", "예약 5월 4일"],
])
def test_a_patients_card_is_no_staff_card(lines: list[str]) -> None:
    from core.engine.rules.workplace_labels import staff_card
    assert not staff_card(lines)


def test_a_staff_badge_is_a_staff_card() -> None:
    from core.engine.rules.workplace_labels import staff_card
    assert staff_card(["LOTUS CROWN RESORT·COTAI", "Gaming Operations· Team D", "CHAN WING YAN 陳詠欣", "TABLE GAMES DEALER",
                       "EMP 7720415"])


# --------------------------------------------------------- cards that name the employer without a department
from core.engine.rules.workplace_labels import card_organisation, named_organisation, staff_number, title_line  # noqa: E402


@pytest.mark.parametrize("lines, org, unit", [
    # an organisation and its department written together, or beside each other anywhere on the card
    (["20:28", "排班查询", "重庆两江巴士第四车队", "驾驶员：吴建军 工号 0387"], "重庆两江巴士", "第四车队"),
    (["标注平台v3.2·当前用户：许佳妮", "今日完成1,284 框", "鲸屿智能·数据标注部"], "鲸屿智能", "数据标注部"),
    (["Shift plan: week 12", "Northwind Logistics · Customer Service"], "Northwind Logistics", "Customer Service"),
    # a header with an organisation word of the language (no department)
    (["康橙社區藥局", "林怡君", "藥師"], "康橙社區藥局", None),
    (["さくら通り歯科クリニック", "山口 美咲", "YAMAGUCHI Misaki"], "さくら通り歯科クリニック", None),
    (["광안바다동물병원", "김하은", "수의테크니션"], "광안바다동물병원", None),
    (["海岸名邸物业服务中心", "孙晓峰", "物业管家"], "海岸名邸物业服务中心", None),
    (["TALLER ÁBSIDE· Conservación y Restauración", "Ficha de intervención Nº 2026-014"], "TALLER ÁBSIDE", None),
    (["Farmácia Central", "Beatriz Salgueiro", "Farmacêutica"], "Farmácia Central", None),
    (["Atelier Lumière", "Camille Perrin"], "Atelier Lumière", None),
])
def test_a_card_names_its_organisation(lines: list[str], org: str, unit: str | None) -> None:
    assert card_organisation(lines) == (org, unit)


@pytest.mark.parametrize("lines", [
    ["Marcus Tolliver", "Guitar Repair"],                       # a person and a trade, no organisation word
    ["驾驶员：吴建军 工号 0387", "04/01 周三 早班 05:40 出场"],  # a roster with no organisation
    ["山口 美咲", "YAMAGUCHI Misaki"],
    ["김하은", "수의테크니션"],
    ["Happy 40th Mo!"],
])
def test_a_card_with_no_organisation_word_names_none(lines: list[str]) -> None:
    assert card_organisation(lines) is None


@pytest.mark.parametrize("line", ["驾驶员：吴建军 工号 0387", "MEHRA KAVYA (F)· Emp 40712 · Base DEL", "EMP 7720415",
                                  "Staff ID: TX204518", "社員番号 204518", "사번 20931", "Personalnummer: 44120",
                                  "Matricule 88123", "Legajo 4471", "Matrícula: 2231-7", "員工編號：A10293"])
def test_a_staff_number_marks_a_staff_document(line: str) -> None:
    assert staff_number(["Some Header", line])


@pytest.mark.parametrize("line", ["FLIGHT AT2214", "GATE 5", "Temple Road 12", "Nº EIS-A-2026-0311", "SEAT 14C",
                                  "取件码6-2-1147", "employee of the month", "Team meeting at 10"])
def test_other_numbers_are_no_staff_number(line: str) -> None:
    assert not staff_number(["Some Header", line])


@pytest.mark.parametrize("lines, title", [
    (["康橙社區藥局", "林怡君", "藥師"], "藥師"),
    (["LOTUS CROWN RESORT·COTAI", "TABLE GAMES DEALER"], "TABLE GAMES DEALER"),
    (["海岸名邸物业服务中心", "物业管家"], "物业管家"),
    (["Tama Walker | Funeral Director"], "Funeral Director"),
])
def test_a_job_title_line(lines: list[str], title: str) -> None:
    assert title_line(lines) == title


def test_no_job_title_line() -> None:
    assert title_line(["さくら通り歯科クリニック", "山口 美咲", "YAMAGUCHI Misaki"]) is None


def test_an_organisation_anywhere_on_a_numbered_roster() -> None:
    lines = ["Crew Roster·FEB 2026", "MEHRA KAVYA (F)· Emp 40712 · Base DEL", "02 FEB", "IndiSky Airways · Cabin Crew Portal"]
    assert named_organisation(lines) == "IndiSky Airways"
    assert named_organisation(["Crew Roster·FEB 2026", "02 FEB"]) is None


def _cjk_card(path: Path, lines: list[str]) -> None:
    """A card rendered with a CJK font (the shared helper's first font has no CJK glyphs)."""
    from PIL import Image, ImageDraw, ImageFont
    font = ImageFont.truetype("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", 34)
    img = Image.new("RGB", (720, 80 + 56 * len(lines)), "white")
    d = ImageDraw.Draw(img)
    for i, ln in enumerate(lines):
        d.text((30, 30 + 56 * i), ln, fill="black", font=font)
    img.save(path)


def _card_case(tmp_path: Path, cid: str, lines: list[str], caption: str, cjk: bool = False,
               when: str = "2025-03-01T10:00:00+00:00", **kw) -> None:
    case = Case(cid, [{"caption": caption, "images": [{"file": "images/card.png"}], "timestamp": when},
                      "Weekend walk by the canal with the dog."], **kw)
    udir = write_user(tmp_path, case)
    (_cjk_card if cjk else lambda p, ls: render_text_image(p, ls, size=(720, 420)))(udir / "images" / "card.png", lines)
    check(tmp_path, case)


def test_engine_a_name_badge_with_a_job_title_names_the_employer(tmp_path: Path) -> None:
    _card_case(tmp_path, "pharmacy-badge", ["Harbour Pharmacy", "Jane Smith", "Pharmacist"],
               "Long shift at the counter today, ninety scripts and one broken card reader.",
               present={"workplace": "Harbour Pharmacy"})


def test_engine_a_roster_with_a_staff_number_names_the_employer(tmp_path: Path) -> None:
    _card_case(tmp_path, "bus-roster", ["排班查询", "重庆两江巴士第四车队", "驾驶员：吴建军 工号 0387", "04/01 周三 早班 05:40 出场"],
               "下个月的排班出来了，又是早班多。十九年了，还是最怕下雨天爬坡。", cjk=True,
               present={"workplace": "重庆两江巴士"})


def test_engine_a_station_name_board_is_no_workplace(tmp_path: Path) -> None:
    _card_case(tmp_path, "station-board", ["文化中心", "Cultural Center", "07"],
               "週一早上的橘線，文化中心站人超多，在美麗島換紅線的時候被擠成紙片人。", cjk=True, when="2026-02-02T08:20:00+08:00",
               absent={"workplace": "Cultural Center"})


def test_engine_a_shop_card_in_a_post_about_something_else_is_no_workplace(tmp_path: Path) -> None:
    _card_case(tmp_path, "shop-card", ["Harbour Pharmacy", "Open 9-6 Mon-Sat"],
               "Picked up some sunscreen on the way to the beach.", absent={"workplace": "Harbour Pharmacy"})


@pytest.mark.parametrize("content, place, org, ok", [
    ("St. Raphael Medical Center\nMakati City\nLaboratory", "Makati", "St. Raphael Medical Center", True),
    ("LOTUS CROWN RESORT·COTAI\nGaming Operations", "COTAI", "LOTUS CROWN RESORT", True),
    ("さくら通り歯科クリニック\n大阪市北区梅田", "大阪", "さくら通り歯科クリニック", True),
    ("さくら通り歯科クリニック\n山口 美咲\nYAMAGUCHI Misaki", "山口", "さくら通り歯科クリニック", False),   # a surname
    ("さくら通り歯科クリニック\n山口 美咲\nYAMAGUCHI Misaki", "YAMAGUCHI", "さくら通り歯科クリニック", False),
    ("Crew Roster\nEmp 40712 · Base DEL\n02 FEB\nDEL 2310 - SIN 0725\nIndiSky Airways · Cabin Crew Portal", "SIN",
     "IndiSky Airways", False),                                                        # a roster's destination
    ("PONCE FRETWORKS\nGuitar·Bass·Mandolin Repair", "PONCE", "PONCE FRETWORKS", False),  # a place in the name
    ("Tradutora EN/FR > PT-PT· Entrelinhas Traduções\n+351 912 *** 508\nVemo-nos em Bruxelas - TransMeet 2025",
     "Bruxelas", "Entrelinhas Traduções", False),                                     # a meeting, not the address
    ("SAIR HEID TATTOO CO.\n412 London Road· Glasgow G40", "Glasgow", "SAIR HEID TATTOO CO.", True),
    ("Atelier Lumière\nrue de Rivoli 10, Paris", "Paris", "Atelier Lumière", True),
])
def test_the_workplace_city_is_the_organisations_address(content: str, place: str, org: str, ok: bool) -> None:
    from core.engine.aggregators.places import _org_address
    assert _org_address(content, content.index(place), org) is ok


# ------------------------------------------------------------------------------- e-mail signatures
from core.engine.rules.workplace_labels import signature_employer  # noqa: E402

_MAIL = ["18:09", "Mail", "RE: lot 3", "someone@example.com", "To: Client Desk"]


@pytest.mark.parametrize("sig, org, role", [
    (["Cumprimentos,", "Beatriz Salgueiro", "Tradutora EN/FR > PT-PT· Entrelinhas Traduções"], "Entrelinhas Traduções", "Translator"),
    (["– in reply to −", "Tama Walker | Funeral Director", "Harbourview Funeral Services · Kingsland, Auckla"],
     "Harbourview Funeral Services", "Funeral Director"),
    (["Saludos,", "Ana Ruiz", "Abogada · Bufete Ruiz Asociados"], "Bufete Ruiz Asociados", "Lawyer"),
    (["Viele Grüße", "Anna Weber", "Steuerberaterin | Kanzlei Weber & Partner"], "Kanzlei Weber & Partner", "Accountant"),
    (["Cordialement,", "Marie Dubois", "Traductrice · Atelier des Langues"], "Atelier des Langues", "Translator"),
    (["此致", "王芳", "翻译 · 译林翻译公司"], "译林翻译公司", "Translator"),
    (["王芳", "会计师", "华信会计师事务所"], "华信会计师事务所", "Accountant"),
])
def test_a_signature_names_title_and_employer(sig: list[str], org: str, role: str) -> None:
    assert signature_employer(_MAIL + sig) == (org, role)


@pytest.mark.parametrize("lines", [
    _MAIL + ["Best,", "Tama Walker | Funeral Director", "Auckland"],              # a place is no employer
    _MAIL + ["Best,", "Tama Walker | Funeral Director", "+64 21 555 0101"],       # a phone number
    _MAIL + ["Cumprimentos,", "Beatriz Salgueiro"],                              # no title
    ["Tama Walker | Funeral Director", "Harbourview Funeral Services"],           # no mail: a flyer, a card
    ["王芳", "会计师", "华信会计师事务所"],
])
def test_no_signature_employer(lines: list[str]) -> None:
    assert signature_employer(lines) is None


def test_engine_the_accounts_signature_names_its_employer(tmp_path: Path) -> None:
    case = Case("own-signature", [
        {"caption": "I work as a pharmacist and the thank-you notes still get me. Ninety scripts today.",
         "images": [{"file": "images/mail.png"}]}, "Weekend walk by the canal with the dog."],
        present={"workplace": "Harbourview Pharmacy Group"})
    udir = write_user(tmp_path, case)
    render_text_image(udir / "images" / "mail.png", ["Mail", "rawiri.h@mail.nz", "To: Tama Walker", "Kia ora Tama,",
                                                     "Thank you for everything.", "Rawiri", "Tama Walker | Pharmacist",
                                                     "Harbourview Pharmacy Group"], size=(900, 560), font_size=28)
    check(tmp_path, case)


def test_engine_someone_elses_signature_stays_theirs(tmp_path: Path) -> None:
    case = Case("other-signature", [
        {"caption": "Quote came back for the roof repair, my week of lesson planning just got worse. I teach year 6.",
         "images": [{"file": "images/mail.png"}]}, "Weekend walk by the canal with the dog."],
        absent={"workplace": "Harbour Roofing"})
    udir = write_user(tmp_path, case)
    render_text_image(udir / "images" / "mail.png", ["Mail", "dan@harbourroofing.co.nz", "To: me", "Hi,",
                                                     "Please find the quote attached.", "Regards,", "Dan Cole | Roofer",
                                                     "Harbour Roofing Services"], size=(900, 560), font_size=28)
    check(tmp_path, case)


# ------------------------------------------------------------- the sign of the premises the poster calls theirs
from core.engine.rules.workplace_labels import own_premises, sign_name  # noqa: E402


@pytest.mark.parametrize("caption", [
    "Still can't quite believe this is my door.", "New window lettering at the shop.",
    "工作室门口的牌子被雨淋得褪色了", "うちの店の看板を新しくしました", "우리 가게 간판 새로 달았어요",
    "Mi taller cumple tres años", "A minha loja faz cinco anos", "Nouvelle enseigne pour mon atelier",
    "Neue Schrift für meine Werkstatt",
])
def test_a_caption_calls_the_premises_its_own(caption: str) -> None:
    assert own_premises(caption)


@pytest.mark.parametrize("caption", [
    "Bakkie got new door vinyl.", "my doorbell broke again", "Lovely dinner at our favourite shop",
    "路过一家店，招牌很好看", "駅前の店で買い物", "친구 가게에 다녀왔어요", "Comí en un taller de cerámica con amigos",
    "Passei na loja da esquina", "Un atelier de poterie avec les enfants", "Wir waren in einer Werkstatt zu Besuch",
])
def test_a_caption_about_someone_elses_premises(caption: str) -> None:
    assert not own_premises(caption)


@pytest.mark.parametrize("lines, name", [
    (["SAIR HEID TATTOO CO.", "412 London Road· Glasgow G40", "walk-ins Thursdays 12-5"], "SAIR HEID TATTOO CO."),
    (["PONCE FRETWORKS", "Guitar·Bass·Mandolin Repair", "Euclid Ave·Little Five Points· Est. 1998"], "PONCE FRETWORKS"),
    (["月华绣坊", "苏州市高新区镇湖街道 绣品街"], "月华绣坊"),
])
def test_a_sign_names_its_business(lines: list[str], name: str) -> None:
    assert sign_name(lines) == name


@pytest.mark.parametrize("lines", [["OPEN", "Mon-Sat 9-5"], ["Glasgow", "Welcome"], ["Happy 40th Mo!"],
                                   ["Line 1", "2", "3", "4", "5", "6"]])
def test_no_business_on_the_sign(lines: list[str]) -> None:
    assert sign_name(lines) is None


def _sign_case(tmp_path: Path, cid: str, caption: str, **kw) -> None:
    case = Case(cid, ["I am a luthier: refretted a 1962 Strat today and set the intonation on two basses.",
                      {"caption": caption, "images": [{"file": "images/sign.png"}]},
                      "Weekend walk by the canal with the dog."], **kw)
    udir = write_user(tmp_path, case)
    render_text_image(udir / "images" / "sign.png", ["PONCE FRETWORKS", "Guitar · Bass · Mandolin Repair"], size=(720, 300))
    check(tmp_path, case)


def test_engine_the_sign_of_the_posters_shop_names_the_workplace(tmp_path: Path) -> None:
    _sign_case(tmp_path, "own-sign", "New window lettering at the shop. Took 27 years to spring for gold leaf.",
               present={"workplace": "PONCE FRETWORKS"})


def test_engine_a_shop_sign_seen_in_passing_is_no_workplace(tmp_path: Path) -> None:
    _sign_case(tmp_path, "passing-sign", "Walked past this place on the way to lunch, lovely gold leaf.",
               absent={"workplace": "PONCE FRETWORKS"})


# ------------------------------------------------------------------------- rosters and pay slips
from core.engine.rules.workplace_labels import work_document  # noqa: E402


@pytest.mark.parametrize("line", ["Crew Roster·FEB 2026", "排班查询", "2026年4月排班", "4月のシフト表", "3월 근무표",
                                  "Dienstplan KW 12", "Planning de la semaine", "Cuadrante de marzo",
                                  "Escala de serviço - março", "Payslip March 2026"])
def test_a_roster_or_pay_slip_title(line: str) -> None:
    assert work_document(["20:28", line])


@pytest.mark.parametrize("line", ["Bus timetable", "公交时刻表", "時刻表", "버스 시간표", "Fahrplan", "Horaires des bus",
                                  "Horario de autobuses", "Horário dos autocarros", "Rostered parking only"])
def test_no_roster_title(line: str) -> None:
    assert not work_document(["20:28", line])


def test_engine_a_numbered_crew_roster_names_the_airline(tmp_path: Path) -> None:
    _card_case(tmp_path, "crew-roster", ["Crew Roster - FEB 2026", "MEHRA KAVYA · Emp 40712 · Base DEL", "02 FEB ISK 201",
                                         "IndiSky Airways · Cabin Crew Portal"],
               "Next month's roster is out. 3 Dubai layovers and not one weekend off.", present={"workplace": "IndiSky Airways"})


def test_engine_a_roster_with_no_staff_number_names_nothing(tmp_path: Path) -> None:
    _card_case(tmp_path, "volunteer-roster", ["Crew Roster - FEB 2026", "Sunday: Kavya, Priya", "IndiSky Airways · Cabin Crew Portal"],
               "Next month's roster is out. 3 Dubai layovers and not one weekend off.", absent={"workplace": "IndiSky Airways"})
