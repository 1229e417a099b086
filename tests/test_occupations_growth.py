"""The grown occupation taxonomy (issue 34): common roles inside ISCO-08 unit groups (respiratory therapist,
court reporter, property manager, data annotator, tattoo artist, sommelier, conservator, embroiderer,
luthier, interpreters), traditional Chinese read through OpenCC, feminine titles made by the language packs'
rules, titles on badge / certificate / signature lines, and the jargon reading that chooses among every
entry with task phrases. Real rules (extract_cues) and the real engine; positive and negative cases in
each language claimed."""
from __future__ import annotations

import pytest

from core.engine.rules import extract_cues
from core.engine.rules.occupation_taxonomy import feminine, index, traditional
from tests.hard_negatives import Case, check


def _occ(text: str, carrier: str = "caption") -> list[tuple[str, str, str]]:
    return [(c.value, c.holder, c.cue) for c in extract_cues(text, carrier=carrier)
            if c.attribute == "occupation" and c.data.stance is None]


def _self_roles(text: str, carrier: str = "caption") -> set[str]:
    return {v for v, h, _ in _occ(text, carrier) if h == "self"}


# ------------------------------------------------------------------------------- derived titles
def test_feminine_forms_come_from_the_language_packs_rules() -> None:
    assert feminine("restaurador", "es") == ["restauradora"]
    assert feminine("técnico de farmacia", "es") == ["técnica de farmacia"]     # only the words before 'de'
    assert feminine("músico", "es") == []            # 'música' is music: listed under the pack's `not`
    assert feminine("tatuador", "pt") == ["tatuadora"]
    assert feminine("traducteur", "fr") == ["traductrice"] and feminine("tatoueur", "fr") == ["tatoueuse"]
    assert feminine("Tätowierer", "de") == ["tätowiererin"]
    assert feminine("medizinischer Fachangestellter", "de") == []   # German adjectives decline: one-word titles only
    assert feminine("nurse", "en") == [] and feminine("护士", "zh") == []


def test_traditional_titles_come_from_opencc() -> None:
    assert "藥師" in traditional("药师")
    ix = index()
    assert ix.cjk["藥師"].id == "2262-pharmacist"
    assert ix.cjk["呼吸治療師"].id == "3259-respiratory-therapist"
    assert "看護師" in ix.cjk and ix.cjk["看護師"].id == "2221-nurse"     # a Japanese title stays as written


@pytest.mark.parametrize("lang, text, role", [
    ("es", "Soy restauradora en un taller de la Roma.", "Conservator"),
    ("pt", "Sou tatuadora há seis anos.", "Tattoo Artist"),
    ("fr", "Je suis tatoueuse depuis six ans.", "Tattoo Artist"),
    ("de", "Ich arbeite als Tätowiererin in Berlin.", "Tattoo Artist"),
    ("zh", "我是一名藥師，在社區藥局上班。", "Pharmacist"),
    ("zh", "我是呼吸治療師。", "Respiratory Therapist"),
    ("en", "I'm a court reporter, mostly depositions.", "Court Reporter"),
    ("ja", "私は呼吸療法士として働いています。", "Respiratory Therapist"),
])
def test_a_derived_or_new_title_in_a_statement_is_read(lang: str, text: str, role: str) -> None:
    assert role in _self_roles(text), (lang, _occ(text))


@pytest.mark.parametrize("lang, text, role", [
    ("es", "La música me encanta, sobre todo en vivo.", "Musician"),
    ("es", "Mi hermana es restauradora.", "Conservator"),
    ("fr", "Ma sœur est tatoueuse.", "Tattoo Artist"),
    ("de", "Meine Schwester ist Tätowiererin.", "Tattoo Artist"),
    ("zh", "我媽是藥師。", "Pharmacist"),
    ("en", "I'd love to be a sommelier one day.", "Sommelier"),
])
def test_no_derived_title_where_it_is_no_job_of_the_poster(lang: str, text: str, role: str) -> None:
    assert role not in _self_roles(text), (lang, _occ(text))


