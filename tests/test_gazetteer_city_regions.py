"""Issue 34, places: boroughs of city-regions are districts of the city (Mexico City, Delhi,
Berlin), regions of Mexico, Ireland, the Philippines and India are known, and "México" is the
country."""
from __future__ import annotations

import pytest

from core.engine.gazetteer import find_places, levels_of
from tools.gazetteer import default_gazetteer


@pytest.fixture(scope="module")
def gz():
    return default_gazetteer()


def _levels(gz, name):
    return levels_of(gz.lookup(name)[0], gz)


@pytest.mark.parametrize("name, city, region, country", [
    ("Coyoacán", "Mexico City", "Mexico City", "Mexico"),
    ("Benito Juárez", "Mexico City", "Mexico City", "Mexico"),
    ("Rohini", "Delhi", "Delhi", "India"),
    ("Wedding", "Berlin", "Berlin", "Germany"),
])
def test_boroughs_of_a_city_region_are_districts_of_the_city(gz, name, city, region, country) -> None:
    lv = _levels(gz, name)
    assert (lv.get("district"), lv.get("city"), lv.get("region"), lv.get("country")) == (name, city, region, country)


@pytest.mark.parametrize("name", [
    "Sakai",       # Osaka Prefecture is a prefecture, not a city: Sakai is a city of its own
    "Cholula",     # Puebla is a state named like its capital
    "New Delhi",   # named after the city: its own name stays
    "Cainta",      # outside Metro Manila's region
])
def test_places_outside_city_regions_stay_cities(gz, name) -> None:
    lv = _levels(gz, name)
    assert lv.get("city") and "district" not in lv, lv


@pytest.mark.parametrize("name, region", [
    ("Dublin", "Leinster"), ("Marikina City", "Metro Manila"), ("Guadalajara", "Jalisco"),
    ("Bengaluru", "Karnātaka"), ("Cork", "Munster"),
])
def test_regions_of_mexico_ireland_philippines_india(gz, name, region) -> None:
    assert _levels(gz, name)["region"] == region


def test_mexico_in_spanish_is_the_country_not_the_state(gz) -> None:
    assert gz.lookup("México")[0].id == "country:MX"
    assert gz.lookup("Estado de México")[0].id == "region:MX-MEX"


def test_a_bill_naming_the_borough_resolves_to_the_city() -> None:
    text = "Boleta de Impuesto Predial 2026\nCiudad de México\nCol. Narvarte Poniente, Alc. Benito Juárez, C.P. 03020"
    places = {p.text: p.levels for p in find_places(text)}
    assert places["Benito Juárez"] == {"country": "Mexico", "region": "Mexico City", "city": "Mexico City",
                                       "district": "Benito Juárez"}
