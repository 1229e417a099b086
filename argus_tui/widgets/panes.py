"""Smaller panes: budget and ledger, route proposal, profile, timeline, step scrubber."""
from __future__ import annotations

import json

from argus_tui.widgets.cells import SafeText as Text  # the output boundary (core/textsafe.py)
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import DataTable, Input, Static

from argus_tui.state import EventRow, RouteRow, Snapshot, provenance_chain
from core.engine.events import RouteProposed
from argus_tui.widgets.cells import FitTable, cells, lines, one_line
from argus_tui.widgets.focus import focus_now


class BudgetPane(Vertical):
    DEFAULT_CSS = """
    BudgetPane > #budget-summary { height: 2; }
    BudgetPane > DataTable { height: 1fr; }
    """

    def compose(self) -> ComposeResult:
        yield Static("", id="budget-summary")
        # `left` must stay readable in a narrow pane: route and family share one column
        table = FitTable(id="ledger", cursor_type="row")
        table.set_columns(("st", "route", "cost", "left"), (2, 4, 3, 4), flex=1)
        yield table

    def show(self, snap: Snapshot) -> None:
        total = snap.budget or 0.0
        left = snap.remaining
        width = 20
        filled = int(round(width * (left / total))) if total > 0 else 0
        bar = "█" * max(0, min(width, filled)) + "░" * max(0, width - filled)
        self.query_one("#budget-summary", Static).update(
            f"[b]remaining {left:g} / {total:g}[/b] units\n{bar}")
        table = self.query_one(DataTable)
        sig = [(r.step, r.route_id, r.units) for r in snap.ledger]
        old = getattr(self, "_sig", None) or []
        if sig == old:
            return
        self._sig = sig
        # the ledger only grows: keep the common head, re-add the tail (no full re-measure)
        common = 0
        while common < min(len(old), len(sig)) and old[common] == sig[common]:
            common += 1
        if common < table.row_count:
            for i in range(table.row_count - 1, common - 1, -1):
                table.remove_row(table.coordinate_to_cell_key((i, 0)).row_key)
        for i, r in enumerate(snap.ledger[common:], common):
            table.add_row(*cells(*ledger_row(r)), key=f"{i}:{r.route_id}")
        table.fit([ledger_row(r) for r in snap.ledger])
        if snap.ledger:
            table.move_cursor(row=len(snap.ledger) - 1)

    def selected_route(self) -> str | None:
        table = self.query_one(DataTable)
        if table.row_count == 0:
            return None
        return str(table.get_row_at(table.cursor_row)[1]).split(" ")[0] or None


def ledger_row(r) -> tuple[str, ...]:
    return (str(r.step), f"{r.route_id or '-'} {r.family}", f"{r.units:g}", f"{r.remaining:g}")


def format_route(r: RouteRow | None, snap: Snapshot | None, proposal: dict | None = None) -> Text:
    """The route proposal card: hypothesis, tool, target, expected evidence, cost, and why the
    engine proposes it, from the proposal's typed fields (signal, gain, about)."""
    if proposal is not None:
        family, tool, params = proposal.get("family"), proposal.get("tool"), proposal.get("params") or {}
        cost, expected, hid = proposal.get("cost"), proposal.get("expected"), proposal.get("hypothesis_id")
        status, by, rid = "proposed", None, proposal.get("route_id")
        why = proposal if proposal.get("signal") or proposal.get("about") else route_why(snap, rid) or proposal
    elif r is not None:
        family, tool, params, cost, expected, hid = r.family, r.tool, r.params, r.cost, r.expected, r.hypothesis_id
        status, by, rid = r.status, r.decided_by, r.route_id
        why = route_why(snap, r.route_id) or {}
    else:
        return Text("no route proposed", style="dim")
    head = Text.assemble((f"route {rid or '-'}", "bold"), " ", (str(tool or family), "bold"),
                         f" ({family})" if tool and tool != family else "", f"  cost {cost:g}" if isinstance(
                             cost, (int, float)) else f"  cost {cost}", "  ", (str(status), "bold"),
                         f" by {by}" if by else "")
    rows = [head]
    if proposal is not None and proposal.get("asks"):      # an approval rule escalated it to the person
        rows.append(Text.assemble(("asks ", "bold yellow"), one_line(proposal["asks"])))
    if hid and snap is not None and hid in snap.nodes:
        h = snap.nodes[hid]
        conf = f", {h.confidence:.2f}" if h.confidence is not None else ""
        rows.append(Text.assemble(("for ", "bold"), f"{hid} {h.attribute or ''} = {one_line(h.value or '')} "
                                  f"({h.status or ''}{conf})"))
    elif hid:
        rows.append(Text.assemble(("for ", "bold"), str(hid)))
    else:       # a route no hypothesis asked for: say so, and what it may bear on
        rows.append(Text.assemble(("for ", "bold"), "exploration — ", why.get("about") or "no hypothesis asked for it"))
    reason = why_text(why)
    if reason:
        rows.append(Text.assemble(("why ", "bold"), one_line(reason)))
    if expected:
        rows.append(Text.assemble(("expects ", "bold"), one_line(expected)))
    if params:
        rows.append(Text.assemble(("target ", "bold"), json.dumps(params, ensure_ascii=False, sort_keys=True)))
    if r is not None and r.decision_reason:
        rows.append(Text.assemble(("decided ", "bold"), f"{r.status} by {by}: ", one_line(r.decision_reason)))
    return lines(*rows)


