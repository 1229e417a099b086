"""Per-run state of the model roles: capabilities in use, consecutive failures, fallbacks.

A role is used only while it is configured, its endpoint is usable (reachable, some JSON mode
accepted) and it has not failed `fallback_after` calls in a row. Then it falls back to its
offline counterpart for the rest of the run: ONE `role_fallback` event and one stderr line,
and no more calls (a resumed run finds the event and keeps the fallback).
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field

from core.backends.capabilities import Capabilities, capabilities_for
from core.backends.client import CallContext, ModelClient
from core.backends.config import BackendConfig


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

    def state(self, calls: CallContext) -> RunState:
        st = self.runs.get(calls.run_id or "")
        if st is None:
            st = self.runs[calls.run_id or ""] = RunState(calls.run_id or "")
            # a resumed run keeps the fallbacks it already announced
            for data in calls.events("role_fallback"):
                st.disabled[data.get("role", "")] = data.get("reason", "")
        return st

    def capabilities(self, calls: CallContext, role: str) -> Capabilities | None:
        """The role's capabilities, probed (or read from the run DB) on first use in this run."""
        if not self.bc.role(role).model:
            return None
        st = self.state(calls)
        if role in st.caps:
            return st.caps[role]
        caps, where = capabilities_for(self.bc, role, calls=None if self.replay_from is not None else calls,
                                       replay_from=self.replay_from, record=lambda r: self.client.record(r, calls))
        st.caps[role] = caps
        calls.event("capabilities", {"role": role, "model": caps.model, "base_url": caps.base_url or None,
                                           "reachable": caps.reachable, "json_mode": caps.json_mode,
                                           "vision": caps.vision, "context_length": caps.context_length,
                                           "source": where, "detail": caps.detail})
        if not caps.usable:
            self._fall_back(calls, st, role, f"endpoint unusable: {caps.problem()}")
        return caps

    def usable(self, calls: CallContext, role: str) -> bool:
        if not self.bc.role(role).model:
            return False
        st = self.state(calls)
        if role in st.disabled:
            return False
        self.capabilities(calls, role)
        return role not in st.disabled

    def vision(self, calls: CallContext, role: str) -> bool:
        caps = self.capabilities(calls, role)
        return bool(caps and caps.vision)

    def outcome(self, calls: CallContext, role: str, ok: bool, error: str | None) -> None:
        st = self.state(calls)
        if ok:
            st.failures[role] = 0
            return
        n = st.failures.get(role, 0) + 1
        st.failures[role] = n
        if n >= self.bc.backend.fallback_after and role not in st.disabled:
            self._fall_back(calls, st, role, f"{n} consecutive failed calls (last: {(error or 'failed')[:160]})")

    def _fall_back(self, calls: CallContext, st: RunState, role: str, why: str) -> None:
        st.disabled[role] = why
        calls.event("role_fallback", {
            "role": role, "model": self.bc.role(role).model, "failures": st.failures.get(role, 0),
            "reason": f"role {role} falls back to the offline rules for the rest of the run: {why}"})
        print(f"argus: model role {role} ({self.bc.role(role).model}) falls back to the offline rules for the"
              f" rest of run {calls.run_id}: {why}", file=sys.stderr, flush=True)
