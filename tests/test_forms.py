"""Documents as forms (core/engine/forms.py, core/engine/rules/forms.py): OCR lines grouped into
fields by layout (colon, same row, label above value), the document type from its fields, and the
rules that read fields (name order, dates with the field's meaning, health / locality / employment).
Boxes are laid out as OCR returns them (4 points, image pixels)."""
from __future__ import annotations

import pytest

from core.engine.forms import label_key, read_form
from core.engine.rules.forms import form_cues, parse_date, person_name


def lines(rows: list[tuple[str, int, int]], with_boxes: bool = True) -> list[dict]:
    out = []
    for text, x, y in rows:
        w = len(text) * 14
        box = [[x, y], [x + w, y], [x + w, y + 26], [x, y + 26]]
        out.append({"text": text, "score": 0.95, **({"box": box} if with_boxes else {})})
    return out


def read(rows, with_boxes: bool = True):
    ls = lines(rows, with_boxes)
    text = "\n".join(r[0] for r in rows)
    form = read_form(ls)
    cues = form_cues(text, form, "document")
    for c in cues:   # every cue is grounded in the OCR text
        assert c.span in text and text[c.data.start:c.data.end] == c.span
    return form, {(c.attribute, c.value) for c in cues}


CLINIC = [("Riverside Medical Clinic", 40, 20), ("Patient:", 40, 80), ("LEE, JORDAN", 260, 80),
          ("Date of birth", 40, 120), ("14/03/1992", 260, 120), ("Date: 02/11/2024", 40, 160),
          ("Diagnosis", 40, 200), ("Type 2 diabetes", 40, 232)]


def test_three_layouts_and_their_keys() -> None:
    form, _ = read(CLINIC)
    got = [(f.key, f.value, f.layout) for f in form.fields]
    assert got == [("name", "LEE, JORDAN", "same_row"), ("dob", "14/03/1992", "same_row"),
                   ("date", "02/11/2024", "colon"), ("diagnosis", "Type 2 diabetes", "below")]
    assert form.doc_type == "health"


def test_label_above_value_needs_horizontal_overlap() -> None:
    # the value sits below its label; a line far to the right below it is another column's
    form, _ = read([("Employer", 40, 60), ("Northwind Logistics Ltd", 40, 92), ("Pay date", 700, 60),
                    ("28/02/2025", 700, 92), ("Payslip", 40, 10)])
    assert {(f.key, f.value) for f in form.fields} == {("employer", "Northwind Logistics Ltd"), ("date", "28/02/2025")}


def test_clinic_letter_name_dob_health_and_the_letter_date_is_no_birthday() -> None:
    _, cues = read(CLINIC)
    assert ("real_name", "Jordan Lee") in cues and ("health_condition", "Type 2 diabetes") in cues
    assert ("birth_date", "March 14, 1992") in cues
    assert not any(a == "birth_date" and "2024" in v for a, v in cues)


def test_chinese_clinic_record() -> None:
    form, cues = read([("某某医院门诊病历", 40, 20), ("姓名：王小明", 40, 60), ("性别：男", 300, 60),
                       ("出生日期：1988年6月2日", 40, 100), ("就诊日期：2024年3月5日", 40, 140), ("诊断：过敏性鼻炎", 40, 180)])
    assert form.doc_type == "health"
    assert {("real_name", "王小明"), ("gender", "male"), ("birth_date", "June 2, 1988"),
            ("health_condition", "过敏性鼻炎")} <= cues
    assert not any(a == "birth_date" and "2024" in v for a, v in cues)


def test_invitation_names_are_the_hosts_not_the_poster() -> None:
    form, cues = read([("Together with their families", 40, 20), ("Name: Emma Wong", 40, 60),
                       ("request the pleasure of your company", 40, 100),
                       ("Venue: The Grand Hotel, Kuala Lumpur", 40, 140), ("RSVP by 1 September", 40, 180)])
    assert form.doc_type == "invitation"
    assert not any(a in ("real_name", "home_location") for a, _ in cues)
    form, cues = read([("请柬", 40, 20), ("姓名：张伟", 40, 60), ("诚邀您光临我们的婚礼", 40, 100), ("地点：杭州西湖国宾馆", 40, 140)])
    assert form.doc_type == "invitation" and not any(a == "real_name" for a, _ in cues)


