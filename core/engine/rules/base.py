"""Shared machinery of the offline rules: the per-text context (Ctx: the text's Document --
reading/document.py: clause bounds, holders, stance, negation, sentences, words, lexicon hits --
plus the places the extractors look up) and the Cue builder.

Extractors run on a *masked* copy of the text (hostile spans blanked with spaces of equal
length) so offsets stay valid and every span is cut from the original text: a cue's span is
always an exact substring of the input (the verifier checks grounding).
"""
from __future__ import annotations

import re
from typing import Any, Callable

from core.engine.gazetteer import find_places
from core.engine.rules.generic import generic_statement
from core.engine.rules.recognizer_data import family
from core.engine.types import Cue

# a sentence with its closing punctuation (the unit the semantic layers embed and compare): the one splitter
from core.engine.reading.sentences import SENTENCE  # noqa: E402,F401
# the reading of one text (clauses, quotations, holders, stance, negation): core/engine/reading/holder.py
from core.engine.reading.holder import CJK, FIRST_PERSON  # noqa: E402 (CJK re-exported)
from core.engine.reading.document import _WORD, Document  # noqa: E402
from core.engine.reading.lang import alt  # noqa: E402 (the rules' alternations of literal words)

# carriers whose text was read off an image (OCR): a sign, a card, a document, a screenshot, a map
IMAGE_TEXT_CARRIERS = ("ocr_text", "sign", "screenshot", "badge", "document", "map")

_PLACE_GATE = family("entities").pattern("place_gate")   # place wording (data: entities.json place_gate)


class Ctx(Document):
    """The rules' view of one text: its Document (reading/document.py: the reading -- clauses,
    holders, stance -- sentences, words, hashtags, lexicon hits) plus the places the extractors
    look up and the Cue builder. Built once per text by rules/documents.document() and shared by
    every reader of the text."""

    __slots__ = ()

    def places(self) -> list:
        """Places in the masked text (gazetteer lookups are the costliest step: done once)."""
        if self._places is None:
            # Latin-only text without any place-related wording needs no gazetteer scan (the
            # costliest step); every place-using extractor requires one of these words nearby (a text in
            # a generic language pack's language is scanned: its place words are the pack's templates)
            if not self.has_cjk and not self.packs and not _PLACE_GATE.search(self.masked):
                self._places = []
            else:
                self._places = find_places(self.masked)
        return self._places

    def cue(
        self,
        attribute: str,
        value: str,
        start: int,
        end: int,
        *,
        rule: str,
        confidence: float = 0.6,
        level: str | None = None,
        levels: dict[str, str] | None = None,
        first_person: bool | None = None,
        original: str | None = None,
        recognizer: str = "",
        **data: Any,
    ) -> Cue:
        span = self.text[start:end].strip() or self.text[start:end]
        d: dict[str, Any] = {k: v for k, v in data.items() if v is not None}
        if levels:
            d["levels"] = levels
            if level is None:
                level = list(levels)[-1]
        if original:
            d["original"] = original
        d["start"] = start
        d["end"] = end
        if self.carrier:
            d["carrier"] = self.carrier
        st, h, fp = self.speaker(start, rule, first_person)
        if st in ("quote", "hypothetical"):
            d["stance"] = st      # the hypothesizer drops these (shared with the semantic cues)
        elif attribute in _STATE_BANK and h.is_self and self._general(start, attribute):
            d["hint"] = d["generic"] = True   # "Dating apps make everyone feel single": held, never projected alone
        return Cue(attribute=attribute, value=value, level=level, confidence=round(confidence, 3),
                   span=span, cue=rule, first_person=fp, holder=h.label, data=d, recognizer=recognizer)

    def _general(self, start: int, attribute: str) -> bool:
        """The sentence at `start` is a statement about people in general (generic.generic_statement)
        in a text that never speaks in the first person: a rule's reading is precise, and beside an "I"
        elsewhere ("Reading is such an escape when single life gets lonely … my collection") the general
        sentence is still the poster's life (measured: SynthPAI and PRISM each lost a right single)."""
        if self._impersonal is None:
            self._impersonal = not FIRST_PERSON.search(self.masked)
        if not self._impersonal:
            return False
        a, b = self.sentence(start)
        return generic_statement(self.masked[a:b], _STATE_BANK[attribute], reader_is_poster=self.by_other)


# the life-state attributes a general statement says nothing about, by their semantic bank's name
_STATE_BANK = {"education": "education", "relationship_status": "relationship", "income_level": "income", "age": "age"}

Extractor = Callable[[Ctx], list[Cue]]


class Lexicon:
    """Terms -> fast lookups: Latin terms by word n-grams (dict), CJK terms by one regex."""

    def __init__(self, terms: "list[str] | tuple[str, ...] | set[str]"):
        self.en: dict[str, str] = {}
        zh: list[str] = []
        for t in terms:
            if CJK.search(t):
                zh.append(t)
            else:
                key = " ".join(w.group(0) for w in _WORD.finditer(t.lower()))
                if key:
                    self.en.setdefault(key, t)
        self.max_words = max((k.count(" ") + 1 for k in self.en), default=1)
        self.first = {k.split(" ")[0] for k in self.en}
        self.zh_re = re.compile(alt(zh)) if zh else None


def at(offset: int | None, default: int) -> int:
    """A cue's start / end offset, `default` when it has none (a cue not read by a rule)."""
    return default if offset is None else offset