# ------------------------------------------------------------------ titles on badges, signs, certificates
@pytest.mark.parametrize("lang, carrier, text, role", [
    ("zh", "badge", "康橙社區藥局\n林怡君\n藥師\n藥師證字第0428xx 號", "Pharmacist"),
    ("zh", "badge", "南京钟阜医院\n呼吸与危重症医学科\n呼吸治疗师\n工号 ZF2019-0437", "Respiratory Therapist"),
    ("zh", "ocr_text", "海岸名邸物业服务中心\n孙晓峰\n物业管家\nNO. HA-0219", "Property Manager"),
    ("de", "ocr_text", "Isarklinik Süd\nInstitut für Radiologie\nK. Brandl\nMTR Radiologie\nDosimeter Nr. 0071-35", "Radiographer"),
    ("en", "ocr_text", "LOTUS CROWN RESORT·COTAI\nGaming Operations· Team D\nCHAN WING YAN\nTABLE GAMES DEALER\nEMP 7720415", "Croupier"),
    ("en", "document", "CERTIFIED SHORTHAND REPORTER\nThis certifies that\nHOLLOWAY, SAMANTHA R.", "Court Reporter"),
    ("es", "ocr_text", "ESCUELA DE SUMILLERÍA\nCERTIFICADO DE SUMILLER PROFESIONAL·NIVEL\nAVANZADO", "Sommelier"),
    ("pt", "screenshot", "Beatriz Salgueiro\nTradutora EN/FR > PT-PT· Entrelinhas Traduções\n+351 912 *** 508", "Translator"),
    ("ko", "badge", "행복동물병원\n동물보건사\nVet Nurse", "Veterinary Technician"),
    ("fr", "badge", "Studio Encre Noire\nTatoueuse", "Tattoo Artist"),
    ("ja", "badge", "さくら歯科\n歯科衛生士\n山田", "Dental Hygienist"),
    ("ms", "badge", "Mahkamah Tinggi\nJurutrengkas", "Court Reporter"),
])
def test_a_title_line_in_any_language_is_read(lang: str, carrier: str, text: str, role: str) -> None:
    assert role in _self_roles(text, carrier), (lang, _occ(text, carrier))


@pytest.mark.parametrize("lang, carrier, text", [
    ("en", "ocr_text", "SAIR HEID TATTOO CO.\n412 London Road· Glasgow\nwalk-ins Thursdays 12-5"),   # a shop's sign
    ("en", "screenshot", "We're hiring!\nTABLE GAMES DEALER\nApply now"),                             # an advert
    ("en", "ocr_text", "MTR\nAdmiralty Station\nExit A"),                                               # Hong Kong's metro
    ("zh", "screenshot", "值班表\n呼吸治疗师\n物业管家"),                                                  # a roster: two titles
    ("de", "ocr_text", "Praxis Dr. Weber\nRadiologie\nTermine nach Vereinbarung"),
])
def test_no_title_line_where_the_image_names_no_job_of_the_poster(lang: str, carrier: str, text: str) -> None:
    assert not _self_roles(text, carrier), (lang, _occ(text, carrier))


# ---------------------------------------------------------------------------------- jargon
@pytest.mark.parametrize("lang, text, role", [
    ("zh", "夜班。一个患者SBT又没过，退回PSV；另一床上了高流量，氧合终于稳住。", "Respiratory Therapist"),
    ("en", "Neck reset and a full refret on a '64 Gibson this week, hide glue only.", "Luthier"),
    ("de", "Spätdienst im CT: ein Patient fand das Kontrastmittel warm. Strahlenschutz zuerst.", "Radiographer"),
    ("es", "Tres semanas quitando un repinte con hisopo; mañana empieza el reentelado.", "Conservator"),
    ("ja", "今日は歯周ポケット測定とSRPを三人。", "Dental Hygienist"),
    ("ko", "오늘 마취 모니터링 하고 수액 라인 잡느라 정신없었다.", "Veterinary Technician"),
    ("fr", "Facture envoyée pour la récolte : enfumoir, hausses et trois ruches visitées.", "Beekeeper"),
    ("en", "Team interp all morning, then voicing for a Deaf presenter.", "Sign Language Interpreter"),
])
def test_job_jargon_chooses_among_every_entry(lang: str, text: str, role: str) -> None:
    occ = _occ(text)
    assert any(v == role and cue == "occupation:taxonomy:tasks" for v, h, cue in occ if h == "self"), (lang, occ)


