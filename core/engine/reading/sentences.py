"""The one sentence splitter of the engine (issue 23: the perceiver, the rules, the text features
and the hostile detectors each had their own). A sentence is a run of text without a terminator
(. ! ? 。 ！ ？ or a line break), then its closing punctuation; the callers differ only in how
much of what follows they take, so each gets the same cut through one function here."""
from __future__ import annotations

import re

TERMINATORS = ".!?。！？"
# body + closing punctuation (what the semantic layers embed, what the rules call a sentence)
SENTENCE = re.compile(r"[^.!?。！？\n]+[.!?。！？]*")
_TERMINATOR = re.compile(r"[.!?。！？\n]")
_TAIL = re.compile(r"[.!?。！？\n]*")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence with its closing punctuation ("Hi there!" of "Hi there!\\nBye")."""
    return [m.span() for m in SENTENCE.finditer(text)]


def sentence_bodies(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence without its closing punctuation."""
    out = []
    for m in SENTENCE.finditer(text):
        e = m.end()
        while e > m.start() and text[e - 1] in TERMINATORS:
            e -= 1
        out.append((m.start(), e))
    return out


def sentence_runs(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence with everything up to the next one: punctuation and line
    breaks (the ranges a hostile sentence blanks)."""
    out = []
    for m in SENTENCE.finditer(text):
        out.append((m.start(), _TAIL.match(text, m.end()).end()))
    return out


def sentence_starts(text: str) -> list[int]:
    """0 and the offset after every terminator character: bisect it for the start of the sentence
    that holds a position (the hostile detectors cut from the start of a trigger's sentence)."""
    return [0] + [m.end() for m in _TERMINATOR.finditer(text)]


def next_terminator(text: str, pos: int) -> int | None:
    """The offset of the first terminator at or after `pos` (None: the text ends first)."""
    m = _TERMINATOR.search(text, pos)
    return None if m is None else m.start()
