"""A post whose place is known drops the mentions that contradict it, but a list of lines (topic
titles, a bullet list) is one statement per line: a trip cue on one line does not silence the
places on the others."""
from __future__ import annotations

from core.engine.aggregators import REGISTRY
from core.engine.aggregators.base import GraphFacts
from core.engine.rules import extract_cues, extract_entities
from core.engine.rules.features import text_features
from core.engine.types import EvidenceNode


def _trips(*captions: str) -> set[str]:
    # the node data the perceiver attaches to a caption: cues, entities, text features
    nodes = [EvidenceNode(node_id=f"e{i}", post_id=f"p{i}", modality="text", carrier="caption", content=text,
                          data={"cues": [c.model_dump() for c in extract_cues(text)],
                                "entities": [e.model_dump() for e in extract_entities(text)],
                                "features": text_features(text, carrier="caption")})
             for i, text in enumerate(captions, 1)]
    return {h.value for h in REGISTRY.run(GraphFacts(nodes), {}) if h.attribute == "travel_history"}


def test_a_trip_line_leaves_the_places_of_the_other_lines() -> None:
    got = _trips("Discovering the Rich Cultural Heritage of Germany\nThe Passionate Culture and Cuisine of Mexico\n"
                 "Visiting World-Renowned Universities in the UK")
    assert {"Germany", "Mexico", "United Kingdom"} <= got


def test_within_one_line_the_trip_still_governs_its_post() -> None:
    # one sentence, one place story: the trip to Lisbon; "Sydney" (a café's name here) is no second trip
    got = _trips("Back from our trip to Lisbon, coffee at the Sydney cafe on the way home was fine")
    assert any(v.startswith("Lisbon") for v in got)
    assert not any(v.startswith("Sydney") for v in got)
