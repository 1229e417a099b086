"""Issue 34, places: postcode -> city for the postcode systems of core/data/postcodes.json (prefix
ranges that are general knowledge), read only on an account whose country is otherwise
established; numbers that are no postcode stay nothing."""
from __future__ import annotations

import json

import pytest

from core.engine.aggregators.base import GraphFacts
from core.engine.aggregators.places import place_obs
from core.engine.perceiver import text_evidence
from core.engine.placecodes import codes_in, postcode_systems
from core.engine.types import EvidenceNode


@pytest.mark.parametrize("text, city, country", [
    ("Stadtwerke München, Tegernseer Landstraße 12, 81539", "Munich", "Germany"),
    ("1600 Congress Ave, Austin, TX 78701", "Austin", "United States"),
    ("City of Joondalup, CURRAMBINE WA 6028", "Perth", "Australia"),
    ("〒530-0001 大阪市北区梅田", "Osaka", "Japan"),
    ("8 Rue Hénon, 69004 Lyon", "Lyon", "France"),
    ("Calle de Ponzano 10, 28003 Madrid", "Madrid", "Spain"),
    ("100 Queen St W, Toronto, ON M5H 2N2", "Toronto", "Canada"),
    ("Damrak 1, 1012 LG Amsterdam", "Amsterdam", "Netherlands"),
    ("Eircode D07 X2Y3", "Dublin", "Ireland"),
    ("Rua Pascoal de Melo 12, 1000-232 Lisboa", "Lisbon", "Portugal"),
    ("Av. Paulista 1000, 01310-100", "São Paulo", "Brazil"),
    ("Coyoacán, C.P. 04000", "Mexico City", "Mexico"),
    ("우편번호 48058 해운대구", "Busan", "South Korea"),
])
def test_a_postcode_pins_its_city(text, city, country) -> None:
    assert [(c.city, c.country) for c in codes_in(text)] == [(city, country)]


@pytest.mark.parametrize("text", [
    "Invoice F-2026-031", "Emp 40712", "10000 Euro gespart", "paid 69004 dollars", "at 1100 AM",
    "Order 12345-678 shipped",          # no CEP of a listed city (12...)
    "Room 2024 at the WA 9999 depot",   # an Australian code outside the listed ranges
])
def test_numbers_that_are_no_postcode_stay_nothing(text) -> None:
    assert codes_in(text) == []


def _obs(caption: str, ip: str | None) -> list:
    nodes = [text_evidence("p1", "caption", "caption", caption)]
    if ip:
        nodes.append(EvidenceNode(node_id="", post_id="p1", modality="metadata", carrier="ip_region", content=ip,
                                  data={"field": "ip_region"}))
    for i, n in enumerate(nodes):
        n.node_id = f"e{i}"
    return [o for o in place_obs(GraphFacts(nodes), []) if o.source == "code"]


def test_a_postcode_counts_only_where_the_country_is_established() -> None:
    text = "Neue Adresse: Tegernseer Landstraße 12, 81539"
    assert [o.levels.get("city") for o in _obs(text, "Germany")] == ["Munich"]
    assert _obs(text, None) == []            # no country known: a number is no address
    assert _obs(text, "France") == []        # another country: not this system's code


def test_a_broken_postcodes_file_is_one_error_naming_file_and_field(tmp_path) -> None:
    bad = tmp_path / "postcodes.json"
    bad.write_text(json.dumps({"_note": "x", "systems": [{"country": "X", "name": "x", "pattern": "(\\d{5})",
                                                          "prefixes": {}}]}), encoding="utf-8")
    with pytest.raises(ValueError, match=r"postcodes.json: field systems.0.pattern: no group named 'code'"):
        postcode_systems(bad)
    postcode_systems.cache_clear()
    bad.write_text(json.dumps({"_note": "x", "systems": [{"country": "DE", "name": "x", "pattern": "(?P<code>\\d{5})"}]}),
                   encoding="utf-8")
    with pytest.raises(ValueError, match=r"postcodes.json: systems\[0\] \(DE\): field prefixes: Field required"):
        postcode_systems(bad)
