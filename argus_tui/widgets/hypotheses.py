"""Hypothesis store: attribute, value, granularity, confidence, status, evidence count;
sortable (press `s` or click a header) and filterable (type in the box: words must all
occur in the row; `status:unresolved` style keys narrow to one column)."""
from __future__ import annotations

import re

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Input
from textual.widgets.data_table import CellDoesNotExist, RowDoesNotExist

from rich.errors import StyleSyntaxError
from rich.style import Style
from argus_tui.widgets.cells import SafeText as Text  # the output boundary (core/textsafe.py)

from argus_tui.state import Snapshot, person_mark
from argus_tui.widgets.cells import FitTable, cells
from argus_tui.widgets.focus import focus_now
from core.nodes.node import EvidenceNode

COLUMNS = ("id", "attribute", "value", "gran", "conf", "status", "ev")
# minimum widths: status and evidence count stay readable in a 100x30 terminal; the rest
# share the pane by content (FitTable)
MINS = (4, 6, 6, 4, 4, 10, 2)


def row_of(h: EvidenceNode, ev: int) -> tuple:
    """A store row; the status carries a person's mark (✓ confirmed, ✗ rejected, ✎ noted)."""
    mark = person_mark(h)
    return (h.node_id, h.attribute or "", h.value or "",
            f"{h.granularity:.2f}" if h.granularity is not None else "",
            f"{h.confidence:.2f}" if h.confidence is not None else "",
            f"{h.status or ''} {mark}" if mark else h.status or "", ev)


# status -> theme colour (the theme's own variables, so ansi themes and light themes agree)
STATUS_COLOURS = {"admitted": "success", "unresolved": "warning", "suspended": "primary", "removed": "error",
                  "rejected": "error", "superseded": "error", "candidate": "foreground"}


def status_style(theme, status: str) -> str:
    name = STATUS_COLOURS.get(status.split(" ")[0])
    colour = getattr(theme, name, None) if name and theme is not None else None
    if not colour:
        return ""
    colour = str(colour).replace("ansi_", "")          # ansi themes name Rich's standard colours
    try:
        Style.parse(colour)
    except StyleSyntaxError:  # a colour Rich does not know: no colour rather than a crash
        return ""
    return f"{colour}{' strike' if status.startswith(('removed', 'rejected', 'superseded')) else ''}"


def natural(text: str) -> tuple:
    """Sort key with digit runs as numbers: h2 before h10."""
    return tuple(int(p) if p.isdigit() else p.lower() for p in re.split(r"(\d+)", text))


def matches(row: tuple, query: str) -> bool:
    for word in query.lower().split():
        if ":" in word:
            col, _, want = word.partition(":")
            if col in COLUMNS and want not in str(row[COLUMNS.index(col)]).lower():
                return False
        elif not any(word in str(v).lower() for v in row):
            return False
    return True


