"""Gazetteer implication for place levels (the spec's "gazetteer implication for places").

A place level (country / region / city / district) of a truth hierarchy is right when the
prediction names
  1. the level's value or an alias (plain spec rule, in the judge), or
  2. another name the gazetteer knows for that same place ("NYC" for New York, 深圳 for
     Shenzhen, "Shenzhen" for 深圳), or
  3. a place that the gazetteer says lies inside it (a district implies its city, region and
     country).
A place named in the prediction only implies its own ancestors, never its descendants or
siblings. Places are found in the prediction by the gazetteer's own scanner (`find_places`:
longest non-overlapping names; names that are also common words need capitals or a place
context), so "of" or "york" inside ordinary text imply nothing, and an ambiguous name implies
only the ancestors all its readings share ("Springfield" implies the USA only). A gazetteer
without a scanner is asked `ancestors_of` for candidate spans (`candidate_spans`). The gazetteer is `tools.gazetteer.default_gazetteer()`; when it cannot be imported
the evaluator runs without it and reports `gazetteer: none`.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Callable, Protocol

from core.eval.matching import Prediction
from core.textmatch import normalize

PLACE_LEVELS = frozenset({"country", "region", "city", "district"})
MAX_LATIN_WORDS = 4
CJK_SPAN = (2, 8)  # lengths of CJK substrings tried as place names
MAX_CANDIDATES = 400  # hostile long predictions: bound the gazetteer look-ups
MAX_SCAN_CHARS = 4000  # places implied are looked for in the first 4,000 characters of a value

_TOKEN = re.compile(r"[0-9a-z\u00c0-\u024f\u1e00-\u1eff]+|[\u3400-\u9fff\uf900-\ufaff]+")


class Gazetteer(Protocol):
    def names_for(self, text: str) -> set[str]: ...

    def ancestors_of(self, text: str) -> list[set[str]]: ...


class PlaceMatcher:
    """Caches every gazetteer look-up; one instance is shared by a whole evaluation."""

    def __init__(self, gazetteer: Gazetteer | Callable[[], Gazetteer] | None, name: str = "tools.gazetteer"):
        # a factory is called on first use: evaluations without place levels never build it
        self._gz = gazetteer
        self._factory = callable(gazetteer) and not hasattr(gazetteer, "names_for")
        self.name = name if gazetteer is not None else "none"
        self._names = lru_cache(maxsize=65536)(self._names_uncached)
        self._ancestors = lru_cache(maxsize=65536)(self._ancestors_uncached)
        self._found = lru_cache(maxsize=16384)(self._found_uncached)

    @property
    def gz(self) -> Gazetteer | None:
        if self._factory:
            self._gz = self._gz()  # type: ignore[operator,misc]
            self._factory = False
        return self._gz  # type: ignore[return-value]

    def _names_uncached(self, text: str) -> frozenset[str]:
        if self.gz is None:
            return frozenset()
        return frozenset(n for n in (normalize(x) for x in self.gz.names_for(text)) if n)

    def _ancestors_uncached(self, text: str) -> tuple[frozenset[str], ...]:
        if self.gz is None:
            return ()
        return tuple(
            frozenset(n for n in (normalize(x) for x in group) if n) for group in self.gz.ancestors_of(text)
        )

    def other_names(self, names: list[str]) -> set[str]:
        """Gazetteer alternate names of the place(s) a truth value and its aliases name."""
        out: set[str] = set()
        for n in names:
            out |= self._names(n)
        return out

    def _found_uncached(self, raw: str) -> tuple[tuple[str, tuple[frozenset[str], ...]], ...]:
        """(span, ancestor name sets) of every place named in a prediction."""
        finder = getattr(self.gz, "find_places", None)
        if finder is None or not hasattr(self.gz, "get"):
            return tuple((c, self._ancestors(c)) for c in candidate_spans(normalize(raw[:MAX_SCAN_CHARS])))
        out = []
        for m in finder(raw[:MAX_SCAN_CHARS])[:MAX_CANDIDATES]:
            # the gazetteer's own scanner: longest non-overlapping names, with its precision
            # rules (names that are also common words need capitals or a place context).
            # Implied: the ancestors of the reading chosen in context ("York, England") that
            # every plausible reading of the name shares (`ancestors_of`: "Springfield" -> USA).
            chosen = set()
            for aid in m.place.ancestors:
                a = self.gz.get(aid)
                if a is not None:
                    chosen.add(frozenset(n for n in (normalize(x) for x in {*a.names, a.name}) if n))
            groups = [g for g in self._ancestors(m.span) if g in chosen]
            out.append((m.span, tuple(groups)))
        return tuple(out)

    def implied_by(self, pred: Prediction, level_names: set[str]) -> str | None:
        """A place named in the prediction that lies inside the place `level_names` name."""
        if self.gz is None or not level_names:
            return None
        for span, groups in self._found(pred.raw):
            for group in groups:
                if group & level_names:
                    return span
        return None


def candidate_spans(norm: str) -> list[str]:
    """Substrings of a normalised prediction that could be place names: runs of 1-4 Latin
    words, and 2-8 character substrings of CJK runs. Longest first, so 'new york city' is
    tried before 'york'."""
    latin: list[list[str]] = [[]]
    cjk: list[str] = []
    for m in _TOKEN.finditer(norm):
        tok = m.group()
        if "\u3400" <= tok[0]:
            cjk.append(tok)
            latin.append([])
        else:
            latin[-1].append(tok)
    out: list[str] = []
    seen: set[str] = set()

    def add(s: str) -> None:
        if s not in seen and not s.isdigit():
            seen.add(s)
            out.append(s)

    for words in latin:
        for size in range(min(MAX_LATIN_WORDS, len(words)), 0, -1):
            for i in range(len(words) - size + 1):
                add(" ".join(words[i : i + size]))
    for run in cjk:
        for size in range(min(CJK_SPAN[1], len(run)), CJK_SPAN[0] - 1, -1):
            for i in range(len(run) - size + 1):
                add(run[i : i + size])
    return out[:MAX_CANDIDATES]


@lru_cache(maxsize=1)
def default_place_matcher() -> PlaceMatcher:
    try:
        from tools.gazetteer import default_gazetteer
    except ImportError:
        return PlaceMatcher(None)
    return PlaceMatcher(default_gazetteer)
