"""The investigation screen: posts, CPeg, hypothesis store, route proposal, budget,
profile and timeline in one keyboard-first layout.

mode "live": drives a LiveSession (engine calls in thread workers, one step at a time).
mode "inspect": read-only, with a step scrubber; every pane shows the run as of that step.
Panes only render Snapshots; all SQLite and engine work happens in workers.
"""
from __future__ import annotations

import time
from pathlib import Path

from core.textsafe import printable
from argus_tui.widgets.cells import SafeText as Text  # the output boundary (core/textsafe.py)
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static, TabbedContent, TabPane, Tree

from argus_tui.live import (AutoRun, Command, Decide, ExtendBudget, ForceRoute, JudgeHypothesis, LiveSession, MarkWrong,
                            Refresh, StepResult)
from argus_tui.screens.modals import AutoRunScreen, HelpScreen, RouteEditScreen, as_typed
from argus_tui.state import Snapshot, StepChanges, build_snapshot, step_changes
from argus_tui.widgets.cpeg import CpegPane
from argus_tui.widgets.hypotheses import HypothesisTable
from argus_tui.widgets.panes import (
    BudgetPane,
    ProfilePane,
    ProposalPane,
    StepScrubber,
    TimelinePane,
    format_route,
)
from argus_tui.widgets.cells import one_line
from argus_tui.widgets.focus import focus_now
from argus_tui.widgets.posts import PostsPane
from core.engine.events import RunFinished
from core.engine.types import Decision
from core.errors import InputError
from db.store import open_db


CHANGE_LINES = 3        # lines of the changes bar; the rest is counted ("… +N more")


def changes_lines(snap: Snapshot, ch: StepChanges | None, limit: int = CHANGE_LINES) -> list[Text]:
    """What the last step did, one line per change (created +, changed ~, marked by a person ✓ ✗ ✎,
    removed −, evidence added); each line is cut with an ellipsis by its widget, line breaks in
    values shown as ⏎."""
    if ch is None:
        return []
    if not ch:
        return [Text(f" step {snap.step}: no hypothesis or evidence changed", style="dim")]

    def name(nid: str) -> str:
        n = snap.nodes.get(nid)
        return f"{nid} {n.attribute}={one_line(n.value or '', 40)}" if n is not None else nid

    out: list[Text] = []
    for nid in ch.new:
        out.append(Text.assemble(("+ ", "bold green"), name(nid)))
    for nid, (s0, s1, c0, c1) in ch.changed.items():
        if nid in ch.removed:
            continue
        conf = f" {c0:.2f}→{c1:.2f}" if c0 is not None and c1 is not None and f"{c0:.2f}" != f"{c1:.2f}" else ""
        st = f" {s0}→{s1}" if s0 != s1 else ""
        out.append(Text.assemble(("~ ", "bold yellow"), name(nid), f"{st}{conf}"))
    for nid, what in ch.marked.items():
        mark = "✓" if what.startswith("confirmed") else "✗" if what.startswith("rejected") else "✎"
        out.append(Text.assemble((f"{mark} ", "bold magenta"), name(nid), " ", one_line(what, 120)))
    for nid in ch.removed:
        why = (snap.history.get(nid) or [(0, "", None, "")])[-1][3]
        out.append(Text.assemble(("− ", "bold red"), name(nid), f" ({one_line(why)})" if why else ""))
    if ch.evidence:
        out.append(Text.assemble((f"+{len(ch.evidence)} evidence ", "bold cyan"), " ".join(ch.evidence[:12])
                                 + (" …" if len(ch.evidence) > 12 else "")))
    if len(out) > limit:
        extra = len(out) - (limit - 1)
        out = out[: limit - 1] + [Text(f"… +{extra} more changes (timeline 7, or d on a row)", style="dim")]
    head = Text(f" step {snap.step}: ", style="bold")
    return [Text.assemble(head if i == 0 else " " * len(head.plain), line) for i, line in enumerate(out)]


def force_families() -> list[str]:
    """Route families a researcher can force (the tool registry's)."""
    from tools.registry import TOOLS

    return list(dict.fromkeys(spec.family for spec in TOOLS.values()))


def input_fields(family: str) -> dict:
    """The family's input-model fields with their defaults ("" for required ones)."""
    from pydantic_core import PydanticUndefined

    from tools.registry import TOOLS

    spec = next((s for s in TOOLS.values() if s.family == family), None)
    if spec is None:
        return {}
    out: dict = {}
    for name, f in spec.input_type.model_fields.items():
        if name.startswith("_"):
            continue
        out[name] = "" if f.default is PydanticUndefined or f.default is None else f.default
    return out


def route_problems(family: str, params: dict, cost: float | None = None, remaining: float | None = None) -> dict:
    """Every problem of a route's parameters, by field (the family's input model, all errors, not
    only the first), and "" for the route as a whole when the budget cannot pay it. The engine
    validates again; this keeps the dialog open with what was typed."""
    from pydantic import ValidationError

    from tools.registry import TOOLS

    out: dict[str, str] = {}
    spec = next((s for s in TOOLS.values() if s.family == family), None)
    if spec is not None:
        try:
            spec.input_type.model_validate(params)
        except ValidationError as e:
            for err in e.errors():
                loc = err.get("loc") or ("",)
                out.setdefault(str(loc[0]), str(err.get("msg", "invalid")))
    if cost is not None and remaining is not None and cost > remaining + 1e-9:
        out[""] = f"{family} costs {cost:g}, {remaining:g} left: press b for more budget first"
    return out


