"""Issue 33: each sentence of a Document has a language (py3langid, reading/language_id.py) with a
confidence, and the language packs follow it where it is confident; short or unsure sentences keep
the packs' own-word rule (reading/lang.text_packs)."""
from __future__ import annotations

from core.engine.reading.lang import text_packs
from core.engine.rules.documents import document


def _codes(packs) -> list[str]:
    return [p.code for p in packs]


def test_each_sentence_has_a_language_and_a_confidence():
    doc = document("I grew up near the sea and still miss it every day. Mi hermana vive en Madrid con su marido y sus hijos. lol")
    langs = doc.languages()
    assert [code for _, _, code, _ in langs] == ["en", "es", ""]
    assert langs[0][3] >= 0.9 and langs[1][3] >= 0.5 and langs[2][3] == 0.0     # "lol": too short to tell
    assert [doc.text[s:e].strip()[:5] for s, e, _, _ in langs] == ["I gre", "Mi he", "lol"]


def test_a_confident_english_sentence_takes_no_pack_from_two_loan_words():
    text = "Best pan con tomate I have ever had, mi amigo Carlos knows the spot."
    assert _codes(text_packs(text)) == ["es"]            # the word rule alone: "con", "mi"
    assert _codes(document(text).packs) == []            # py3langid: English, confidently


def test_unsure_or_unpacked_languages_fall_back_to_the_pack_words():
    malay = "Suami saya bekerja di Jakarta sebagai dokter sejak tahun lalu."   # py3langid: "id", no such pack
    assert document(malay).languages()[0][2] == "id"
    assert _codes(document(malay).packs) == ["ms"]
    short = "Soy de Sevilla, mi amor."
    assert document(short).languages()[0][3] < 0.9
    assert _codes(document(short).packs) == _codes(text_packs(short))
