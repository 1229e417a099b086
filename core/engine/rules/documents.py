"""Where a text's Document is built (issue 33: a text is read once per run): the hostile mask
(rules/hostile.hostile_mask) is applied once, the reading is built once as a rules.base.Ctx (a
reading/document.Document with the rules' cue builder), and the result is kept in a bounded cache
keyed by content -- (text, carrier, by_other, lang) -- that every reader of the text asks: the rule
extractors (rules/extract.py), the mention reader (rules/reading_cues.read), the semantic layer's
sentence picker (rules/semantic.py), the entities' holders (rules/entities.py), the text features
and the form reader. Here, on the rules' floor, because the hostile mask is the rules'."""
from __future__ import annotations

from core.engine.reading.document import DocumentCache
from core.engine.rules.base import Ctx
from core.engine.rules.hostile import hostile_mask

CACHE_SIZE = 4096
_CACHE: DocumentCache[Ctx] = DocumentCache(CACHE_SIZE)


def document(text: str, *, carrier: str | None = None, by_other: bool = False, lang: str | None = None) -> Ctx:
    """The Document of `text` (hostile ranges blanked), built on first use and cached by content."""
    key = (text, carrier, by_other, lang)
    doc = _CACHE.get(key)
    if doc is None:
        doc = _CACHE.put(key, Ctx(text, hostile_mask(text), carrier=carrier, lang=lang, by_other=by_other))
    return doc


def reading(text: str, masked: str, *, carrier: str | None = None, by_other: bool = False) -> Ctx:
    """A reading of `text` with `masked` as its readable copy, for the readers that read the text
    unmasked (an entity's holder, a form field, a text feature): the text's Document when its hostile
    mask blanked nothing (the usual case: the same object, read once), else a reading of its own."""
    doc = document(text, carrier=carrier, by_other=by_other)
    if doc.hostile_masked == masked:
        return doc
    return Ctx(text, masked, carrier=carrier, lang=None, by_other=by_other)


def clear() -> None:
    """Forget every cached Document (tests)."""
    _CACHE.clear()
