"""The gender the account's own documents print with its own claimed name (issue 34, gender): an
honorific before or after the name ("Frau Katharina Brandl", "DUNLOP/MORAG MRS", 王思雨女士), a bracketed
sex mark ("MEHRA KAVYA (F)"), a labelled sex field beside the name (Sex: F, 性别：女, Geschlecht: weiblich,
Sexo: M) — the words are data (names.json maps gender_honorifics / sex_marks, labels.json gender).
Real engine runs on rendered images read by the real OCR (tests/engine_user.run_profile), and the
aggregator on the graph structure the engine builds; hard negatives: someone else's honorific, Dr,
Dear Sir/Madam, Mx, two documents that disagree, a sex field on a child's form."""
from __future__ import annotations

import pytest

from core.engine.aggregators.name_agreement import agreeing_names
from core.engine.aggregators.name_gender import _marks, document_genders
from tests.engine_user import run_profile
from tests.test_name_agreement import _graph


def _gender(posts: list[tuple[str, list[str]]]) -> set[str]:
    f = _graph(posts)
    names = [r.cue.value for r in agreeing_names(f) if r.cue.confidence >= 0.6]
    return {r.cue.value for r in document_genders(f, names)}


# each case: two own documents that claim the name, one of them printing its gender
_BRANDL = ("neuer Ausweis", ["Isarklinik Süd\nInstitut für Radiologie\nK. Brandl\nMTR Radiologie"])
_REID = ("verge collection", ["City of Joondalup\nResident: C Reid\nSuburb: CURRAMBINE 6028"])


@pytest.mark.parametrize("posts, gender", [
    # de: an addressee's title on a utility letter
    ([("Strom", ["Stadtwerke München\nFrau Katharina Brandl\nTegernseer Landstraße 1xx\n81539 München"]), _BRANDL],
     "female"),
    # de: a sex field on an ID that names her
    ([("Strom", ["Stadtwerke München\nFrau Katharina Brandl\n81539 München"]),
      ("Ausweis", ["PERSONALAUSWEIS\nKatharina Brandl\nGeschlecht: weiblich"]), _BRANDL], "female"),
    # en: the boarding pass's title after the name, and a licence
    ([("new ticket", ["HIGH RISK WORK LICENCE\nWorkSafe\nREID, CALLUM JAMES\nExpiry: 03/02/2031"]), _REID,
      ("off to Lisbon", ["BOARDING PASS\nNAME OF PASSENGER\nREID/CALLUM MR\nFROM PERTH"])], "male"),
    # en: a labelled sex field on a licence that names him
    ([("new ticket", ["HIGH RISK WORK LICENCE\nREID, CALLUM JAMES\nSex: M\nExpiry: 03/02/2031"]), _REID], "male"),
    # zh: a certificate's name with its bracketed sex, and a field
    ([("证书到了", ["荣誉证书\n周思宁同志（女，1990年出生）：\n被评为优秀员工"])], "female"),
    # es: Sra. before the name on a tax bill
    ([("taller", ["TALLER ÁBSIDE\nRestauradora responsable: Ximena Ortega Lara"]),
      ("predial", ["Boleta de Impuesto Predial 2026\nContribuyente: Sra. ORTEGA LARA XIMENA"])], "female"),
])
def test_a_document_prints_the_claimed_names_gender(posts, gender) -> None:
    assert _gender(posts) == {gender}


@pytest.mark.parametrize("posts", [
    # Mx states no gender
    [("Strom", ["Stadtwerke München\nMx Katharina Brandl\n81539 München"]), _BRANDL],
    # two documents disagree: nothing
    [("Strom", ["Stadtwerke München\nFrau Katharina Brandl\n81539 München"]),
     ("Post", ["Deutsche Post\nHerr Katharina Brandl\n81539 München"]), _BRANDL],
    # someone else's honorific: a letter about the account's mother, a prescriber, Dear Sir/Madam, a doctor
    [("Strom", ["Stadtwerke München\nKatharina Brandl\n81539 München"]), _BRANDL,
     ("mum's letter", ["City Council\nMrs J Smith\nDear Sir/Madam,\nPrescriber: Mr Tom Jones\nDr Katharina Brandl"])],
    # a sex field on a child's form the account signed as the parent
    [("Strom", ["Stadtwerke München\nKatharina Brandl\n81539 München"]), _BRANDL,
     ("Anmeldung", ["ANMELDUNG KITA\nKind: Lukas Brandl\nGeschlecht: männlich\nElternteil: Katharina Brandl"])],
    # a document the caption gives to someone else ("my son's school form")
    [("Strom", ["Stadtwerke München\nKatharina Brandl\n81539 München"]), _BRANDL,
     ("my son's school form", ["SCHOOL FORM\nKatharina Brandl\nSex: M"])],
])
def test_no_gender_from_someone_else_or_a_disagreement(posts) -> None:
    assert _gender(posts) == set()


