"""Offline rules: lexicons, patterns and gazetteer lookups for the 28 attributes (EN + ZH).

    extract_cues(text, carrier=None, lang=None) -> list[Cue]
    extract_entities(text) -> list[Entity]
    time_features(ts) -> dict
    text_features(text, ...) -> TextFeatures  (what the aggregators read of a text; features.py)
    hostile_spans(text) -> list[str]
    semantic_cues(ctx, nodes) -> int   (embedding-based weak cues added to text nodes; semantic.py)
    semantic_injections(ctx, nodes) -> int   (injections caught by meaning; hostile_semantic.py)

Hostile text (addressed to an AI, or asserting facts "for the report") is blanked before any
extractor reads the text, so it never yields a cue. See docs/rules.md.
"""
from __future__ import annotations

from core.engine.rules.entities import Entity, extract_entities
from core.engine.rules.extract import extract_cues
from core.engine.rules.features import text_features
from core.engine.rules.hostile import hostile_spans
from core.engine.rules.timefeat import time_features


def semantic_cues(ctx, nodes) -> int:
    """Add semantic cues to the perceived text nodes; a failing embedder is a recorded error."""
    from core.engine.rules.semantic import annotate
    from tools.base import ToolError

    try:
        return annotate(ctx.recorder(), nodes)
    except (ToolError, ValueError) as e:
        ctx.error("semantic", str(e))
        return 0


def semantic_injections(ctx, nodes) -> int:
    """Mark text nodes whose meaning addresses an AI / auditor / the report hostile (hostile_semantic.py),
    with the rest of their post; a failing embedder is a recorded error, the patterns stay."""
    from core.engine.rules.hostile_semantic import flag_nodes
    from tools.base import ToolError

    try:
        return flag_nodes(ctx.recorder(), nodes)
    except (ToolError, ValueError) as e:
        ctx.error("semantic_injection", str(e))
        return 0


__all__ = ["Entity", "extract_cues", "extract_entities", "hostile_spans", "semantic_cues", "semantic_injections",
           "text_features", "time_features"]
