"""Offline rules: lexicons, patterns and gazetteer lookups for the 28 attributes (EN + ZH).

    extract_cues(text, carrier=None, lang=None) -> list[Cue]
    extract_entities(text) -> list[Entity]
    time_features(ts) -> dict
    hostile_spans(text) -> list[str]

Hostile text (addressed to an AI, or asserting facts "for the report") is blanked before any
extractor reads the text, so it never yields a cue. See docs/rules.md.
"""
from __future__ import annotations

from core.engine.rules.entities import Entity, extract_entities
from core.engine.rules.extract import extract_cues
from core.engine.rules.hostile import hostile_spans
from core.engine.rules.timefeat import time_features

__all__ = ["Entity", "extract_cues", "extract_entities", "hostile_spans", "time_features"]