def test_council_notice_gives_home_and_payslip_gives_employer_and_income() -> None:
    form, cues = read([("Hackney Council", 40, 20), ("Notice to residents", 40, 60),
                       ("Address: 12 Mare Street, Hackney", 40, 100), ("Bin collection changes from 4 March", 40, 140)])
    assert form.doc_type == "locality" and ("home_location", "Hackney") in cues
    form, cues = read([("PAYSLIP", 40, 20), ("Employer", 40, 60), ("Northwind Logistics Ltd", 40, 92),
                       ("Position: Warehouse Supervisor", 40, 130), ("Gross pay: £2,450.00", 40, 170)])
    assert form.doc_type == "employment"
    assert ("workplace", "Northwind Logistics Ltd") in cues and ("occupation", "Warehouse Supervisor") in cues
    assert any(a == "income_level" and "GBP" in v for a, v in cues)


def test_same_words_outside_their_document_type_give_nothing() -> None:
    # a district on a shop flyer is no home; a "Position" on a game screenshot is no job
    _, cues = read([("Grand opening!", 40, 20), ("District: Hackney", 40, 60), ("20% off everything", 40, 100)])
    assert not any(a == "home_location" for a, _ in cues)
    _, cues = read([("LEVEL 12", 40, 20), ("Position: Goalkeeper", 40, 60), ("Score 3-1", 40, 100)])
    assert not any(a == "occupation" for a, _ in cues)


def test_without_boxes_a_label_line_takes_the_next_line() -> None:
    form, cues = read([("Patient name", 0, 0), ("SHARMA, PRIYA", 0, 0), ("Pharmacy label", 0, 0)], with_boxes=False)
    assert ("real_name", "Priya Sharma") in cues


@pytest.mark.parametrize("value,name", [
    ("LEE, JORDAN", "Jordan Lee"), ("JORDAN LEE", "Jordan Lee"), ("LEE Jordan", "Jordan Lee"),
    ("Mr O'BRIEN, SEAN", "Sean O'Brien"), ("王小明", "王小明"), ("欧阳娜娜", "欧阳娜娜"),
    ("***", None), ("Jordan", None), ("[redacted]", None), ("张**", None), ("Patient 0042", None), ("好好学习", None),
])
def test_person_name(value, name) -> None:
    assert person_name(value) == name


@pytest.mark.parametrize("value,ymd", [
    ("14/03/1992", (1992, 3, 14)), ("03/14/1992", (1992, 3, 14)), ("1992-03-14", (1992, 3, 14)),
    ("1988年6月2日", (1988, 6, 2)), ("14 Mar 1992", (1992, 3, 14)), ("March 14, 1992", (1992, 3, 14)),
    ("next Tuesday", None), ("32/13/1992", None),
])
def test_parse_date(value, ymd) -> None:
    assert parse_date(value) == ymd


def test_label_keys() -> None:
    assert label_key("Date of Birth:") == "dob" and label_key("出生日期") == "dob"
    assert label_key("Date of issue") == "date" and label_key("就诊日期：") == "date"
    assert label_key("Favourite colour") is None



@pytest.mark.parametrize("rows,band,cur", [
    ([("Payslip", 40, 10), ("Gross pay HK$34,416", 40, 60), ("Net pay HK$26,156", 40, 100), ("Monthly statement", 40, 140)],
     "middle", "HKD"),                       # per period: 413k a year, not 34k
    ([("My Pay", 40, 10), ("Earnings this period", 40, 60), ("Total earnings C$8,200", 40, 100)], "upper-middle", "CAD"),
    ([("Offer of employment", 40, 10), ("Annual salary: £42,000", 40, 60)], "middle", "GBP"),
    ([("工资条", 40, 10), ("应发工资 ¥36,583", 40, 60), ("实发 ¥28,534", 40, 100)], "upper-middle", "CNY"),
])
def test_payslip_salary_is_per_period_in_its_currency(rows, band, cur) -> None:
    form, _ = read(rows)
    cues = form_cues("\n".join(r[0] for r in rows), form, "receipt")
    (inc,) = [c for c in cues if c.attribute == "income_level"]
    assert inc.data.levels["band"] == band and inc.data.currency == cur, inc
