"""Occupations said in the plural of the poster's own group (issue 34, SynthPAI kinds;
core/data/recognizers/ingroup.json, rules/occupation_ingroup.py): "us teachers" is the poster's job
(projected); "we historians" with a title people also hold as a pastime, and a job's stereotype the
post answers no ("think all bakers adore waking up early? nah"), are held guesses, never projected.
Someone else's group (quoted), a job merely named ("we need more nurses"), a possessive ("us teachers'
kids") and a stereotype answered yes give nothing. Engine cases run the real engine (offline backend,
real SQLite); every positive case gave no such reading on main f940522 (checked on a copy of main)."""
from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

import pytest

from tests.hard_negatives import Case, profile_of

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))


def _read(tmp_path, text: str) -> tuple[str | None, list[str]]:
    """The projected occupation and the SynthPAI occupation guesses of a one-post account."""
    from synthpai_pred import hypothesis_guesses

    prof, inv = profile_of(tmp_path, Case("x", [text]))
    db = sqlite3.connect(tmp_path / "runs.db")
    try:
        return prof.get("occupation"), hypothesis_guesses(db, inv.run_id).get("occupation", [])
    finally:
        db.close()


@pytest.mark.parametrize("text", ["lots more guys are joining us teachers lately, brings different energies",
                                  "Honestly we actuaries get zero credit for the overtime."])
def test_we_plural_title_is_the_posters_job(text: str, tmp_path) -> None:
    got, _ = _read(tmp_path, text)
    want = "Teacher" if "teachers" in text else "Statistician"   # actuaries: ISCO 2120
    assert got is not None and got.startswith(want), got


@pytest.mark.parametrize("text, role", [
    ("Diets change yet chefs adapt; we historians remix too!", "Historian"),
    ("think all bakers adore waking up early? nah fam", "Baker"),
    ("All architects worship at the altar of black turtlenecks? Nope!", "Architect"),
])
def test_pastime_titles_and_rebutted_stereotypes_are_held_guesses(text: str, role: str, tmp_path) -> None:
    got, guesses = _read(tmp_path, text)
    assert got is None, got
    assert guesses[:1] == [role], guesses


@pytest.mark.parametrize("text, role", [
    ('My sister always says "we teachers never rest" and she means it.', "Teacher"),
    ("We need more nurses in this town.", "Nurse"),
    ("The parents thanked us teachers' kids for the cards.", "Teacher"),
    ("All nurses are angels? Yes! Every single one of them.", "Nurse"),
])
def test_someone_elses_group_or_a_job_named_is_no_reading(text: str, role: str, tmp_path) -> None:
    from core.engine.rules.extract import extract_cues

    got, _ = _read(tmp_path, text)
    assert got is None or not got.startswith(role), got
    assert not [c for c in extract_cues(text) if c.recognizer == "occupation_ingroup" and c.holder == "self"]


def test_plural_of_titles() -> None:
    from core.engine.rules.occupation_ingroup import plural

    assert [plural(t) for t in ("nurse", "secretary", "policeman", "coach", "chef", "attorney")] == \
        ["nurses", "secretaries", "policemen", "coaches", "chefs", "attorneys"]


def test_a_bad_file_is_one_error_naming_file_and_field(tmp_path) -> None:
    import json

    from core.engine.rules.occupation_ingroup import PATH, InGroupError, load

    raw = json.loads(PATH.read_text(encoding="utf-8"))
    raw["patterns"][0]["regex"] = r"\bwe\s+nurses\b"     # no {T} slot
    bad = tmp_path / "ingroup.json"
    bad.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(InGroupError, match=r"ingroup\.json: field patterns\.0\.regex"):
        load(bad)
