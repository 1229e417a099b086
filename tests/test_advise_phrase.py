"""Advisor phrase cuts keep sentences whole and never create a new first-person cue."""
from __future__ import annotations

from core.advise.apply import _cut
from core.advise.from_run import _new_first_person_cue, _phrase
from core.engine.rules import extract_cues

AUNT = "My aunt has been a nurse for twenty years"


def _own(text: str) -> set[tuple[str, str]]:
    return {(c.attribute, c.value.lower()) for c in extract_cues(text) if c.first_person}


def test_cutting_the_relative_alone_would_make_her_job_the_users() -> None:
    assert ("occupation", "nurse") not in _own(AUNT)
    assert _new_first_person_cue(AUNT, "My aunt")            # the old cut: ". has been a nurse ..."
    phrase = _phrase(AUNT, [(0, 7, "My aunt")])
    assert phrase == AUNT and _cut(AUNT, phrase) == ""         # the whole sentence goes
    assert not _new_first_person_cue(AUNT, phrase)


def test_cuts_are_whole_clauses_or_sentences_with_clean_punctuation() -> None:
    text = f"Dinner with family. {AUNT}. Great food!"
    phrase = _phrase(text, [(None, None, "My aunt")])
    left = _cut(text, phrase)
    assert left == "Dinner with family. Great food!", left
    assert _own(left) <= _own(text)
    text = "Back home, I live near Keyuan station, love it"
    assert _cut(text, _phrase(text, [(None, None, "Keyuan station")])) == "Back home, love it"
    text = "Love bouldering with Dr. Li on weekends. Tired now."
    assert _cut(text, _phrase(text, [(None, None, "bouldering")])) == "Tired now."  # "Dr." ends no sentence
    text = "今天下班好累，我住在科苑站附近，明天见。"
    assert _cut(text, _phrase(text, [(None, None, "科苑站")])) == "今天下班好累，明天见。"


def test_a_clause_cut_that_creates_a_cue_widens_to_the_sentence() -> None:
    text = "My brother: has been a nurse for years. We cook."
    clause_cut = _cut(text, "My brother:")
    assert ("occupation", "nurse") in _own(clause_cut) - _own(text)   # the naive clause cut would leak
    phrase = _phrase(text, [(None, None, "My brother")])
    assert phrase.strip().startswith("My brother: has been a nurse")
    assert not _new_first_person_cue(text, phrase) and _cut(text, phrase) == "We cook."
