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
from core.engine.rules.workplace_labels import DATA, WorkplaceLabelsError, header_organisation, load, unit_beside
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
    (lambda d: d.pop("unit_labels"), "unit_labels"),
    (lambda d: d.update(organization_labels=["company"]), "organization_labels"),
])
def test_a_broken_file_errors_in_one_line_naming_file_and_field(tmp_path: Path, edit, field: str) -> None:
    raw = json.loads(DATA.read_text(encoding="utf-8"))
    edit(raw)
    bad = tmp_path / "workplace_labels.json"
    bad.write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(WorkplaceLabelsError) as e:
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
