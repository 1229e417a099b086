"""Typed values that cross the engine's stage boundaries (the contract between stages,
backends and the console). Stages are pure functions of a GraphView plus these values;
the loop persists their results in the run DB.
"""
from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from core.nodes.cue import Cue  # noqa: F401 (a rule's cue, stored in evidence data)
from core.nodes.hypothesis import HypothesisExtras, Need
from core.nodes.node import EvidenceNode, NodeKind  # noqa: F401 (the node type of the contract)

# raw: perceived, not yet checked; grounded: found where it says it comes from (the post field
# or the tool call it cites); rejected: not found there, or hostile (the reason is kept);
# removed: unusable from the start (an unreadable image). An admitted hypothesis is derived evidence.
EvidenceStatus = Literal["raw", "grounded", "rejected", "removed"]
HypothesisStatus = Literal["candidate", "unresolved", "suspended", "admitted", "removed"]
RouteFamily = Literal[
    "ocr", "zoom_ocr", "exif", "gazetteer", "map_search", "web_search", "page_fetch", "deep_visual", "stop"
]
DecisionAction = Literal["approve", "skip", "edit", "rerun", "stop"]


class Hypothesis(BaseModel):
    node_id: str | None = None        # assigned by the graph when stored
    attribute: str
    value: str
    level: str | None = None
    granularity: float = 0.0          # depth/levels for hierarchies, 1.0 otherwise
    confidence: float = 0.5
    evidence: list[str] = Field(default_factory=list)    # node ids that support it
    status: HypothesisStatus = "candidate"
    rationale: str = ""
    needs: list[Need] = Field(default_factory=list)      # routes it asks for, e.g. gazetteer:Camden
    levels: dict[str, str] = Field(default_factory=dict)  # hierarchies: {level: value} coarse-to-fine
    # whose fact its support states: "self" (the poster), or "other:<who>" (a brother's job, a friend's
    # birthday age): the verifier removes a claim about the user that only another person's fact supports
    holder: str = "self"
    data: HypothesisExtras = Field(default_factory=HypothesisExtras)   # what its aggregator adds


class RouteProposal(BaseModel):
    route_id: str | None = None
    hypothesis_id: str | None = None
    family: RouteFamily
    tool: str | None = None
    params: dict[str, Any] = Field(default_factory=dict)  # image/box/zoom/query/url...
    cost: float = 0.0
    expected: str = ""                # the evidence the route is expected to yield
    reason: str = ""
    parent_route_id: str | None = None
    # the reason's parts, typed, for whoever shows them (the console's route card):
    signal: str = ""                  # what made it score ("image with a text region (26 text tiles), unread")
    gain: float | None = None         # its expected gain (routing-table routes; None from the model router)
    about: str = ""                   # exploration: what it may bear on ("no hypothesis cites post p03 yet")


class Decision(BaseModel):
    action: DecisionAction
    by: str = "policy:auto"           # "policy:<name>" or "person:<name>"
    params: dict[str, Any] | None = None   # edited parameters (edit / rerun)
    reason: str | None = None


class Verdict(BaseModel):
    """The verifier's answer for one hypothesis: its status, the evidence that remains after the
    grounding checks, and the supporters it rejected (id -> why). The loop applies all three:
    rejected supporters lose their support edges, the hypothesis gets the status."""

    status: Literal["admitted", "unresolved", "removed"]
    reason: str = ""
    confidence: float | None = None
    evidence: list[str] | None = None    # the supporter ids that remain after grounding checks
    rejected: dict[str, str] = Field(default_factory=dict)
    # removed as contradicted: the rival hypothesis id, then the grounded evidence ids against it
    contradicted_by: list[str] = Field(default_factory=list)


# events are the typed union of core/engine/events.py; `Event` is their common base
from core.engine.events import BaseEvent as Event  # noqa: E402,F401
