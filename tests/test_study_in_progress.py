"""Study still in progress (issue 34, SynthPAI kinds; core/data/recognizers/study.json): studies
balanced or juggled with work ("balancing study & part-time coding gigs", "balancing school + work")
and one's own coursework or study habits are the poster's degree being studied for: held as a guess
(a hint, never a projected claim: the level is not known), which benchmarks/synthpai_pred.py writes as
in progress even when the similarity bank read a degree held elsewhere. Someone else's studies, a wish,
a hypothetical, a quote, and work balanced with anything but study are no reading. Engine cases run the real engine (offline backend, real SQLite);
the first two positive cases gave no education guess on main f940522 (the bank already read "my study
habits" as in college)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.hard_negatives import Case

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

POSITIVE = [
    "felt grown-up when balancing study & part-time coding gigs made party weekends extinct",
    "trust me balancing school + work ain't for the faint-hearted!",
    "guess you could say my study habits are on display more often than not",
]
NEGATIVE = [   # someone else's, wished-for, hypothetical, quoted, work balanced with anything but study, a teacher
    "My daughter is balancing college and a part-time job.",
    "I wish I was balancing school and work instead of just working.",
    "If I were juggling classes and a job I would lose my mind.",
    'My nephew told me "I am juggling uni and two jobs" and I believe him.',
    "Balancing work and family is hard some weeks.",
    "Grading essays between classes again, the staff room coffee is awful.",
]
IN_PROGRESS = "studying towards a Bachelor's degree"


def _guesses(tmp_path, text: str) -> tuple[dict[str, str], list[str]]:
    """The projected profile and the SynthPAI education guesses of a one-post account."""
    import sqlite3

    from synthpai_pred import hypothesis_guesses
    from tests.hard_negatives import profile_of

    prof, inv = profile_of(tmp_path, Case("x", [text]))
    db = sqlite3.connect(tmp_path / "runs.db")
    try:
        return prof, hypothesis_guesses(db, inv.run_id).get("education", [])
    finally:
        db.close()


@pytest.mark.parametrize("text", POSITIVE)
def test_study_beside_work_is_a_held_degree_in_progress(text: str, tmp_path) -> None:
    """Held (a hint: no projected claim, the level is not known) and written as in progress first."""
    prof, guesses = _guesses(tmp_path, text)
    assert "education" not in prof, prof
    assert guesses[:1] == [IN_PROGRESS], guesses


@pytest.mark.parametrize("text", NEGATIVE)
def test_no_study_reading_of_others_wishes_or_work(text: str, tmp_path) -> None:
    prof, guesses = _guesses(tmp_path, text)
    assert "education" not in prof and IN_PROGRESS not in guesses, (prof, guesses)


def test_a_rule_reading_in_progress_decides_over_a_similarity_reading_held(tmp_path):
    """One hypothesis read held by the bachelor prototype in one post and in progress by the rule in
    another is written in progress first; beside a rule reading it held, it stays the degree."""
    from synthpai_pred import hypothesis_guesses
    from test_synthpai_pred import _held_run

    ba = {"level": "Bachelor's degree"}
    ev = [("e2", "p2", [("education", "semantic:education:bachelor", "Bachelor's degree")]),
          ("e3", "p3", [("education", "education:level", "Bachelor's degree")]),
          ("e4", "p4", [("education", "study_in_progress:study-beside-work-en", "Bachelor's degree")])]
    d = _held_run(tmp_path, [("h1", "education", "Bachelor's degree", 0.14, "suspended", ba, True, ["e2", "e4"])], ev)
    assert hypothesis_guesses(d.conn, "r1")["education"] == ["studying towards a Bachelor's degree", "Bachelor's degree"]
    d.conn.close()
    d = _held_run(tmp_path / "b", [("h1", "education", "Bachelor's degree", 0.14, "suspended", ba, False, ["e3", "e4"])], ev)
    assert hypothesis_guesses(d.conn, "r1")["education"] == ["Bachelor's degree"]
    d.conn.close()


def test_a_student_who_works_is_guessed_in_the_twenties_never_claimed(tmp_path) -> None:
    """The typical age of a working student (general knowledge) is a held guess: SynthPAI's 25, no claim;
    a daughter's studies give no age of the poster."""
    import sqlite3

    from synthpai_pred import hypothesis_guesses
    from tests.hard_negatives import profile_of

    for i, (text, want) in enumerate((("trust me balancing school + work ain't for the faint-hearted!", "25"),
                                      ("My daughter is balancing college and a part-time job.", None))):
        root = tmp_path / str(i)
        prof, inv = profile_of(root, Case("x", [text]))
        db = sqlite3.connect(root / "runs.db")
        try:
            ages = hypothesis_guesses(db, inv.run_id).get("age", [])
        finally:
            db.close()
        assert "age" not in prof, prof
        assert (ages[:1] == [want]) if want else ("25" not in ages), (text, ages)
