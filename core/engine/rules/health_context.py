"""Whether a sentence is about health (core/data/recognizers/health_context.json): a condition word
in a sentence with no such word, in a text that speaks of nobody, is no disclosure (sensitive.py).
Validated at load (rules/recognizer_data.py): a bad file is one clear error naming the file and the field."""
from __future__ import annotations

import re
from functools import cache

from core.engine.rules.recognizer_data import RecognizerDataError, family


@cache
def _pattern() -> re.Pattern[str]:
    d = family("health_context")
    words = d.words("health")
    if not words or any(not w.strip() for w in words):
        raise RecognizerDataError(f"{d.path}: field words.health: an empty word list or an empty word")
    latin = sorted({w.lower() for w in words if w.isascii()}, key=len, reverse=True)
    other = sorted({w for w in words if not w.isascii()}, key=len, reverse=True)
    parts = [r"\b(?:" + "|".join(map(re.escape, latin)) + ")"] if latin else []
    parts += [re.escape(w) for w in other]
    return re.compile("|".join(parts), re.I)


def health_context(sentence: str) -> bool:
    return bool(_pattern().search(sentence))
