"""Issue 34, places: a named transit system or fare card is evidence of its city
(tools/data/transit.json): "Luas" is Dublin, "LRT-2" Metro Manila; generic words (U-Bahn, Metro,
MRT) and names that are also other things (BTS, bart) are not."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.engine.gazetteer import find_places
from tools.gazetteer import default_gazetteer, load_transit


@pytest.fixture(scope="module")
def gz():
    return default_gazetteer()


@pytest.mark.parametrize("text, span, city", [
    ("Luas at Phibsborough, 7:55, same as every Tuesday.", "Luas", "Dublin"),
    ("#luas #d7", "luas", "Dublin"),                          # a tag, lower case
    ("港铁又塞满了", "港铁", "Hong Kong"),
    ("Took BART to work, delayed as usual", "BART", "San Francisco"),
    ("topped up my Octopus card", "Octopus card", "Hong Kong"),
    ("Santolan station, LRT-2 papuntang Cubao", "LRT-2", "Metro Manila"),   # a system across a metro region
    ("#delhimetro #bluelines", "delhimetro", "Delhi"),        # a system's hashtag
    ("#metrocdmx #línea3", "metrocdmx", "Mexico City"),
])
def test_transit_systems_name_their_city(gz, text, span, city) -> None:
    assert (span, city) in [(m.span, m.place.name) for m in gz.find_places(text)]


@pytest.mark.parametrize("text", [
    "BTS concert tonight, I cried",       # the band, not Bangkok's BTS Skytrain
    "watching bart simpson reruns",       # a name in lower case, not the Bay Area's BART
    "U2 um 6:41, U-Bahn voll wie immer",  # U-Bahn and metro lines are in many cities
    "MRT to Ayala",                       # MRT: Singapore, Taipei, Manila, Jakarta...
    "K. Brandl | MTR Radiologie",         # a German radiographer's title, not Hong Kong's MTR
    "took the tube and the metro",
])
def test_generic_and_ambiguous_names_name_no_city(gz, text) -> None:
    assert [m.span for m in gz.find_places(text)] == []


def test_a_system_gives_the_levels_of_its_city() -> None:
    assert [(p.text, p.levels) for p in find_places("Luas at Phibsborough")] == [
        ("Luas", {"country": "Ireland", "region": "Leinster", "city": "Dublin"})]


def test_a_broken_transit_file_is_one_line_naming_the_file_and_field(tmp_path: Path) -> None:
    bad = tmp_path / "transit.json"
    bad.write_text(json.dumps({"_note": "x", "systems": [{"names": ["Luas"], "need": "sometimes", "place": ["Dublin", "IE"]}]}))
    with pytest.raises(ValueError, match=r"transit\.json: field systems\.0\.need"):
        load_transit(bad)