def why_text(why: dict) -> str:
    """The card's "why": the signal that made the route score and its gain (typed fields of the
    proposal); a route without them (forced, picked, a run from before they existed) shows its
    reason whole. Never parsed out of the sentence: signals hold parentheses of their own."""
    signal, gain = why.get("signal") or "", why.get("gain")
    if not signal:
        return str(why.get("reason") or "")
    return signal + (f" (gain {gain:.2f})" if isinstance(gain, (int, float)) else "")


def route_why(snap: Snapshot | None, route_id: str | None) -> dict | None:
    """The route's route_proposed event (reason, signal, gain, about), as a dict."""
    for ev in reversed(snap.timeline if snap else []):
        e = ev.event()
        if isinstance(e, RouteProposed) and e.route_id == route_id:
            return e.model_dump(include={"reason", "signal", "gain", "about"})
    return None


def route_reason(snap: Snapshot | None, route_id: str | None) -> str:
    """Why the engine proposed a route (its route_proposed event's sentence, whole)."""
    return str((route_why(snap, route_id) or {}).get("reason") or "")


class ProposalPane(VerticalScroll):
    def compose(self) -> ComposeResult:
        yield Static("", id="proposal-card")
        yield Static("", id="proposal-status")

    def show_route(self, text: str | Text, status: str = "", keys: str = "") -> None:
        """The card wraps (nothing is cut); the key hints sit on the border, always visible."""
        self.query_one("#proposal-card", Static).update(text)
        self.query_one("#proposal-status", Static).update(status)
        self.border_subtitle = keys


def evidence_line(snap: Snapshot, eid: str, idx=None) -> Text:
    """One evidence chain of a profile attribute: evidence ← what it rests on ← post."""
    chain = provenance_chain(snap, str(eid), limit=4, idx=idx)
    if not chain:
        return Text.assemble(f"   ↳ {eid} ", ("(not in graph yet)", "dim"))
    return Text("   ↳ " + " ← ".join(
        f"{c.node_id}{' [derived]' if c.derived else ''}: {one_line(c.content or c.value or '', 40)}" for c in chain))


def profile_lines(snap: Snapshot, limit: int | None = 6) -> list[Text]:
    """The profile with its evidence chains, `limit` per attribute and "+N more" for the rest
    (None: all of them, for the detail view)."""
    rows: list[Text] = []
    idx = snap.graph_index()
    for p in snap.profile:
        conf = f"{p.confidence:.2f}" if p.confidence is not None else "-"
        rows.append(Text.assemble((p.attribute, "bold"), f" = {one_line(p.value)}  conf {conf}"
                                  + (f"  sens {p.sensitivity}" if p.sensitivity else "") + f"  (step {p.step})"))
        shown = p.evidence if limit is None else p.evidence[:limit]
        rows += [evidence_line(snap, eid, idx) for eid in shown]
        if len(p.evidence) > len(shown):
            rows.append(Text(f"   +{len(p.evidence) - len(shown)} more (d: all of them)", style="italic"))
    return rows


class ProfilePane(VerticalScroll):
    def compose(self) -> ComposeResult:
        yield Static("", id="profile-body")

    def show(self, snap: Snapshot) -> None:
        if not snap.profile:
            self.query_one(Static).update("[dim]no attributes projected yet[/dim]")
            return
        self.query_one(Static).update(lines(*profile_lines(snap)))


def _brief(value: object, limit: int = 40) -> str:
    if isinstance(value, dict):
        return f"{len(value)} fields"
    if isinstance(value, list):
        return ", ".join(map(str, value)) if len(value) <= 4 and all(
            isinstance(v, (int, float, str)) for v in value) else f"{len(value)} items"
    return one_line(value, limit)


def readable(data: dict, skip: tuple[str, ...] = ()) -> str:
    """`key value` pairs of an event's data, nested values summarised (the JSON is whole in the
    detail view, `d`)."""
    return ", ".join(f"{k} {_brief(v)}" for k, v in sorted(data.items())
                     if k not in skip and v not in (None, "", [], {}))


