"""Per-run state of the model roles: capabilities in use, consecutive failures, fallbacks.

A role is used only while it is configured, its endpoint is usable (reachable, some JSON mode
accepted) and it has not failed `fallback_after` calls in a row. Then it falls back to its
offline counterpart for the rest of the run: ONE `role_fallback` event and one stderr line,
and no more calls (a resumed run finds the event and keeps the fallback).
"""
from __future__ import annotations

import json
import sqlite3
import sys
from dataclasses import dataclass, field
from typing import Any

from core.backends.capabilities import Capabilities, capabilities_for
from core.backends.client import CallContext, ModelClient
from core.backends.config import BackendConfig
from core.engine.context import RunContext
from db.store import dumps, now


def record_event(ctx: RunContext, kind: str, data: dict[str, Any]) -> None:
    """An event of the run written at once (it may happen between steps, e.g. while a route is
    proposed, where the loop's per-step error list would not keep it)."""
    ctx.db.execute("INSERT INTO events (run_id, step, kind, data, created_at) VALUES (?,?,?,?,?)",
                   [ctx.run_id, ctx.step, kind, dumps(data), now()])


@dataclass
class RunState:
    run_id: str
    failures: dict[str, int] = field(default_factory=dict)
    disabled: dict[str, str] = field(default_factory=dict)     # role -> why it fell back
    caps: dict[str, Capabilities] = field(default_factory=dict)


class RoleHealth:
    def __init__(self, bc: BackendConfig, client: ModelClient, replay_from=None):
        self.bc = bc
        self.client = client
        self.replay_from = replay_from
        self.runs: dict[str, RunState] = {}

    def state(self, ctx: RunContext) -> RunState:
        st = self.runs.get(ctx.run_id)
        if st is None:
            st = self.runs[ctx.run_id] = RunState(ctx.run_id)
            # a resumed run keeps the fallbacks it already announced
            try:
                rows = ctx.db.execute("SELECT data FROM events WHERE run_id=? AND kind='role_fallback'",
                                      [ctx.run_id]).fetchall()
            except sqlite3.Error:    # a DB without the events table (older run DB): nothing announced
                rows = []
            for (d,) in rows:
                data = json.loads(d)   # written by this module (dumps of a dict)
                st.disabled[data.get("role", "")] = data.get("reason", "")
        return st

    def capabilities(self, ctx: RunContext, role: str) -> Capabilities | None:
        """The role's capabilities, probed (or read from the run DB) on first use in this run."""
        if not self.bc.role(role).model:
            return None
        st = self.state(ctx)
        if role in st.caps:
            return st.caps[role]
        cc = CallContext(ctx.db, ctx.run_id, ctx.step)
        caps, where = capabilities_for(self.bc, role, db=None if self.replay_from is not None else ctx.db,
                                       replay_from=self.replay_from, record=lambda r: self.client.record(r, cc))
        st.caps[role] = caps
        record_event(ctx, "capabilities", {"role": role, "model": caps.model, "base_url": caps.base_url or None,
                                           "reachable": caps.reachable, "json_mode": caps.json_mode,
                                           "vision": caps.vision, "context_length": caps.context_length,
                                           "source": where, "detail": caps.detail})
        if not caps.usable:
            self._fall_back(ctx, st, role, f"endpoint unusable: {caps.problem()}")
        return caps

    def usable(self, ctx: RunContext, role: str) -> bool:
        if not self.bc.role(role).model:
            return False
        st = self.state(ctx)
        if role in st.disabled:
            return False
        self.capabilities(ctx, role)
        return role not in st.disabled

    def vision(self, ctx: RunContext, role: str) -> bool:
        caps = self.capabilities(ctx, role)
        return bool(caps and caps.vision)

    def outcome(self, ctx: RunContext, role: str, ok: bool, error: str | None) -> None:
        st = self.state(ctx)
        if ok:
            st.failures[role] = 0
            return
        n = st.failures.get(role, 0) + 1
        st.failures[role] = n
        if n >= self.bc.backend.fallback_after and role not in st.disabled:
            self._fall_back(ctx, st, role, f"{n} consecutive failed calls (last: {(error or 'failed')[:160]})")

    def _fall_back(self, ctx: RunContext, st: RunState, role: str, why: str) -> None:
        st.disabled[role] = why
        record_event(ctx, "role_fallback", {
            "role": role, "model": self.bc.role(role).model, "failures": st.failures.get(role, 0),
            "reason": f"role {role} falls back to the offline rules for the rest of the run: {why}"})
        print(f"argus: model role {role} ({self.bc.role(role).model}) falls back to the offline rules for the"
              f" rest of run {ctx.run_id}: {why}", file=sys.stderr, flush=True)
