"""Map / place search behind one interface.

`OfflineMapSearch` answers from the offline gazetteer (default). Online providers
(`NominatimMapSearch` for OpenStreetMap Nominatim, `AmapMapSearch` for Amap/Gaode, which
covers Chinese POIs better) are off unless constructed with enabled=True, which the caller
does only when the run's network flag is on.
"""
from __future__ import annotations

from typing import Any, Protocol, runtime_checkable


from core.nodes.evidence import MapResult  # noqa: F401 (a map search's place, stored in evidence data)
from tools.base import HttpProvider, KeyedHttpProvider, ToolError, check_query


@runtime_checkable
class MapSearch(Protocol):
    name: str
    needs_network: bool

    def search(self, query: str, k: int = 5) -> list[MapResult]:
        ...

    def reverse(self, lat: float, lon: float) -> MapResult | None:
        ...


def _check_query(query: str) -> str:
    return check_query(query, tool="map_search", what="map", limit=300)


def _check_coords(lat: Any, lon: Any) -> tuple[float, float]:
    try:
        la, lo = float(lat), float(lon)
    except (TypeError, ValueError) as e:
        raise ToolError(f"lat/lon: not numbers ({lat!r}, {lon!r})", tool="map_search") from e
    if not (-90 <= la <= 90 and -180 <= lo <= 180):
        raise ToolError(f"lat/lon: out of range ({la}, {lo})", tool="map_search")
    return la, lo


class OfflineMapSearch:
    name = "offline"
    needs_network = False

    def __init__(self, gazetteer: Any = None):
        from tools.gazetteer import default_gazetteer

        self.gz = gazetteer or default_gazetteer()

    def _result(self, p: Any) -> MapResult:
        chain = [c.name for c in self.gz.chain(p)]
        return MapResult(name=p.name, kind=p.kind, lat=p.lat, lon=p.lon, address=", ".join(reversed(chain)),
                         chain=chain, source=self.name, place_id=p.id)

    def search(self, query: str, k: int = 5) -> list[MapResult]:
        q = _check_query(query)
        places = self.gz.lookup(q)
        if not places:  # a phrase or address: the places named inside it, finest first
            matches = self.gz.find_places(q)
            places = sorted((m.place for m in matches), key=lambda p: -len(p.ancestors))
        return [self._result(p) for p in places[: max(1, k)]]

    def reverse(self, lat: float, lon: float) -> MapResult | None:
        la, lo = _check_coords(lat, lon)
        p = self.gz.reverse(la, lo)
        return self._result(p) if p is not None else None


class _OnlineMapSearch(HttpProvider):
    name = "online"
    tool = "map_search"

    def disabled_reason(self) -> str:
        return f"map search via {self.name} disabled (network tools are off)"


class NominatimMapSearch(_OnlineMapSearch):
    """OpenStreetMap Nominatim (usage policy: identify yourself, <= 1 request/s)."""

    name = "nominatim"

    def __init__(self, base_url: str = "https://nominatim.openstreetmap.org", enabled: bool = False,
                 user_agent: str = "Argus/0.1 privacy-leakage research", timeout: float = 10.0):
        super().__init__(enabled, timeout)
        self.base_url = base_url.rstrip("/")
        self.headers = {"User-Agent": user_agent}

    def _res(self, item: dict) -> MapResult:
        return MapResult(name=str(item.get("name") or item.get("display_name", "")).strip(),
                         kind=str(item.get("addresstype") or item.get("type") or ""),
                         lat=float(item["lat"]) if item.get("lat") else None,
                         lon=float(item["lon"]) if item.get("lon") else None,
                         address=str(item.get("display_name", "")), source=self.name,
                         place_id=str(item.get("osm_id")) if item.get("osm_id") else None)

    def search(self, query: str, k: int = 5) -> list[MapResult]:
        data = self._get(f"{self.base_url}/search",
                         {"q": _check_query(query), "format": "jsonv2", "limit": max(1, min(k, 20))}, self.headers)
        return [self._res(x) for x in (data or [])[:k] if isinstance(x, dict)]

    def reverse(self, lat: float, lon: float) -> MapResult | None:
        la, lo = _check_coords(lat, lon)
        data = self._get(f"{self.base_url}/reverse", {"lat": la, "lon": lo, "format": "jsonv2"}, self.headers)
        return self._res(data) if isinstance(data, dict) and "lat" in data else None


