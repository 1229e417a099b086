"""Approval of proposed routes as a policy chain, in the manner of inspect_ai's approvers.

A chain is an ordered list of (family glob, approver). For a proposal, each approver whose
glob matches its route family is asked in turn; it answers with a `Decision` (approve / edit
/ skip / stop) or `Escalate` (pass to the next matching approver). No answer: skip.
`headless_chain(config)` is the config's rules, then `AutoApprover` (approve offline routes,
skip network routes unless `network` is on); headless runs (`Investigation.step` ->
`chain.decide` -> `Investigation.decide`) and the console's auto-run use it. In the console
a person otherwise answers each proposal (argus_tui/live.py -> `Investigation.decide`).

Rules come from the engine config (`approval = [{families, action, params, reason}]`) or
the `[[approval]]` tables of the TOML file (argus.toml), e.g.

    [[approval]]
    families = "web_search"
    action = "skip"
    reason = "no web lookups for this study"
"""
from __future__ import annotations

import fnmatch
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from pydantic import BaseModel

from core.engine.context import ApprovalRule
from core.engine.types import Decision, RouteProposal
from tools.registry import NETWORK_FAMILIES

if TYPE_CHECKING:
    from core.engine.loop import Investigation


class Escalate(BaseModel):
    """An approver's answer: not mine to decide, ask the next matching approver."""

    reason: str = ""


@runtime_checkable
class Approver(Protocol):
    def decide(self, proposal: RouteProposal, inv: "Investigation") -> Decision | Escalate: ...


class AutoApprover:
    """Approve every affordable route; skip network routes unless allowed (policy:auto)."""

    def __init__(self, name: str = "auto", allow_network: bool = False):
        self.name = name
        self.allow_network = allow_network

    def decide(self, proposal: RouteProposal, inv: "Investigation") -> Decision:
        if proposal.family in NETWORK_FAMILIES and not self.allow_network:
            return Decision(action="skip", by=f"policy:{self.name}", reason="network routes need a person")
        return Decision(action="approve", by=f"policy:{self.name}", reason="within budget")


class SkipAll:
    """Skips every route (perception + hypotheses only)."""

    def decide(self, proposal: RouteProposal, inv: "Investigation") -> Decision:
        return Decision(action="skip", by="policy:skip-all", reason="routes disabled")


class RuleApprover:
    """A fixed answer from a config rule (policy:config)."""

    def __init__(self, rule: ApprovalRule):
        self.rule = rule

    def decide(self, proposal: RouteProposal, inv: "Investigation") -> Decision | Escalate:
        r = self.rule
        if r.action == "escalate":
            return Escalate(reason=r.reason)
        return Decision(action=r.action, by="policy:config", params=r.params if r.action == "edit" else None,  # type: ignore[arg-type]
                        reason=r.reason or f"config rule for {r.families}")



class ApprovalChain:
    def __init__(self, policies: list[tuple[str, Approver]], name: str = "chain"):
        self.policies = policies
        self.name = name

    def decide(self, proposal: RouteProposal, inv: "Investigation") -> Decision:
        asked = []
        for glob, approver in self.policies:
            if not fnmatch.fnmatchcase(proposal.family, glob):
                continue
            answer = approver.decide(proposal, inv)
            if isinstance(answer, Decision):
                return answer
            asked.append(answer.reason or glob)
        return Decision(action="skip", by=f"policy:{self.name}",
                        reason="no approver decided" + (f" (escalated: {'; '.join(asked)})" if asked else ""))


def rules_from(config: dict[str, Any]) -> list[ApprovalRule]:
    """The approval rules of a run: config["approval"], else the TOML file's [[approval]] tables."""
    rules = config.get("approval")
    if rules:
        return [r if isinstance(r, ApprovalRule) else ApprovalRule.model_validate(r) for r in rules]
    path = config.get("backend_config")
    return load_rules(path) if path and Path(path).is_file() else []


def load_rules(path: str | Path) -> list[ApprovalRule]:
    """[[approval]] tables of a TOML file; a bad one is an InputError naming file and field."""
    import tomllib

    from pydantic import ValidationError

    from core.errors import InputError

    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise InputError(path, f"cannot read approval rules: {e}") from e
    out = []
    for i, item in enumerate(data.get("approval") or []):
        try:
            rule = ApprovalRule.model_validate(item)
        except ValidationError as e:
            first = e.errors()[0]
            raise InputError(path, first.get("msg", "invalid"),
                             field=f"approval[{i}]." + ".".join(str(x) for x in first.get("loc", ()))) from e
        out.append(rule)
    return out


def headless_chain(config: dict[str, Any], name: str = "auto") -> ApprovalChain:
    rules = rules_from(config)
    policies: list[tuple[str, Approver]] = [(r.families, RuleApprover(r)) for r in rules]
    policies.append(("*", AutoApprover(name=name, allow_network=bool(config.get("network")))))
    return ApprovalChain(policies, name="headless")


