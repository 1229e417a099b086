"""The step transaction: everything a step writes goes through here, inside one SQLite
transaction (BEGIN ... COMMIT, or a rollback that also rebuilds the in-memory state from the
last committed step). Stages never write: they hand changes (core/engine/contract/changes.py)
to the loop, which applies them here (apply_changes), in order."""
from __future__ import annotations

import json
import os
from typing import Any, Callable

import sqlite_utils

from core.engine.budget import Budget
from core.engine.context import RunContext
from core.engine.contract.changes import (AddEvidence, AddRoute, Change, Charge, CommitRun, DecideRoute, ExtendBudget,
                                          PutHypothesis, RecordError, RecordImage, RemoveSupport, ReopenRun, RunChange,
                                          SetRouteParams, SetStatus, StartRun, UpdateNode, WriteProfile)
from core.engine.events import BaseEvent, ErrorEvent, make_event
from core.engine.graph import Graph, hypothesis_key
from core.engine.types import EvidenceNode, Event
from db import queries
from db import routes as db_routes
from db import runs as db_runs
from db.profile import write_profile
from db.store import dumps


def add_evidence(g: Graph, d: EvidenceNode) -> EvidenceNode:
    """A post node (once), or an evidence draft with a new id and its cite edges (data.cites,
    else the post it comes from)."""
    if d.kind == "post":
        if d.node_id in g.nodes:
            return g.nodes[d.node_id]
        return g.add_node(d)
    cites, d.data.cites = list(d.data.cites or []), None
    if d.post_id and not cites and f"post:{d.post_id}" in g.nodes:
        cites = [f"post:{d.post_id}"]
    d.node_id = ""
    node = g.add_node(d)
    for c in cites:
        if c in g.nodes:
            g.add_edge(node.node_id, c, "cite")
    return node


def apply_change(ctx: RunContext, c: Change | RunChange) -> Any:
    """Write one change (inside the caller's transaction). Returns what it made: AddEvidence the
    stored node, PutHypothesis (node, changed, existed before), Charge and ExtendBudget the
    remaining units, WriteProfile whether the profile changed."""
    g = ctx.graph
    if isinstance(c, AddEvidence):
        node = add_evidence(g, c.draft)
        if c.provenance is not None:
            node.provenance = list(c.provenance)
            g.update_node(node)
        return node
    if isinstance(c, PutHypothesis):
        existed = g.hypothesis_by_key(hypothesis_key(c.hypothesis.attribute, c.hypothesis.value)) is not None
        node, changed = g.put_hypothesis(c.hypothesis)
        return node, changed, existed
    if isinstance(c, SetStatus):
        g.set_status(g.nodes[c.node_id], c.status, c.reason, by=c.by)
    elif isinstance(c, RemoveSupport):
        g.remove_support(c.src, c.dst, c.reason)
    elif isinstance(c, UpdateNode):
        node = g.nodes[c.node_id]
        if c.data is not None:
            node.data = c.data
        if c.confidence is not None:
            node.confidence = c.confidence
        g.update_node(node)
    elif isinstance(c, Charge):
        return ctx.budget.charge(c.cost, step=ctx.step, route_id=c.route_id, family=c.family)
    elif isinstance(c, RecordImage):
        queries.write_image(ctx.db, ctx.run_id, c.image_id, c.post_id, c.file, c.sha256, c.width, c.height,
                            dumps(c.meta))
    elif isinstance(c, RecordError):
        ctx.errors.append(c.event())
    else:
        return _apply_run_change(ctx, c)
    return None