def stop_reason(snap: Snapshot) -> str:
    """Why the engine stopped: the reason of the run's last run_finished event."""
    for ev in reversed(snap.timeline):
        e = ev.event()
        if isinstance(e, RunFinished):
            return e.reason or "stopped"
        if ev.kind in ("reopened", "budget_extended"):
            break
    return "stopped"


def stop_card(snap: Snapshot) -> Text:
    """The route pane once the engine stopped: why, and what the researcher can do next."""
    return Text.assemble(("the engine stopped: ", "bold"), (stop_reason(snap), "bold yellow"),
                         f"\n(spent {snap.spent_at_step:g} of {snap.budget:g} units)\n",
                         ("b", "bold"), "  continue with more budget\n",
                         ("f", "bold"), "  force a route of your choosing (family + target, validated)\n",
                         ("h", "bold"), "  reject / confirm / note a hypothesis\n",
                         ("q", "bold"), "  finish (everything is saved)")


def _proposal_row(prop, step: int):
    """A pending proposal as a RouteRow (for the detail view)."""
    from argus_tui.state import RouteRow

    return RouteRow(prop.route_id or "-", step, prop.hypothesis_id, prop.family, prop.tool, prop.params, prop.cost,
                    prop.expected, "proposed", None, None, prop.parent_route_id, None)


class SnapshotReady(Message):
    def __init__(self, result: StepResult) -> None:
        super().__init__()
        self.result = result


class EngineIdle(Message):
    """The engine worker finished its job (posted after its last SnapshotReady)."""


class WorkFailed(Message):
    def __init__(self, what: str, error: BaseException) -> None:
        super().__init__()
        self.what = what
        self.error = error


