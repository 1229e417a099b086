"""A data file's entries by key, read as attributes (`_P.field_en` for socio.json's pattern
`field_en`): a rule module binds a family's patterns, word lists and maps in one line each instead of
one module name per entry, and an entry the file lacks fails as a KeyError naming it. A dict, so the
regex-linearity corpus (tests/regex_corpus.py) still walks every pattern in it."""
from __future__ import annotations

from typing import Any


class Keys(dict[str, Any]):
    def __getattr__(self, key: str) -> Any:
        try:
            return self[key]
        except KeyError:
            raise AttributeError(key) from None
