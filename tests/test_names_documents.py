"""Person names on forms and documents (issue 34, Names): core/data/recognizers/names.json read by
core/engine/rules/document_names.py, and whose document it is (core/engine/aggregators/document_holder.py).
Real rules and the real engine (offline backend, real SQLite, the images through real OCR); positive
and negative cases; the schema refuses a broken file naming the file and the field."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.engine.rules import extract_cues
from core.engine.rules.document_names import DATA, load
from core.engine.rules.recognizer_data import RecognizerDataError
from tests.engine_user import render_text_image
from tests.hard_negatives import Case, check, write_user


def _names(text: str, carrier: str = "document") -> list[str]:
    return [c.value for c in extract_cues(text, carrier=carrier) if c.attribute == "real_name" and c.first_person]


# ------------------------------------------------------------------------------------------ the file
def test_the_file_declares_labels_and_titles_in_every_language() -> None:
    d = load()
    for lang in ("en", "zh", "ja", "ko", "es", "fr", "pt", "de", "ms"):
        assert d.words("holder_labels", lang) and d.words("other_labels", lang) and d.words("titles", lang), lang
    assert {"zh", "ja", "ko"} <= set(d.words("family_first_languages"))


@pytest.mark.parametrize("edit, field", [
    (lambda d: d["words"].pop("holder_labels"), "holder_labels"),
    (lambda d: d["words"]["carriers"].update(entries={"mul": []}), "carriers"),
    (lambda d: d["maps"]["sex_marks"]["entries"]["en"].update(X="unknown"), "sex_marks"),
    (lambda d: d.update(surprise=1), "surprise"),
])
def test_a_broken_file_errors_in_one_line_naming_file_and_field(tmp_path: Path, edit, field: str) -> None:
    raw = json.loads(DATA.read_text(encoding="utf-8"))
    edit(raw)
    bad = tmp_path / "names.json"
    bad.write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(RecognizerDataError) as e:
        load(bad)
    msg = str(e.value)
    assert "names.json" in msg and field in msg and "\n" not in msg, msg


# ------------------------------------------------------------------------------------------ the rules
POSITIVE = [
    ("document", "CITY MEDICAL CENTRE\nName: OSEI, DANIEL\nDOB: 02/03/1988", "Daniel Osei"),
    ("document", "NORTHWEST SIDE PHARMACY #4417\nRx for: OKAFOR, JESSICA\nIBUPROFEN 800 MG TAB #30", "Jessica Okafor"),
    ("ticket", "BOARDING PASS\nKOWALCZYK/ANNA MS\nFLIGHT LO 281 SEAT 14C", "Anna Kowalczyk"),
    ("ticket", "Passenger: DUNLOP/MORAG MRS\nGate 12", "Morag Dunlop"),
    ("document", "Candidate: BRENNAN, NIAMH\nResult: Pass", "Niamh Brennan"),
    ("document", "Patient: DANIEL OSEI", "Daniel Osei"),
    ("ocr_text", "顺丰速运\n收件人：王芳\n浙江省杭州市西湖区", "王芳"),
    ("badge", "姓名：周杰 工号：1234", "周杰"),
    ("badge", "ACME LOGISTICS\nName: ZHOU JIE Staff ID: 88231", "Zhou Jie"),
    ("document", "氏名：山口 美咲", "山口美咲"),
    ("badge", "이름: 김하은", "김하은"),
    ("document", "Nombre: Elena Vidal Robles", "Elena Vidal Robles"),
    ("document", "Nom : Camille Perrin", "Camille Perrin"),
    ("document", "CERTIFIED SHORTHAND REPORTER\nThis certifies that\nHOLLOWAY, SAMANTHA R.\nhas met all requirements",
     "Samantha R. Holloway"),
    ("ocr_text", "CERTIFICADO DE SUMILLER\notorgado a\nElena Vidal Robles\nMadrid, 12 de febrero de 2026", "Elena Vidal Robles"),
    ("document", "Nome: BEATRIZ SALGUEIRO", "Beatriz Salgueiro"),
]
NEGATIVE = [
    ("document", "NORTHWEST SIDE PHARMACY\nRx for: OKAFOR, JESSICA\nPrescriber: Dr Amit Patel", "Amit Patel"),  # the doctor
    ("receipt", "GREENLEAF MARKET\nCashier: John Smith\nTOTAL 12.40", "John Smith"),                          # the cashier
    ("receipt", "Name: NORTHWEST SIDE PHARMACY", "Northwest Side Pharmacy"),                                   # a shop
    ("document", "Customer: ACME TRADING LTD", "Acme Trading Ltd"),                                             # a company
    ("ocr_text", "中通快递\n收件人：周*宁\n寄件人：李明", "李明"),                                                   # sender; masked
    ("ticket", "LHR/JFK\nDEPART 10:40", "Jfk Lhr"),                                                            # airports
    ("document", "Rx for: Mr D. Osei", "D. Osei"),                                                              # an initial only
    ("caption", "Name: OSEI, DANIEL", "Daniel Osei"),
    ("document", "Resident: S. & D. Holloway", "Holloway"),                                                   # two people                                                           # not a document
]


@pytest.mark.parametrize("carrier, text, name", POSITIVE, ids=[p[2] for p in POSITIVE])
def test_a_name_in_a_holder_field_is_read_in_written_form(carrier: str, text: str, name: str) -> None:
    assert name in _names(text, carrier), _names(text, carrier)


@pytest.mark.parametrize("carrier, text, name", NEGATIVE, ids=[p[2] for p in NEGATIVE])
def test_no_name_of_someone_else_or_of_no_person(carrier: str, text: str, name: str) -> None:
    got = _names(text, carrier)
    assert all(name.casefold() not in g.casefold() for g in got), got
    if "周*宁" in text:
        assert not any("周" in g for g in got), got


# ----------------------------------------------------------------------------- the real engine, end to end
def _image_case(tmp_path: Path, cid: str, caption: str, lines: list[str], **kw) -> None:
    case = Case(cid, [{"caption": caption, "images": [{"file": "images/doc.png"}]},
                      "Weekend walk by the canal with the dog."], **kw)
    udir = write_user(tmp_path, case)
    render_text_image(udir / "images" / "doc.png", lines, size=(900, 380))
    check(tmp_path, case)


def test_engine_reads_the_posters_own_prescription_and_not_the_doctor(tmp_path: Path) -> None:
    _image_case(tmp_path, "rx", "Wrist is killing me, at least the pharmacy was quick",
                ["NORTHWEST SIDE PHARMACY", "Rx for: OKAFOR, JESSICA", "Prescriber: Dr Amit Patel", "Refills: 1"],
                present={"real_name": "Jessica Okafor"}, absent={"real_name": "Patel"})


def test_engine_reads_the_posters_boarding_pass(tmp_path: Path) -> None:
    _image_case(tmp_path, "bp", "Off to Warsaw, finally!", ["BOARDING PASS", "KOWALCZYK/ANNA MS", "FLIGHT LO 281"],
                present={"real_name": "Anna Kowalczyk"})


def test_engine_claims_no_name_from_another_persons_parcel(tmp_path: Path) -> None:
    _image_case(tmp_path, "parcel", "Posting a birthday parcel to my sister, hope it gets there in time",
                ["ROYAL MAIL TRACKED", "Recipient: HUGHES, CLAIRE", "12 Elm Road"], absent={"real_name": "Claire Hughes"})


def test_engine_claims_no_name_from_a_relatives_clinic_letter(tmp_path: Path) -> None:
    _image_case(tmp_path, "mum-clinic", "Took my mum to her check-up this morning, sugar still too high",
                ["CITY DIABETES CLINIC", "Patient: CHEN, MEI LING", "Diagnosis: type 2 diabetes"],
                absent={"real_name": "Chen"})


def test_a_form_name_with_only_an_initial_is_not_claimed() -> None:
    from core.engine.rules.forms import person_name

    assert person_name("C Reid") is None and person_name("REID, C") is None
    assert person_name("REID, CALLUM JAMES") == "Callum James Reid"
