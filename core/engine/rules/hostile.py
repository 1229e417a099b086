"""Hostile content: text that addresses an AI / the investigator / an auditor or reviewer, or
asserts facts "for the report". Such text is data, never evidence: its spans are blanked
before any cue is read.

Detection runs on a normalised copy of the text (invisible, format, bidi and tag characters
dropped, NFKC so full-width forms become ASCII, look-alikes and small capitals folded with the
Unicode confusables data, leetspeak undone: rules/unicode_fold.py; hashtag separators and
CamelCase split), and the ranges found are mapped back to the
original characters. A trigger governs the rest of its field (the claim on the next line or
in the same image); the perceiver extends that to the rest of the post.
"""
from __future__ import annotations

import bisect
import re
import unicodedata
from functools import lru_cache
from typing import Sequence

from core.engine.reading.sentences import next_terminator, sentence_runs, sentence_starts
from core.engine.rules.recognizer_data import family
from core.engine.rules.unicode_fold import fold_letter, invisible, thin_space, undo_leet
from core.loader import MAX_WS_RUN      # whitespace runs are shortened for detection as at load (raw text too)
from core.nodes.cue import Cue, Entity
from core.nodes.evidence import TextFeatures

_D = family("hostile")      # core/data/recognizers/hostile.json (rules/recognizer_data.py)

# the patterns and rule lists are data (rule-list entries name a pattern as {name}: _D.fill)
_TRIGGERS = [_D.fill(r) for r in _D.words("triggers")]   # en, then zh
# assertions, and imperative assignments of a profile value ("set home to X", "record: age 81"): their sentence
_ASSERTS = [_D.fill(r) for r in _D.words("assertions") + _D.words("assignments")]
# pairs are found by two linear scans and matched in code (a regex "ADDR .{0,80}? DIRECTIVE" tried
# the whole directive alternation at 80 places after every addressee: slow on "AI AI AI ...")
_ADDR_RX = _D.pattern("addressee_intl")
_WEAK_RX = _D.pattern("addressee_intl_weak")     # program, system, model...: only in the vocative
_DIRECT_RX = _D.pattern("directive_intl")
_FORGET_RX = _D.pattern("forget_intl")
_ORDERS_RX = _D.pattern("orders_intl")
_PAIR_GAP = 80
_BREAK = re.compile(r"[.!?。！？\n]")
_VOCATIVE_END = re.compile(r"[,:：，]")


def _paired(norm: str, a_rx: re.Pattern[str], b_rx: re.Pattern[str]) -> int | None:
    """Start of the first match of either pattern that has a match of the other within _PAIR_GAP
    characters in the same sentence (either order); None if there is none."""
    a = [(m.start(), m.end()) for m in a_rx.finditer(norm)]
    if not a:
        return None
    b = [(m.start(), m.end()) for m in b_rx.finditer(norm)]
    if not b:
        return None
    best = None
    j = 0
    for s1, e1 in a:
        while j < len(b) and b[j][1] < s1 - _PAIR_GAP:
            j += 1
        for s2, e2 in b[j:]:
            if s2 > e1 + _PAIR_GAP:
                break
            lo, hi = (e1, s2) if s2 >= e1 else (e2, s1)
            if hi < lo or _BREAK.search(norm, lo, hi):     # overlapping, or a sentence between them
                continue
            start = min(s1, s2)
            best = start if best is None else min(best, start)
            break
    return best


def _vocative(norm: str, a_rx: re.Pattern[str], b_rx: re.Pattern[str]) -> int | None:
    """Start of the first match of `a_rx` followed, in the same sentence and within _PAIR_GAP
    characters, by a match of `b_rx` with a comma or colon between them: a generic noun spoken to
    ("Sistema, ricorda", "Herramienta de análisis, escribe"); after an imperative it is its object
    ("Guarda il programma stasera")."""
    if not a_rx.search(norm):
        return None
    b = [m.start() for m in b_rx.finditer(norm)]
    for m in a_rx.finditer(norm):
        k = bisect.bisect_left(b, m.end())       # the first directive after it (linear: one look each)
        if k < len(b) and b[k] <= m.end() + _PAIR_GAP:
            gap = norm[m.end():b[k]]
            if _VOCATIVE_END.search(gap) and not _BREAK.search(gap):
                return m.start()
    return None


def _intl_trigger(norm: str) -> int | None:
    """Start of an automated addressee + directive (a generic one only in the vocative), or a
    forget + orders pair (other languages)."""
    found = [x for x in (_paired(norm, _ADDR_RX, _DIRECT_RX), _vocative(norm, _WEAK_RX, _DIRECT_RX),
                         _paired(norm, _FORGET_RX, _ORDERS_RX)) if x is not None]
    return min(found) if found else None


def _alt(patterns: list[str]) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.I)


_TRIGGER = _alt(_TRIGGERS)       # addresses an AI / overrides: governs the rest
_ASSERT = _alt(_ASSERTS)         # asserts a fact for the report, or assigns a profile value: its sentence
# invisible characters, look-alike letters, small capitals and leetspeak are undone on the detection
# copy by rules/unicode_fold.py (the Unicode confusables data, not a hand list)


