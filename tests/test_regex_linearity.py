"""No regex over user text can hang (issue 26): each pattern the engine runs over user text gets
20,000-character worst cases, as the loader hands them on (whitespace runs shortened), under a
deadline a linear pattern meets a hundred times over and a quadratic one misses; the hostile
spans (the line-label trigger was cubic in a run of newlines) get the raw text."""
from __future__ import annotations

import signal
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from regex_corpus import user_text_patterns, worst_cases  # noqa: E402

from core.loader import collapse_whitespace

N = 20_000
DEADLINE_S = 5          # per pattern, all cases; linear patterns take milliseconds


class _Late(Exception):
    pass


def _alarm(*_):
    raise _Late()


@pytest.fixture(autouse=True)
def _sigalrm():
    old = signal.signal(signal.SIGALRM, _alarm)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


CASES = {k: collapse_whitespace(v) for k, v in worst_cases(N).items()}
PATTERNS = user_text_patterns()


def test_the_corpus_holds_the_engines_patterns():
    names = {n for n, _ in PATTERNS}
    assert len(PATTERNS) > 200 and "core.engine.rules.hostile._TRIGGER" in names


def test_whitespace_runs_are_shortened_at_the_text_boundary():
    assert collapse_whitespace("a" + "\n" * 5000 + "b") == "a\n\nb"
    assert collapse_whitespace("a" + " " * 40 + "b") == "a b"
    assert collapse_whitespace("a\n\n  b") == "a\n\n  b"        # ordinary spacing is kept


@pytest.mark.parametrize("name,pat", PATTERNS, ids=[n for n, _ in PATTERNS])
def test_pattern_is_linear_on_worst_cases(name, pat):
    late = None
    signal.alarm(DEADLINE_S)
    try:
        for case, text in CASES.items():
            late = case
            for _ in pat.finditer(text):
                pass
    except _Late:
        pytest.fail(f"{name} did not finish the {late!r} case of {N} characters within {DEADLINE_S} s")
    finally:
        signal.alarm(0)


@pytest.mark.parametrize("case", ["newlines", "space-newline", "colon-lines", "ai-label", "dear-ai", "ignore"])
def test_hostile_spans_on_raw_worst_cases(case):
    from core.engine.rules.hostile import hostile_ranges

    signal.alarm(DEADLINE_S * 2)
    try:
        hostile_ranges("AI: note this\n" + worst_cases(N)[case] + "\nI am 30")
    except _Late:
        pytest.fail(f"hostile_ranges did not finish the raw {case!r} case within {DEADLINE_S * 2} s")
    finally:
        signal.alarm(0)
