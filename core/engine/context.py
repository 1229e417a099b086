"""What every stage and backend gets for one run: the graph and its read-only view (the run
store's records a stage may read), the user's public view, the config flags, a way to record
tool calls, and the queue of changes the loop applies; and the typed engine config."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

import sqlite_utils
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from core.engine.budget import Budget
from core.engine.contract.changes import Change
from core.engine.contract.view import GraphView
from core.engine.graph import Graph
from core.models import UserView


class ApprovalRule(BaseModel):
    """One approver of a policy chain (see core/engine/approval.py)."""

    model_config = ConfigDict(extra="forbid")
    families: str = "*"               # glob over route families, e.g. "web_search" or "*ocr"
    action: Literal["approve", "edit", "skip", "stop", "escalate"] = "approve"
    params: dict[str, Any] | None = None   # for edit: merged into the route's params
    reason: str = ""


class EngineConfig(BaseModel):
    """The engine's run config (`runs.config`). An unknown key is an error naming it."""

    model_config = ConfigDict(extra="forbid")
    # stage switches; `--ablate PART` turns one off
    perceiver: bool = True            # False: captions only (no images/OCR/EXIF/metadata/bio)
    hypothesizer: bool = True         # False: per-cue hypotheses projected directly, no aggregation
    investigator: bool = True         # False: no routes
    verifier: bool = True             # False: admit everything proposed
    cpeg: bool = True                 # False: no cross-post aggregation (each post alone)
    semantic: bool = True             # False: no semantic cues next to the rule cues (rules/semantic.py)
    ocr_in_perception: bool = False   # True: OCR every text-bearing image during the skim (the old mode)
    network: bool = False             # web_search / page_fetch / online map routes allowed
    max_steps: int = Field(default=200, ge=1)
    approval: list[ApprovalRule] | None = None   # headless approver chain (default: approve offline routes)
    # provider settings of the network tools (tools/websearch.py, tools/mapsearch.py)
    web_search: dict[str, Any] | None = None
    map_search: dict[str, Any] | None = None
    # model-backend options (core/backends) and the baseline a run belongs to
    backend_config: str | None = None
    model_cache: str | None = None
    replay_from: str | None = None
    replay_run: str | None = None
    baseline: str | None = None


DEFAULT_CONFIG: dict[str, Any] = EngineConfig().model_dump()


def engine_config(values: dict[str, Any] | None, *, where: str = "engine config") -> dict[str, Any]:
    """Validate `values` over the defaults; InputError names the unknown or bad key."""
    from core.errors import InputError

    try:
        cfg = EngineConfig.model_validate({**(values or {})})
    except ValidationError as e:
        first = e.errors()[0]
        key = ".".join(str(x) for x in first.get("loc", ())) or "config"
        msg = ("unknown engine setting (known: " + ", ".join(EngineConfig.model_fields) + ")"
               if first.get("type") == "extra_forbidden" else first.get("msg", "invalid"))
        raise InputError(where, msg, field=key) from e
    return cfg.model_dump()


def parse_set(items: list[str], *, where: str = "--set") -> dict[str, Any]:
    """CLI `--set KEY=VALUE` items (JSON values, else strings), validated by EngineConfig."""
    import json

    from core.errors import InputError

    out: dict[str, Any] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        if not sep or not key:
            raise InputError(where, f"{item!r}: expected KEY=VALUE", field=key or None)
        try:
            out[key] = json.loads(raw)
        except json.JSONDecodeError:
            out[key] = raw
    engine_config(out, where=where)
    return out


@dataclass
class RunContext:
    db: sqlite_utils.Database
    run_id: str
    user: UserView
    graph: Graph
    budget: Budget
    config: dict[str, Any] = field(default_factory=lambda: dict(DEFAULT_CONFIG))
    errors: list[dict[str, Any]] = field(default_factory=list)   # recorded, non-fatal input/tool errors
    pending: list[Change] = field(default_factory=list)   # changes the loop applies inside the next step
    _view: GraphView | None = field(default=None, repr=False)

    @property
    def view(self) -> GraphView:
        """The read-only view of this run a stage reads through (one per graph: the loop replaces
        the graph after a rolled-back step)."""
        if self._view is None or self._view.graph is not self.graph:
            self._view = GraphView(self.graph, self.db, self.run_id)
        return self._view

    @property
    def step(self) -> int:
        return self.graph.step

    def flag(self, name: str) -> Any:
        return self.config.get(name, DEFAULT_CONFIG.get(name))

    def recorder(self, route_id: str | None = None):
        from tools.base import Recorder

        return Recorder(self.db, run_id=self.run_id, step=self.step, route_id=route_id)

    def tool_env(self, backend: Any = None, route_id: str | None = None, *, use_cache: bool = True):
        """The ToolEnv a route (or perception) runs its registry tool with."""
        from core.engine.places import resolve_levels
        from tools.registry import ToolEnv

        rec = self.recorder(route_id)
        rec.use_cache = use_cache
        return ToolEnv(rec, self.user.user_dir, self.config, backend=backend, ctx=self, places=resolve_levels)

    def error(self, where: str, reason: str, **extra: Any) -> None:
        self.errors.append({"where": where, "reason": reason, **extra})
