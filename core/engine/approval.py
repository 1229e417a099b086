"""Approvers: who decides on each proposed route. Headless runs use a policy; the Textual
console is another approver (a person) driving the same `Investigation.decide`."""
from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

from core.engine.budget import NETWORK_FAMILIES
from core.engine.types import Decision, RouteProposal

if TYPE_CHECKING:
    from core.engine.loop import Investigation


@runtime_checkable
class Approver(Protocol):
    def decide(self, proposal: RouteProposal, inv: "Investigation") -> Decision: ...


class AutoApprover:
    """Approve every affordable route; skip network routes unless allowed (policy:auto)."""

    def __init__(self, name: str = "auto", allow_network: bool = False):
        self.name = name
        self.allow_network = allow_network

    def decide(self, proposal: RouteProposal, inv: "Investigation") -> Decision:
        if proposal.family in NETWORK_FAMILIES and not self.allow_network:
            return Decision(action="skip", by=f"policy:{self.name}", reason="network routes need a person")
        return Decision(action="approve", by=f"policy:{self.name}", reason="within budget")


class PolicyChain:
    """First approver whose `families` matches the route decides (inspect_ai-style chain)."""

    def __init__(self, rules: list[tuple[set[str] | None, Approver]]):
        self.rules = rules

    def decide(self, proposal: RouteProposal, inv: "Investigation") -> Decision:
        for families, approver in self.rules:
            if families is None or proposal.family in families:
                return approver.decide(proposal, inv)
        return Decision(action="skip", by="policy:chain", reason="no approver matched")


class SkipAll:
    """Skips every route (perception + hypotheses only)."""

    def decide(self, proposal: RouteProposal, inv: "Investigation") -> Decision:
        return Decision(action="skip", by="policy:skip-all", reason="routes disabled")