@pytest.mark.parametrize("text, name, want", [
    ("SALTIRE AIR BOARDING PASS\nDUNLOP/MORAG MRS\nFROM GLASGOW", "Morag Dunlop", "female"),
    ("Crew Roster·FEB 2026\nMEHRA KAVYA (F)· Emp 40712", "Kavya Mehra", "female"),
    ("M. Jean Dupont\n12 rue de la Paix", "Jean Dupont", "male"),
    ("王思雨女士 您好", "王思雨", "female"),
    ("张伟先生：", "张伟", "male"),
    ("Sexo: M\nNombre: Diego Ruiz", "Diego Ruiz", "male"),
    ("성명: 김하은\n성별: 여", "김하은", "female"),
])
def test_marks_in_every_language(text, name, want) -> None:
    assert {g for g, _ in _marks(text, name)} == {want}


@pytest.mark.parametrize("text, name", [
    ("John Smith Sr.", "John Smith"),            # Senior, not Señor
    ("ANGELICA M. DELA CRUZ", "Angelica M. dela Cruz"),   # a middle initial is no Monsieur
    ("김하은 님", "김하은"), ("山口美咲様", "山口美咲"),     # honorifics that state no gender
    ("Dr Jane Smith", "Jane Smith"),
])
def test_no_gender_from_a_neutral_or_professional_title(text, name) -> None:
    assert {g for g, _ in _marks(text, name)} <= {"none"}


def test_engine_reads_the_boarding_pass_title_of_the_claimed_name(tmp_path) -> None:
    """The real engine on rendered images: the name two documents agree on, and the boarding pass's
    MRS after it, give the gender."""
    posts = [
        {"timestamp": "2026-03-02T09:00:00+00:00", "caption": "new badge", "images": [{"file": "images/badge.png"}]},
        {"timestamp": "2026-03-09T09:00:00+00:00", "caption": "council tax again", "images": [{"file": "images/bill.png"}]},
        {"timestamp": "2026-04-16T06:00:00+00:00", "caption": "early flight", "images": [{"file": "images/pass.png"}]},
    ]
    images = {"badge.png": ["GLASGOW ROYAL INFIRMARY", "Morag Dunlop", "Staff Nurse"],
              "bill.png": ["GLASGOW CITY COUNCIL", "Council Tax Bill 2026", "Resident: M Dunlop"],
              "pass.png": ["BOARDING PASS", "NAME OF PASSENGER", "DUNLOP/MORAG MRS", "FROM GLASGOW GLA"]}
    prof = run_profile(tmp_path, posts, images=images)
    assert prof.get("real_name") == "Morag Dunlop"
    assert prof.get("gender") == "female"


def test_engine_claims_nothing_when_the_title_is_someone_elses(tmp_path) -> None:
    """The same account; the titled letter is addressed to the account's mother: no gender."""
    posts = [
        {"timestamp": "2026-03-02T09:00:00+00:00", "caption": "new badge", "images": [{"file": "images/badge.png"}]},
        {"timestamp": "2026-03-09T09:00:00+00:00", "caption": "council tax again", "images": [{"file": "images/bill.png"}]},
        {"timestamp": "2026-04-16T06:00:00+00:00", "caption": "posted my mum's letter for her",
         "images": [{"file": "images/letter.png"}]},
    ]
    images = {"badge.png": ["GLASGOW ROYAL INFIRMARY", "Morag Dunlop", "Staff Nurse"],
              "bill.png": ["GLASGOW CITY COUNCIL", "Council Tax Bill 2026", "Resident: M Dunlop"],
              "letter.png": ["NHS GREATER GLASGOW", "Mrs J Dunlop", "Dear Sir/Madam,"]}
    prof = run_profile(tmp_path, posts, images=images)
    assert prof.get("real_name") == "Morag Dunlop"
    assert "gender" not in prof


@pytest.mark.parametrize("text, want", [
    ("PERSONALAUSWEIS\nGeschlecht: weiblich", "female"), ("DNI\nSexo: M", "male"), ("CARTE D'IDENTITÉ\nSexe: F", "female"),
    ("在留カード\n性別：女", "female"), ("주민등록증\n성별: 남", "male"), ("MyKad\nJantina: Perempuan", "female"),
    ("身份证\n性别：男", "male"),
])
def test_the_sex_field_rule_reads_every_pack_language(text, want) -> None:
    """rules/labels.py's sex field (the rule that read d01's certificate 女), its labels and values data."""
    from core.engine.rules.extract import extract_cues
    assert {c.value for c in extract_cues(text, carrier="document") if c.cue == "label:gender"} == {want}


def test_a_relatives_name_sharing_the_surnames_gives_nothing() -> None:
    """"Sr. ORTEGA LARA DIEGO" shares Ximena Ortega Lara's two surnames: her brother's, not hers."""
    assert _marks("Boleta predial\nContribuyente: Sr. ORTEGA LARA DIEGO", "Ximena Ortega Lara") == []
    assert {g for g, _ in _marks("BOARDING PASS\nREID/CALLUM MR", "Callum James Reid")} == {"male"}