class InvestigationScreen(Screen):
    # The footer names every key that acts now, in one line at 80 columns (compact, one-word
    # labels): the decision keys, w (mark a finding wrong), detail, the panes that open full
    # screen at 80x24 (1 2 6 7; the store, route and budget show [3] [4] [5] on their borders),
    # help and quit. The rest (layout, rerun, auto-run, image viewer, advice) is in `?`.
    BINDINGS = [
        Binding("a", "decide('approve')", "approve"),
        Binding("x", "decide('skip')", "skip"),
        Binding("e", "edit", "edit"),
        Binding("a,x,e", "stopped", "", show=False),
        Binding("b", "extend(1)", "budget"),
        Binding("f", "force(1)", "force"),
        Binding("h", "hypothesis(1)", "hyp"),
        Binding("r", "rerun", "Rerun", show=False),
        Binding("g", "auto", "Auto-run", show=False),
        Binding("p", "pause", "Pause", show=False),
        Binding("left_square_bracket", "step(-1)", "prev"),
        Binding("right_square_bracket", "step(1)", "next"),
        Binding("w", "wrong", "wrong"),
        Binding("d", "detail", "info"),
        Binding("1", "focus_pane('posts')", "posts"),
        Binding("2", "focus_pane('cpeg')", "graph"),
        Binding("3", "focus_pane('hyps')", "Hyps", show=False),
        Binding("4", "focus_pane('proposal')", "Route", show=False),
        Binding("5", "focus_pane('budget')", "Budget", show=False),
        Binding("6", "focus_pane('profile')", "profile"),
        Binding("7", "focus_pane('timeline')", "time"),
        Binding("plus,equals_sign", "resize(5)", "Wider", show=False),
        Binding("minus", "resize(-5)", "Narrower", show=False),
        Binding("greater_than_sign", "resize_store(5)", "Taller store", show=False),
        Binding("less_than_sign", "resize_store(-5)", "Shorter store", show=False),
        Binding("z", "maximize", "Max", show=False),
        Binding("v", "view_image", "Image", show=False),
        Binding("f", "force", "Force route", show=False),
        Binding("b", "extend", "Budget+", show=False),
        Binding("h", "hypothesis", "Hyp action", show=False),
        Binding("8", "advice", "Advice", show=False),
        Binding("question_mark", "help", "help"),
        Binding("q", "quit(1)", "quit"),
        Binding("q", "quit", "Quit", show=False),       # (the footer's q is hidden in a small live screen)
        Binding("ctrl+q", "app.quit", "Quit", show=False, priority=True),
    ]

    def __init__(self, db_path: str | Path, run_id: str | None = None, *, mode: str = "inspect",
                 session: LiveSession | None = None, who: str = "person:researcher", step: int | None = None,
                 start_args: dict | None = None):
        super().__init__()
        self.db_path = Path(db_path)
        self.run_id = run_id
        self.mode = mode
        self.session = session
        self.who = who
        self.snap: Snapshot | None = None
        self.proposal = None
        self.escalation = ""        # why the approval rules left the waiting route to the person
        self.busy = False
        self.left_width = 42
        self.store_height = 38
        self.render_ms: list[float] = []       # wall time of each snapshot render on the UI thread
        self.render_cpu_ms: list[float] = []
        self._initial_step = step
        self._ro_db = None
        self._closing = False
        self.picked: dict | None = None     # a route picked in the image viewer, waiting for a / x / e
        self._pending_step: int | None = None
        self._busy_label, self._busy_since = "", 0.0
        # live mode without a session: {"user_dir", "budget", "backend"} for a new run,
        # else the run_id is resumed; the engine is opened in the worker (perception can take a while)
        self.start_args = start_args

    # ---------------- layout ----------------
    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield Static("", id="run-bar")
        yield Static("", id="changes")
        if self.mode == "inspect":
            scrub = StepScrubber("", id="scrubber")
            scrub.can_focus = True
            yield scrub
        with Horizontal(id="main"):
            with TabbedContent(id="left", initial="tab-posts"):
                with TabPane("Posts [1]", id="tab-posts"):
                    yield PostsPane(id="posts")
                with TabPane("CPeg [2]", id="tab-cpeg"):
                    yield CpegPane(id="cpeg")
            with Vertical(id="right"):
                hyp = HypothesisTable(id="hyps")
                hyp.border_title = "Hypothesis store [3]"
                yield hyp
                with Horizontal(id="mid-row"):
                    prop = ProposalPane(id="proposal")
                    prop.border_title = "Route proposal [4]" if self.mode == "live" else "Route at this step [4]"
                    yield prop
                    budget = BudgetPane(id="budget")
                    budget.border_title = "Budget [5]"
                    yield budget
                with TabbedContent(id="bottom", initial="tab-profile"):
                    with TabPane("Profile [6]", id="tab-profile"):
                        yield ProfilePane(id="profile")
                    with TabPane("Timeline [7]", id="tab-timeline"):
                        yield TimelinePane(id="timeline")
        yield Footer(compact=True, show_command_palette=False)     # ctrl+p: in `?` help

    def on_mount(self) -> None:
        self.sub_title = "inspect (read-only)" if self.mode == "inspect" else "live"
        self._apply_width()
        self.query_one("#run-bar", Static).update("loading…")
        if self.mode == "inspect":
            self.load_step(self._initial_step)
        else:
            self._working("opening the run: reading posts and images")
            self.engine_call(Refresh())
        self.set_interval(1.0, self._tick)

    def _working(self, label: str) -> None:
        """Mark the engine busy and say what it does (with elapsed seconds, see _tick)."""
        self.busy = True
        self._busy_label, self._busy_since = label, time.monotonic()
        self.query_one(ProposalPane).show_route(Text(f"{label}…", style="bold"), "")

    def _tick(self) -> None:
        if self.busy and self._busy_label:
            secs = int(time.monotonic() - self._busy_since)
            hint = "  (p pauses after the step in flight)" if self._busy_label.startswith("auto") else ""
            self.query_one("#proposal-status", Static).update(Text(f"working… {secs} s{hint}", style="dim"))

    LIVE_ONLY = {"decide", "edit", "rerun", "auto", "pause", "force", "extend", "hypothesis", "stopped"}
    AFTER_STOP = {"pause", "force", "extend", "hypothesis", "stopped"}     # still offered once the engine stopped
    STOP_KEYS = {"force", "extend", "hypothesis"}     # shown in the footer (parameter 1) once the engine stopped

    def stopped(self) -> bool:
        """Live, and nothing to decide: the engine stopped (the stop card is shown)."""
        if self.mode != "live" or self.snap is None or self.proposal is not None or self.picked is not None:
            return False
        return self.snap.run.status == "finished" or bool(self.session and self.session.finished)

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        """The footer shows the keys that act now: the decision keys while a route waits, b f h
        once the engine stopped; none of them in inspect mode, the step keys only there."""
        if action in self.LIVE_ONLY:
            if self.mode != "live":
                return False
            stopped = self.stopped()
            if action in self.STOP_KEYS and parameters == (1,):
                return stopped          # else hidden: the key falls through to its unshown binding
            if action == "stopped":
                return stopped
            if stopped and action not in self.AFTER_STOP:
                return False            # hidden; the key says what to do instead (action_stopped)
            return True
        if action == "step":
            return self.mode == "inspect"
        if action == "quit" and parameters == (1,):
            # 80 columns hold the live keys up to `?`; q quits from every screen (in `?`, and on
            # the stop card), so its footer entry gives way; the key falls through to its binding
            return not (self.mode == "live" and self.has_class("-small"))
        return True

    async def action_quit(self, _shown: int = 0) -> None:
        await self.app.action_quit()

    def action_stopped(self) -> None:
        self.notify("the engine stopped: b more budget, f force a route, h act on a hypothesis, q finish",
                    severity="warning", timeout=6)

    # ---------------- workers ----------------
    @work(thread=True, group="db", exclusive=True)
    def load_step(self, step: int | None) -> None:
        """Inspect: the run as of `step`, read in a thread (read-only connection)."""
        try:
            if self._ro_db is None:
                self._ro_db = open_db(self.db_path, readonly=True)
            assert self.run_id is not None
            snap = build_snapshot(self._ro_db, self.run_id, step)
            self.post_message(SnapshotReady(StepResult(snap, None)))
        except Exception as e:  # noqa: BLE001 — shown to the user, the app stays up
            self.post_message(WorkFailed("open run", e))

    @work(thread=True, group="engine")
    def engine_call(self, cmd: Command) -> None:
        try:
            if self.session is None:
                if self.start_args:
                    self.session = LiveSession.start(self.db_path, self.start_args["user_dir"],
                                                     budget=self.start_args.get("budget", 20.0),
                                                     backend=self.start_args.get("backend", "offline"),
                                                     config=self.start_args.get("config"))
                    self.run_id = self.session.run_id
                else:
                    assert self.run_id is not None
                    self.session = LiveSession.resume(self.db_path, self.run_id)
                if self._closing:        # the screen went away while the run was opening
                    self.session.close()
                    return
            for result in self.session.run(cmd):
                self.post_message(SnapshotReady(result))
        except Exception as e:  # noqa: BLE001 — an engine failure is reported, the run stays in its DB
            self.post_message(WorkFailed(cmd.what, e))
        finally:
            self.post_message(EngineIdle())

    @on(EngineIdle)
    def _engine_idle(self) -> None:
        self.busy = False
        self._busy_label = ""
        self._show_route()

    # ---------------- rendering ----------------
    @on(SnapshotReady)
    def _on_snapshot(self, message: SnapshotReady) -> None:
        t0, c0 = time.perf_counter(), time.thread_time()
        res = message.result
        if self._pending_step is not None and res.snap.step == self._pending_step:
            self._pending_step = None
        old, self.snap = self.snap, res.snap
        self.run_id = res.snap.run.run_id
        self.proposal = res.proposal
        self.escalation = res.note if res.proposal is not None else ""     # the card says it while the route waits
        forward = old is not None and res.snap.step > old.step and (
            self.mode == "live" or res.snap.step == old.step + 1)
        self.changes = step_changes(old, res.snap) if forward else None   # type: ignore[arg-type]
        self.show_snapshot(res.snap)
        self.refresh_bindings()
        self.render_ms.append((time.perf_counter() - t0) * 1000)
        self.render_cpu_ms.append((time.thread_time() - c0) * 1000)   # unaffected by other processes
        if res.note:
            self.notify(res.note, timeout=8, markup=False)

    @on(WorkFailed)
    def _on_failed(self, message: WorkFailed) -> None:
        err = message.error
        why = str(getattr(err, "message", None) or err).replace("(extend_budget first)", "(press b for more budget first)")
        text = f"{message.what} refused: {why}" if isinstance(
            err, (ValueError, RuntimeError, InputError)) else f"{message.what} failed: {type(err).__name__}: {err}"
        self.notify(text, severity="error", timeout=10, markup=False)
        self.query_one("#run-bar", Static).update(Text(text, style="red"))

    def show_snapshot(self, snap: Snapshot) -> None:
        run = snap.run
        live = self.mode == "live"
        # inspect: the status as of the shown step (a run is finished only at its last step)
        status = run.status if not live and snap.step == snap.max_step else (
            "finished" if live and snap.run.status == "finished" else "running")
        self.title = f"Argus — {printable(run.user_id)}"
        # what matters most first: a narrow terminal cuts the tail (with an ellipsis), never the state
        bar = Text.assemble(
            " ", (status, "bold"), f"  step {snap.step}/{snap.max_step}  run ", (run.run_id, "bold"), "  user ",
            (run.user_id, "bold"), f"  hypotheses {len(snap.hypotheses())}  nodes {len(snap.nodes)}"
            f"  system {run.system}  backend {run.backend}", no_wrap=True, overflow="ellipsis")
        self.query_one("#run-bar", Static).update(bar)
        if self.mode == "inspect":
            self.query_one(StepScrubber).show(snap.step, snap.max_step)
        changes = getattr(self, "changes", None)
        self.query_one(HypothesisTable).show(snap, changes.marks() if changes else None)
        bar = self.query_one("#changes", Static)
        text = Text("\n").join(changes_lines(snap, changes))
        text.no_wrap, text.overflow = True, "ellipsis"      # each line cut at the edge, with an ellipsis
        bar.update(text)
        bar.display = changes is not None
        self.query_one(BudgetPane).show(snap)
        self._show_route()
        self._show_tabs()

    TAB_PANES = {"tab-posts": PostsPane, "tab-cpeg": CpegPane, "tab-profile": ProfilePane,
                 "tab-timeline": TimelinePane}

    def _show_tabs(self) -> None:
        """Render only the panes of the active tabs; a hidden one catches up when its tab opens
        (keeps a step's UI update small on big runs)."""
        if self.snap is None:
            return
        for tabs_id in ("#left", "#bottom"):
            active = self.query_one(tabs_id, TabbedContent).active
            cls = self.TAB_PANES.get(active)
            if cls is None:
                continue
            pane = self.query_one(cls)
            if getattr(pane, "_argus_snap", None) is not self.snap:
                pane.show(self.snap)
                pane._argus_snap = self.snap  # type: ignore[attr-defined]

    @on(TabbedContent.TabActivated)
    def _tab_activated(self, event: TabbedContent.TabActivated) -> None:
        self._show_tabs()

    def _show_route(self) -> None:
        snap = self.snap
        pane = self.query_one(ProposalPane)
        if snap is None:
            return
        if self.mode == "live":
            if self.picked is not None and not self.busy:
                pane.show_route(format_route(None, snap, self.picked), "", "a run it  x discard  e edit")
            elif self.proposal is not None:
                pane.show_route(format_route(None, snap, {**self.proposal.model_dump(),
                                                          "asks": self.escalation}), "",
                                "" if self.busy else "a approve x skip e edit")
            elif snap.run.status == "finished" or (self.session and self.session.finished):
                pane.show_route(stop_card(snap), "", "b budget  f force  h hypothesis  q finish")
            else:
                pane.show_route("[dim]waiting for the engine…[/dim]")
            return
        at_step = [r for r in snap.routes if r.step == snap.step] or snap.routes[-1:]
        pane.show_route(format_route(at_step[-1] if at_step else None, snap))

    # ---------------- live actions ----------------
    def _can_act(self) -> bool:
        if self.mode != "live":
            self.notify("read-only: this is a saved run (inspect mode)", severity="warning")
            return False
        if self.busy or self.session is None:
            self.notify("the engine is busy with a step; press p to pause an auto-run", severity="warning")
            return False
        return True

    def _send(self, decision: Decision) -> None:
        self._working(f"{decision.action}: running the step")
        self.engine_call(Decide(decision))

    def action_decide(self, action: str) -> None:
        if not self._can_act():
            return
        if self.picked is not None:          # the route picked in the image viewer: run or discard it
            picked, self.picked = self.picked, None
            if action == "approve":
                self._run_picked(picked)
            else:
                self.notify("picked route discarded", timeout=3)
                self._show_route()
                self.refresh_bindings()
            return
        if self.proposal is None:
            self.notify("no route proposed", severity="warning")
            return
        self._send(Decision(action=action, by=self.who))  # type: ignore[arg-type]

    def action_edit(self) -> None:
        if not self._can_act():
            return
        if self.picked is not None:
            picked = self.picked

            def edited(result: dict | None) -> None:
                if result is not None:
                    self.picked = None
                    self._run_picked({**picked, "params": result["params"],
                                      "reason": result["reason"] or picked["reason"]})

            self.app.push_screen(RouteEditScreen(f"Edit the picked {picked['family']} route", picked["params"],
                                                 validate=lambda p: route_problems(
                                                     picked["family"], p, picked["cost"], self.snap.remaining
                                                     if self.snap else None)), edited)
            return
        if self.proposal is None:
            self.notify("no route proposed", severity="warning")
            return
        prop = self.proposal

        def done(result: dict | None) -> None:
            if result is not None:
                self._send(Decision(action="edit", by=self.who, params=result["params"], reason=result["reason"]))

        self.app.push_screen(RouteEditScreen(f"Edit route {prop.route_id or ''} ({prop.family})", prop.params,
                                             validate=lambda p: route_problems(prop.family, p)), done)

    def action_rerun(self) -> None:
        if not self._can_act() or self.snap is None:
            return
        done_routes = [r for r in self.snap.routes if r.status in ("done", "edited", "failed")]
        if not done_routes:
            self.notify("no route has run yet", severity="warning")
            return
        chosen = self.query_one(BudgetPane).selected_route()
        route = next((r for r in done_routes if r.route_id == chosen), done_routes[-1])

        left = self.snap.remaining

        def send(result: dict) -> None:
            self._send(Decision(action="rerun", by=self.who, params={**result["params"], "route_id": route.route_id},
                                reason=result["reason"]))

        def done(result: dict | None) -> None:
            if result is None:
                return
            if result["params"] != as_typed(route.params):
                send(result)
                return
            # the same parameters again: the same tool call, charged again; say so and ask
            from argus_tui.screens.modals import ChoiceScreen

            self.app.push_screen(ChoiceScreen(
                f"Rerun {route.route_id} ({route.family}) with the parameters it ran with at step {route.step}? "
                f"It will be charged again: {route.cost:g} units of the {left:g} left.",
                [("rerun", "y", f"Rerun, charge {route.cost:g} again"), ("cancel", "n", "Cancel")]),
                lambda answer: send(result) if answer == "rerun" else self.notify("rerun cancelled: nothing charged",
                                                                                  timeout=3))

        params = {k: v for k, v in route.params.items()}
        self.app.push_screen(RouteEditScreen(f"Rerun route {route.route_id} ({route.family})", params,
                                             validate=lambda p: route_problems(route.family, p, route.cost, left)),
                             done)

    def action_auto(self) -> None:
        if not self._can_act():
            return

        def done(n: int | None) -> None:
            if n:
                self._working(f"auto-run of {n} step(s)")
                self.engine_call(AutoRun(n))

        self.app.push_screen(AutoRunScreen(), done)

    def action_view_image(self) -> None:
        """`v`: the selected post's image, large, with its OCR boxes; pick a region to zoom."""
        from argus_tui.screens.image_viewer import ImageViewerScreen, ocr_boxes

        snap = self.snap
        pid = self.query_one(PostsPane).selected_post_id()
        if snap is None or pid is None:
            return
        post = next(p for p in snap.posts if p.post_id == pid)
        base = Path(snap.run.user_dir or ".")
        images = [(i, ref.get("file")) for i, ref in enumerate(post.data.get("images") or [])
                  if isinstance(ref, dict) and ref.get("file")]
        from argus_tui.widgets.image_view import image_error

        for i, rel in images:
            path = (base / rel).resolve()
            if path.is_relative_to(base.resolve()) and image_error(path) is None:
                break
        else:
            self.notify(f"post {pid} has no image that opens", severity="warning", markup=False)
            return
        image_id = next((im.image_id for im in snap.images.get(pid, []) if im.file == rel), f"{pid}/img{i}")

        def done(pick: dict | None) -> None:
            if pick is not None:
                self.propose_zoom(pick)

        self.app.push_screen(ImageViewerScreen(path, rel, image_id, ocr_boxes(snap, rel),
                                               can_propose=self.mode == "live"), done)

    def propose_zoom(self, pick: dict) -> None:
        """A zoom route on the region picked in the image viewer, shown as a route card to decide
        (a runs it through the engine's force_route and charges it, x discards it, e edits it):
        nothing runs or is charged from the viewer itself."""
        from tools.registry import route_cost

        if not self._can_act():
            return
        params = {"file": pick["file"], "image_id": pick.get("image_id") or "", "box": pick["box"],
                  "zoom": pick.get("zoom", "auto")}
        self.picked = {"route_id": "(picked)", "family": "zoom_ocr", "tool": "zoom_ocr", "params": params,
                       "cost": route_cost("zoom_ocr"), "hypothesis_id": None,
                       "expected": f"the text inside box {pick['box']} of {pick.get('image_id') or pick['file']}",
                       "reason": f"region picked in the image viewer by {self.who}"}
        self._show_route()
        self.refresh_bindings()
        self.notify("zoom route proposed: a runs it, x discards it, e edits it", timeout=5)

    def _run_picked(self, picked: dict) -> None:
        problems = route_problems(picked["family"], picked["params"], picked["cost"],
                                  self.snap.remaining if self.snap else None)
        if problems:
            self.notify("picked route refused: " + "; ".join(f"{k or 'route'}: {v}" for k, v in problems.items()),
                        severity="error", timeout=8, markup=False)
            self.picked = picked
            return
        self._working("zoom route on the picked region")
        self.engine_call(ForceRoute(picked["family"], picked["params"], self.who, picked["reason"]))

    def action_force(self, _shown: int = 0) -> None:
        """`f`: a route of the researcher's choosing: family, then its parameters (the
        family's input model gives the fields; the engine validates them)."""
        from argus_tui.screens.modals import ChoiceScreen

        if not self._can_act():
            return
        families = force_families()
        keys = "123456789"

        def chosen(fam: str | None) -> None:
            if fam:
                self._force_params(fam)

        self.app.push_screen(ChoiceScreen("Force a route: which family?",
                                          [(f, keys[i], f) for i, f in enumerate(families[:9])]), chosen)

    def _force_params(self, family: str) -> None:
        params = input_fields(family)
        post = self.query_one(PostsPane).selected_post_id()
        if self.snap is not None and post and "file" in params:     # prefill the selected post's image
            imgs = self.snap.images.get(post) or []
            if imgs:
                params["file"], params["image_id"] = imgs[0].file, imgs[0].image_id

        def clean(p: dict) -> dict:
            return {k: v for k, v in p.items() if v not in ("", None)}

        def done(result: dict | None) -> None:
            if result is None:
                return
            self._working(f"forced {family} route")
            self.engine_call(ForceRoute(family, clean(result["params"]), self.who, result["reason"]))

        from tools.registry import route_cost

        cost, left = route_cost(family), self.snap.remaining if self.snap is not None else None
        self.app.push_screen(RouteEditScreen(f"Force a {family} route (empty fields are left out)", params,
                                             validate=lambda p: route_problems(family, clean(p), cost, left)), done)

    def action_extend(self, _shown: int = 0) -> None:
        """`b`: more budget (continues a stopped run)."""
        from argus_tui.screens.modals import PromptScreen

        if not self._can_act():
            return

        def done(text: str | None) -> None:
            try:
                units = float(text or "")
            except ValueError:
                if text:
                    self.notify(f"budget: {text!r} is not a number of units", severity="error")
                return
            self._working(f"adding {units:g} units")
            self.engine_call(ExtendBudget(units, self.who))

        self.app.push_screen(PromptScreen("Add how many budget units?", "10"), done)

    def action_hypothesis(self, _shown: int = 0) -> None:
        """`h` on a hypothesis: reject (never projected), confirm (admitted as derived
        evidence) or note, with a reason, recorded as person:<you>."""
        from argus_tui.screens.modals import ChoiceScreen, PromptScreen

        if not self._can_act() or self.snap is None:
            return
        hid = self.query_one(HypothesisTable).selected_id()
        node = self.snap.nodes.get(hid or "")
        if node is None or node.kind != "hypothesis":
            self.notify("select a hypothesis in the store [3] first", severity="warning")
            return

        def chosen(action: str | None) -> None:
            if not action:
                return

            def reasoned(reason: str | None) -> None:
                if reason is None:
                    return
                self._working(f"{action} {node.node_id}")
                self.engine_call(JudgeHypothesis(node.node_id, action, self.who, reason or None))

            self.app.push_screen(PromptScreen(f"{action} {node.node_id} {node.attribute} = {node.value}: reason",
                                              "", placeholder="why (recorded with your name)"), reasoned)

        self.app.push_screen(ChoiceScreen(
            f"{node.node_id} {node.attribute} = {node.value} ({node.status}, conf "
            f"{node.confidence if node.confidence is not None else '-'})",
            [("reject", "r", "Reject"), ("confirm", "c", "Confirm"), ("note", "n", "Note")]), chosen)

    def action_wrong(self, _shown: int = 0) -> None:
        """`w` on a hypothesis: mark the finding as wrong, this value or every value of its
        attribute (core.rejections.mark_wrong: recorded in the run DB for the account, so a rerun
        of `argus audit` rejects it again; removed from this run and the profile re-projected)."""
        from argus_tui.screens.modals import ChoiceScreen

        if self.busy or self.snap is None:
            self.notify("the engine is busy with a step; press p to pause an auto-run", severity="warning")
            return
        hid = self.query_one(HypothesisTable).selected_id()
        node = self.snap.nodes.get(hid or "")
        if node is None or node.kind != "hypothesis" or not node.attribute:
            self.notify("select a hypothesis in the store [3] first", severity="warning")
            return
        value = one_line(node.value or "", 40)

        def chosen(which: str | None) -> None:
            if not which:
                return
            rej_value = (node.value or "") if which == "value" else ""
            self._working(f"marking {node.attribute}{':' + value if rej_value else ''} as wrong")
            self.engine_call(MarkWrong(node.attribute or "", rej_value, self.who))

        self.app.push_screen(ChoiceScreen(
            f"mark as wrong (recorded in the run DB; a rerun of the audit keeps it): {node.attribute} = {value}",
            [("value", "v", f"This value ({one_line(node.value or '', 24)})"),
             ("attribute", "a", f"Every {node.attribute}")]), chosen)

    def action_pause(self) -> None:
        if self.session is not None and self.busy:
            self.session.pause.set()
            self.notify("pausing after the step in flight")

    # ---------------- inspect ----------------
    def action_step(self, delta: int) -> None:
        if self.mode != "inspect" or self.snap is None:
            return
        # presses faster than the loads add up (base on the step already asked for)
        base = self._pending_step if self._pending_step is not None else self.snap.step
        self.goto_step(base + delta)

    def goto_step(self, step: int) -> None:
        if self.mode == "inspect" and self.snap is not None:
            self._pending_step = max(0, min(self.snap.max_step, step))
            self.load_step(self._pending_step)

    def on_key(self, event) -> None:
        if self.mode == "inspect" and isinstance(self.focused, StepScrubber) and self.snap is not None:
            jumps = {"left": self.snap.step - 1, "right": self.snap.step + 1, "home": 0, "end": self.snap.max_step}
            if event.key in jumps:
                event.stop()
                if event.key in ("left", "right"):
                    self.action_step(-1 if event.key == "left" else 1)
                else:
                    self.goto_step(jumps[event.key])

    @on(DataTable.RowSelected, "#timeline-table")
    def _timeline_jump(self, event: DataTable.RowSelected) -> None:
        if self.mode != "inspect":
            return
        step = self.query_one(TimelinePane).selected_step()
        if step is not None:
            self.goto_step(step)

    # ---------------- navigation ----------------
    @on(HypothesisTable.Selected)
    def _hyp_selected(self, event: HypothesisTable.Selected) -> None:
        self.jump_to_node(event.node_id)

    def jump_to_node(self, node_id: str) -> None:
        if self.has_class("-small"):
            self.minimize()
            self.query_one("#left").add_class("-shown")
            self._maximize_pane(self.query_one("#left"))
        self.query_one("#left", TabbedContent).active = "tab-cpeg"
        self._show_tabs()          # bring the CPeg up to date now, so the selection below sticks
        if self.query_one(CpegPane).select_node(node_id):
            focus_now(self.query_one("#cpeg-tree", Tree))
        self.query_one(HypothesisTable).select(node_id, post=False)

    def action_focus_pane(self, pane: str) -> None:
        left = self.query_one("#left", TabbedContent)
        bottom = self.query_one("#bottom", TabbedContent)
        target = {
            "posts": "#posts-table", "cpeg": "#cpeg-tree", "hyps": "#hyp-table", "proposal": "#proposal",
            "budget": "#ledger", "profile": "#profile", "timeline": "#timeline-table",
        }[pane]
        if pane in ("posts", "cpeg"):
            left.active = f"tab-{pane}"
        if pane in ("profile", "timeline"):
            bottom.active = f"tab-{pane}"
        if self.has_class("-small"):
            container = left if pane in ("posts", "cpeg") else bottom if pane in ("profile", "timeline") else None
            self.minimize()
            if container is not None:       # small layout: the tabbed panes open full screen
                container.add_class("-shown")
                self._maximize_pane(container)
        focus_now(self.query_one(target))     # now: the keys typed next go to the pane, not the old focus

    def on_descendant_focus(self, event) -> None:
        """Mark the tabbed pane holding the focus (its tab row lights up: argus.tcss). A class on
        the pane, since Textual re-styles only the focused widget's ancestors on focus-within."""
        for tabs in self.query("#left, #bottom"):
            tabs.set_class(tabs in event.widget.ancestors, "-focused")

    SMALL = (100, 30)      # below this width or height: the stacked small layout

    def on_resize(self, event) -> None:
        small = event.size.width < self.SMALL[0] or event.size.height < self.SMALL[1]
        if small != self.has_class("-small"):
            self.minimize()
            self.set_class(small, "-small")
            self.refresh_bindings()

    # ---------------- detail views ----------------
    def action_detail(self) -> None:
        """`d`: everything about the focused row or node (timeline row, tool call, route,
        hypothesis, CPeg node, post), as of the shown step."""
        from argus_tui.screens.detail import DetailScreen, event_detail, node_full_detail, route_detail
        from argus_tui.widgets.panes import route_reason

        snap, focused = self.snap, self.focused
        if snap is None:
            return
        fid = getattr(focused, "id", None)
        title, body = None, None
        if fid == "timeline-table":
            ev = self.query_one(TimelinePane).selected_event()
            if ev is not None:
                title, body = f"{ev.kind} at step {ev.step}", event_detail(snap, ev)
        elif fid in ("hyp-table", "cpeg-tree", "posts-table"):
            node_id = {"hyp-table": lambda: self.query_one(HypothesisTable).selected_id(),
                       "cpeg-tree": lambda: (self.query_one("#cpeg-tree", Tree).cursor_node.data or ("",))[0]
                       if self.query_one("#cpeg-tree", Tree).cursor_node else None,
                       "posts-table": lambda: f"post:{self.query_one(PostsPane).selected_post_id()}"}[fid]()
            node = snap.nodes.get(node_id or "")
            if node is not None:
                title, body = f"{node.kind} {node.node_id} at step {snap.step}", node_full_detail(snap, node)
        elif fid in ("ledger", "proposal"):
            rid = self.query_one(BudgetPane).selected_route() if fid == "ledger" else (
                self.proposal.route_id if self.mode == "live" and self.proposal is not None else
                next((r.route_id for r in reversed(snap.routes) if r.step == snap.step), None))
            route = next((r for r in snap.routes if r.route_id == rid), None)
            if route is None and self.mode == "live" and self.proposal is not None and fid == "proposal":
                route = _proposal_row(self.proposal, snap.step)
            if route is not None:
                title = f"route {route.route_id} at step {snap.step}"
                body = route_detail(snap, route, self.proposal.reason if route.status == "proposed"
                                    and self.proposal is not None else route_reason(snap, route.route_id))
        elif fid == "profile":
            from argus_tui.widgets.cells import lines
            from argus_tui.widgets.panes import profile_lines

            title, body = f"profile at step {snap.step} (every evidence chain)", lines(*profile_lines(snap, None))
        if body is None:
            self.notify("focus a timeline row, hypothesis, CPeg node, post, ledger row or the profile, then press d",
                        severity="warning")
            return
        self.app.push_screen(DetailScreen(title or "detail", body))

    # ---------------- maximise ----------------
    PANES = ("#left", "#hyps", "#proposal", "#budget", "#bottom")

    def _pane_of(self, widget) -> object | None:
        """The pane (one of PANES) holding `widget`."""
        node = widget
        while node is not None and node is not self:
            if node.id and f"#{node.id}" in self.PANES:
                return node
            node = node.parent
        return None

    def action_maximize(self) -> None:
        """`z`: the focused pane fills the screen (escape restores). The pane's own width and
        height are set for the maximised view and restored after."""
        pane = self._pane_of(self.focused)
        if pane is None:
            return
        self.minimize()
        self._maximize_pane(pane)

    def _maximize_pane(self, pane) -> None:
        self._max_saved = (pane, pane.styles.width, pane.styles.height)
        pane.styles.width, pane.styles.height = "100%", "1fr"
        self.maximized = pane

    def minimize(self) -> None:
        saved = getattr(self, "_max_saved", None)
        if saved is not None:
            pane, width, height = saved
            pane.styles.width, pane.styles.height = width, height
            self._max_saved = None
        hidden_focus = False
        for tabs in self.query("#left, #bottom"):
            if tabs.has_class("-shown"):
                tabs.remove_class("-shown")
                hidden_focus |= self.focused is not None and tabs in self.focused.ancestors
        super().minimize()
        if hidden_focus:
            # small layout: the pane closes under the focus; Textual would hand it to a hidden
            # sibling (the timeline's filter line), which then took every key typed blind
            focus_now(self.query_one("#hyp-table"))

    def action_resize(self, delta: int) -> None:
        self.left_width = max(20, min(75, self.left_width + delta))
        self._apply_width()

    def action_resize_store(self, delta: int) -> None:
        self.store_height = max(15, min(70, self.store_height + delta))
        self.query_one("#hyps").styles.height = f"{self.store_height}%"

    def _apply_width(self) -> None:
        self.query_one("#left").styles.width = f"{self.left_width}%"

    def action_advice(self) -> None:
        """The Advice pane (argus_tui/widgets/advice.py) for the current run."""
        from argus_tui.widgets.advice import AdviceScreen

        if self.run_id is None:
            self.notify("no run is open yet", severity="warning")
            return
        self.app.push_screen(AdviceScreen(self.db_path, self.run_id, self.snap.run.user_dir if self.snap else None))

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())

    def on_unmount(self) -> None:
        """Leaving the screen (q, ctrl+q, SIGTERM, a new run opened): pause an auto-run and close
        the run DB with its WAL checkpointed, after the step in flight if there is one."""
        self._closing = True
        if self.session is not None:
            self.session.pause.set()
            self.session.close()
        if self._ro_db is not None:
            self._ro_db.conn.close()
