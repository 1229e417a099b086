"""Occupations from the open taxonomy (issue 34, first item): core/data/recognizers/occupations.json read by
core/engine/rules/occupation_taxonomy.py. Real rules and the real engine (offline backend, real SQLite);
positive and negative cases in every language the file claims; the schema refuses a broken entry naming
the file, the entry and the field."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from core.engine.perceiver import text_evidence
from core.engine.rules import extract_cues
from core.engine.rules.occupation_taxonomy import DATA, TaxonomyError, index, load
from tests.hard_negatives import Case, check


def _occ(text: str, carrier: str = "caption") -> list[tuple[str, str]]:
    """(role, holder) of the occupation cues the poster could be given (no quote or hypothetical)."""
    return [(c.value, c.holder) for c in extract_cues(text, carrier=carrier)
            if c.attribute == "occupation" and c.data.stance is None]


def _self_roles(text: str, carrier: str = "caption") -> set[str]:
    return {v for v, h in _occ(text, carrier) if h == "self"}


# ------------------------------------------------------------------------------------------ the file
def test_the_file_holds_400_isco_occupations_in_every_claimed_language() -> None:
    f = load()
    assert len(f.occupations) >= 400
    assert len({o.isco for o in f.occupations}) >= 400          # ISCO-08 unit groups as the backbone
    assert "ISCO-08" in f.about and "Licence" in f.about         # provenance in the header
    for lang in f.recognizer.languages:
        assert sum(1 for o in f.occupations if o.titles.get(lang)) >= (400 if lang in ("en", "zh") else 60), lang
    assert all(o.sector and o.role and o.isco_major for o in f.occupations)
    ix = index()
    assert {"RN", "QS", "EMT", "PT"} <= set(ix.abbr)
    assert all(w.reason for w in f.words.values()) and "not_a_job_yet" in f.words     # guards are reasoned words


@pytest.mark.parametrize("edit, entry, field", [
    (lambda d: d["occupations"][5]["titles"].pop("zh"), "occupations[5]", "titles"),
    (lambda d: d["occupations"][7].update(isco="22A1"), "occupations[7]", "isco"),
    (lambda d: d["occupations"][9].pop("sector"), "occupations[9]", "sector"),
    (lambda d: d["words"]["not_a_job_yet"].update(reason=""), "words.not_a_job_yet", "reason"),
    (lambda d: d["words"]["self_statement"]["entries"]["en"].append("i'm a"), "words", "self_statement.entries.en"),
    (lambda d: d["words"].pop("job_advert"), "words", "job_advert"),
])
def test_a_broken_entry_errors_naming_file_entry_and_field(tmp_path: Path, edit, entry: str, field: str) -> None:
    raw = json.loads(DATA.read_text(encoding="utf-8"))
    name = raw["occupations"][5]["id"] if entry.startswith("occupations[5]") else None
    edit(raw)
    bad = tmp_path / "occupations.json"
    bad.write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(TaxonomyError) as e:
        load(bad)
    msg = str(e.value)
    assert msg.startswith(f"{bad}: ") and entry in msg and field in msg and "\n" not in msg, msg   # core/data_file.py
    if name:
        assert name in msg


def test_a_title_in_two_entries_is_refused(tmp_path: Path) -> None:
    raw = json.loads(DATA.read_text(encoding="utf-8"))
    raw["occupations"][3]["titles"]["en"].append(raw["occupations"][2]["titles"]["en"][0])
    bad = tmp_path / "occupations.json"
    bad.write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(TaxonomyError, match=r"occupations\[3\].*titles\.en.*already a title of"):
        load(bad)


def test_unreadable_file_is_one_line_naming_it(tmp_path: Path) -> None:
    bad = tmp_path / "occupations.json"
    shutil.copy(DATA, bad)
    bad.write_text(bad.read_text(encoding="utf-8")[:500], encoding="utf-8")
    with pytest.raises(TaxonomyError, match=r"occupations\.json: not JSON"):
        load(bad)


# ------------------------------------------------------------------------------- sentences, by language
POSITIVE = [
    ("en", "I'm a pharmacy technician at a busy chemist in Leeds.", "Pharmacy Technician"),
    ("en", "I'm an underwriter for a marine insurer, long week.", "Insurance Agent"),
    ("en", "I'm a QS on a big site this year.", "Civil Engineering Technician"),
    ("en", "I'm an EMT, twelve-hour shifts again.", "Paramedic"),
    ("en", "As a pharmacy technician, I count pills all day.", "Pharmacy Technician"),
    ("zh", "我是一名药房技术员，今天又加班。", "Pharmacy Technician"),
    ("es", "Soy fontanero desde hace diez años.", "Plumber"),
    ("de", "Ich arbeite als Elektriker in Köln.", "Electrician"),
    ("fr", "Je suis aide-soignante à Lyon.", "Healthcare Assistant"),
    ("pt", "Sou enfermeira há dez anos.", "Nurse"),
    ("ja", "私は看護師です。", "Nurse"),
    ("ja", "薬剤師として働いています。", "Pharmacist"),
    ("ko", "저는 간호사입니다.", "Nurse"),
    ("ms", "Saya seorang jururawat di Kuala Lumpur.", "Nurse"),
]

NEGATIVE = [
    ("en", "My sister is a pharmacy technician.", "Pharmacy Technician"),         # someone else's job
    ("en", "I wish I were a pharmacy technician.", "Pharmacy Technician"),        # wished for
    ("en", "I'm an aspiring quantity surveyor.", "Civil Engineering Technician"),  # not yet
    ("en", "Quantity surveyors are underpaid.", "Civil Engineering Technician"),  # a general statement
    ("en", "The QS came round and signed off the pour.", "Civil Engineering Technician"),  # bare letters
    ("en", "I'm a keen beekeeper at weekends.", "Beekeeper"),                      # a pastime
    ("zh", "我想当药房技术员。", "Pharmacy Technician"),
    ("es", "Mi hermano es fontanero.", "Plumber"),
    ("de", "Mein Vater ist Elektriker.", "Electrician"),
    ("fr", "Je ne suis pas aide-soignante.", "Healthcare Assistant"),
    ("pt", "Minha mãe é enfermeira.", "Nurse"),
    ("ja", "母は看護師として働いています。", "Nurse"),
    ("ko", "엄마는 간호사로 일하고 있어요.", "Nurse"),
    ("ms", "Ibu saya seorang jururawat.", "Nurse"),
]


@pytest.mark.parametrize("lang, text, role", POSITIVE, ids=[f"{p[0]}-{i}" for i, p in enumerate(POSITIVE)])
def test_a_job_stated_in_a_sentence_is_read(lang: str, text: str, role: str) -> None:
    assert role in _self_roles(text), (lang, text, _occ(text))


@pytest.mark.parametrize("lang, text, role", NEGATIVE, ids=[f"{p[0]}-{i}" for i, p in enumerate(NEGATIVE)])
def test_no_job_of_the_poster_where_none_is_stated(lang: str, text: str, role: str) -> None:
    assert role not in _self_roles(text), (lang, text, _occ(text))


def test_languages_claimed_have_both_kinds_of_case() -> None:
    langs = set(load().recognizer.languages)
    assert {p[0] for p in POSITIVE} == langs and {n[0] for n in NEGATIVE} == langs


def test_the_longest_title_wins_over_the_role_table() -> None:
    """The closed role table read "technician" = Mechanic in "pharmacy technician"."""
    cues = [c for c in extract_cues("I'm a pharmacy technician at a busy chemist.") if c.attribute == "occupation"]
    assert [c.value for c in cues] == ["Pharmacy Technician"]
    assert cues[0].cue == "occupation:taxonomy:self_statement" and cues[0].data.entry == "3213-pharmacy-technician"
    assert cues[0].data.levels == {"sector": "Healthcare", "role": "Pharmacy Technician"}


# ---------------------------------------------------------------------------------- OCR'd image lines
IMAGE_POSITIVE = [
    ("badge", "CITY HOSPITAL\nJANE DOE\nPHARMACY TECHNICIAN\nStaff ID 1234", "Pharmacy Technician"),
    ("ocr_text", "PARAMEDIC", "Paramedic"),
    ("screenshot", "Kind regards\nAnna Kowalczyk\nSenior Underwriter | Marine\n+44 20 7946 0000", "Insurance Agent"),
    ("document", "Jane Doe, RN\nCertificate of completion\nAdvanced Life Support", "Nurse"),
    ("badge", "RN\nAmy", "Nurse"),
    ("ocr_text", "药房技术员\n张伟", "Pharmacy Technician"),
    ("ocr_text", "看護師\n山田花子", "Nurse"),
]
IMAGE_NEGATIVE = [
    ("ocr_text", "WE'RE HIRING\nPHARMACY TECHNICIAN\nApply now", "Pharmacy Technician"),     # a job advert
    ("document", "Dear Mr Osei,\nYour appointment is confirmed.\nDr A Smith\nConsultant Cardiologist", "Doctor"),
    ("badge", "STUDENT NURSE\nAmy", "Nurse"),                                                # not yet
    ("ocr_text", "RN", "Nurse"),                                                             # bare letters
    ("ocr_text", "PHOTOGRAPHER", "Photographer"),                                            # a tee shirt
    ("screenshot", "12栋业主\n管家，楼上又在电钻了，这都快十点了！\n孙管家\n收到", "Domestic Housekeeper"),  # a chat message
    ("ocr_text", "Nurse, can you come here please?", "Nurse"),                                # speech
    ("screenshot", "Monday rota\nAmy Lee | Pharmacist\nTom Ng | Pharmacy Technician\nRaj Patel | Cashier",
     "Pharmacy Technician"),                                                                  # several people's titles
]


@pytest.mark.parametrize("carrier, text, role", IMAGE_POSITIVE)
def test_a_title_line_on_an_image_is_read(carrier: str, text: str, role: str) -> None:
    node = text_evidence("p1", carrier, "ocr", text, modality="image")
    assert role in {c.value for c in node.data.cues if c.attribute == "occupation"}, (text, node.data.cues)


@pytest.mark.parametrize("carrier, text, role", IMAGE_NEGATIVE)
def test_no_title_line_where_the_image_is_no_job_of_the_poster(carrier: str, text: str, role: str) -> None:
    node = text_evidence("p1", carrier, "ocr", text, modality="image")
    assert role not in {c.value for c in node.data.cues if c.attribute == "occupation"}, (text, node.data.cues)


def test_a_labelled_position_that_is_a_title_gets_its_sector() -> None:
    """A payslip's "Job title: Pharmacy Technician" (rules/labels.py) keeps its value and gains the entry's sector."""
    cues = [c for c in extract_cues("PAYSLIP\nEmployee: J Smith\nJob title: Pharmacy Technician\nGross pay: £1,850.00",
                                    carrier="document") if c.attribute == "occupation"]
    assert [(c.value, c.data.levels) for c in cues] == [
        ("Pharmacy Technician", {"sector": "Healthcare", "role": "Pharmacy Technician"})]
    zh = [c for c in extract_cues("职位：药剂师", carrier="badge") if c.attribute == "occupation"]
    assert [(c.value, c.data.levels) for c in zh] == [
        ("Pharmacist", {"sector": "Healthcare", "role": "Pharmacist", "specialty": "药剂师"})]


# ----------------------------------------------------------------------------- the real engine, end to end
def test_engine_projects_a_taxonomy_role_with_its_sector(tmp_path: Path) -> None:
    check(tmp_path, Case(id="pharm-tech", present={"occupation": "Pharmacy Technician"},
                         posts=["I'm a pharmacy technician at a busy chemist in Leeds. Long shift counting pills.",
                                "Weekend walk by the canal with the dog."]))
    check(tmp_path / "b", Case(id="es-plumber", present={"occupation": "Plumber"},
                               posts=["Soy fontanero desde hace diez años, hoy otra avería en Valencia.", "Paseo por el parque."]))


def test_engine_gives_no_job_wished_for_or_someone_elses(tmp_path: Path) -> None:
    check(tmp_path, Case(id="wish", absent={"occupation": "Pharmacy Technician"},
                         posts=["I wish I were a pharmacy technician, honestly.", "Weekend walk by the canal."]))
    check(tmp_path / "b", Case(id="sister", absent={"occupation": "Pharmacy Technician"},
                               posts=["My sister just qualified as a pharmacy technician, so proud of her!",
                                      "Weekend walk by the canal."]))
