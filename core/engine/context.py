"""What every stage and backend gets for one run: the DB, the graph, the user's public
view, the config flags and a way to record tool calls."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import sqlite_utils

from core.engine.budget import Budget
from core.engine.graph import Graph
from core.models import UserView

# Stage switches (runs.config); ablations turn one off.
DEFAULT_CONFIG: dict[str, Any] = {
    "perceiver": True,        # False: captions only (no images/OCR/EXIF/metadata/bio)
    "hypothesizer": True,     # False: per-cue hypotheses projected directly, no aggregation
    "investigator": True,     # False: no routes
    "verifier": True,         # False: admit everything proposed
    "cpeg": True,             # False: no cross-post aggregation (each post alone)
    "ocr_in_perception": True,  # OCR text-bearing images during the skim (not charged)
    "network": False,         # web_search/page_fetch/online map routes allowed
    "max_steps": 200,
}


@dataclass
class RunContext:
    db: sqlite_utils.Database
    run_id: str
    user: UserView
    graph: Graph
    budget: Budget
    config: dict[str, Any] = field(default_factory=lambda: dict(DEFAULT_CONFIG))
    errors: list[dict[str, Any]] = field(default_factory=list)   # recorded, non-fatal input/tool errors
    pending_rows: list[tuple[str, list[Any]]] = field(default_factory=list)  # SQL written inside the next step

    @property
    def step(self) -> int:
        return self.graph.step

    def flag(self, name: str) -> Any:
        return self.config.get(name, DEFAULT_CONFIG.get(name))

    def recorder(self, route_id: str | None = None):
        from tools.base import Recorder

        return Recorder(self.db, run_id=self.run_id, step=self.step, route_id=route_id)

    def error(self, where: str, reason: str, **extra: Any) -> None:
        self.errors.append({"where": where, "reason": reason, **extra})