@pytest.mark.parametrize("lang, text, role", [
    ("zh", "夜班。一个患者SBT又没过，退回PSV；另一床上了高流量。", "Nurse"),             # the jargon is not a nurse's
    ("en", "Took my guitar in for a refret.", "Luthier"),                                   # one phrase, a customer's
    ("en", "My husband did a neck reset and a refret on his old Gibson.", "Luthier"),        # someone else's
    ("fr", "Visite des ruches ce matin, enfumoir et hausses, quel calme.", "Beekeeper"),     # a pastime: no work said
    ("de", "Heute ist kein Kontrastmittel und kein Strahlenschutz für mich, ich habe endlich frei!", "Radiographer"),
])
def test_no_job_from_jargon_that_is_not_the_posters_work(lang: str, text: str, role: str) -> None:
    assert role not in _self_roles(text), (lang, _occ(text))


def test_jargon_on_an_image_is_not_the_posters_talk() -> None:
    assert "Respiratory Therapist" not in _self_roles("SBT 失败 / PSV 12 / 高流量 40L", "screenshot")


CASES = [
    Case("zh-respiratory-jargon", ["夜班。一个患者SBT又没过，退回PSV；另一床上了高流量，氧合终于稳住。呼吸机报警响了一整晚。",
                                   "下夜班在上海路站等车，困到灵魂出窍。"],
         present={"occupation": "Respiratory Therapist"}, absent={"occupation": "Nurse"}),
    Case("en-luthier-two-posts", ["Neck reset and a full refret on a '64 Gibson this week, hide glue only.",
                                  "Fret dress and a truss rod adjustment before lunch, then a bridge reglue."],
         present={"occupation": "Luthier"}),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_engine_reads_the_grown_taxonomy(case: Case, tmp_path) -> None:
    check(tmp_path, case)


# ------------------------------------------------------------------ whose badge: the post's words decide
def _badge_user(tmp_path, caption: str) -> Case:
    from tests.engine_user import render_text_image
    from tests.hard_negatives import write_user

    case = Case("badge", [{"caption": caption, "images": [{"file": "images/badge.png"}]}, "Rainy walk along the river."])
    udir = write_user(tmp_path, case)
    render_text_image(udir / "images" / "badge.png", ["St Mary's Hospital", "Respiratory Therapist", "ID 20417"], size=(760, 300))
    return case


def test_engine_a_badge_on_the_posters_post_is_their_job(tmp_path) -> None:
    from tests.hard_negatives import profile_of

    prof, _ = profile_of(tmp_path, _badge_user(tmp_path, "New badge, same old night shifts."))
    assert "Respiratory Therapist" in (prof.get("occupation") or ""), prof.get("occupation")


def test_engine_a_badge_the_post_gives_to_someone_else_stays_theirs(tmp_path) -> None:
    from tests.hard_negatives import profile_of

    prof, _ = profile_of(tmp_path, _badge_user(tmp_path, "So proud of my sister's first badge!"))
    assert "Respiratory Therapist" not in (prof.get("occupation") or ""), prof.get("occupation")


@pytest.mark.parametrize("lang, text, role", [
    ("en", "Picking and packing all shift, my pick rate was 140 an hour.", "Warehouse Worker"),
    ("zh", "今天拣货打包到十点，出库单堆成山。", "Warehouse Worker"),
    ("en", "TIG on the stainless frames this morning, MIG for the brackets after lunch.", "Welder"),
    ("zh", "今天氩弧焊焊了一整天，焊缝还要返工。", "Welder"),
])
def test_jargon_of_more_entries_is_read(lang: str, text: str, role: str) -> None:
    assert role in _self_roles(text), (lang, _occ(text))


@pytest.mark.parametrize("lang, text, role", [
    ("en", "My parcel has been stuck at picking for three days.", "Warehouse Worker"),   # one phrase, a customer
    ("zh", "我爸今天拣货打包到十点。", "Warehouse Worker"),                                # someone else's work
])
def test_no_job_from_one_phrase_or_someone_elses_jargon(lang: str, text: str, role: str) -> None:
    assert role not in _self_roles(text), (lang, _occ(text))


def test_engine_a_kin_word_beside_the_posters_own_badge_keeps_it(tmp_path) -> None:
    # the caption names a daughter's recital, not the badge: the title stays the poster's
    from tests.hard_negatives import profile_of

    prof, _ = profile_of(tmp_path, _badge_user(tmp_path, "Long week. My little girl's first ballet recital tonight!"))
    assert "Respiratory Therapist" in (prof.get("occupation") or ""), prof.get("occupation")
