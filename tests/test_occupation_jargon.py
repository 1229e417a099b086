"""Job jargon the taxonomy's task lists lacked (core/data/recognizers/occupations.json, `tasks`; read by
rules/occupation_taxonomy._tasks): a plural of a listed phrase ("layovers"), a crew's rota wording
("report time"), a developer's ("debugging", "regex"), a landscape gardener's ("drip irrigation", "mulch").
Kinds seen in sopri-dev2 (cabin crew, landscape gardener), SynthPAI (a developer's debugging) and PRISM
("debugging code"). Two phrases of one entry in one post are still needed, and a pastime job's jargon
(gardening) still needs work wording in the post. Runs the real engine (offline backend, real SQLite);
every positive case gave no occupation on main 9c0ec43."""
from __future__ import annotations

import pytest

from tests.hard_negatives import Case, profile_of


def _occupation(tmp_path, text: str) -> str | None:
    prof, _ = profile_of(tmp_path, Case("x", [text]))
    return prof.get("occupation")


@pytest.mark.parametrize("text, role", [
    ("New roster is out: two Doha layovers next month and report time 03:50 for the first one.",
     "Flight Attendant"),
    ("Spent the morning debugging a flaky job and writing a regex I will not understand tomorrow.",
     "Software Engineer"),
    ("New client in Rondebosch: out with the lawn, in with drip irrigation and a thick layer of mulch.",
     "Gardener"),
])
def test_missing_jargon_now_names_the_job(text: str, role: str, tmp_path) -> None:
    got = _occupation(tmp_path, text)
    assert got is not None and got.startswith(role), got


@pytest.mark.parametrize("text", [
    "Spent Saturday mulching and pruning the roses in my garden, bliss.",        # a pastime: no work wording
    "Three layovers in Istanbul on the way to my cousin's wedding, never again.",  # one phrase: a traveller
    'I even "debugged" the cake recipe like I do with my coding hobby.',         # a pastime's joke
])
def test_one_phrase_or_a_pastime_names_no_job(text: str, tmp_path) -> None:
    assert _occupation(tmp_path, text) is None
