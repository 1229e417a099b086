"""The language of a sentence (issue 33): py3langid (a maintained fork of langid.py: a naive Bayes
model over byte n-grams, 97 languages, the model shipped inside its wheel -- offline, no download
at run time) with a normalised confidence. A short or mixed sentence gets a low confidence; the
language packs (reading/lang.py) then fall back to their own words."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

# a sentence this short says too little for a byte n-gram model ("lol same" reads as Tagalog)
MIN_LETTERS = 12


@lru_cache(maxsize=1)
def _identifier() -> Any:
    # deferred: loading the model takes about a second, and only a run that reads text needs it
    from py3langid.langid import MODEL_FILE, LanguageIdentifier
    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


@lru_cache(maxsize=16384)
def identify(sentence: str) -> tuple[str, float]:
    """(ISO 639-1 code, confidence 0..1) of one sentence; ("", 0.0) when it has too few letters."""
    if sum(c.isalpha() for c in sentence) < MIN_LETTERS:
        return "", 0.0
    code, p = _identifier().classify(sentence)
    return str(code), round(float(p), 3)