class AmapMapSearch(KeyedHttpProvider, _OnlineMapSearch):
    """Amap (Gaode) web service: place/text search and regeo; coordinates are GCJ-02."""

    name = "amap"
    BASE = "https://restapi.amap.com/v3"

    def search(self, query: str, k: int = 5) -> list[MapResult]:
        key = self._need_key()
        data = self._get(f"{self.BASE}/place/text",
                         {"keywords": _check_query(query), "key": key, "output": "json", "offset": max(1, min(k, 25))})
        out = []
        for poi in (data.get("pois") or [])[:k]:
            loc = str(poi.get("location") or "")
            lon, _, lat = loc.partition(",")
            chain = [x for x in ("中国", poi.get("pname"), poi.get("cityname"), poi.get("adname")) if isinstance(x, str) and x]
            out.append(MapResult(name=str(poi.get("name", "")), kind="poi",
                                 lat=float(lat) if lat else None, lon=float(lon) if lon else None,
                                 address=str(poi.get("address") or ""), chain=chain, source=self.name,
                                 place_id=str(poi.get("id")) if poi.get("id") else None))
        return out

    def reverse(self, lat: float, lon: float) -> MapResult | None:
        key = self._need_key()
        la, lo = _check_coords(lat, lon)
        data = self._get(f"{self.BASE}/geocode/regeo", {"location": f"{lo:.6f},{la:.6f}", "key": key, "output": "json"})
        rg = (data or {}).get("regeocode") or {}
        comp = rg.get("addressComponent") or {}
        city = comp.get("city") if isinstance(comp.get("city"), str) else comp.get("province")
        chain = [x for x in (comp.get("country"), comp.get("province"), city, comp.get("district")) if isinstance(x, str) and x]
        if not chain:
            return None
        return MapResult(name=chain[-1], kind="district" if comp.get("district") else "city", lat=la, lon=lo,
                         address=str(rg.get("formatted_address") or ""), chain=chain, source=self.name)


def map_search_from_config(cfg: dict[str, Any] | None, network: bool = False) -> MapSearch:
    """cfg: {"provider": "offline"|"nominatim"|"amap", "base_url": ..., "api_key": ...}.
    Online providers only when network is on; otherwise the offline gazetteer."""
    cfg = cfg or {}
    provider = str(cfg.get("provider") or "offline").lower()
    if provider == "offline" or not network:
        return OfflineMapSearch()
    if provider == "nominatim":
        return NominatimMapSearch(str(cfg.get("base_url") or "https://nominatim.openstreetmap.org"), enabled=True)
    if provider == "amap":
        return AmapMapSearch(str(cfg.get("api_key") or ""), enabled=True)
    raise ToolError(f"map_search.provider: unknown provider {provider!r} (offline, nominatim, amap)", tool="map_search")


def default_mapsearch(config: dict[str, Any] | None = None) -> MapSearch:
    """The map search for a run: the offline gazetteer unless config["network"] is true and
    config["map_search"] (or env ARGUS_MAP_SEARCH=nominatim|amap, ARGUS_AMAP_KEY) names a provider."""
    import os

    config = config or {}
    cfg = dict(config.get("map_search") or {})
    cfg.setdefault("provider", os.environ.get("ARGUS_MAP_SEARCH", "offline"))
    if cfg["provider"] == "amap":
        cfg.setdefault("api_key", os.environ.get("ARGUS_AMAP_KEY", ""))
    return map_search_from_config(cfg, network=bool(config.get("network")))
