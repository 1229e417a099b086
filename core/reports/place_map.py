"""The offline map of the audit report: the places found (profile place values resolved in the
packaged gazetteer, and photos' own GPS coordinates) drawn as an inline SVG in an equirectangular
projection around them, with the gazetteer's largest nearby cities in grey for orientation. No
tile server, no network."""
from __future__ import annotations

import math
import re

from pydantic import BaseModel

from core.textsafe import html_text as escape  # the output boundary: html.escape of printable text

PLACE_ATTRS = ("home_location", "work_location", "frequent_venues", "travel_history", "school", "workplace")
LABELS = {"home_location": "home", "work_location": "work", "frequent_venues": "often", "travel_history": "trip",
          "school": "school", "workplace": "workplace", "photo": "photo GPS"}


class MapPoint(BaseModel):
    lat: float
    lon: float
    label: str          # the place as found
    kind: str           # the attribute, or "photo"


def _resolve(value: str):
    """The finest place of a value ("Southwark, London, England, United Kingdom") with coordinates."""
    from tools.gazetteer import default_gazetteer

    gz = default_gazetteer()
    for part in re.split(r"\s*[;,/]\s*", value):
        part = part.strip()
        if len(part) < 2:
            continue
        for p in gz.lookup(part)[:1]:
            if p.lat is not None and p.lon is not None:
                return p
    return None


def points(profile: list[tuple[str, str]], geotags: list[tuple[float, float, str]]) -> list[MapPoint]:
    out: list[MapPoint] = []
    for attr, value in profile:
        if attr not in PLACE_ATTRS:
            continue
        items = value.split("; ") if attr in ("frequent_venues", "travel_history") else [value]
        for item in items:
            p = _resolve(item)
            if p is not None:
                out.append(MapPoint(lat=p.lat, lon=p.lon, label=f"{p.name} ({LABELS[attr]})", kind=attr))
    for lat, lon, post in geotags:
        if -90 <= lat <= 90 and -180 <= lon <= 180:
            out.append(MapPoint(lat=lat, lon=lon, label=f"photo GPS, {post}", kind="photo"))
    return out


def _context(lat0: float, lat1: float, lon0: float, lon1: float, n: int = 12) -> list[tuple[float, float, str]]:
    from tools.gazetteer import default_gazetteer

    gz = default_gazetteer()
    near = [p for p in gz.places.values() if p.kind == "city" and p.lat is not None and p.lon is not None
            and lat0 <= p.lat <= lat1 and lon0 <= p.lon <= lon1]
    near.sort(key=lambda p: -p.population)
    return [(p.lat, p.lon, p.name) for p in near[:n]]


def svg(pts: list[MapPoint], *, width: int = 640, height: int = 400) -> str:
    if not pts:
        return ""
    lats, lons = [p.lat for p in pts], [p.lon for p in pts]
    # a window of at least ~1 degree around the points, padded by a quarter on each side
    span_lat = max(max(lats) - min(lats), 0.6)
    span_lon = max(max(lons) - min(lons), 0.6)
    lat0, lat1 = min(lats) - span_lat * 0.35, max(lats) + span_lat * 0.35
    lon0, lon1 = min(lons) - span_lon * 0.35, max(lons) + span_lon * 0.35
    k = math.cos(math.radians((lat0 + lat1) / 2)) or 1.0
    # keep the aspect ratio of the projection inside the frame
    sx, sy = width / ((lon1 - lon0) * k), height / (lat1 - lat0)
    s = min(sx, sy)
    cx, cy = (lon0 + lon1) / 2, (lat0 + lat1) / 2

    def xy(lat: float, lon: float) -> tuple[float, float]:
        return width / 2 + (lon - cx) * k * s, height / 2 - (lat - cy) * s

    half_w, half_h = width / 2 / (k * s), height / 2 / s
    parts = [f"<svg class='map' viewBox='0 0 {width} {height}' role='img' aria-label='places found'>"
             "<title>places found in your posts</title>"
             f"<rect x='0' y='0' width='{width}' height='{height}' class='sea'/>"]
    taken: list[tuple[float, float, float, float]] = []      # label boxes already placed

    def free(x0: float, y0: float, x1: float, y1: float) -> bool:
        return all(x1 < a or x0 > c or y1 < b or y0 > d for a, b, c, d in taken)

    def place(x: float, y: float, text: str, size: float) -> float | None:
        """A baseline y for a label right of (x, y) that overlaps no other label, or None."""
        w = len(text) * size * 0.58
        for dy in (0, 15, -15, 30, -30, 45, -45):
            top = y + 4 + dy - size
            if free(x + 8, top, x + 8 + w, top + size + 2):
                taken.append((x + 8, top, x + 8 + w, top + size + 2))
                return y + 4 + dy
        return None

    ours = [(p, *xy(p.lat, p.lon)) for p in pts]
    for _, x, y in ours:
        taken.append((x - 7, y - 7, x + 7, y + 7))
    labels = []
    for p, x, y in ours:
        parts.append(f"<circle class='pt {escape(p.kind)}' cx='{x:.1f}' cy='{y:.1f}' r='6'>"
                     f"<title>{escape(p.label)}</title></circle>")
        ty = place(x, y, p.label, 13)
        if ty is not None:
            labels.append(f"<text class='pl' x='{x + 9:.1f}' y='{ty:.1f}'>{escape(p.label)}</text>")
    for lat, lon, name in _context(cy - half_h, cy + half_h, cx - half_w, cx + half_w):
        x, y = xy(lat, lon)
        if not free(x - 3, y - 3, x + 3, y + 3):
            continue                     # a grey city under one of the places found: left out
        ty = place(x, y, name, 11)
        if ty is None:
            continue
        parts.append(f"<circle class='ctx' cx='{x:.1f}' cy='{y:.1f}' r='2.5'/>"
                     f"<text class='ctx' x='{x + 6:.1f}' y='{ty:.1f}'>{escape(name)}</text>")
    parts += labels
    parts.append(f"<text class='ax' x='6' y='{height - 6}'>{abs(cy):.2f}°{'N' if cy >= 0 else 'S'} "
                 f"{abs(cx):.2f}°{'E' if cx >= 0 else 'W'} · places from the packaged gazetteer · no map tiles</text>")
    parts.append("</svg>")
    return "".join(parts)
