"""Unicode folding for injection detection (hostile.normalise_for_detection): what a trigger may hide
behind is undone on a detection copy, character for character, so offsets map back.

* invisible characters are dropped: every format character (Unicode category Cf: zero-width
  characters, soft hyphen, bidi embeddings, overrides and isolates, Unicode tag characters
  U+E0000-E007F), variation selectors, and the blank fillers that render as nothing (Hangul fillers,
  the Braille blank, Khmer inherent vowels);
* a thin or hair space between two letters ("assis\u2009tant") is a filler inside a word: dropped;
* look-alike letters are folded to Latin with the Unicode confusables data (confusables.txt, as
  shipped by the maintained `confusable-homoglyphs` package: not a hand list); small capitals by
  their Unicode name ("LATIN LETTER SMALL CAPITAL A" is "a");
* leetspeak digits inside a word are undone ("b0t", "1gn0re", "4ss1st4nt"); a word that only ends
  in digits ("gpt4", "covid19", "ps5") and ordinals or units ("3rd", "90s", "5km") are left alone.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from core.engine.rules.recognizer_data import family

# blank fillers that are no format character but render as nothing (DerivedCoreProperties
# Default_Ignorable_Code_Point letters, and the Braille blank used as an invisible "space")
_FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u034f")
_THIN_SPACES = frozenset("\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f")
_SMALL_CAPITAL = "LATIN LETTER SMALL CAPITAL "


def invisible(ch: str) -> bool:
    """A character that renders as nothing: format characters, variation selectors, fillers."""
    if ch.isascii():
        return False
    o = ord(ch)
    return (unicodedata.category(ch) == "Cf" or ch in _FILLERS or 0xFE00 <= o <= 0xFE0F or 0xE0100 <= o <= 0xE01EF
            or 0xE0000 <= o <= 0xE007F)


def thin_space(ch: str) -> bool:
    return ch in _THIN_SPACES


@lru_cache(maxsize=1)
def confusable_map() -> dict[str, str]:
    """Non-ASCII letter -> the ASCII letter it looks like (Unicode confusables data; one hop through
    another look-alike when no ASCII letter is listed directly). Digits are no target: "б" is no "6"."""
    from confusable_homoglyphs.confusables import confusables_data as data

    def ascii_letters(entries: list[dict]) -> list[str]:
        return [e["c"] for e in entries if len(e["c"]) == 1 and e["c"].isascii() and e["c"].isalpha()]

    out: dict[str, str] = {}
    for ch, entries in data.items():
        if len(ch) != 1 or ch.isascii():
            continue
        targets = ascii_letters(entries) or [t for e in entries for t in ascii_letters(data.get(e["c"], []))]
        if targets:
            # "I" and "l" look alike; an I is the likelier letter of a trigger word (AI, ignore)
            # (the data's skeleton of I is l: a capital look-alike is read as the capital)
            cap = not ch.islower()
            out[ch] = "I" if "I" in targets or (cap and targets[0] == "l") else targets[0]
    return out


@lru_cache(maxsize=4096)
def fold_letter(ch: str) -> str:
    """A small capital as its letter, a look-alike as the ASCII letter it imitates, else itself."""
    if ch.isascii():
        return ch
    name = unicodedata.name(ch, "")
    if name.startswith(_SMALL_CAPITAL) and len(name) == len(_SMALL_CAPITAL) + 1:
        return name[-1].lower()
    return confusable_map().get(ch, ch)


_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"})
_LEET_WORD = re.compile(r"(?<![\w@$])[A-Za-z0-9@$]*[A-Za-z][A-Za-z0-9@$]*(?![\w@$])")
# a word with a leet digit between letters, or leading digits before two letters or more
_INNER = re.compile(r"[A-Za-z][0-9@$]+[A-Za-z]")
_LEADING = re.compile(r"^[0-9@$]+[A-Za-z]{2,}")
_SHORT = re.compile(r"^[a-z]{1,2}[0-9]{1,2}$")        # "t0", "m3": lowercase (no "A1", "Q2", "F1")
# ordinals and units ("3rd", "90s", "5km"): core/data/recognizers/disguises.json
_ORDINAL_UNIT = family("disguises").pattern("ordinal_unit")


# "A1" / "A|" / "Al" for "AI" where an addressee is plain: before an addressee noun or after a salutation
_AI_LEET = family("disguises").pattern("ai_leet")      # data: disguises.json ai_leet


def undo_leet(text: str) -> str:
    """Leetspeak digits read as letters inside words (same length, so offsets hold)."""
    if not any(c in "013457@$|l" for c in text):
        return text

    def fix(m: re.Match[str]) -> str:
        w = m.group(0)
        if _ORDINAL_UNIT.match(w) or not (_INNER.search(w) or _LEADING.match(w) or _SHORT.match(w)):
            return w
        return w.translate(_LEET)

    return _AI_LEET.sub("AI", _LEET_WORD.sub(fix, text))
