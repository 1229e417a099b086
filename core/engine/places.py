"""Place helpers of the engine over the one gazetteer adapter (gazetteer.py: gazetteer(),
levels_of, find_places with its built-in fallback list): name -> ancestor levels, GPS -> place.
Levels are the sopri/1 location levels country/region/city/district."""
from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple

from core.engine.gazetteer import LEVELS, gazetteer, levels_of, place_field
from core.engine.gazetteer import find_places as rules_find

__all__ = ["LEVELS", "Candidate", "candidates", "distance_km", "find_places", "gazetteer", "levels_of",
           "resolve_levels", "reverse_levels"]


def find_places(text: str) -> list[dict[str, Any]]:
    """[{text, name, kind, levels}] for place mentions in the text (longest match wins)."""
    out = []
    for p in rules_find(text):
        out.append({"text": p.text, "name": p.name, "kind": p.kind, "levels": dict(p.levels),
                    "start": p.start, "end": p.end})
    return out


@lru_cache(maxsize=4096)
def _resolve_cached(name: str, hint: str) -> tuple[tuple[str, str], ...]:
    gz = gazetteer()
    best: dict[str, str] = {}
    if gz is not None:
        cands = list(gz.lookup(name) or [])
        scored = []
        for rank, c in enumerate(cands):
            lv = levels_of(c, gz)
            # prefer the candidate agreeing with the hint (IP region, another place), then the
            # gazetteer's own order (prominence: Bali the Indonesian province, not a town in Cameroon)
            agree = sum(1 for v in lv.values() if hint and v.casefold() in hint.casefold())
            scored.append((agree, rank, lv))
        if scored:
            scored.sort(key=lambda t: (-t[0], t[1]))
            best = scored[0][2]
    if not best:
        hits = [p for p in find_places(name) if p["text"] == name or len(p["text"]) >= len(name) - 1]
        if hits:
            best = hits[0]["levels"]
    return tuple(best.items())


class Candidate(NamedTuple):
    """One gazetteer reading of a place name: its levels, population and kind."""
    levels: dict[str, str]
    population: int
    kind: str


@lru_cache(maxsize=4096)
def _candidates_cached(name: str) -> tuple[tuple[tuple[tuple[str, str], ...], int, str], ...]:
    gz = gazetteer()
    if gz is None:
        return ()
    out = []
    for c in list(gz.lookup(name) or [])[:8]:
        lv = levels_of(c, gz)
        if lv:
            out.append((tuple(lv.items()), int(place_field(c, "population") or 0), str(place_field(c, "kind"))))
    return tuple(out)


def candidates(name: str) -> list[Candidate]:
    """Every reading of a place name the gazetteer knows, its own prominence order (best first):
    the choices joint resolution weighs against the account's other places."""
    if not name or len(name) > 120:
        return []
    return [Candidate(dict(lv), pop, kind) for lv, pop, kind in _candidates_cached(name.strip())]


def resolve_levels(name: str, hint: str = "") -> dict[str, str]:
    """Ancestor levels of a place name (country..district), disambiguated by `hint` text."""
    if not name or len(name) > 120:
        return {}
    return dict(_resolve_cached(name.strip(), hint or ""))


def reverse_levels(lat: float, lon: float) -> dict[str, Any] | None:
    gz = gazetteer()
    if gz is None:
        return None
    place = gz.reverse(float(lat), float(lon))    # None outside the ranges or far from any place
    if place is None:
        return None
    return {"name": str(place_field(place, "name")), "kind": str(place_field(place, "kind")), "levels": levels_of(place, gz)}



@lru_cache(maxsize=1024)
def _coords(levels: tuple[tuple[str, str], ...]) -> tuple[float, float] | None:
    lv = dict(levels)
    gz = gazetteer()
    if gz is None or not lv.get("city"):
        return None
    for p in gz.lookup(lv["city"]):
        lat, lon = place_field(p, "lat"), place_field(p, "lon")
        if lat is None or lon is None:
            continue
        plv = levels_of(p, gz)
        if plv.get("country") == lv.get("country") and (not lv.get("region") or plv.get("region") == lv["region"]):
            return float(lat), float(lon)
    return None


def distance_km(a: dict[str, str], b: dict[str, str]) -> float | None:
    """Great-circle distance between the cities of two level sets (None when either has no
    city the gazetteer places)."""
    pa, pb = _coords(tuple(sorted(a.items()))), _coords(tuple(sorted(b.items())))
    if pa is None or pb is None:
        return None
    # deferred like gazetteer(): coordinates exist only when the tools' gazetteer loaded
    from tools.gazetteer import haversine_km

    return haversine_km(*pa, *pb)
