"""The console's side of the engine API: one engine session per run, driven from worker
threads (never the UI thread). Every call goes through one lock, so an auto-run and a
key press never interleave inside the engine, and every result comes back as a fresh
Snapshot read from the same DB after the step committed.

Route decisions go through the engine's approval chain like a headless run
(`Investigation.step(chain)`): the console chain is the config's rules, then the person
(core.engine.approval.console_chain). Proposals the rules decide are decided without the
person; the others wait for them. A key press only passes the person's answer to the chain's
PersonApprover and steps the chain again. The auto-run steps the headless chain."""
from __future__ import annotations

import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import sqlite_utils

from argus_tui.state import Snapshot, build_snapshot
from core.engine.types import Decision, Event, RouteProposal


# ---- the commands the console sends (one per engine call; LiveSession.run dispatches them)
@dataclass(frozen=True)
class Refresh:
    what = "refresh"


@dataclass(frozen=True)
class Decide:
    decision: Decision
    what = "decide"


@dataclass(frozen=True)
class AutoRun:
    steps: int
    what = "auto"


@dataclass(frozen=True)
class ForceRoute:
    family: str
    params: dict[str, Any]
    by: str
    reason: str | None = None
    what = "force"


@dataclass(frozen=True)
class ExtendBudget:
    units: float
    by: str
    what = "extend"


@dataclass(frozen=True)
class JudgeHypothesis:
    node_id: str
    action: str                 # reject | confirm | note
    by: str
    reason: str | None = None
    what = "hypothesis_action"


@dataclass(frozen=True)
class MarkWrong:
    """A finding marked as wrong (core.rejections: recorded for the account, applied now)."""
    attribute: str
    value: str                  # '' = every value of the attribute
    by: str
    what = "mark_wrong"


Command = Refresh | Decide | AutoRun | ForceRoute | ExtendBudget | JudgeHypothesis | MarkWrong


@dataclass
class StepResult:
    snap: Snapshot
    proposal: RouteProposal | None
    events: list[Event] = field(default_factory=list)
    note: str = ""


