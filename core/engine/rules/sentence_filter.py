"""Which sentences are worth embedding: cheap checks that skip text no prototype can match.

The semantic layer (semantic.py) compares a sentence with first-person prototype statements;
embedding costs ~2 ms per token on one core, so text that cannot be such a statement is not
embedded at all:

* nothing but links, @mentions, hashtags, numbers, emoji or punctuation left after removing
  those (fewer than `MIN_WORDS` Latin words and `MIN_CJK` CJK characters);
* a generic statement: its first word (after interjections such as "honestly", "lol") is an
  impersonal or third-person subject ("it's like fishing", "people never…", "cities aren't…")
  and no first-person word occurs anywhere in it.

Recall cost measured on SynthPAI dev and the other development sets (docs/semantic.md, Cost).
"""
from __future__ import annotations

import re

from core.engine.rules.base import CJK

MIN_WORDS = 4
MIN_CJK = 6

# links (also a link's tail after the sentence splitter cut it at a dot), mentions, hashtags, numbers
_NOISE = re.compile(r"(?:https?://|www\.)\S+|\S*/\S*|[#@][\w\u3400-\u9fff]+|\d[\d.,:/%-]*", re.I)
_WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?")
_FIRST_PERSON = re.compile(
    r"\b(?:i|i'm|im|i've|ive|i'd|i'll|my|me|mine|myself|we|we're|we've|our|ours|us|ourselves)\b|我|咱|俺|本人|自己", re.I)
_LEAD = re.compile(
    r"^(?:(?:honestly|tbh|lol|lmao|haha+|ha|yeah|yep|yup|nah|oh|ah|well|so|but|and|plus|also|imo|imho|wow|man|dude|"
    r"ngl|idk|ok|okay|totally|definitely|seriously|literally|yes|no|hmm+|meh|ugh|anyway|anyways)\b[\s,.!:;~-]*)+", re.I)
_GENERIC_SUBJECT = re.compile(
    r"^(?:it|it's|its|this|that|that's|these|those|there|there's|they|they're|people|folks|everyone|everybody|"
    r"nobody|no one|someone|somebody|most|many|what|what's|who|why|how|such|nothing|anything|something|the|a|an|every|each|all|some|you|your|you're|ya)\b", re.I)


def content_words(piece: str) -> tuple[int, int]:
    """(Latin words, CJK characters) of the piece without links, mentions, hashtags and numbers."""
    rest = _NOISE.sub(" ", piece)
    return len(_WORD.findall(rest)), len(CJK.findall(rest))


def is_generic(piece: str) -> bool:
    """An impersonal or third-person statement with no first-person word in it."""
    t = piece.replace("\u2019", "'")
    if _FIRST_PERSON.search(t):
        return False
    head = _LEAD.sub("", t.strip().lstrip("\"'“‘(*-–—• "))
    return bool(_GENERIC_SUBJECT.match(head))


def worth_embedding(piece: str) -> bool:
    """False when no prototype (a first-person statement) can match the sentence."""
    words, cjk = content_words(piece)
    if words < MIN_WORDS and cjk < MIN_CJK:
        return False
    return not is_generic(piece)
