"""A data file's entries by key, read as attributes (`_P.field_en` for socio.json's pattern
`field_en`): a rule module binds a family's patterns, word lists and maps in one line each instead of
one module name per entry, and an entry the file lacks fails as an AttributeError naming the file and
the key. A dict, so the regex-linearity corpus (tests/regex_corpus.py) still walks every pattern in it."""
from __future__ import annotations

from typing import Any


class Keys(dict[str, Any]):
    def __init__(self, entries: dict[str, Any], where: str = "") -> None:
        super().__init__(entries)
        self._where = where

    def __getattr__(self, key: str) -> Any:
        try:
            return self[key]
        except KeyError:
            raise AttributeError(f"{self._where}{key}: missing" if self._where else key) from None
