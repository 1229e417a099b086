"""The investigation loop (Algorithm 1) over state persisted in the run DB.

Step 0 creates the run; step 1 perceives every post and forms the first hypotheses; each
later step is one decided route (execute -> verify -> re-hypothesize -> project) or the
final projection. Every step is one SQLite transaction that appends `events` rows, so a
killed process loses at most the step in flight and `Investigation.resume` continues
from the last committed step with the same result (all stages are deterministic
functions of the persisted graph; tool outputs are cached by content hash).

Stop rules: no untried route has an expected gain >= router.MIN_GAIN, the route budget
cannot pay for any remaining route, the graph did not change over the last STABLE_ROUTES
executed routes and no route reaches STABLE_GAIN, a Stop decision, or config max_steps.
"""
from __future__ import annotations

import json
import uuid
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Literal

import sqlite_utils

from core.engine.approval import Approver, AskPerson, headless_chain
from core.engine.backend import Backend, make_backend
from core.engine.backfill import apply_backfills
from core.engine.budget import DEFAULT_BUDGET, Budget
from core.engine.context import RunContext, engine_config
from core.engine.events import (BaseEvent, BudgetExtended, DecisionMade, ErrorEvent, HypothesesChanged,
                                HypothesisAction, Perceived, Projected, Reopened, RouteProposed, RunFinished,
                                RunStarted, ToolCalled, Verified, read_events)
from core.engine.events import Suspension as SuspensionEvent
from core.engine.graph import Graph, hypothesis_key, supersede_reason
from core.engine.projection import project
from core.engine.router import Candidate, execute, propose
from core.engine.contract.changes import (AddEvidence, AddRoute, Change, Charge, DecideRoute, ExtendBudget,
                                          PutHypothesis, ReopenRun, SetRouteParams, SetStatus, StartRun, UpdateNode,
                                          WriteProfile)
from core.engine.step import StepTransaction, apply_changes, insert_event
from core.engine.suspension import Suspension
from core.engine.types import Decision, EvidenceNode, Event, RouteProposal, Verdict
from core.engine.verifier import grounding_change, recheck_contradiction, verdict_changes
from core.nodes.hypothesis import PersonNote
from tools.registry import offered, route_cost, validate_params
from core.errors import InputError
from core.loader import load_user
from core.models import Predictions
from db import queries
from db import routes as db_routes
from db import runs as db_runs
from db.profile import read_profile
from db.runlock import claim_run_of
from db.queries import BudgetState, EdgeState, ProfileState, RouteState, RunState
from db.store import open_db

STABLE_ROUTES = 4
STABLE_GAIN = 0.25          # after STABLE_ROUTES routes that changed nothing, the gain a route needs
MAX_REFRESH = 3


def _db(db: sqlite_utils.Database | str | Path) -> sqlite_utils.Database:
    return db if isinstance(db, sqlite_utils.Database) else open_db(db)


