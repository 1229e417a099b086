"""Suspension (paper §4.3): an unresolved hypothesis that no route can help any more is
suspended with the reason, so the router stops selecting it; new evidence in its neighbourhood,
a rival that no longer contradicts it, or a larger budget sends it back to candidate. Part of
the investigation loop (core/engine/loop.py); every change is a typed change (SetStatus,
UpdateNode) applied through the step's one write path, each batch with one `suspension` event."""
from __future__ import annotations

from typing import Callable

from core.engine.backend import Backend
from core.engine.context import RunContext
from core.engine.contract.changes import Change, SetStatus, UpdateNode
from core.engine.contract.support import support_posts
from core.engine.events import Suspension as SuspensionEvent
from core.engine.router import Candidate, candidates, unserved
from core.engine.verifier import CONTRA_MARGIN


class Suspension:
    """Mixed into Investigation before StepTransaction (whose `_event` it records with)."""

    ctx: RunContext
    backend: Backend
    _memo: tuple[tuple, list[Candidate]] | None
    _gave_up: dict[str, str]
    _apply: Callable[[list[Change]], list]      # StepTransaction's: the one write path of a step

    def _end_of_step(self) -> None:
        self._suspend_unserved()

    def _wake_uncontradicted(self) -> None:
        """A hypothesis removed as contradicted goes back to candidate once the rival that
        contradicted it is no longer admitted (removed, unresolved, suspended, rejected by a
        person) or no longer clearly stronger (its confidence fell within CONTRA_MARGIN)."""
        g = self.ctx.graph
        woken = {}
        for h in g.hypotheses(("removed",)):
            by = (h.data.contradicted_by or [None])[0]
            if by is None or h.data.rejected_by:
                continue
            r = g.nodes.get(by)
            weaker = r is not None and not r.data.confirmed_by and r.status == "admitted" \
                and (r.confidence or 0.0) < (h.confidence or 0.0) + CONTRA_MARGIN
            if r is None or r.status in ("removed", "unresolved", "suspended") or weaker:
                woken[h.node_id] = (f"{by}, which contradicted it, is no longer clearly stronger" if weaker
                                    else f"{by}, which contradicted it, is no longer admitted")
                self._apply([UpdateNode(node_id=h.node_id, data=h.data.model_copy(update={"contradicted_by": None})),
                             SetStatus(node_id=h.node_id, status="candidate", reason=woken[h.node_id])])
        if woken:
            self._event(SuspensionEvent(woken=woken))

    def _suspend_unresolved(self, reason: str) -> None:
        """The run stops: every unresolved hypothesis is suspended until its evidence changes."""
        g = self.ctx.graph
        out = {}
        for h in g.hypotheses(("unresolved",)):
            out[h.node_id] = f"unresolved and no route left to resolve it ({reason})"
            self._apply([SetStatus(node_id=h.node_id, status="suspended", reason=out[h.node_id], by="router")])
        if out:
            self._event(SuspensionEvent(suspended=out))

    def _candidates(self) -> list[Candidate]:
        """router.candidates of the current state, computed once per state (the end-of-step
        suspension check and the next proposal read the same list)."""
        key = (self.ctx.step, self.ctx.graph.signature(), round(self.ctx.budget.spent, 6))
        if self._memo is None or self._memo[0] != key:
            self._memo = (key, candidates(self.ctx.view, self.ctx.settings, self.ctx.budget.remaining, self.backend))
        return self._memo[1]

    def _suspend_unserved(self) -> None:
        """End of a step: an unresolved hypothesis that no route helps any more is suspended (the
        reason names why), so the router stops selecting it until its evidence neighbourhood
        changes (`_wake_suspended`). With a model router, only those it declined are suspended."""
        g = self.ctx.graph
        if not self.ctx.flag("investigator") or not g.hypotheses(("unresolved",)):
            self._gave_up = {}
            return
        why = unserved(self.ctx.view, self._candidates(), self.ctx.budget.remaining)
        if type(self.backend).route_fallback is not Backend.route_fallback:
            why = {h: f"{w}; {self._gave_up[h]}" for h, w in why.items() if h in self._gave_up}
        self._gave_up = {}
        for hid, reason in why.items():
            self._apply([SetStatus(node_id=hid, status="suspended", reason=reason, by="router")])
        if why:
            self._event(SuspensionEvent(suspended=why))

    def _wake_suspended(self, added: list[str], route_hypothesis: str | None) -> dict[str, str]:
        """New evidence in a suspended hypothesis's neighbourhood (it comes from a route run for it,
        cites one of its supporters or what they cite, or comes from a post its support comes
        from) sends it back to candidate, to be verified and routed again."""
        g = self.ctx.graph
        woken: dict[str, str] = {}
        for h in g.hypotheses(("suspended",)):
            if h.data.confirmed_by or h.data.rejected_by:
                continue
            sup = set(g.supporters(h.node_id))
            near = sup | {c for s in sup for c in g.cites(s)}
            posts = support_posts(g, h.node_id)
            for nid in added:
                n = g.nodes.get(nid)
                if n is None:
                    continue
                if route_hypothesis == h.node_id:
                    woken[h.node_id] = f"{nid} came from a route run for it"
                elif set(g.cites(nid)) & near:
                    woken[h.node_id] = f"{nid} cites {sorted(set(g.cites(nid)) & near, key=str)[0]}, part of its evidence"
                elif n.post_id and n.post_id in posts:
                    woken[h.node_id] = f"{nid} is new evidence from post {n.post_id}, where its support comes from"
                else:
                    continue
                self._apply([SetStatus(node_id=h.node_id, status="candidate",
                                       reason=f"its evidence neighbourhood changed: {woken[h.node_id]}")])
                break
        if woken:
            self._event(SuspensionEvent(woken=woken))
        return woken
