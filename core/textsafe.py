"""Printing untrusted text on a terminal: control and escape characters are kept in the data
but shown as visible escapes (`\\x1b`, `\\u202e`), so a caption, file name or profile value
cannot clear the screen, retitle the window, hide text or reorder it. Pure; no rich import
at module level (core/ never depends on the console)."""
from __future__ import annotations

import re

# C0 controls except tab and newline, DEL, C1 controls (0x9b is a one-byte CSI), and the
# bidirectional overrides/isolates that reorder what is shown
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _show(m: re.Match[str]) -> str:
    c = ord(m.group(0))
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"


def printable(text: object) -> str:
    """str(text) with every terminal control character replaced by a visible escape."""
    s = str(text)
    return _UNSAFE.sub(_show, s) if _UNSAFE.search(s) else s


def escape(text: object) -> str:
    """printable() and then rich markup escaping: the one escape for console output."""
    from rich.markup import escape as markup_escape

    return markup_escape(printable(text))