def summarize(kind: str, data: dict) -> str:
    """One readable line for the timeline: who and what first, then the rest of the data."""
    def reason() -> str:
        return f" ({one_line(data['reason'], 60)})" if data.get("reason") else ""

    if kind == "decision":
        return f"{data.get('action')} by {data.get('by')} route {data.get('route_id')}{reason()}"
    if kind == "tool_call":
        return (f"{data.get('route_id')} {data.get('family')} cost {data.get('cost')} "
                f"→ {len(data.get('evidence') or [])} evidence")
    if kind == "hypothesis_action":
        return (f"{data.get('action')} {data.get('node_id')} {data.get('attribute')}={one_line(data.get('value'), 40)}"
                f" by {data.get('by')}{reason()}")
    if kind == "run_finished":
        return f"stopped: {data.get('reason')}"
    if kind == "budget_extended":
        return f"budget +{data.get('units')} by {data.get('by')} (remaining {data.get('remaining')})"
    if kind == "reopened":
        return f"reopened by {data.get('by')}"
    if kind == "route_proposed":
        hid = data.get("hypothesis_id")
        return (f"{data.get('route_id')} {data.get('family')} " + (f"for {hid}" if hid else "exploration")
                + f" cost {data.get('cost')}" if data.get("cost") is not None else
                f"{data.get('route_id')} {data.get('family')} " + (f"for {hid}" if hid else "exploration"))
    if kind == "suspension":
        return "; ".join(f"{what} {', '.join(sorted(data[what]))}" for what in ("suspended", "woken") if data.get(what))
    if kind.startswith("tool:"):
        out = data.get("outputs")
        found = f"{len(out['lines'])} lines" if isinstance(out, dict) and isinstance(out.get("lines"), list) else ""
        return ", ".join(x for x in (f"route {data.get('route_id') or '-'}", readable(data.get("inputs") or {}),
                                     found, f"error {one_line(data['error'], 60)}" if data.get("error") else "",
                                     f"{data.get('duration_ms')} ms" if data.get("duration_ms") is not None else "",
                                     "cached" if data.get("cached") else "") if x)
    if kind.startswith("model:"):
        return readable(data, skip=("parsed",))
    return readable(data)


class TimelinePane(Vertical):
    """Every event, model call and tool call up to the current step; the filter box takes
    words (all must match) such as `tool:`, `decision`, `person:`."""

    DEFAULT_CSS = """
    TimelinePane > Input { height: 1; border: none; }
    TimelinePane > DataTable { height: 1fr; }
    """

    MAX_ROWS = 200
    BINDINGS = [Binding("slash", "focus_filter", "Filter", show=False)]

    def action_focus_filter(self) -> None:
        focus_now(self.query_one(Input))

    @on(Input.Submitted, "#timeline-filter")
    def _filter_done(self, event: Input.Submitted) -> None:
        event.stop()
        focus_now(self.query_one(DataTable))

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.snap: Snapshot | None = None

    def compose(self) -> ComposeResult:
        yield Input(placeholder="filter timeline (e.g. decision person:, tool:ocr)", id="timeline-filter")
        table = FitTable(id="timeline-table", cursor_type="row", zebra_stripes=True)
        table.set_columns(("step", "kind", "detail"), (4, 8, 10), flex=2)
        yield table

    def show(self, snap: Snapshot) -> None:
        self.snap = snap
        self._refill()

    def _refill(self) -> None:
        if self.snap is None:
            return
        q = self.query_one(Input).value.lower().split()
        table = self.query_one(DataTable)
        rows = []
        for i, ev in enumerate(self.snap.timeline):
            detail = summarize(ev.kind, ev.data)
            raw = json.dumps(ev.data, ensure_ascii=False, sort_keys=True, default=str)
            text = f"{ev.step} {ev.kind} {detail} {raw}".lower()      # the filter also reaches the data
            if all(w in text for w in q):
                rows.append((str(ev.step), ev.kind, one_line(detail, 400), f"{ev.source}:{ev.id}:{i}"))
        sig = (len(rows), rows[-1][3] if rows else None, tuple(q))
        if sig == getattr(self, "_sig", None):
            return
        self._sig = sig
        table.clear()
        shown = rows[-self.MAX_ROWS:]     # the newest; the filter reaches older ones
        if len(rows) > len(shown):
            table.add_row(*cells("", "…", f"{len(rows) - len(shown)} older rows hidden: type a filter to narrow"),
                          key="#more")
        for step, kind, detail, key in shown:
            table.add_row(*cells(step, kind, detail), key=key)
        table.fit([r[:3] for r in shown])
        if table.row_count:
            table.move_cursor(row=table.row_count - 1)

    def selected_event(self) -> EventRow | None:
        table = self.query_one(DataTable)
        if self.snap is None or table.row_count == 0:
            return None
        key = str(table.coordinate_to_cell_key((table.cursor_row, 0)).row_key.value)
        idx = key.rsplit(":", 1)[-1]
        return self.snap.timeline[int(idx)] if idx.isdigit() and int(idx) < len(self.snap.timeline) else None

    def selected_step(self) -> int | None:
        table = self.query_one(DataTable)
        if table.row_count == 0:
            return None
        value = table.get_row_at(table.cursor_row)[0]
        return int(str(value)) if str(value).isdigit() else None

    @on(Input.Changed, "#timeline-filter")
    def _filter(self, event: Input.Changed) -> None:
        event.stop()
        self._refill()


class StepScrubber(Static):
    """A one-line bar: the step shown among all steps of the run (inspect mode)."""

    def show(self, step: int, top: int) -> None:
        width = 50
        pos = int(width * step / top) if top else width
        bar = "━" * pos + "●" + "─" * (width - pos)
        self.update(f" step [b]{step}[/b] / {top}  {bar}  [dim]←/→ step  home/end  enter on timeline: jump[/dim]")
