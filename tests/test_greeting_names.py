"""Names from greetings addressed to the account (issue 34 item 3): a friend's comment under the
account's own post ("congrats Aoife!!", "生日快樂 Wing Yan!!") or a cake / card photographed in its post
("Happy 29th Kavya!") gives the name the account goes by; the account's own OCR'd documents give the
surname ("Tama Walker" in a signature, "MEHRA KAVYA" on a roster). A first name alone is never claimed
(real_name is scored as a full name or an alias of it); a greeting in the account's own caption speaks
to someone else. Greetings are data (core/data/recognizers/names.json). Real rules, the real engine
(offline backend, real SQLite, images through real OCR)."""
from __future__ import annotations

from pathlib import Path

import pytest

from core.engine.rules.document_names import full_name_for, greeting_names
from tests.engine_user import render_text_image
from tests.hard_negatives import Case, profile_of, write_user


@pytest.mark.parametrize("text, name", [
    ("congrats Aoife!! so proud of you", "Aoife"),                   # en
    ("Happy 40th Priya 🎂", "Priya"),
    ("ENHORABUENA Elena!!! 🍷", "Elena"),                             # es
    ("Joyeux anniversaire Camille !", "Camille"),                     # fr
    ("Alles Gute Katharina!", "Katharina"),                           # de
    ("parabéns Bia!!!", "Bia"),                                       # pt
    ("Selamat hari jadi Aisyah!", "Aisyah"),                          # ms
    ("生日快乐 思宁", "思宁"),                                        # zh
    ("生日快樂 Wing Yan!!", "Wing Yan"),
    ("美咲おめでとう！", "美咲"),                                      # ja
])
def test_a_greeting_names_whom_it_greets(text: str, name: str) -> None:
    assert greeting_names(text) == [name]


@pytest.mark.parametrize("text", [
    "happy birthday daddy!!", "Happy birthday didi! treat kab?", "Congrats everyone!", "happy birthday to my sister",
    "Felicidades a todos!", "Joyeux anniversaire maman !", "Alles Gute!", "parabéns pra você", "生日快乐！大家",
    "恭喜你们", "おめでとう！", "go team!",
])
def test_no_name_in_a_greeting(text: str) -> None:
    assert greeting_names(text) == [], greeting_names(text)


@pytest.mark.parametrize("given, text, full", [
    ("Tama", "Kind regards,\nTama Walker\nSenior Engineer", "Tama Walker"),
    ("Kavya", "ROSTER\nMEHRA KAVYA (F) 07:00", "Kavya Mehra"),
    ("Callum", "REID, CALLUM JAMES", "Callum Reid"),
    ("Wing Yan", "CHAN WING YAN 陳詠欣", "Wing Yan Chan"),
    ("思宁", "结业证书 周思宁同志", "周思宁"),
])
def test_the_full_name_a_greeted_name_begins(given: str, text: str, full: str) -> None:
    assert full_name_for(given, text) == full


@pytest.mark.parametrize("given, text", [
    ("Morag", "Morag Street bus stop"), ("Tama", "Tama is great"), ("Priya", "Priya Sharma Hospital"),
    ("思宁", "思宁今天好看"), ("Elena", "elena vidal"),
])
def test_no_full_name_without_a_surname_on_a_line(given: str, text: str) -> None:
    assert full_name_for(given, text) is None


# ----------------------------------------------------------------------------- the real engine, end to end
def _user(tmp_path: Path, cid: str, greeting_post: dict, doc_caption: str = "Sent the quarterly report at last.") -> Case:
    case = Case(cid, [greeting_post, {"caption": doc_caption, "images": [{"file": "images/sig.png"}]},
                      "Rainy walk along the river."])
    udir = write_user(tmp_path, case)
    render_text_image(udir / "images" / "sig.png", ["Kind regards,", "Tama Walker", "Senior Engineer"], size=(720, 300))
    return case


def test_engine_a_friends_greeting_and_a_signature_give_the_full_name(tmp_path: Path) -> None:
    case = _user(tmp_path, "greeted", {"caption": "Promotion day!", "comments": [{"author": "kiri_h", "text": "congrats Tama!!"}]})
    prof, _ = profile_of(tmp_path, case)
    assert prof.get("real_name") == "Tama Walker", prof.get("real_name")


def test_engine_a_greeting_in_the_own_caption_is_someone_else(tmp_path: Path) -> None:
    case = _user(tmp_path, "own-caption", {"caption": "Happy birthday Tama!! best colleague ever"})
    prof, _ = profile_of(tmp_path, case)
    assert prof.get("real_name") is None, prof.get("real_name")


def test_engine_a_greeting_to_a_commenter_of_that_name_is_no_name(tmp_path: Path) -> None:
    case = _user(tmp_path, "reply", {"caption": "Promotion day!", "comments": [
        {"author": "tama.w", "text": "so happy for you"}, {"author": "kiri_h", "text": "congrats Tama!!"}]})
    prof, _ = profile_of(tmp_path, case)
    assert prof.get("real_name") is None, prof.get("real_name")


def test_greeting_names_are_read_once_per_text_and_handed_out_as_fresh_lists():
    """Issue 33 (time per user): the board's aggregator asks every comment on every refresh; the names of
    one text are computed once, and a caller changing its list changes no later answer."""
    from core.engine.rules.document_names import _greeting_names, greeting_names

    text = "congrats Aoife!! so proud of you"
    first = greeting_names(text)
    hits = _greeting_names.cache_info().hits
    first.append("Mallory")
    assert greeting_names(text) == ["Aoife"]
    assert _greeting_names.cache_info().hits == hits + 1


def test_the_full_name_and_the_someone_else_check_are_read_once_per_text():
    """Issue 33 (time per user): both are asked for every post on every refresh of the board; each text is
    read once and gives the same answer from the cache."""
    from core.engine.aggregators.document_holder import _for_someone_else
    from core.engine.rules.document_names import full_name_for

    line = "Tama Walker\nSenior Analyst"
    assert full_name_for("Tama", line) == "Tama Walker"
    hits = full_name_for.cache_info().hits
    assert full_name_for("Tama", line) == "Tama Walker" and full_name_for.cache_info().hits == hits + 1
    assert _for_someone_else("my son's school form") is True
    assert _for_someone_else("my school form") is False
    hits = _for_someone_else.cache_info().hits
    assert _for_someone_else("my son's school form") is True and _for_someone_else.cache_info().hits == hits + 1
