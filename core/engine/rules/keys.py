"""A data file's entries by key, read as attributes (`_P.field_en` for socio.json's pattern
`field_en`): a rule module binds a family's patterns, word lists and maps in one line each instead of
one module name per entry, and an entry the file lacks fails as an AttributeError naming the file and
the key. A dict, so the regex-linearity corpus (tests/regex_corpus.py) still walks every pattern in it."""
from __future__ import annotations

from typing import Any


_DICT_NAMES = frozenset(dir(dict))


class Keys(dict[str, Any]):
    def __init__(self, entries: dict[str, Any], where: str = "") -> None:
        super().__init__(entries)
        self._where = where
        clash = sorted(set(entries) & _DICT_NAMES)
        if clash:       # an entry named like a dict method would hide it
            raise ValueError(f"{where or 'keys: '}{clash[0]}: an entry may not be named like a dict method")
        for k, v in entries.items():      # plain attributes: a read is no __getattr__ call (hot path)
            setattr(self, k, v)

    def __getattr__(self, key: str) -> Any:     # reached only for a key the file lacks
        try:
            return self[key]
        except KeyError:
            raise AttributeError(f"{self._where}{key}: missing" if self._where else key) from None
