"""Encoded blobs (base64, hex) inside user text: the digits of "aGVsbG8gMTEwMTAxMTk5MDAzMDc0NTc4"
or of a 40-digit hex digest are no phone, ID card or staff number (issue 26). A blob is a run of
base64 / hex characters of at least MIN_LEN that mixes letters and digits and reads as an
encoding: hex digits only, or both letter cases, or base64's + / = characters."""
from __future__ import annotations

import re

MIN_LEN = 16
_RUN = re.compile(r"[A-Za-z0-9+/=_-]{%d,}" % MIN_LEN)
_HEX = re.compile(r"(?:0x)?[0-9a-fA-F]+")


def _is_blob(tok: str) -> bool:
    core = tok.strip("=-_")
    letters = sum(c.isalpha() for c in core)
    digits = sum(c.isdigit() for c in core)
    if not letters or not digits:
        return False
    if _HEX.fullmatch(core) and len(core) >= MIN_LEN:
        return True
    mixed_case = any(c.islower() for c in core) and any(c.isupper() for c in core)
    return (mixed_case and "-" not in core) or "+" in core or "/" in core or tok.endswith("=")


def blob_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of the encoded blobs of `text`."""
    return [(m.start(), m.end()) for m in _RUN.finditer(text) if _is_blob(m.group(0))]


def in_blob(spans: list[tuple[int, int]], s: int, e: int) -> bool:
    return any(a < e and s < b for a, b in spans)