class HypothesisTable(Vertical):
    DEFAULT_CSS = """
    HypothesisTable > Input { height: 1; border: none; }
    HypothesisTable > DataTable { height: 1fr; }
    """
    BINDINGS = [Binding("s", "cycle_sort", "Sort", show=False), Binding("slash", "focus_filter", "Filter", show=False)]

    class Selected(Message):
        def __init__(self, node_id: str) -> None:
            super().__init__()
            self.node_id = node_id

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.snap: Snapshot | None = None
        self.sort_col = 0
        self.sort_reverse = False
        self.rows: list[tuple] = []
        self.marks: dict[str, str] = {}
        self._old_marks: dict[str, str] = {}

    def compose(self) -> ComposeResult:
        yield Input(placeholder="filter hypotheses (e.g. status:unresolved home); s on the table sorts", id="hyp-filter")
        table = FitTable(id="hyp-table", cursor_type="row", zebra_stripes=True)
        table.set_columns(COLUMNS, MINS, keys=COLUMNS, flex=2)
        yield table

    def show(self, snap: Snapshot, marks: dict[str, str] | None = None) -> None:
        """marks: node_id -> "+" (new at this step) or "~" (status/confidence changed);
        those rows are drawn highlighted."""
        self.snap = snap
        idx = snap.graph_index()
        rows = [row_of(h, snap.evidence_count(h.node_id, idx)) for h in snap.hypotheses()]
        old_marks, self.marks = self.marks, dict(marks or {})
        if rows == self.rows and self.marks == old_marks and self.query_one(DataTable).row_count:
            return
        old = {r[0]: r for r in self.rows}
        self._old_marks = old_marks
        self.rows = rows
        if not self.query_one(DataTable).row_count or not self._patch(old):
            self._refill()
        self.query_one(FitTable).fit(rows)
        marked = [r[0] for r in self.visible_rows() if self.marks.get(r[0]) == "+"] or [
            r[0] for r in self.visible_rows() if r[0] in self.marks]
        if marked:
            self.call_after_refresh(self.reveal, marked[0])

    def reveal(self, node_id: str) -> None:
        """Scroll the store so the row is on screen (new and changed rows; the cursor stays)."""
        from textual.geometry import Region

        table = self.query_one(DataTable)
        try:
            idx = table.get_row_index(node_id)
        except RowDoesNotExist:  # filtered out meanwhile
            return
        row = table._get_row_region(idx)
        table.scroll_to_region(Region(int(table.scroll_x), row.y, max(1, row.width), row.height), animate=False,
                               spacing=table._get_fixed_offset(), force=True, immediate=True)

    def row_visible(self, node_id: str) -> bool:
        table = self.query_one(DataTable)
        try:
            idx = table.get_row_index(node_id)
        except RowDoesNotExist:
            return False
        y = table._get_row_region(idx).y - int(table.scroll_y)
        return table.header_height <= y < table.scrollable_content_region.height

    def _patch(self, old: dict[str, tuple]) -> bool:
        """Between two steps most rows stay put: keep the common leading rows (updating
        changed cells), drop the rest and append the new tail. A full refill would re-measure
        every cell of every row."""
        table = self.query_one(DataTable)
        visible = self.visible_rows()
        keys = [str(table.coordinate_to_cell_key((i, 0)).row_key.value) for i in range(table.row_count)]
        new_keys = [r[0] for r in visible]
        common = 0
        while common < min(len(keys), len(new_keys)) and keys[common] == new_keys[common]:
            common += 1
        if common == 0 and keys:
            return False
        for k in keys[common:]:
            table.remove_row(k)
        for r in visible[:common]:
            if old.get(r[0]) != r or self._old_marks.get(r[0]) != self.marks.get(r[0]):
                for c, text in enumerate(self.row_cells(r)):
                    table.update_cell(r[0], COLUMNS[c], text)
        for r in visible[common:]:
            table.add_row(*self.row_cells(r), key=r[0])
        return True

    def row_cells(self, r: tuple) -> list[Text]:
        out = cells(*r)
        style = status_style(getattr(self.app, "current_theme", None), str(r[5]))
        if style:
            out[5].stylize(style)
        mark = self.marks.get(r[0])
        if mark:
            out[0] = Text(f"{mark}{r[0]}", no_wrap=True, overflow="ellipsis")
            for t in out:
                t.stylize("bold reverse")
        return out

    def visible_rows(self) -> list[tuple]:
        q = self.query_one("#hyp-filter", Input).value
        rows = [r for r in self.rows if matches(r, q)]
        key = self.sort_col

        def sort_key(r: tuple):
            v = r[key]
            try:
                return (0, float(v), ())
            except (TypeError, ValueError):
                return (1, 0.0, natural(str(v)))
        return sorted(rows, key=sort_key, reverse=self.sort_reverse)

    def _refill(self) -> None:
        table = self.query_one(DataTable)
        keep = self.selected_id()
        table.clear()
        for r in self.visible_rows():
            table.add_row(*self.row_cells(r), key=r[0])
        if keep:
            self.select(keep, post=False)
        arrow = " ▼" if self.sort_reverse else " ▲"
        for i, c in enumerate(COLUMNS):
            table.columns[c].label = c + (arrow if i == self.sort_col else "")  # type: ignore[assignment]
        table.refresh()

    def selected_id(self) -> str | None:
        table = self.query_one(DataTable)
        if table.row_count == 0:
            return None
        try:
            return str(table.coordinate_to_cell_key((table.cursor_row, 0)).row_key.value)
        except CellDoesNotExist:  # cursor past the end after a refill
            return None

    def select(self, node_id: str, post: bool = True) -> bool:
        table = self.query_one(DataTable)
        try:
            idx = table.get_row_index(node_id)
        except RowDoesNotExist:  # filtered out or unknown
            return False
        table.move_cursor(row=idx)
        if post:
            self.post_message(self.Selected(node_id))
        return True

    def action_cycle_sort(self) -> None:
        if self.sort_reverse:
            self.sort_col = (self.sort_col + 1) % len(COLUMNS)
        self.sort_reverse = not self.sort_reverse
        self._refill()

    def action_focus_filter(self) -> None:
        focus_now(self.query_one(Input))

    @on(DataTable.HeaderSelected)
    def _header(self, event: DataTable.HeaderSelected) -> None:
        event.stop()
        if event.column_index == self.sort_col:
            self.sort_reverse = not self.sort_reverse
        else:
            self.sort_col, self.sort_reverse = event.column_index, False
        self._refill()

    @on(Input.Submitted, "#hyp-filter")
    def _filter_done(self, event: Input.Submitted) -> None:
        event.stop()
        focus_now(self.query_one(DataTable))

    @on(Input.Changed, "#hyp-filter")
    def _filter(self, event: Input.Changed) -> None:
        event.stop()
        self._refill()

    @on(DataTable.RowSelected)
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.post_message(self.Selected(str(event.row_key.value)))