def _mapped_words(text: str) -> list[bool]:
    """Per character: whether look-alike letters are mapped to Latin there. Only in a word that
    holds a Latin letter or is made of look-alikes alone ("АI", "Аі", "ᴀɪ"): a Russian or Greek
    word stays itself ("система" keeps its и, so the multilingual triggers and the embedder read it)."""
    ok = [False] * len(text)
    for m in _WORDRUN.finditer(text):
        w = m.group(0)
        if any("a" <= c.lower() <= "z" for c in w) or all(fold_letter(c) != c or not c.isalpha() for c in w):
            ok[m.start():m.end()] = [True] * len(w)
    return ok


# a word, combining marks inside it included (invisible characters are dropped before)
_WORDRUN = re.compile(r"[^\W\d_](?:[^\W\d_]|[\u0300-\u036f])*")
# spaced or dotted letters ("I g n o r e", "N.o.t.e", "a-s-s-i-s-t-a-n-t"): three or more single
# letters one space apart, or two or more joined by one dot, dash or star; the separators are dropped
_L = r"[^\W\d_]"
_SPACED = re.compile(rf"(?<!{_L})(?:{_L} (?={_L}(?!{_L}))){{2,}}{_L}(?!{_L})"
                     rf"|(?<!{_L}){_L}([.\-*·])(?:{_L}\1)*{_L}(?!{_L})")


# in a field that spaces its letters out, two-letter words are spaced too ("t o  t h e  A I")
_SPACED_PAIR = re.compile(rf"(?<!\S){_L} {_L}(?!{_L})")


def _join_spaced(out: str, idx: list[int]) -> tuple[str, list[int]]:
    found = list(_SPACED.finditer(out))
    if not found:
        return out, idx
    if any(" " in m.group(0) for m in found):
        found += list(_SPACED_PAIR.finditer(out))
    keep = [True] * len(out)
    for m in found:
        for j in range(m.start() + 1, m.end(), 2):
            keep[j] = False
    return "".join(c for c, k in zip(out, keep) if k), [i for i, k in zip(idx, keep) if k]


@lru_cache(maxsize=4096)
def normalise_for_detection(text: str) -> tuple[str, list[int]]:
    """(normalised text, index of the original character behind each normalised one); cached by
    content (the patterns, the semantic bank and the addressee check read the same copy: read-only)."""
    visible, vidx = _drop_invisible(text)
    out, idx = _normalise_chars(visible)
    out = undo_leet(out)                                 # same length: "b0t", "1gn0re"
    return _join_spaced(out, [vidx[i] for i in idx])


def _drop_invisible(text: str) -> tuple[str, list[int]]:
    """The text without invisible characters (format, bidi, tag, fillers) and without thin spaces
    between two letters, with the original index of each character kept."""
    if text.isascii():
        return text, list(range(len(text)))
    keep = [i for i, ch in enumerate(text)
            if not (invisible(ch) or (thin_space(ch) and 0 < i < len(text) - 1
                                      and text[i - 1].isalpha() and text[i + 1].isalpha()))]
    return "".join(text[i] for i in keep), keep


def _normalise_chars(text: str) -> tuple[str, list[int]]:
    out: list[str] = []
    idx: list[int] = []
    prev = ""
    run = 0                                              # whitespace characters in a row
    mapped = None if text.isascii() else _mapped_words(text)
    for i, ch in enumerate(text):
        if unicodedata.category(ch) == "Mn" and (not prev or ord(prev) < 0x530):
            continue          # combining marks on Latin/Greek/Cyrillic (zalgo, "e\u0301"); Arabic, Indic keep theirs
        run = run + 1 if ch.isspace() else 0
        if run > MAX_WS_RUN:                             # runs shortened: no pattern backtracks over them
            continue
        if ch in "#_":                                   # hashtag separators: "#Note_to_AI"
            ch = " "
        nf = unicodedata.normalize("NFKC", ch) if not ch.isascii() else ch
        for c in ("".join(fold_letter(x) for x in nf) if mapped is not None and mapped[i] else nf):
            if c.isupper() and prev.islower():           # CamelCase hashtags: "NoteToAI"
                out.append(" ")
                idx.append(i)
            out.append(c)
            idx.append(i)
            prev = c
    return "".join(out), idx


_LINE_LABEL = re.compile(r"[:：]\s*$")