class LiveSession:
    def __init__(self, db: sqlite_utils.Database, inv: Any, who: str = "person:researcher"):
        from core.engine.approval import PersonApprover, console_chain

        self.db = db
        self.inv = inv
        self.lock = threading.Lock()
        self.closing = False       # close once the step in flight has committed (see close)
        self.proposal: RouteProposal | None = None
        self.pause = threading.Event()
        self.person = PersonApprover(who)
        self.chain = console_chain(inv.ctx.config, self.person)

    @classmethod
    def start(cls, db_path: str | Path, user_dir: str | Path, *, budget: float = 20.0, backend: str = "offline",
              system: str = "argus", config: dict[str, Any] | None = None, run_id: str | None = None) -> "LiveSession":
        from core.engine.loop import Investigation
        from db.store import open_db

        db = open_db(db_path)
        inv = Investigation.start(db, Path(user_dir), budget=budget, backend=backend, system=system, config=config,
                                  run_id=run_id)
        return cls(db, inv)

    @classmethod
    def resume(cls, db_path: str | Path, run_id: str) -> "LiveSession":
        from core.engine.loop import Investigation
        from db.store import open_db

        db = open_db(db_path)
        return cls(db, Investigation.resume(db, run_id))

    @contextmanager
    def _locked(self):
        """The engine lock; a close() asked for while it was held happens when it is released."""
        try:
            with self.lock:
                yield
        finally:
            if self.closing:
                self.close()

    @property
    def run_id(self) -> str:
        return self.inv.run_id

    @property
    def finished(self) -> bool:
        return bool(self.inv.finished)

    def _advance(self, events: list[Event]) -> str:
        """(lock held) Step the console chain until it waits for the person or the run stops:
        proposals the config's rules decide are decided here. Returns a note when the waiting
        proposal was escalated to the person."""
        while not self.inv.finished:
            done = self.inv.step(self.chain)
            if not done:
                break
            events += done
        self.proposal = None if self.inv.finished else self.inv.next_proposal()
        ask = self.inv.asking
        return f"escalated to {ask.person}: {'; '.join(ask.escalated)}" if ask is not None and ask.escalated else ""

    def refresh(self, note: str = "") -> StepResult:
        """The proposal waiting for the person (after the chain's rules decided what they decide)
        and the state after the last step."""
        with self._locked():
            events: list[Event] = []
            why = self._advance(events)
            return StepResult(build_snapshot(self.db, self.run_id), self.proposal, events, note=note or why)

    def decide(self, decision: Decision) -> StepResult:
        """The person's answer to the waiting proposal, decided through the console chain (a
        rerun or stop with no proposal left is a command to the engine)."""
        with self._locked():
            events: list[Event] = []
            self._advance(events)
            if self.proposal is None:
                if decision.action not in ("rerun", "stop") or self.inv.finished:
                    return StepResult(build_snapshot(self.db, self.run_id), None, events, note="no route to decide")
                events += self.inv.decide(decision)
            else:
                self.person.answer(decision)
                try:
                    events += self.inv.step(self.chain)
                finally:
                    self.person.clear()
            why = self._advance(events)
            snap = build_snapshot(self.db, self.run_id)
        return StepResult(snap, self.proposal, events, note=why or f"{decision.action} by {decision.by}")

    def _after(self, events: Any, note: str) -> StepResult:
        """The state after a console-API call (lock held): the next proposal, if the run goes on."""
        self.proposal = None if self.inv.finished else self.inv.next_proposal()
        return StepResult(build_snapshot(self.db, self.run_id), self.proposal, list(events or []), note=note)

    def run(self, cmd: Command) -> Iterator[StepResult]:
        """The results of one console command (an auto-run yields one per step)."""
        if isinstance(cmd, Refresh):
            yield self.refresh()
        elif isinstance(cmd, Decide):
            yield self.decide(cmd.decision)
        elif isinstance(cmd, AutoRun):
            yield from self.auto_steps(cmd.steps)
        elif isinstance(cmd, ForceRoute):
            yield self.force(cmd.family, cmd.params, cmd.by, cmd.reason)
        elif isinstance(cmd, ExtendBudget):
            yield self.extend(cmd.units, cmd.by)
        elif isinstance(cmd, JudgeHypothesis):
            yield self.hypothesis_action(cmd.node_id, cmd.action, cmd.by, cmd.reason)
        elif isinstance(cmd, MarkWrong):
            yield self.mark_wrong(cmd.attribute, cmd.value, cmd.by)
        else:
            raise TypeError(f"not a console command: {cmd!r}")

    def force(self, family: str, params: dict[str, Any], by: str, reason: str | None = None) -> StepResult:
        """Run a route the researcher chose (validated by the family's input model; a refusal
        raises and charges nothing). Reopens a stopped run."""
        with self._locked():
            events = self.inv.force_route(family, params, by=by, reason=reason)
            return self._after(events, f"forced {family} by {by}")

    def extend(self, units: float, by: str) -> StepResult:
        with self._locked():
            events = self.inv.extend_budget(units, by=by)
            return self._after(events, f"budget +{units:g} by {by}")

    def hypothesis_action(self, node_id: str, action: str, by: str, reason: str | None) -> StepResult:
        with self._locked():
            events = self.inv.hypothesis_action(node_id, action, by=by, reason=reason)
            self.proposal = None            # the graph changed: ask the engine again
            return self._after(events, f"{action} {node_id} by {by}")

    def mark_wrong(self, attribute: str, value: str, by: str) -> StepResult:
        from core.rejections import Rejection, mark_wrong

        rej = Rejection(attribute=attribute, value=value)
        with self._locked():
            n = mark_wrong(self.inv, rej, by=by)
            self.proposal = None            # the graph changed: ask the engine again
            return self._after([], f"marked as wrong: {rej.key} ({n} reading{'s' if n != 1 else ''} removed) by {by}")

    def stop_reason(self) -> str | None:
        return self.inv.stop_reason

    def auto_steps(self, n: int, name: str = "console-auto"):
        """Yield a StepResult after each of up to n steps decided by the run's approval chain (the
        config's rules, then the auto policy: approve affordable routes, skip network ones unless
        `network` is on), the same chain as a headless run; stops early when paused."""
        from core.engine.approval import headless_chain

        approver = headless_chain(self.inv.ctx.config, name=name)
        self.pause.clear()
        for i in range(n):
            if self.pause.is_set():
                yield self.refresh(note=f"paused after {i} auto step(s)")
                return
            with self._locked():
                events = self.inv.step(approver)
                self.proposal = None if self.inv.finished else self.inv.next_proposal()
                if not events:
                    break
                result = StepResult(build_snapshot(self.db, self.run_id), self.proposal, list(events),
                                    note=f"auto step {i + 1} by policy:{name}")
            yield result
        yield self.refresh(note="run finished" if self.inv.finished else "auto-run done")

    def close(self) -> None:
        """Close the run DB, its WAL checkpointed into the .db (db.store.RunConnection), so
        the .db alone is the whole run. Never waits: with a step in flight it closes when
        that step has committed."""
        from db.store import close_db

        self.closing = True
        if not self.lock.acquire(blocking=False):
            return
        try:
            close_db(self.db)
        finally:
            self.lock.release()
