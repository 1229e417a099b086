"""extract_cues: run every attribute extractor over one text (hostile spans masked first)."""
from __future__ import annotations

from core.engine.rules import age_arithmetic, identity, labels, lifestyle, reading_cues, sensitive, socio
from core.engine.rules.base import Ctx, Extractor
from core.engine.rules.hostile import hostile_ranges, mask
from core.engine.types import Cue
from core.schema import ATTRIBUTE_NAMES

MAX_TEXT = 20_000  # longer texts are read in their first MAX_TEXT characters (a post, not a book)

EXTRACTORS: tuple[Extractor, ...] = (identity.EXTRACTORS + socio.EXTRACTORS + lifestyle.EXTRACTORS + sensitive.EXTRACTORS
                                      + labels.EXTRACTORS + reading_cues.EXTRACTORS
                                      + age_arithmetic.EXTRACTORS)


def extract_cues(text: str, *, carrier: str | None = None, lang: str | None = None, by_other: bool = False) -> list[Cue]:
    """Attribute cues in one piece of text. Every cue's span is an exact substring of `text`.
    `by_other`: a comment by someone else (its "you" is the account's person)."""
    if not text or not isinstance(text, str):
        return []
    text = text[:MAX_TEXT]
    # curly apostrophes (phone keyboards: "I’m 29") read as straight ones; same length, so offsets hold
    masked = mask(text, hostile_ranges(text)).replace("\u2019", "'")
    if not masked.strip():
        return []
    ctx = Ctx(text, masked, carrier=carrier, lang=lang, by_other=by_other)
    out: list[Cue] = []
    seen: set[tuple[str, str, str]] = set()
    for ex in EXTRACTORS:
        for c in ex(ctx):
            if c.attribute not in ATTRIBUTE_NAMES or not c.value or not c.span or c.span not in text:
                continue
            key = (c.attribute, c.value.lower(), c.span)
            if key in seen:
                continue
            seen.add(key)
            out.append(c)
    return out
