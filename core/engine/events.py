"""Run events as a typed union (pydantic, discriminated on `kind`): what the console's timeline,
the reports and the advisor read. The `events` table stores kind + JSON data; `parse_event`
turns a row into its typed event (a kind this version does not know, e.g. from a newer engine,
becomes an `OtherEvent` instead of an error). Every event also offers `.data`, the payload as
a dict, the form the table stores.
"""
from __future__ import annotations

import json
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from db import runs as db_runs


class BaseEvent(BaseModel):
    model_config = ConfigDict(extra="allow")   # a newer engine may add fields: keep them

    id: int | None = None               # events row id (None until read back from the DB)
    run_id: str = ""
    step: int = 0
    kind: str

    @property
    def data(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude={"id", "run_id", "step", "kind"})

    def payload(self) -> dict[str, Any]:
        """What the `events` row stores as its data: the fields the writer set (a reader fills the
        defaults back in), without the row's own columns."""
        return self.model_dump(exclude={"id", "run_id", "step", "kind"}, exclude_unset=True)


class RunStarted(BaseEvent):
    kind: Literal["run_started"] = "run_started"
    user_id: str | None = None
    posts: int = 0
    backend: str | None = None
    budget: float | None = None
    config: dict[str, Any] = Field(default_factory=dict)


class ErrorEvent(BaseEvent):
    """A recorded, non-fatal bad input or tool failure (file/field named in `where`)."""

    kind: Literal["error"] = "error"
    where: str | None = None
    reason: str = ""
    line: int | None = None
    field: str | None = None


class Perceived(BaseEvent):
    kind: Literal["perceived"] = "perceived"
    nodes: int = 0
    by_carrier: dict[str, int] = Field(default_factory=dict)
    images: int = 0


class HypothesesChanged(BaseEvent):
    kind: Literal["hypotheses"] = "hypotheses"
    new: list[str] = Field(default_factory=list)
    changed: list[str] = Field(default_factory=list)
    removed: dict[str, str] = Field(default_factory=dict)     # id -> why (superseded by ...)
    active: list[str] = Field(default_factory=list)


class Verified(BaseEvent):
    kind: Literal["verified"] = "verified"
    admitted: list[str] = Field(default_factory=list)
    unresolved: list[str] = Field(default_factory=list)
    removed: list[str] = Field(default_factory=list)
    grounded: list[str] = Field(default_factory=list)         # evidence ids grounded now
    rejected: dict[str, str] = Field(default_factory=dict)    # evidence id -> why
    reasons: dict[str, str] = Field(default_factory=dict)     # hypothesis id -> verdict reason
    # removed as contradicted: hypothesis id -> [the rival hypothesis, the grounded evidence against it]
    contradicted: dict[str, list[str]] = Field(default_factory=dict)


class Suspension(BaseEvent):
    """Unresolved hypotheses no route helps were suspended, and suspended ones whose evidence
    neighbourhood changed were woken (sent back to candidate to be verified again)."""

    kind: Literal["suspension"] = "suspension"
    suspended: dict[str, str] = Field(default_factory=dict)   # hypothesis id -> why no route helps
    woken: dict[str, str] = Field(default_factory=dict)       # hypothesis id -> what changed near it


class Projected(BaseEvent):
    kind: Literal["projected"] = "projected"
    attributes: dict[str, str] = Field(default_factory=dict)


class RouteProposed(BaseEvent):
    kind: Literal["route_proposed"] = "route_proposed"
    route_id: str | None = None
    hypothesis_id: str | None = None
    family: str = ""
    tool: str | None = None
    params: dict[str, Any] = Field(default_factory=dict)
    cost: float = 0.0
    expected: str = ""
    reason: str = ""
    parent_route_id: str | None = None
    signal: str = ""                  # the reason's parts, typed (RouteProposal): what made it score,
    gain: float | None = None         # its expected gain,
    about: str = ""                   # exploration: what it may bear on


class DecisionMade(BaseEvent):
    kind: Literal["decision"] = "decision"
    route_id: str | None = None
    action: str = ""
    by: str = ""
    reason: str | None = None
    params: dict[str, Any] | None = None
    parent_route_id: str | None = None
    family: str | None = None           # a route a person forced: its family


class ToolCalled(BaseEvent):
    kind: Literal["tool_call"] = "tool_call"
    route_id: str | None = None
    family: str = ""
    params: dict[str, Any] = Field(default_factory=dict)
    result: dict[str, Any] = Field(default_factory=dict)
    evidence: list[str] = Field(default_factory=list)
    cost: float = 0.0
    remaining: float | None = None


class RunFinished(BaseEvent):
    kind: Literal["run_finished"] = "run_finished"
    reason: str = ""
    spent: float = 0.0
    budget: float | None = None
    admitted: int = 0
    unresolved: int = 0
    removed: int = 0
    profile: list[str] = Field(default_factory=list)


class HypothesisAction(BaseEvent):
    """A person's reject / confirm / note on one hypothesis (Investigation.hypothesis_action)."""

    kind: Literal["hypothesis_action"] = "hypothesis_action"
    node_id: str
    action: Literal["reject", "confirm", "note"]
    by: str
    reason: str = ""
    attribute: str | None = None
    value: str | None = None
    status: str | None = None           # the hypothesis status after the action


class BudgetExtended(BaseEvent):
    kind: Literal["budget_extended"] = "budget_extended"
    units: float = 0.0
    by: str = ""
    budget: float | None = None         # the total after the extension
    remaining: float | None = None


class Reopened(BaseEvent):
    """A finished run continued (more budget, a forced route)."""

    kind: Literal["reopened"] = "reopened"
    by: str = ""
    after: str | None = None            # the stop reason it continues after


class OtherEvent(BaseEvent):
    """An event kind this version has no model for."""


_TYPES = (RunStarted, ErrorEvent, Perceived, HypothesesChanged, Verified, Suspension, Projected, RouteProposed, DecisionMade,
          ToolCalled, RunFinished, HypothesisAction, BudgetExtended, Reopened)
RunEvent = Annotated[Union[_TYPES], Field(discriminator="kind")]
_ADAPTER: TypeAdapter = TypeAdapter(RunEvent)
KINDS = frozenset(t.model_fields["kind"].default for t in _TYPES)


def make_event(kind: str, data: dict[str, Any], *, step: int, run_id: str = "", id: int | None = None) -> BaseEvent:
    """The typed event of one (kind, data) payload; an unknown kind or a payload that does not fit
    its model (an older engine's) is kept whole as an OtherEvent."""
    payload = {**data, "id": id, "run_id": run_id, "step": step, "kind": kind}
    if kind in KINDS:
        try:
            return _ADAPTER.validate_python(payload)
        except ValidationError:
            pass
    return OtherEvent(**payload)


def parse_event(row: dict[str, Any] | tuple) -> BaseEvent:
    """An `events` row (dict with id/run_id/step/kind/data, or a (id, run_id, step, kind, data) tuple)."""
    if isinstance(row, tuple):
        row = dict(zip(("id", "run_id", "step", "kind", "data"), row))
    data = row.get("data") or {}
    if isinstance(data, str):
        data = json.loads(data)
    return make_event(row["kind"], data, step=int(row.get("step") or 0), run_id=row.get("run_id") or "",
                      id=row.get("id"))


def read_events(db, run_id: str, *, since_id: int = 0, max_step: int | None = None) -> list[BaseEvent]:
    """A run's events in order, typed."""
    return [parse_event(r) for r in db_runs.event_rows(db, run_id, since_id=since_id, max_step=max_step)]
