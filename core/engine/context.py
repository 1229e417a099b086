"""The loop's side of one run: the run DB, the graph, the budget, the user's public view and the
config, the changes and errors queued for the step; and what the loop hands each stage out of
it: the read-only GraphView (`view`), the typed EngineConfig (`settings`), the Recorder of tool
calls (`recorder`) and the recorder of model calls (`calls`). No stage receives a RunContext."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import sqlite_utils
from pydantic import ValidationError

from core.engine.budget import Budget
from core.engine.contract.changes import RUN_CHANGES, Change, RecordError
from core.engine.contract.config import ApprovalRule, EngineConfig  # noqa: F401 (re-exported)
from core.engine.contract.view import GraphView
from core.engine.graph import Graph
from core.engine.places import resolve_levels
from core.errors import InputError
from core.models import UserView
from db.model_calls import ModelCalls
from tools.base import Recorder
from tools.registry import ToolEnv


DEFAULT_CONFIG: dict[str, Any] = EngineConfig().model_dump()


def engine_config(values: dict[str, Any] | None, *, where: str = "engine config") -> dict[str, Any]:
    """Validate `values` over the defaults; InputError names the unknown or bad key."""
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
            self._view = GraphView(self.graph, self.db, self.run_id, profile=self.user.profile)
        return self._view

    @property
    def settings(self) -> EngineConfig:
        """The run config, typed (what a stage is run with)."""
        return EngineConfig.model_validate({**DEFAULT_CONFIG, **self.config})

    @property
    def step(self) -> int:
        return self.graph.step

    def flag(self, name: str) -> Any:
        return self.config.get(name, DEFAULT_CONFIG.get(name))

    def recorder(self, route_id: str | None = None):
        """The Recorder of tool calls at this step (cached by content hash, one tool_calls row each)."""
        return Recorder(self.db, run_id=self.run_id, step=self.step, route_id=route_id)

    def calls(self):
        """The recorder of model calls at this step (db/model_calls.py); a backend's errors join the step's."""
        return ModelCalls(self.db, self.run_id, self.step, errors=self.errors)

    def tool_env(self, backend: Any = None, route_id: str | None = None, *, use_cache: bool = True):
        """The ToolEnv a route (or perception) runs its registry tool with: the gazetteer's place
        resolver and the backend's deep visual look are handed to the tools, never the context."""
        rec = self.recorder(route_id)
        rec.use_cache = use_cache
        look = None
        if backend is not None:
            def look(image_path: str, question: str) -> Any:
                return backend.deep_visual(self.view, self.settings, image_path, question, self.calls())
        return ToolEnv(rec, self.user.user_dir, self.config, backend=backend, look=look, places=resolve_levels)

    def queue(self, changes: list[Change]) -> None:
        """A stage's changes: errors join the step's error events, the rest the loop applies."""
        for c in changes:
            if isinstance(c, RUN_CHANGES):      # the run's own rows change by the loop alone
                raise TypeError(f"a stage handed over the loop's own change {type(c).__name__}")
            if isinstance(c, RecordError):
                self.errors.append(c.event())
            else:
                self.pending.append(c)

    def error(self, where: str, reason: str, **extra: Any) -> None:
        self.errors.append({"where": where, "reason": reason, **extra})
