"""extract_cues: run every declared recognizer over one text (hostile spans masked first)."""
from __future__ import annotations

from core.engine.rules import (age_arithmetic, document_names, identity, labels, lang_cues, lifestyle, occupation_ingroup,
                               occupation_taxonomy, reading_cues, regionalisms, sensitive, socio)
from core.engine.rules import data_runner
from core.engine.rules.base import Extractor
from core.engine.rules.documents import document
from core.engine.rules.registry import Registry, bind, declarations
from core.engine.types import Cue
from core.schema import ATTRIBUTE_NAMES

MAX_TEXT = 20_000  # longer texts are read in their first MAX_TEXT characters (a post, not a book)

# names on forms and documents (core/data/recognizers/names.json) first: their written form ("OSEI, DANIEL" ->
# "Daniel Osei") wins over a line rule's raw capitals on the same span
EXTRACTORS: tuple[Extractor, ...] = (document_names.EXTRACTORS + identity.EXTRACTORS + socio.EXTRACTORS + lifestyle.EXTRACTORS
                                      + sensitive.EXTRACTORS + labels.EXTRACTORS + reading_cues.EXTRACTORS
                                      + age_arithmetic.EXTRACTORS + lang_cues.EXTRACTORS
                                      + regionalisms.EXTRACTORS + occupation_ingroup.EXTRACTORS)
TAXONOMY = "occupation_taxonomy"     # run after the others (its merge), declared in occupations.json
SEMANTIC = "semantic_banks"          # run on the perceived nodes (rules/semantic.py), declared in registry.json

# every extractor paired with its declaration (core/data/recognizers, ARGUS_DATA_EXTRA): an undeclared one
# fails at import; a recognizer declared by data alone ("runner": "patterns") runs after the Python ones
_DECLARED = declarations()
DATA_RUNNERS: tuple[Extractor, ...] = tuple(data_runner.runner(d.raw, d.where) for d in _DECLARED
                                            if d.spec.runner == "patterns")
REGISTRY: Registry = bind(EXTRACTORS + DATA_RUNNERS, also=(TAXONOMY, SEMANTIC), decls=_DECLARED)


def extract_cues(text: str, *, carrier: str | None = None, lang: str | None = None, by_other: bool = False) -> list[Cue]:
    """Attribute cues in one piece of text. Every cue's span is an exact substring of `text`; each
    names the recognizer that read it (`Cue.recognizer`, its registry name)."""
    if not text or not isinstance(text, str):
        return []
    text = text[:MAX_TEXT]
    ctx = document(text, carrier=carrier, by_other=by_other, lang=lang)    # read once per text (rules/documents.py)
    if not ctx.hostile_masked.strip():
        return []
    out: list[Cue] = []
    seen: set[tuple[str, str, str]] = set()
    for name, ex in REGISTRY.runners:
        for c in ex(REGISTRY.view(name, ctx)):        # what it declares it reads (anything else raises)
            REGISTRY.check(name, c.attribute)
            if c.attribute not in ATTRIBUTE_NAMES or not c.value or not c.span or c.span not in text:
                continue
            key = (c.attribute, c.value.lower(), c.span)
            if key in seen:
                continue
            seen.add(key)
            if c.recognizer != name:      # a cue built by the view's cue builder carries it already
                c.recognizer = name
            out.append(c)
    # occupations from the open taxonomy (core/data/recognizers/occupations.json) where the role table read none
    merged = [c for c in occupation_taxonomy.merge(REGISTRY.view(TAXONOMY, ctx), out) if c.span and c.span in text]
    for c in merged:
        # every cue of the extractors above carries its name: the rest are the taxonomy's (built by its
        # view's cue builder, which names it already, or not)
        if not c.recognizer or c.recognizer == TAXONOMY:
            REGISTRY.check(TAXONOMY, c.attribute)
            if c.recognizer != TAXONOMY:
                c.recognizer = TAXONOMY
    return merged
