"""Which sentences are worth embedding: a cheap check that skips text no prototype can match.

The semantic layer (semantic.py) compares a sentence with first-person prototype statements;
embedding costs ~2 ms per token on one core, so a sentence with nothing left after removing
links, @mentions, hashtags and numbers (fewer than `MIN_WORDS` Latin words and `MIN_CJK` CJK
characters) is not embedded at all.

Measured and rejected (docs/semantic.md, Cost): skipping generic statements (an impersonal or
third-person first word and no first-person word: "it's like fishing…", "people never…") cost
one SynthPAI dev pair of top-1; skipping sentences without "I"/"my" would drop 73 % of the
sentences that match a prototype there ("studied marketing too – now navigating ads daily").
"""
from __future__ import annotations

import re

from core.engine.rules.base import CJK

MIN_WORDS = 4
MIN_CJK = 6

# links (also a link's tail after the sentence splitter cut it at a dot), mentions, hashtags, numbers
_NOISE = re.compile(r"(?:https?://|www\.)\S+|(?<!\S)\S*/\S*|[#@][\w\u3400-\u9fff]+|\d[\d.,:/%-]*", re.I)
WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?")     # a Latin word (hostile_semantic counts them too)


def worth_embedding(piece: str) -> bool:
    """False when no prototype (a first-person statement) can match the sentence: too few Latin
    words and CJK characters once links, mentions, hashtags and numbers are removed."""
    rest = _NOISE.sub(" ", piece)
    return len(WORD.findall(rest)) >= MIN_WORDS or len(CJK.findall(rest)) >= MIN_CJK