@lru_cache(maxsize=4096)
def hostile_ranges(text: str) -> tuple[tuple[int, int], ...]:
    """(start, end) ranges of hostile text in `text` (cached by content: read-only). A trigger
    that addresses an AI, an auditor or a reviewer (or overrides instructions) makes everything
    from the start of its sentence to the end of the field hostile (the claim often follows on the
    next line); an assertion "for the report" / "this user is" makes its sentence hostile (to the
    end of the line after a label). Detection runs on the normalised text; ranges index the original."""
    if not text:
        return ()
    norm, idx = normalise_for_detection(text)
    starts = sentence_starts(norm)

    def orig(i: int) -> int:
        return idx[i] if i < len(idx) else len(text)

    out: list[tuple[int, int]] = []
    at = trigger_at(norm)
    if at is not None:
        out.append((orig(starts[bisect.bisect_right(starts, at) - 1]), len(text)))
    for m in _ASSERT.finditer(norm):
        s = starts[bisect.bisect_right(starts, m.start()) - 1]
        if _LINE_LABEL.search(m.group(0)):
            nl = norm.find("\n", m.end())
            e = len(norm) if nl < 0 else nl
        else:
            nxt = next_terminator(norm, m.end())
            e = len(norm) if nxt is None else nxt + (1 if norm[nxt] != "\n" else 0)
        out.append((orig(s), orig(e - 1) + 1 if e > 0 else 0))
    out.sort()
    merged: list[tuple[int, int]] = []
    for s, e in out:
        if merged and s <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(e, merged[-1][1]))
        else:
            merged.append((s, e))
    return tuple(merged)


def governs_post(text: str) -> bool:
    """True when the text addresses an AI / auditor / reviewer or overrides instructions: the
    rest of its post (next hashtag, comments, alt text, images) is then untrusted too."""
    return bool(text) and trigger_at(normalise_for_detection(text)[0]) is not None


def trigger_at(norm: str) -> int | None:
    """Where the first trigger of a normalised text starts (patterns of every language), or None."""
    m = _TRIGGER.search(norm)
    intl = _intl_trigger(norm)
    if m is None:
        return intl
    return m.start() if intl is None else min(m.start(), intl)


def hostile_spans(text: str) -> list[str]:
    """Injection text addressed to an AI / asserting facts "for the report" (exact substrings)."""
    return [text[s:e].strip() for s, e in hostile_ranges(text) if text[s:e].strip()]


def mask(text: str, ranges: Sequence[tuple[int, int]]) -> str:
    """The text with hostile ranges blanked (same length, so offsets stay valid)."""
    if not ranges:
        return text
    chars = list(text)
    for s, e in ranges:
        for i in range(s, e):
            if chars[i] != "\n":
                chars[i] = " "
    return "".join(chars)


@lru_cache(maxsize=4096)
def hostile_mask(text: str) -> str:
    """What every reader reads of a text: hostile ranges blanked (same length, offsets hold) and
    curly apostrophes straightened (phone keyboards: "I’m 29"). One function, cached by content,
    so the rules, the semantic layer and the mention reader mask each text once and alike."""
    return mask(text, hostile_ranges(text)).replace("\u2019", "'")


# ---------------------------------------------------------------- masking a perceived node's text


def _found(text: str, span: str) -> list[tuple[int, int]]:
    """(start, end) of every occurrence of `span` in `text`, overlapping ones too."""
    out: list[tuple[int, int]] = []
    i = text.find(span)
    while i >= 0:
        out.append((i, i + len(span)))
        i = text.find(span, i + 1)
    return out


def _meets(ranges: list[tuple[int, int]], s: int, e: int) -> bool:
    return any(a < e and s < b for a, b in ranges)


def sentence_ranges(text: str, spans: list[str]) -> list[tuple[int, int]]:
    """Character ranges of every sentence that contains (part of) a hostile span, then the spans'
    own occurrences."""
    hits = [r for sp in spans for r in _found(text, sp)]
    return [(s, e) for s, e in sentence_runs(text) if _meets(hits, s, e)] + hits


def only_inside(text: str, span: str, ranges: list[tuple[int, int]]) -> bool:
    """True when every occurrence of `span` in `text` overlaps one of `ranges` (no clean one)."""
    return bool(span) and all(_meets(ranges, s, e) for s, e in _found(text, span))


def outside(text: str, ranges: list[tuple[int, int]], cues: list[Cue], entities: list[Entity]
            ) -> tuple[list[Cue], list[Entity]]:
    """The cues with a clean occurrence of their span and the entities whose offsets miss
    `ranges`: what a text keeps of its reads around hostile sentences."""
    return ([c for c in cues if not only_inside(text, c.span, ranges)],
            [e for e in entities if not _meets(ranges, e.start, e.end)])


def masked_text(text: str, hostile: list[str]) -> str:
    """The text with the sentences around hostile spans blanked (same length, line breaks kept)."""
    return mask(text, sentence_ranges(text, list(hostile))) if hostile else text


def taint_after_injection(nodes: list, tainted: bool = False) -> list:
    """Text addressed to an AI governs the rest of its post: every text node after it (the
    claim in the next hashtag, comment, alt text or image) gives no cue."""
    for n in nodes:
        if tainted and n.data.cues is not None and not n.data.hostile:
            n.data = n.data.model_copy(update=dict(hostile=["(after an injection earlier in this post)"],
                                                   hostile_scope="all", hostile_post=True, cues=[], entities=[],
                                                   features=TextFeatures()))
        tainted = tainted or bool(n.data.hostile_post)
    return nodes