def _apply_run_change(ctx: RunContext, c: RunChange) -> Any:
    """The loop's own changes: the run row, its routes, its profile and budget."""
    if isinstance(c, WriteProfile):
        return write_profile(ctx.db, ctx.run_id, ctx.step, c.attributes)
    if isinstance(c, ExtendBudget):
        return ctx.budget.extend(c.units, step=ctx.step, by=c.by)
    if isinstance(c, AddRoute):
        r = c.route
        db_routes.insert_route(ctx.db, ctx.run_id, ctx.step, route_id=r.route_id or "", hypothesis_id=r.hypothesis_id,
                               family=r.family, tool=r.tool, params=r.params, cost=r.cost, expected=r.expected,
                               status=c.status, parent_route_id=r.parent_route_id)
    elif isinstance(c, DecideRoute):
        db_routes.mark_route(ctx.db, ctx.run_id, c.route_id, ctx.step, c.status, by=c.by, reason=c.reason,
                             result=c.result)
    elif isinstance(c, SetRouteParams):
        db_routes.set_params(ctx.db, ctx.run_id, c.route_id, c.params)
    elif isinstance(c, CommitRun):
        db_runs.commit_run(ctx.db, ctx.run_id, c.step, c.spent, c.status)
    elif isinstance(c, ReopenRun):
        db_runs.reopen_run(ctx.db, ctx.run_id)
    elif isinstance(c, StartRun):
        db_runs.insert_run(ctx.db, ctx.run_id, user_id=c.user_id, user_dir=c.user_dir, system=c.system,
                           backend=c.backend, config=c.config, budget=c.budget)
        for i, p in enumerate(c.posts):
            db_runs.insert_post(ctx.db, ctx.run_id, p.post_id, i, p.timestamp, p.ip_region, p.model_dump(mode="json"))
    else:   # a new change type must be applied here, not dropped
        raise TypeError(f"apply_change: no writer for {type(c).__name__}")
    return None


def apply_changes(ctx: RunContext, changes: list[Change | RunChange]) -> list[Any]:
    """Write the changes in order (inside the caller's transaction); what each made."""
    return [apply_change(ctx, c) for c in changes]


def insert_event(db: sqlite_utils.Database, run_id: str, step: int, event: BaseEvent) -> int:
    """Append one typed event (core/engine/events.py) to the run's `events`; its row id."""
    return db_runs.insert_event(db, run_id, step, event.kind, dumps(event.payload()))


def crash_hook(step: int) -> None:
    """Testing aid: ARGUS_ENGINE_EXIT_AFTER_STEP=N hard-kills the process right after step N
    commits (no cleanup, like a SIGKILL), so resume can be tested deterministically."""
    want = os.environ.get("ARGUS_ENGINE_EXIT_AFTER_STEP")
    if want and want.isdigit() and int(want) == step:
        os._exit(137)


class StepTransaction:
    """One committed step of an investigation: begin, record events, commit or roll back."""

    db: sqlite_utils.Database
    run_id: str
    ctx: RunContext
    _memo: Any
    _step_events: list[Event]

    def _last_step(self) -> int:
        return db_runs.last_step(self.db, self.run_id)

    def _begin(self) -> list[Event]:
        self.ctx.graph.step = self._last_step() + 1
        self.ctx.errors = []
        self._step_events = []
        if self.db.conn.in_transaction:
            self.db.conn.commit()
        self.db.conn.execute("BEGIN")
        return self._step_events

    def _commit(self, status: str | None = None) -> list[Event]:
        step = self.ctx.step
        for err in self.ctx.errors:
            self._event(ErrorEvent(**err))
        self._apply([CommitRun(step=step, spent=self.ctx.budget.spent, status=status)])
        self.db.conn.commit()
        crash_hook(step)
        return list(self._step_events)

    def _rollback(self, exc: BaseException) -> None:
        self.db.conn.rollback()
        # rebuild the engine state from the last committed state: the graph is reloaded, the
        # budget is the ledger (its rolled-back rows are gone), step events/errors are dropped
        self.ctx.graph = Graph(self.db, self.run_id)
        self.ctx.graph.step = self._last_step()
        self.ctx.budget = Budget(self.ctx.budget.total, db=self.db, run_id=self.run_id)
        self.ctx.errors = []
        self.ctx.pending = []
        self._step_events = []
        self._memo = None

    def _apply(self, changes: list[Change | RunChange]) -> list[Any]:
        """The one write path of a step: the changes, in order, inside its transaction."""
        return apply_changes(self.ctx, changes)

    def _event(self, event: BaseEvent) -> None:
        """Record a typed event of this step; the step's list holds it as a reader reads it back."""
        eid = insert_event(self.db, self.run_id, self.ctx.step, event)
        self._step_events.append(make_event(event.kind, json.loads(dumps(event.payload())), step=self.ctx.step,
                                            run_id=self.run_id, id=eid))

    def _end_of_step(self) -> None:
        """What every step but the last does before it commits (the loop: suspend unserved hypotheses)."""

    def _run_step(self, fn: Callable[..., Any], *args: Any, status: str | None = None) -> list[Event]:
        self._begin()
        try:
            fn(*args)
            if status != "finished":
                self._end_of_step()
        except BaseException as e:
            self._rollback(e)
            raise
        return self._commit(status)
