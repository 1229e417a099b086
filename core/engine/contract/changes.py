"""The changes a stage hands to the loop instead of writing them: the loop alone applies them,
inside the step's transaction (core/engine/step.py: apply_changes), in order. Stages return them
with their results (perception: images and errors; a route's adapters: errors; the verifier:
`verdict_changes`); the loop turns its own bookkeeping (drafts stored, hypotheses put, statuses
of suspension, charges) into the same changes, so every write of a step takes one path. The run's
own rows -- the run, its routes, its profile, its budget -- change through the loop's changes
(`RunChange`, below), applied on the same path; a stage never hands one over (RunContext.queue
refuses it)."""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from core.engine.types import EvidenceNode, Hypothesis, RouteProposal
from core.models import Post, PredictedAttribute
from core.nodes.node import NodeData


class AddEvidence(BaseModel):
    """Store a post node or an evidence draft (a new id; its `data.cites` become cite edges,
    else the post it comes from); `provenance`: the route that read it."""

    draft: EvidenceNode
    provenance: list[str] | None = None


class PutHypothesis(BaseModel):
    """Insert a hypothesis or update the one with the same key (graph.put_hypothesis)."""

    hypothesis: Hypothesis


class SetStatus(BaseModel):
    """A node's new status with the reason; `by`: who removed a hypothesis (hypothesizer,
    verifier, router, person:<name>)."""

    node_id: str
    status: str
    reason: str = ""
    by: str | None = None


class RemoveSupport(BaseModel):
    """A support edge stops counting from this step on (the row stays, with why)."""

    src: str
    dst: str
    reason: str = ""


class UpdateNode(BaseModel):
    """New data (the whole typed NodeData) and/or confidence of a node."""

    node_id: str
    data: NodeData | None = None
    confidence: float | None = None


class Charge(BaseModel):
    """Route budget units spent (one budget_ledger row)."""

    cost: float
    route_id: str | None = None
    family: str = ""


class RecordImage(BaseModel):
    """The skim's record of one image (table `images`): its content hash and size, and what the
    skim read of it (signals, EXIF, OCR line count, or the error that made it unreadable)."""

    image_id: str
    post_id: str
    file: str
    sha256: str | None = None
    width: int | None = None
    height: int | None = None
    meta: dict[str, Any] = Field(default_factory=dict)     # the images row's JSON blob, as written


class RecordError(BaseModel):
    """A non-fatal input or tool error (an unreadable image, an embedder that failed): one `error`
    event of the step, {"where", "reason", **extra}."""

    where: str
    reason: str
    extra: dict[str, Any] = Field(default_factory=dict)    # line, field, file, calls ...

    def event(self) -> dict[str, Any]:
        return {"where": self.where, "reason": self.reason, **self.extra}


Change = AddEvidence | PutHypothesis | SetStatus | RemoveSupport | UpdateNode | Charge | RecordImage | RecordError


# -- the loop's own changes: the run row, its routes, its profile and budget (never a stage's) ----

class StartRun(BaseModel):
    """The run's row (running, step 0) and its posts as the loader read them."""

    user_id: str
    user_dir: str
    system: str
    backend: str
    config: dict[str, Any]
    budget: float
    posts: list[Post]


class AddRoute(BaseModel):
    """A route row: proposed by the router, or approved at once (a rerun, a route a person forced)."""

    route: RouteProposal
    status: str


class DecideRoute(BaseModel):
    """A route's decision and result, recorded in the step that decided it."""

    route_id: str
    status: str
    by: str
    reason: str | None = None
    result: dict[str, Any] | None = None


class SetRouteParams(BaseModel):
    """A person's edited parameters of a route, before it runs."""

    route_id: str
    params: dict[str, Any]


class WriteProfile(BaseModel):
    """The run's profile brought to the projection (history append-only); makes True when it changed."""

    attributes: list[PredictedAttribute]


class ExtendBudget(BaseModel):
    """More route budget (runs.budget and a ledger row); makes the units remaining."""

    units: float
    by: str


class ReopenRun(BaseModel):
    """A finished run continues (more budget, a forced route): its finished_at is cleared."""


class CommitRun(BaseModel):
    """The run row as a step commits: its step, the units spent, and a new status if any
    (finished: finished_at set)."""

    step: int
    spent: float
    status: str | None = None


RunChange = StartRun | AddRoute | DecideRoute | SetRouteParams | WriteProfile | ExtendBudget | ReopenRun | CommitRun
RUN_CHANGES = (StartRun, AddRoute, DecideRoute, SetRouteParams, WriteProfile, ExtendBudget, ReopenRun, CommitRun)


class Perception(BaseModel):
    """What perception returns: post nodes and evidence drafts (node ids assigned by the graph;
    data.cites lists post node ids), and the changes to store with them."""

    drafts: list[EvidenceNode] = Field(default_factory=list)
    changes: list[Change] = Field(default_factory=list)
