"""The step transaction: everything a step writes goes through here, inside one SQLite
transaction (BEGIN ... COMMIT, or a rollback that also rebuilds the in-memory state from the
last committed step). Stages never write: they hand changes (core/engine/contract/changes.py)
to the loop, which applies them here."""
from __future__ import annotations

import json
import os
from typing import Any, Callable

import sqlite_utils

from core.engine.budget import Budget
from core.engine.context import RunContext
from core.engine.contract.changes import Change, RecordImage
from core.engine.events import make_event
from core.engine.graph import Graph
from core.engine.types import Event
from db import queries
from db.store import dumps, now


def apply_changes(db: sqlite_utils.Database, run_id: str, changes: list[Change]) -> None:
    """Write the changes a stage queued (inside the caller's transaction)."""
    for c in changes:
        if isinstance(c, RecordImage):
            queries.write_image(db, run_id, c.image_id, c.post_id, c.file, c.sha256, c.width, c.height, dumps(c.meta))
        else:   # a new change type must be applied here, not dropped
            raise TypeError(f"apply_changes: no writer for {type(c).__name__}")


def insert_event(db: sqlite_utils.Database, run_id: str, step: int, kind: str, data: dict[str, Any]) -> int:
    cur = db.execute("INSERT INTO events (run_id, step, kind, data, created_at) VALUES (?,?,?,?,?)",
                     [run_id, step, kind, dumps(data), now()])
    return int(cur.lastrowid)


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
        r = self.db.execute("SELECT step FROM runs WHERE run_id=?", [self.run_id]).fetchone()
        return int(r[0]) if r else 0

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
            self._event("error", err)
        sets = "step=?, spent=?, updated_at=?"
        vals: list[Any] = [step, self.ctx.budget.spent, now()]
        if status:
            sets += ", status=?"
            vals.append(status)
            if status == "finished":
                sets += ", finished_at=?"
                vals.append(now())
        self.db.execute(f"UPDATE runs SET {sets} WHERE run_id=?", vals + [self.run_id])
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

    def _event(self, kind: str, data: dict[str, Any]) -> None:
        eid = insert_event(self.db, self.run_id, self.ctx.step, kind, data)
        self._step_events.append(make_event(kind, json.loads(dumps(data)), step=self.ctx.step, run_id=self.run_id,
                                            id=eid))

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
