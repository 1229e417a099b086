"""The engine's typed run config (`runs.config`): what every stage is run with, next to its
GraphView. An unknown key is an error naming it (core/engine/context.py: engine_config)."""
from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


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
