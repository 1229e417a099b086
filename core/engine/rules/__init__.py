"""Offline rules: lexicons, patterns and gazetteer lookups for the 28 attributes (EN + ZH).

    extract_cues(text, carrier=None, lang=None) -> list[Cue]
    extract_entities(text, carrier=, by_other=) -> list[Entity]
    time_features(ts) -> dict
    text_features(text, ...) -> TextFeatures  (what the aggregators read of a text; features.py)
    hostile_spans(text) -> list[str]
    semantic_cues(rec, nodes) -> errors   (embedding-based weak cues added to text nodes; semantic.py)
    semantic_injections(rec, nodes) -> errors   (injections caught by meaning; hostile_semantic.py)

Hostile text (addressed to an AI, or asserting facts "for the report") is blanked before any
extractor reads the text, so it never yields a cue. See docs/rules.md.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from core.engine.contract.changes import RecordError
from core.engine.rules.entities import Entity, extract_entities
from core.engine.rules.extract import extract_cues
from core.engine.rules.features import text_features
from core.engine.rules.hostile import hostile_spans
from core.engine.rules.hostile_semantic import flag_nodes
from core.engine.rules.semantic import annotate
from core.engine.rules.timefeat import time_features
from tools.base import ToolError

if TYPE_CHECKING:
    from core.engine.types import EvidenceNode
    from tools.base import Recorder


def semantic_cues(rec: Recorder, nodes: list[EvidenceNode]) -> list[RecordError]:
    """Add semantic cues to the perceived text nodes (embeddings through the Recorder `rec`);
    returns the error of a failing embedder, to be recorded."""
    try:
        annotate(rec, nodes)
    except (ToolError, ValueError) as e:
        return [RecordError(where="semantic", reason=str(e))]
    return []


def semantic_injections(rec: Recorder, nodes: list[EvidenceNode]) -> list[RecordError]:
    """Mark text nodes whose meaning addresses an AI / auditor / the report hostile (hostile_semantic.py),
    with the rest of their post; returns the error of a failing embedder (the patterns stay)."""
    try:
        flag_nodes(rec, nodes)
    except (ToolError, ValueError) as e:
        return [RecordError(where="semantic_injection", reason=str(e))]
    return []


__all__ = ["Entity", "extract_cues", "extract_entities", "hostile_spans", "semantic_cues", "semantic_injections",
           "text_features", "time_features"]
