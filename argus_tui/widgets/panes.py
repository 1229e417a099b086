"""Smaller panes: budget and ledger, route proposal, profile, timeline, step scrubber."""
from __future__ import annotations

import json

from rich.markup import escape
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import DataTable, Input, Static

from argus_tui.state import RouteRow, Snapshot, provenance_chain


class BudgetPane(Vertical):
    DEFAULT_CSS = """
    BudgetPane > #budget-summary { height: 2; }
    BudgetPane > DataTable { height: 1fr; }
    """

    def compose(self) -> ComposeResult:
        yield Static("", id="budget-summary")
        table: DataTable = DataTable(id="ledger", cursor_type="row")
        for label, width in (("step", 4), ("route", 6), ("family", 9), ("units", 5), ("left", 5)):
            table.add_column(label, width=width)
        yield table

    def show(self, snap: Snapshot) -> None:
        total = snap.run.budget or 0.0
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
            table.add_row(str(r.step), r.route_id or "", r.family, f"{r.units:g}", f"{r.remaining:g}",
                          key=f"{i}:{r.route_id}")
        if snap.ledger:
            table.move_cursor(row=len(snap.ledger) - 1)

    def selected_route(self) -> str | None:
        table = self.query_one(DataTable)
        if table.row_count == 0:
            return None
        return str(table.get_row_at(table.cursor_row)[1]) or None


def format_route(r: RouteRow | None, snap: Snapshot | None, proposal: dict | None = None) -> str:
    """The route proposal card: hypothesis, tool, target, expected evidence, cost."""
    if proposal is not None:
        family, tool, params = proposal.get("family"), proposal.get("tool"), proposal.get("params") or {}
        cost, expected, hid = proposal.get("cost"), proposal.get("expected"), proposal.get("hypothesis_id")
        reason, status, by, rid = proposal.get("reason") or "", "proposed", None, proposal.get("route_id")
    elif r is not None:
        family, tool, params, cost, expected, hid = r.family, r.tool, r.params, r.cost, r.expected, r.hypothesis_id
        reason, status, by, rid = r.decision_reason or "", r.status, r.decided_by, r.route_id
    else:
        return "[dim]no route proposed[/dim]"
    lines = [f"[b]route {escape(str(rid or '-'))}[/b]  status: [b]{escape(str(status))}[/b]"
             + (f"  by {escape(by)}" if by else "")]
    if hid and snap is not None and hid in snap.nodes:
        h = snap.nodes[hid]
        lines.append(f"hypothesis: {escape(hid)} {escape(h.attribute or '')} = {escape(h.value or '')} "
                     f"({escape(h.status or '')})")
    elif hid:
        lines.append(f"hypothesis: {escape(str(hid))}")
    lines.append(f"tool: [b]{escape(str(tool or family))}[/b] ({escape(str(family))})   cost: {cost}")
    if params:
        lines.append("target: " + escape(json.dumps(params, ensure_ascii=False, sort_keys=True)[:200]))
    if expected:
        lines.append(f"expected: {escape(str(expected))}")
    if reason:
        lines.append(f"why: {escape(str(reason))}")
    return "\n".join(lines)


class ProposalPane(VerticalScroll):
    def compose(self) -> ComposeResult:
        yield Static("", id="proposal-card")
        yield Static("", id="proposal-status")

    def show_route(self, text: str, status: str = "") -> None:
        self.query_one("#proposal-card", Static).update(text)
        self.query_one("#proposal-status", Static).update(status)


class ProfilePane(VerticalScroll):
    def compose(self) -> ComposeResult:
        yield Static("", id="profile-body")

    def show(self, snap: Snapshot) -> None:
        if not snap.profile:
            self.query_one(Static).update("[dim]no attributes projected yet[/dim]")
            return
        lines: list[str] = []
        idx = snap.graph_index()
        for p in snap.profile:
            conf = f"{p.confidence:.2f}" if p.confidence is not None else "-"
            lines.append(f"[b]{escape(p.attribute)}[/b] = {escape(p.value)}  conf {conf}"
                         + (f"  sens {p.sensitivity}" if p.sensitivity else "") + f"  (step {p.step})")
            for eid in p.evidence[:6]:
                chain = provenance_chain(snap, str(eid), limit=4, idx=idx)
                if not chain:
                    lines.append(f"   ↳ {escape(str(eid))} [dim](not in graph yet)[/dim]")
                    continue
                lines.append("   ↳ " + " ← ".join(
                    escape(f"{c.node_id}{' [derived]' if c.derived else ''}: "
                           f"{' / '.join((c.content or c.value or '').splitlines())[:40]}")
                    for c in chain))
        self.query_one(Static).update("\n".join(lines))


class TimelinePane(Vertical):
    """Every event, model call and tool call up to the current step; the filter box takes
    words (all must match) such as `tool:`, `decision`, `person:`."""

    DEFAULT_CSS = """
    TimelinePane > Input { height: 1; border: none; }
    TimelinePane > DataTable { height: 1fr; }
    """

    MAX_ROWS = 200

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.snap: Snapshot | None = None

    def compose(self) -> ComposeResult:
        yield Input(placeholder="filter timeline (e.g. decision person:, tool:ocr)", id="timeline-filter")
        table: DataTable = DataTable(id="timeline-table", cursor_type="row", zebra_stripes=True)
        for label, width in (("step", 4), ("kind", 16), ("detail", 150)):
            table.add_column(label, width=width)
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
            detail = json.dumps(ev.data, ensure_ascii=False, sort_keys=True, default=str)
            text = f"{ev.step} {ev.kind} {detail}".lower()
            if all(w in text for w in q):
                rows.append((str(ev.step), ev.kind, detail[:160], f"{ev.source}:{ev.id}:{i}"))
        sig = (len(rows), rows[-1][3] if rows else None, tuple(q))
        if sig == getattr(self, "_sig", None):
            return
        self._sig = sig
        table.clear()
        shown = rows[-self.MAX_ROWS:]     # the newest; the filter reaches older ones
        if len(rows) > len(shown):
            table.add_row("", "…", f"{len(rows) - len(shown)} older rows hidden: type a filter to narrow",
                          key="#more")
        for step, kind, detail, key in shown:
            table.add_row(step, kind, detail, key=key)
        if table.row_count:
            table.move_cursor(row=table.row_count - 1)

    def selected_step(self) -> int | None:
        table = self.query_one(DataTable)
        if table.row_count == 0:
            return None
        value = table.get_row_at(table.cursor_row)[0]
        return int(value) if str(value).isdigit() else None

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
