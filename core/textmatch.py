"""Text normalisation and matching rules of the sopri/1 spec, shared by evaluator and engine.

NFKC, case-folded, punctuation as space. Latin-script needles match as whole words
(no Latin letter or digit directly before/after); needles containing other scripts
(CJK, ...) match as substrings.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_SPACE = re.compile(r"\s+")


def _is_punct(ch: str) -> bool:
    cat = unicodedata.category(ch)
    return cat.startswith("P") or cat.startswith("S")


@lru_cache(maxsize=65536)
def normalize(text: str) -> str:
    t = unicodedata.normalize("NFKC", text or "").casefold()
    t = "".join(" " if _is_punct(c) else c for c in t)
    return _SPACE.sub(" ", t).strip()


def _is_latin_alnum(ch: str) -> bool:
    if ch.isdigit() and ch.isascii():
        return True
    if not ch.isalpha():
        return False
    try:
        return "LATIN" in unicodedata.name(ch)
    except ValueError:
        return False


def is_latin_text(text: str) -> bool:
    """True when every letter of the text is Latin-script (digits/space/punct allowed)."""
    return all(_is_latin_alnum(c) or not c.isalnum() for c in text)


def contains(haystack: str, needle: str, *, normalized: bool = False) -> bool:
    """Spec matching: whole-word for Latin needles, substring otherwise."""
    h = haystack if normalized else normalize(haystack)
    n = normalize(needle)
    if not n:
        return False
    if not is_latin_text(n):
        return n in h
    start = 0
    while True:
        i = h.find(n, start)
        if i < 0:
            return False
        before = h[i - 1] if i > 0 else ""
        after = h[i + len(n)] if i + len(n) < len(h) else ""
        if not (before and _is_latin_alnum(before)) and not (after and _is_latin_alnum(after)):
            return True
        start = i + 1


def contains_substring(haystack: str, needle: str) -> bool:
    """Plain case-insensitive substring on normalised text (facts keywords)."""
    n = normalize(needle)
    return bool(n) and n in normalize(haystack)
