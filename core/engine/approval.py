"""Approval of proposed routes as a policy chain, in the manner of inspect_ai's approvers.

A chain is an ordered list of (family glob, approver). For a proposal, each approver whose
glob matches its route family is asked in turn; it answers with a `Decision` (approve / edit
/ skip / stop) or `Escalate` (pass to the next matching approver). No answer: skip.
Two chains over one code path (`Investigation.step(chain)` -> `chain.decide` ->
`Investigation.decide`):

- `headless_chain(config)`: the config's rules, then `AutoApprover` (approve offline routes,
  skip network routes unless `network` is on); headless runs and the console's auto-run.
- `console_chain(config, person)`: the same rules, then `PersonApprover`, the researcher at
  the console. What the rules decide is decided without the person; what they escalate (or
  do not match) reaches the person. Until the person answers, the chain returns `AskPerson`
  and the route stays proposed (nothing recorded); the console gives the person's answer
  with `PersonApprover.answer` and steps the chain again, so the answer is recorded as
  `decided_by = person:<name>` with the same events as any other decision (argus_tui/live.py).

Rules come from the engine config (`approval = [{families, action, params, reason}]`) or
the `[[approval]]` tables of the TOML file (argus.toml), e.g.

    [[approval]]
    families = "web_search"
    action = "skip"
    reason = "no web lookups for this study"
"""
from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel, Field, ValidationError

from core.engine.context import ApprovalRule
from core.engine.types import Decision, RouteProposal
from core.errors import InputError
from tools.registry import NETWORK_FAMILIES

# What an approver is asked with: the proposal and the investigation asking (core/engine/loop.py's
# Investigation; typed loosely so the loop, which builds the chains, stays the only importer).
Asking = Any


class Escalate(BaseModel):
    """An approver's answer: not mine to decide, ask the next matching approver."""

    reason: str = ""


class AskPerson(BaseModel):
    """A chain's answer when it reached the person and they have not answered yet: the route
    stays proposed, waiting for their decision (`escalated`: why earlier approvers passed it on)."""

    person: str
    escalated: list[str] = Field(default_factory=list)


@runtime_checkable
class Approver(Protocol):
    def decide(self, proposal: RouteProposal, inv: Asking) -> Decision | Escalate | AskPerson: ...


class AutoApprover:
    """Approve every affordable route; skip network routes unless allowed (policy:auto)."""

    def __init__(self, name: str = "auto", allow_network: bool = False):
        self.name = name
        self.allow_network = allow_network

    def decide(self, proposal: RouteProposal, inv: Asking) -> Decision:
        if proposal.family in NETWORK_FAMILIES and not self.allow_network:
            return Decision(action="skip", by=f"policy:{self.name}", reason="network routes need a person")
        return Decision(action="approve", by=f"policy:{self.name}", reason="within budget")


class PersonApprover:
    """The researcher at the console as an approver. The console only passes their answer on
    (`answer`); the chain returns it, attributed to person:<name> unless it already names a
    person. Without an answer: AskPerson (the route waits). An answer is used once."""

    def __init__(self, who: str = "person:researcher"):
        self.who = who if who.startswith("person:") else f"person:{who}"
        self._answer: Decision | None = None

    def answer(self, decision: Decision) -> None:
        self._answer = decision

    def clear(self) -> None:
        self._answer = None

    def decide(self, proposal: RouteProposal, inv: Asking) -> Decision | AskPerson:
        d, self._answer = self._answer, None
        if d is None:
            return AskPerson(person=self.who)
        return d if d.by.startswith("person:") else d.model_copy(update={"by": self.who})


class SkipAll:
    """Skips every route (perception + hypotheses only)."""

    def decide(self, proposal: RouteProposal, inv: Asking) -> Decision:
        return Decision(action="skip", by="policy:skip-all", reason="routes disabled")


class RuleApprover:
    """A fixed answer from a config rule (policy:config)."""

    def __init__(self, rule: ApprovalRule):
        self.rule = rule

    def decide(self, proposal: RouteProposal, inv: Asking) -> Decision | Escalate:
        r = self.rule
        if r.action == "escalate":
            return Escalate(reason=r.reason)
        return Decision(action=r.action, by="policy:config", params=r.params if r.action == "edit" else None,  # type: ignore[arg-type]
                        reason=r.reason or f"config rule for {r.families}")



class ApprovalChain:
    def __init__(self, policies: list[tuple[str, Approver]], name: str = "chain"):
        self.policies = policies
        self.name = name

    def decide(self, proposal: RouteProposal, inv: Asking) -> Decision | AskPerson:
        asked: list[str] = []
        for glob, approver in self.policies:
            if not fnmatch.fnmatchcase(proposal.family, glob):
                continue
            answer = approver.decide(proposal, inv)
            if isinstance(answer, AskPerson):
                return answer.model_copy(update={"escalated": asked})
            if isinstance(answer, Decision):
                if asked:   # the record says why it reached this approver
                    why = f"escalated: {'; '.join(asked)}"
                    answer = answer.model_copy(update={"reason": f"{answer.reason}; {why}" if answer.reason else why})
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


def _rule_policies(config: dict[str, Any]) -> list[tuple[str, Approver]]:
    return [(r.families, RuleApprover(r)) for r in rules_from(config)]


def headless_chain(config: dict[str, Any], name: str = "auto") -> ApprovalChain:
    """The config's rules, then the auto policy."""
    policies = _rule_policies(config)
    policies.append(("*", AutoApprover(name=name, allow_network=bool(config.get("network")))))
    return ApprovalChain(policies, name="headless")


def console_chain(config: dict[str, Any], person: PersonApprover) -> ApprovalChain:
    """The config's rules, then the person at the console."""
    policies = _rule_policies(config)
    policies.append(("*", person))
    return ApprovalChain(policies, name="console")


