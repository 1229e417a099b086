"""Issue 34, places: a post's location tag is a place by construction (each part that is a place
name, read inside the tag's other parts: "Savannah, GA"), and a place tagged once, far from an
established home, is a trip even without trip wording. On the real perceiver, rules, gazetteer and
places aggregator."""
from __future__ import annotations

from core.engine.aggregators import REGISTRY
from core.engine.aggregators.base import GraphFacts
from core.engine.gazetteer import find_places
from core.engine.perceiver import text_evidence
from core.engine.types import EvidenceNode


def _nodes(captions: list[str], tags: dict[int, str], ip: str) -> list[EvidenceNode]:
    nodes = []
    for i, text in enumerate(captions, 1):
        nodes.append(text_evidence(f"p{i}", "caption", "caption", text))
        if i in tags:
            nodes.append(text_evidence(f"p{i}", "metadata", "location_tag", tags[i], modality="metadata",
                                       extra={"location_tag": True}))
        nodes.append(EvidenceNode(node_id="", post_id=f"p{i}", modality="metadata", carrier="ip_region",
                                  content=ip, data={"field": "ip_region"}))
    for i, n in enumerate(nodes):
        n.node_id = f"e{i}"
    return nodes


def _run(captions: list[str], tags: dict[int, str], ip: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for h in REGISTRY.run(GraphFacts(_nodes(captions, tags, ip)), {}):
        if h.attribute in ("home_location", "travel_history") and not h.data.hold:
            out.setdefault(h.attribute, []).append(str(h.value))
    return out


def test_a_tag_is_read_as_a_place_where_running_text_would_need_a_place_word() -> None:
    assert find_places("Annecy") == []                     # a town of 50,000 alone in running text: no
    tag = find_places("Annecy", location_tag=True)
    assert [(p.text, p.levels.get("city"), p.levels.get("country")) for p in tag] == [("Annecy", "Annecy", "France")]


def test_a_tag_part_is_read_inside_the_other_parts() -> None:
    got = find_places("Savannah, GA", location_tag=True)
    assert [(p.text, p.levels.get("region"), p.levels.get("country")) for p in got] == \
        [("Savannah", "Georgia", "United States")]          # not the Savannah Region of Ghana


def test_a_tag_word_that_is_no_place_stays_nothing() -> None:
    assert find_places("the pub", location_tag=True) == []
    assert find_places("home", location_tag=True) == []


HOME = ["Back home in Madrid after a long shift.", "Madrid heat again, staying home tonight.",
        "Home in Madrid, cooking for the neighbours."]


def test_a_place_tagged_once_far_from_home_is_a_trip() -> None:
    got = _run(HOME + ["Tapas and flamenco, perfect."], {4: "Sevilla"}, "Spain")
    assert any(v.startswith("Madrid") for v in got.get("home_location", []))
    assert any(v.startswith("Sevilla") for v in got.get("travel_history", []))


def test_a_tagged_city_in_another_state_of_the_same_name_is_the_one_the_tag_says() -> None:
    home = ["Home in Atlanta, Georgia after work.", "Atlanta traffic again on the way home.",
            "Quiet night at home in Atlanta."]
    got = _run(home + ["Squares, oysters and Spanish moss with Denise."], {4: "Savannah, GA"}, "United States")
    assert any(v.startswith("Savannah, Georgia") for v in got.get("travel_history", []))


def test_a_place_tagged_near_home_or_again_and_again_is_no_trip() -> None:
    home = ["Home in Atlanta, Georgia after work.", "Atlanta traffic again on the way home.",
            "Quiet night at home in Atlanta."]
    near = _run(home + ["Coffee with Denise."], {4: "Decatur, GA"}, "United States")     # 10 km away
    assert not any("Decatur" in v for v in near.get("travel_history", []))
    again = _run(HOME + ["Tapas.", "Tapas again.", "And again."], {4: "Sevilla", 5: "Sevilla", 6: "Sevilla"}, "Spain")
    assert not any(v.startswith("Sevilla") for v in again.get("travel_history", []))
