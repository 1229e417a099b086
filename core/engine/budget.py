"""Route costs and the per-user route budget (perception is not charged).

Costs are in abstract units that roughly track wall time and external exposure:
local pixel work is cheap, network lookups are dear. A user gets B = 20 units.
"""
from __future__ import annotations

from pydantic import BaseModel

DEFAULT_BUDGET = 20.0

# family -> cost units per executed route (documented in docs/engine.md)
ROUTE_COSTS: dict[str, float] = {
    "ocr": 2.0,          # full-image OCR of an image the perceiver did not read
    "zoom_ocr": 2.0,     # crop + adaptive upscale + re-OCR of a small/low-confidence text region
    "exif": 1.0,         # re-read EXIF of an image (normally done in perception)
    "gazetteer": 1.0,    # offline place resolution: ancestors, disambiguation
    "map_search": 2.0,   # map/POI search (offline gazetteer or an online provider when enabled)
    "web_search": 3.0,   # web search (off unless enabled)
    "page_fetch": 3.0,   # fetch one page (off unless enabled)
    "deep_visual": 5.0,  # a strong VLM look at one image (model backends only)
    "stop": 0.0,
}

NETWORK_FAMILIES = frozenset({"web_search", "page_fetch"})


def route_cost(family: str) -> float:
    return ROUTE_COSTS.get(family, 1.0)


class Budget(BaseModel):
    total: float = DEFAULT_BUDGET
    spent: float = 0.0

    @property
    def remaining(self) -> float:
        return max(0.0, self.total - self.spent)

    def affordable(self, cost: float) -> bool:
        return cost <= self.remaining + 1e-9

    def charge(self, cost: float) -> float:
        self.spent += cost
        return self.remaining
