"""The output boundary: every string that came from input (a caption, a file name, a profile
value, an advice line, a media uri) and reaches a terminal, a Textual widget, stdout, stderr, a
log line, JSON or CSV written for people, or HTML goes through this module. The characters stay
in the data; only what is shown changes. Pure; no rich import at module level (core/ never
depends on the console).

The rule, one for every output:
- terminal, widget, log, CSV cell: `printable(text)` shows each unsafe character as a visible
  escape (`\\x1b`, `\\x9b`, `\\u202e`, `\\u200b`): C0 controls (ESC, BEL, CR, ...), DEL, C1
  controls (U+009B is a one-byte CSI), bidi overrides / isolates / marks, invisible format
  characters (Unicode category Cf: zero-width space, word joiner, BOM, tag characters, ...),
  line / paragraph separators and lone surrogates. Newline and tab are escaped too (a value
  cannot forge a second line) unless `lines=True`, where a layout shows several lines (a caption
  in a pane). Where Rich renders markup, `escape(text)`: printable() then markup escaping, so
  "[link=...]" or "[/]" in data shows literally.
- JSON for people: `json_text(obj)` (or `json_escape(text)` on serialized JSON): valid JSON whose strings carry the same characters, the
  unsafe ones written as `\\uXXXX` escapes (lossless: a JSON reader gets the data back; a
  terminal that shows the file gets no control byte).
- HTML: `html_text(text)` = html.escape(printable(text, lines=True)).
- an editable field (a console Input showing a path or a route parameter): `glyphs(text)`, one
  visible character per unsafe one (␛, ␇, U+FFFD), so the cursor still counts right; the value
  itself is unchanged.

Why a hand-written class rather than a library: the set is Unicode's own categories
(unicodedata, stdlib) plus the C0/C1 ranges; no maintained package does "visible escape for a
terminal" with Rich markup escaping, and this is 30 lines."""
from __future__ import annotations

import functools
import html
import json
import re
import sys
import unicodedata
from typing import Any

# a Cf character the emoji ZWJ sequences need (👩‍💻): kept between two pictographs only
_ZWJ = "\u200d"


@functools.cache
def _unsafe_chars() -> str:
    """Every code point printable() escapes (besides newline and tab), as a regex class body.
    Format characters (Cf) live in planes 0, 1 and 14 only; they are collected as ranges."""
    out = ["\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff"]
    start = prev = -2
    for cp in (*range(0xA0, 0xD800), *range(0xE000, 0x20000), *range(0xE0000, 0xE1000)):
        if unicodedata.category(chr(cp)) != "Cf":
            continue
        if cp != prev + 1:
            if start >= 0:
                out.append(f"{re.escape(chr(start))}-{re.escape(chr(prev))}")
            start = cp
        prev = cp
    out.append(f"{re.escape(chr(start))}-{re.escape(chr(prev))}")
    return "".join(out)


@functools.cache
def _pattern(lines: bool) -> re.Pattern[str]:
    """Built on first use (about 70 ms: a scan of Unicode's categories), not at import."""
    return re.compile(f"[{_unsafe_chars()}]" if lines else f"[{_unsafe_chars()}\t\n]")

_PICTO = re.compile(r"[\u2600-\u27bf\U0001f000-\U0001faff\ufe0f]")


def _show(m: re.Match[str]) -> str:
    c = m.group(0)
    if c == "\n":
        return "\\n"
    if c == "\t":
        return "\\t"
    if c == _ZWJ:            # emoji ZWJ sequence: both neighbours pictographs
        s, i = m.string, m.start()
        if 0 < i < len(s) - 1 and _PICTO.match(s[i - 1]) and _PICTO.match(s[i + 1]):
            return c
    n = ord(c)
    return f"\\x{n:02x}" if n < 0x100 else (f"\\u{n:04x}" if n < 0x10000 else f"\\U{n:08x}")


def printable(text: object, *, lines: bool = False) -> str:
    """str(text) with every unsafe character (see the module docstring) shown as a visible
    escape; newline and tab too unless `lines` (a layout that shows several lines)."""
    s = str(text)
    pat = _pattern(lines)
    return pat.sub(_show, s) if pat.search(s) else s


def _glyph(m: re.Match[str]) -> str:
    n = ord(m.group(0))
    return chr(0x2400 + n) if n < 0x20 else ("\u2421" if n == 0x7F else "\ufffd")


def glyphs(text: object) -> str:
    """For an editable field, where the length must not change (the cursor counts characters):
    each unsafe character (newline and tab too) as one visible character: C0 as its Control
    Picture (ESC -> ␛, BEL -> ␇), DEL as ␡, any other (C1, bidi, Cf) as U+FFFD."""
    s = str(text)
    pat = _pattern(False)
    return pat.sub(_glyph, s) if pat.search(s) else s


def escape(text: object, *, lines: bool = False) -> str:
    """printable() and then Rich markup escaping: the one escape for Rich console output."""
    from rich.markup import escape as markup_escape

    return markup_escape(printable(text, lines=lines))


def _json_escape(m: re.Match[str]) -> str:
    c = m.group(0)
    if c == _ZWJ:
        s, i = m.string, m.start()
        if 0 < i < len(s) - 1 and _PICTO.match(s[i - 1]) and _PICTO.match(s[i + 1]):
            return c
    n = ord(c)
    if n < 0x10000:
        return f"\\u{n:04x}"
    n -= 0x10000
    return f"\\u{0xD800 + (n >> 10):04x}\\u{0xDC00 + (n & 0x3FF):04x}"


def json_escape(serialized: str) -> str:
    """Already serialized JSON (json.dumps, pydantic's model_dump_json) with every unsafe
    character written as a `\\uXXXX` escape: the same data for a JSON reader, no control byte
    for a terminal. Outside strings JSON holds only ASCII punctuation, digits and whitespace, so
    only string contents change (newline and tab in strings are already escaped by JSON)."""
    pat = _pattern(True)
    return pat.sub(_json_escape, serialized) if pat.search(serialized) else serialized


def json_text(obj: Any, **kw: Any) -> str:
    """json.dumps(obj, ensure_ascii=False, **kw) through json_escape(): JSON for people."""
    return json_escape(json.dumps(obj, ensure_ascii=False, **kw))


def html_text(text: object) -> str:
    """Text for an HTML page: printable (newlines kept) and HTML-escaped."""
    return html.escape(printable(text, lines=True))