class Investigation(Suspension, StepTransaction):
    def __init__(self, db: sqlite_utils.Database, run_id: str, ctx: RunContext, backend: Backend, system: str):
        self.db = db
        self._owns_db = False                   # start/resume opened it from a path: close() closes it
        self.run_id = run_id
        self.ctx = ctx
        self.backend = backend
        self.system = system
        self._memo: tuple[tuple, list[Candidate]] | None = None   # candidates() of the last committed state
        self._gave_up: dict[str, str] = {}     # hypotheses the model router declined at the last proposal
        self.asking: AskPerson | None = None   # the last step's chain is waiting for this person

    # ------------------------------------------------------------ construction
    @classmethod
    def start(cls, db: sqlite_utils.Database | str | Path, user_dir: str | Path, budget: float = DEFAULT_BUDGET,
              backend: str | Backend = "offline", system: str = "argus", config: dict[str, Any] | None = None,
              run_id: str | None = None) -> "Investigation":
        return cls._owning(db, lambda d: cls._start(d, user_dir, budget, backend, system, config, run_id))

    @classmethod
    def _owning(cls, db: sqlite_utils.Database | str | Path,
                make: Callable[[sqlite_utils.Database], "Investigation"]) -> "Investigation":
        """Build on `db`; a database opened here from a path is this investigation's to close (and is
        closed at once when building fails)."""
        owns = not isinstance(db, sqlite_utils.Database)
        opened = _db(db)
        try:
            inv = make(opened)
        except BaseException:
            if owns:
                opened.conn.close()
            raise
        inv._owns_db = owns
        return inv

    @classmethod
    def _start(cls, db: sqlite_utils.Database, user_dir: str | Path, budget: float, backend: str | Backend,
               system: str, config: dict[str, Any] | None, run_id: str | None) -> "Investigation":
        errors: list[InputError] = []
        user = load_user(Path(user_dir), strict=False, errors=errors)
        cfg = engine_config(config)
        be = backend if isinstance(backend, Backend) else make_backend(backend, cfg)
        run_id = run_id or f"{user.profile.user_id}-{uuid.uuid4().hex[:8]}"
        claim_run_of(db, run_id)        # this process writes the run: another one resuming it waits
        ctx = RunContext(db=db, run_id=run_id, user=user, graph=Graph(db, run_id),
                         budget=Budget(float(budget), db=db, run_id=run_id), config=cfg)
        with db.conn:
            apply_changes(ctx, [StartRun(user_id=user.profile.user_id, user_dir=str(Path(user_dir).resolve()),
                                         system=system, backend=be.name, config=cfg, budget=budget,
                                         posts=user.posts)])
            insert_event(db, run_id, 0, RunStarted(user_id=user.profile.user_id, posts=len(user.posts),
                                                   backend=be.name, budget=budget, config=cfg))
            for e in errors:
                insert_event(db, run_id, 0, ErrorEvent(where=e.file, line=e.line, field=e.field, reason=e.reason))
        inv = cls(db, run_id, ctx, be, system)
        inv._perceive()
        return inv

    @classmethod
    def resume(cls, db: sqlite_utils.Database | str | Path, run_id: str,
               backend: Backend | None = None) -> "Investigation":
        return cls._owning(db, lambda d: cls._resume(d, run_id, backend))

    @classmethod
    def _resume(cls, db: sqlite_utils.Database, run_id: str, backend: Backend | None) -> "Investigation":
        row = db_runs.run_row(db, run_id)
        if row is None:
            raise InputError("runs.db", f"no run {run_id!r}", field="run_id")
        user_dir, be_name, cfg_s, budget, spent, system = row
        claim_run_of(db, run_id)        # one writer per run: a second process waits, then a clear error
        cfg = engine_config(json.loads(cfg_s or "{}"), where=f"runs.config of {run_id}")
        user = load_user(Path(user_dir), strict=False)
        be = backend or make_backend(be_name, cfg)
        ctx = RunContext(db=db, run_id=run_id, user=user, graph=Graph(db, run_id),
                         budget=Budget(float(budget), db=db, run_id=run_id), config=cfg)
        inv = cls(db, run_id, ctx, be, system)
        inv.ctx.graph.step = inv._last_step()
        if not inv._has_event("perceived"):
            inv._perceive()
        else:
            # data a later perceiver attaches (text features...), for runs perceived before it
            try:
                apply_backfills(db, inv.ctx.graph, inv.ctx.graph.step + 1)
            except BaseException:
                inv.ctx.graph = Graph(db, run_id)     # the rolled-back changes are gone from memory too
                inv.ctx.graph.step = inv._last_step()
                raise
        return inv

    def close(self) -> None:
        """Close the run DB when start/resume opened it from a path (a Database passed in stays the
        caller's to close). Without this the connection stays open until the object is collected."""
        if self._owns_db:
            self.db.conn.close()
            self._owns_db = False

    def __enter__(self) -> "Investigation":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------ state
    def _has_event(self, kind: str) -> bool:
        return db_runs.has_event(self.db, self.run_id, kind)

    @property
    def finished(self) -> bool:
        return db_runs.run_status(self.db, self.run_id) in ("finished", "failed")

    @property
    def user_id(self) -> str:
        return self.ctx.user.profile.user_id

    @property
    def budget(self) -> Budget:
        return self.ctx.budget

    @property
    def graph(self) -> Graph:
        return self.ctx.graph

    def profile(self) -> Predictions:
        return read_profile(self.db, self.run_id, self.user_id, self.system)

    def state(self) -> RunState:
        """The live state (the graph in memory, the budget, the current profile and route rows) in the
        form `db.queries.state_at` rebuilds from history: after a committed step both are equal."""
        g = self.ctx.graph
        # copies as the run store holds them (a JSON round trip), so the live and the rebuilt state compare equal
        nodes = [EvidenceNode.model_validate_json(n.model_dump_json()) for n in g.nodes.values()]
        edges = [EdgeState(src=a, dst=b, kind=k, step=g.edge_step[(a, b, k)]) for a, b, k in g.edges]
        profile = [ProfileState(attribute=p["attribute"], value=p["value"], level=p["level"],
                                confidence=p["confidence"], sensitivity=p["sensitivity"], evidence=p["evidence"],
                                hypotheses=p["hypotheses"], step=p["step"])
                   for p in queries.profile_rows(self.db, self.run_id)]
        b = self.ctx.budget
        routes = [RouteState(route_id=r["route_id"], family=r["family"], params=r["params"], status=r["status"],
                             cost=float(r["cost"] or 0), decided_by=r["decided_by"], hypothesis_id=r["hypothesis_id"],
                             parent_route_id=r["parent_route_id"]) for r in queries.routes(self.db, self.run_id)]
        return queries.make_state(self.run_id, self.ctx.step, self.finished, nodes, edges, profile,
                                  BudgetState(total=b.total, spent=b.spent, remaining=b.remaining), routes)

    def events(self, since_id: int = 0) -> list[BaseEvent]:
        """The run's events (after row id `since_id`), typed (core/engine/events.py)."""
        return read_events(self.db, self.run_id, since_id=since_id)

    # ------------------------------------------------------------ stages
    def _perceive(self) -> list[Event]:
        # the skim (tool calls, each cached + recorded) runs before the step's transaction
        ctx = self.ctx
        ctx.graph.step = self._last_step() + 1
        ctx.pending = []
        ctx.errors = []
        calls = ctx.calls()
        p = self.backend.perceive(ctx.view, ctx.settings, ctx.user, ctx.recorder(), calls)
        # the skim's own errors first, then the model backend's (recorded through `calls`)
        backend_errors, ctx.errors = list(ctx.errors), []
        ctx.queue(p.changes)
        errors = ctx.errors + backend_errors
        return self._run_step(self._perceive_body, p.drafts, errors, list(ctx.pending))

    def _perceive_body(self, drafts: list[EvidenceNode], errors: list[dict[str, Any]], changes: list[Change]) -> None:
        self.ctx.errors = errors
        self._apply(changes + [AddEvidence(draft=d) for d in drafts])
        self.ctx.pending = []
        g = self.ctx.graph
        counts: dict[str, int] = {}
        for d in drafts:
            counts[d.carrier or d.kind] = counts.get(d.carrier or d.kind, 0) + 1
        self._event(Perceived(nodes=len(drafts), by_carrier=counts,
                              images=sum(1 for n in g.evidence() if n.data.image_id and n.modality == "image"
                                         and n.data.signals is not None)))
        self._refresh()

    def _refresh(self) -> bool:
        """Hypothesize over the whole graph, verify what changed, project. Returns True if the graph changed."""
        g = self.ctx.graph
        before = g.signature()
        for _ in range(MAX_REFRESH):
            sig = g.signature()
            hyps = self.backend.hypothesize(self.ctx.view, self.ctx.settings, self.ctx.calls())
            seen: dict[str, EvidenceNode] = {}
            new_ids, changed_ids = [], []
            for h in hyps:
                ((node, changed, existed),) = self._apply([PutHypothesis(hypothesis=h)])
                seen[node.node_id] = node
                if changed:
                    (changed_ids if existed else new_ids).append(node.node_id)
            removed: dict[str, str] = {}
            for n in g.hypotheses(("candidate", "admitted", "unresolved", "suspended")):
                if n.node_id not in seen and not n.data.confirmed_by:
                    removed[n.node_id] = supersede_reason(g, n, list(seen.values()))
                    self._apply([SetStatus(node_id=n.node_id, status="removed", reason=removed[n.node_id],
                                           by="hypothesizer")])
            if new_ids or changed_ids or removed:
                self._event(HypothesesChanged(new=new_ids, changed=changed_ids, removed=removed,
                                              active=[n.node_id for n in g.hypotheses(("candidate", "unresolved"))]))
            self._verify()
            if g.signature() == sig:
                break
        attrs = project(self.ctx.view, self.ctx.settings)
        (changed,) = self._apply([WriteProfile(attributes=attrs)])
        if changed:
            self._event(Projected(attributes={a.attribute: a.value for a in attrs}))
        return g.signature() != before

    def _verify(self) -> None:
        """Verify every candidate and apply the verdict to the graph: raw supporters are grounded or
        rejected (with the reason), rejected ones lose their support edges, the hypothesis is
        admitted (derived evidence), kept unresolved or removed."""
        g = self.ctx.graph
        view, config = self.ctx.view, self.ctx.settings
        out = Verified(admitted=[], unresolved=[], removed=[], grounded=[], rejected={}, reasons={}, contradicted={})
        self._wake_uncontradicted()
        for h in sorted(g.hypotheses(("candidate",)), key=lambda n: n.node_id):
            if config.verifier:
                for sid in g.supporters(h.node_id):
                    n = g.nodes.get(sid)
                    if n is not None and n.kind == "evidence" and n.status == "raw":
                        c = grounding_change(view, n)
                        self._apply([c])
                        if c.status == "grounded":
                            out.grounded.append(sid)
                        else:
                            out.rejected[sid] = c.reason
            v = self.backend.verify(view, config, h, self.ctx.calls())
            self._apply_verdict(h, v, out)
        # decided hypotheses a rival now contradicts (it grew stronger, or a person confirmed it)
        open_by_attr = Counter(n.attribute for n in g.hypotheses(("candidate", "admitted", "unresolved", "suspended")))
        for h in sorted(g.hypotheses(("admitted", "unresolved", "suspended")), key=lambda n: n.node_id):
            if open_by_attr[h.attribute] > 1 and not h.data.confirmed_by and h.status != "removed":
                v = recheck_contradiction(view, config, h)
                if v is not None:
                    self._apply_verdict(h, v, out)
        if out.admitted or out.unresolved or out.removed or out.grounded or out.rejected:
            self._event(out)

    def _apply_verdict(self, h: EvidenceNode, v: Verdict, out: Verified) -> None:
        changes = verdict_changes(self.ctx.view, h, v)
        self._apply(changes)
        for c in changes:
            if isinstance(c, SetStatus) and c.node_id != h.node_id:
                out.rejected[c.node_id] = c.reason
        if v.contradicted_by:
            out.contradicted[h.node_id] = list(v.contradicted_by)
        getattr(out, v.status).append(h.node_id)         # admitted / unresolved / removed
        out.reasons[h.node_id] = v.reason

    # ------------------------------------------------------------ routes
    def _pending(self) -> RouteProposal | None:
        r = db_routes.pending_route(self.db, self.run_id)
        if r is None:
            return None
        return RouteProposal(**r, reason=self._route_reason(r["route_id"]))

    def _route_reason(self, route_id: str) -> str:
        for d in db_runs.event_data(self.db, self.run_id, "route_proposed", newest_first=True):
            data = json.loads(d)
            if data.get("route_id") == route_id:
                return data.get("reason", "")
        return ""

    def _next_route_id(self) -> str:
        return db_routes.next_route_id(self.db, self.run_id)

    def _stable(self) -> bool:
        results = db_routes.last_results(self.db, self.run_id, STABLE_ROUTES)
        if len(results) < STABLE_ROUTES:
            return False
        return all(not r.get("graph_changed") for r in results)

    def next_proposal(self) -> RouteProposal | None:
        """The route awaiting a decision (persisted as a 'proposed' row), or None when the loop stops."""
        if self.finished:
            return None
        pending = self._pending()
        if pending is not None:
            return pending
        stop_reason = None
        prop = None
        if not self.ctx.flag("investigator"):
            stop_reason = "investigator disabled"
        elif self.ctx.step >= int(self.ctx.flag("max_steps")):
            stop_reason = "max steps reached"
        elif self._stable():
            # the graph did not move lately: only a route with a high expected gain goes on
            prop = propose(self.ctx.view, self.ctx.settings, self.ctx.budget.remaining, self.backend,
                           self.ctx.calls(), min_gain=STABLE_GAIN, cands=self._candidates())
            if prop is None:
                stop_reason = f"graph stable over the last {STABLE_ROUTES} routes"
        else:
            self._gave_up = {}
            prop = propose(self.ctx.view, self.ctx.settings, self.ctx.budget.remaining, self.backend,
                           self.ctx.calls(), cands=self._candidates(), gave_up=self._gave_up)
            if prop is None:
                stop_reason = ("budget spent" if self.ctx.budget.remaining < 1 else "no useful route remains")
        if prop is None:
            self.finish(stop_reason or "stop")
            return None
        prop.route_id = self._next_route_id()
        with self.db.conn:
            apply_changes(self.ctx, [AddRoute(route=prop, status="proposed")])
            insert_event(self.db, self.run_id, self.ctx.step, RouteProposed(**prop.model_dump()))
        return prop

    def decide(self, decision: Decision) -> list[Event]:
        """Apply a decision to the pending route: one committed step. Edited or rerun params
        are validated by the family's input model first: a bad value raises InputError
        (naming the field) and nothing is recorded or charged."""
        if self.finished:
            return []
        prop = self._pending()
        if decision.action == "stop":
            return self._run_step(self._stop_body, prop, decision, status="finished")
        if decision.action == "rerun":
            parent, row = self._rerun_source(decision)
            validate_params(row[1], {**json.loads(row[3]), **self._rerun_params(decision)})
            return self._run_step(self._rerun_body, decision, parent, row)
        if prop is None:
            raise ValueError("no route is awaiting a decision (call next_proposal first)")
        if decision.action == "edit" and decision.params:
            validate_params(prop.family, {**prop.params, **decision.params})
        return self._run_step(self._decide_body, prop, decision)

    def _mark_route(self, route_id: str, status: str, decision: Decision, result: dict[str, Any] | None = None) -> None:
        self._apply([DecideRoute(route_id=route_id, status=status, by=decision.by, reason=decision.reason,
                                 result=result)])

    def _decide_body(self, prop: RouteProposal, decision: Decision) -> None:
        self._event(DecisionMade(route_id=prop.route_id, action=decision.action, by=decision.by,
                                 reason=decision.reason, params=decision.params))
        if decision.action == "skip":
            self._mark_route(prop.route_id or "", "skipped", decision)
            return
        if decision.action == "edit" and decision.params:
            prop.params = {**prop.params, **decision.params}
            self._apply([SetRouteParams(route_id=prop.route_id or "", params=prop.params)])
        result = self._execute(prop)
        status = "failed" if "error" in result else ("edited" if decision.action == "edit" else "done")
        self._mark_route(prop.route_id or "", status, decision, result)

    def _execute(self, prop: RouteProposal, *, use_cache: bool = True) -> dict[str, Any]:
        (remaining,) = self._apply([Charge(cost=prop.cost, route_id=prop.route_id, family=prop.family)])
        env = self.ctx.tool_env(self.backend, prop.route_id or "", use_cache=use_cache)
        drafts, result, changes = execute(self.ctx.view, self.ctx.settings, env, prop, prop.route_id or "")
        # a route run to check a hypothesis names itself as its evidence's provenance
        prov = [prop.route_id or ""] if prop.hypothesis_id and prop.hypothesis_id in self.ctx.graph.nodes else None
        made = self._apply(changes + [AddEvidence(draft=d, provenance=prov) for d in drafts])
        added = [n.node_id for n in made[len(changes):]]
        self._wake_suspended(added, prop.hypothesis_id)
        self._event(ToolCalled(route_id=prop.route_id, family=prop.family, params=prop.params, result=result,
                               evidence=added, cost=prop.cost, remaining=remaining))
        # nothing new in the graph: the last step's hypotheses, verdicts and profile still hold
        changed = self._refresh() if added else False
        result = {**result, "evidence": added, "graph_changed": changed}
        return result

    @staticmethod
    def _rerun_params(decision: Decision) -> dict[str, Any]:
        return {k: v for k, v in (decision.params or {}).items() if k != "route_id"}

    def _rerun_source(self, decision: Decision) -> tuple[str, tuple]:
        parent = (decision.params or {}).get("route_id")
        if parent is None:
            parent = db_routes.last_executed(self.db, self.run_id)
        row = db_routes.route_source(self.db, self.run_id, parent)
        if row is None:
            raise ValueError(f"rerun: no route {parent!r} in this run")
        return parent, row

    def _rerun_body(self, decision: Decision, parent: str, row: tuple) -> None:
        prop = RouteProposal(route_id=self._next_route_id(), hypothesis_id=row[0], family=row[1], tool=row[2],
                             params={**json.loads(row[3]), **self._rerun_params(decision)},
                             cost=route_cost(row[1]), expected=row[5] or "",
                             parent_route_id=parent, reason=f"rerun of {parent}")
        self._apply([AddRoute(route=prop, status="approved")])
        self._event(DecisionMade(route_id=prop.route_id, action="rerun", by=decision.by, parent_route_id=parent,
                                 reason=decision.reason))
        result = self._execute(prop, use_cache=False)
        self._mark_route(prop.route_id or "", "failed" if "error" in result else "done", decision, result)

    def _stop_body(self, prop: RouteProposal | None, decision: Decision) -> None:
        if prop is not None:
            self._mark_route(prop.route_id or "", "skipped", decision)
        self._event(DecisionMade(route_id=prop.route_id if prop else None, action="stop", by=decision.by,
                                 reason=decision.reason))
        self._finish_body(f"stopped by {decision.by}")

    def finish(self, reason: str = "stop") -> list[Event]:
        if self.finished:
            return []
        return self._run_step(self._finish_body, reason, status="finished")

    def _finish_body(self, reason: str) -> None:
        self._refresh()
        self._suspend_unresolved(reason)
        g = self.ctx.graph
        self._event(RunFinished(
            reason=reason, spent=self.ctx.budget.spent, budget=self.ctx.budget.total,
            admitted=len(g.hypotheses(("admitted",))),
            unresolved=len(g.hypotheses(("unresolved", "suspended"))),
            removed=len(g.hypotheses(("removed",))),
            profile=db_runs.profile_attributes(self.db, self.run_id)))

    # ------------------------------------------------------------ a person's hypothesis actions
    def hypothesis_action(self, node_id: str, action: Literal["reject", "confirm", "note"], by: str,
                          reason: str | None = "") -> list[BaseEvent]:
        """A researcher's verdict on one hypothesis, as one committed step: `reject` removes it with
        the reason (never projected again, the hypothesizer cannot bring it back), `confirm` admits
        it as derived evidence marked confirmed by that person, `note` records a note. The graph
        is then re-hypothesized, verified and projected."""
        node = self.ctx.graph.nodes.get(node_id)
        if node is None or node.kind != "hypothesis":
            raise ValueError(f"{node_id!r} is not a hypothesis of run {self.run_id}")
        if action not in ("reject", "confirm", "note"):
            raise ValueError(f"unknown hypothesis action {action!r} (reject, confirm or note)")
        by = by if by.startswith(("person:", "policy:")) else f"person:{by}"
        return self._run_step(self._hypothesis_action_body, node_id, action, by, (reason or "").strip())

    def _hypothesis_action_body(self, node_id: str, action: str, by: str, reason: str) -> None:
        g = self.ctx.graph
        node = g.nodes[node_id]
        why = f"{'rejected' if action == 'reject' else 'confirmed'} by {by}" + (f": {reason}" if reason else "")
        if action == "note":
            notes = list(node.data.notes or []) + [PersonNote(by=by, step=self.ctx.step, text=reason)]
            self._apply([UpdateNode(node_id=node_id, data=node.data.model_copy(update={"notes": notes}))])
        else:
            data = node.data.model_copy(update={"rejected_by": by if action == "reject" else None,
                                                "confirmed_by": by if action == "confirm" else None,
                                                "person_reason": reason})
            self._apply([UpdateNode(node_id=node_id, data=data),
                         SetStatus(node_id=node_id, status="removed" if action == "reject" else "admitted",
                                   reason=why, by=by)])
        self._event(HypothesisAction(node_id=node_id, action=action, by=by, reason=reason,
                                     attribute=node.attribute, value=node.value, status=node.status))
        self._refresh()

    # ------------------------------------------------------------ console API
    @property
    def stop_reason(self) -> str | None:
        """The reason of the last stop (its run_finished event), None if the run never stopped."""
        last = db_runs.event_data(self.db, self.run_id, "run_finished", newest_first=True)[:1]
        return json.loads(last[0]).get("reason") if last else None

    def force_route(self, family: str, params: dict[str, Any], by: str, reason: str | None = None) -> list[Event]:
        """Run a route a person chose (not proposed by the router): validated by the family's
        input model (InputError naming the field, nothing charged), refused when the family
        cannot run here or the budget cannot pay (ValueError). A finished run is reopened."""
        validate_params(family, params)
        if not offered(family, network=bool(self.ctx.flag("network")), backend=self.backend):
            raise ValueError(f"force_route: {family} cannot run in this run (no executor, network off or no model)")
        cost = route_cost(family)
        if not self.ctx.budget.affordable(cost):
            raise ValueError(f"force_route: {family} costs {cost:g}, only {self.ctx.budget.remaining:g} units left"
                             " (extend_budget first)")
        return self._run_step(self._force_body, family, params, by, reason, status="running")

    def _force_body(self, family: str, params: dict[str, Any], by: str, reason: str | None) -> None:
        self._reopen(by)
        prop = RouteProposal(route_id=self._next_route_id(), family=family, tool=family, params=dict(params),
                             cost=route_cost(family), expected="what the person asked for",
                             reason=reason or f"forced by {by}")
        self._apply([AddRoute(route=prop, status="approved")])
        decision = Decision(action="approve", by=by, reason=prop.reason)
        self._event(DecisionMade(route_id=prop.route_id, action="force", by=by, family=family, params=prop.params,
                                 reason=prop.reason))
        result = self._execute(prop)
        self._mark_route(prop.route_id or "", "failed" if "error" in result else "done", decision, result)

    def extend_budget(self, units: float, by: str) -> list[Event]:
        """Add `units` to the run's budget (runs.budget + a ledger row); reopens a finished run."""
        if not units > 0:
            raise ValueError(f"extend_budget: units must be > 0 (got {units!r})")
        return self._run_step(self._extend_body, float(units), by, status="running")

    def _extend_body(self, units: float, by: str) -> None:
        self._reopen(by)
        (remaining,) = self._apply([ExtendBudget(units=units, by=by)])
        self._event(BudgetExtended(units=units, by=by, budget=self.ctx.budget.total, remaining=remaining))
        # routes may pay again: suspended hypotheses are verified and routed again (the end-of-step
        # check suspends those that still have no route)
        g = self.ctx.graph
        woken = {}
        for h in g.hypotheses(("suspended",)):
            if not (h.data.confirmed_by or h.data.rejected_by):
                woken[h.node_id] = f"budget extended by {units:g} units by {by}: routes may pay again"
                self._apply([SetStatus(node_id=h.node_id, status="candidate", reason=woken[h.node_id])])
        if woken:
            self._event(SuspensionEvent(woken=woken))
            self._verify()

    def _reopen(self, by: str) -> None:
        if self.finished:
            self._apply([ReopenRun()])
            self._event(Reopened(by=by, after=self.stop_reason))

    # ------------------------------------------------------------ drivers
    def approver(self) -> Approver:
        """The headless approval chain of this run (config rules, then policy:auto)."""
        return headless_chain(self.ctx.config)

    def step(self, approver: Approver | None = None) -> list[Event]:
        """One route decided by the approval chain (headless or console, approval.py) and applied.
        Returns [] when nothing was decided: no route left, or the chain asks a person who has
        not answered yet (`self.asking`; the route stays proposed)."""
        self.asking = None
        prop = self.next_proposal()
        if prop is None:
            return []
        d = (approver or self.approver()).decide(prop, self)
        if isinstance(d, AskPerson):
            self.asking = d
            return []
        if not isinstance(d, Decision):           # a lone approver escalated: nobody decided
            d = Decision(action="skip", by="policy:chain", reason=f"escalated, no approver decided: {d.reason}")
        return self.decide(d)

    def run(self, approver: Approver | None = None, max_steps: int | None = None) -> Predictions:
        """Steps until the run stops, `max_steps` or the chain waits for a person."""
        approver = approver or self.approver()
        n = 0
        while not self.finished and (max_steps is None or n < max_steps):
            self.step(approver)
            if self.asking is not None:
                break
            n += 1
        return self.profile()

    def chain(self, attribute: str) -> list[dict[str, Any]]:
        """Support chains (down to posts) of a projected attribute's value."""
        hs = [h for h in self.ctx.graph.hypotheses(("admitted",)) if h.attribute == attribute]
        return [self.ctx.graph.chain(h.node_id) for h in hs] if db_runs.in_profile(self.db, self.run_id, attribute) else []
