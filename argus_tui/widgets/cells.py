"""Text built from data without Rich markup parsing. Post text such as "[/]" or
"[link=...]" must show literally and never restyle or break a pane (post content is data):
DataTable cells, tree labels and detail panes are assembled from (text, style) parts.

FitTable: a DataTable whose columns share the pane's width by content (narrow columns keep
their natural width, wide ones are cut to a common cap, with an ellipsis)."""
from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.text import Text
from rich.highlighter import Highlighter
from textual.widgets import DataTable, Input

from core.textsafe import glyphs, printable


# U+FE0F asks for the emoji (two-cell) presentation: terminals draw "✏️" two cells wide where
# Rich counts one, so a cell at a pane's edge lands in the scrollbar column. Without it the
# character is drawn in its text presentation, one cell, as Rich counts it.
_VS16 = "\ufe0f"


def safe(value: object) -> str:
    """Data as shown: control, bidi and invisible format characters as visible escapes
    (core/textsafe.py, the output boundary), line breaks kept for the layout to decide."""
    return printable(value, lines=True).replace(_VS16, "")


class SafeText(Text):
    """A rich Text whose strings pass the output boundary (safe()): the console's screens build
    their Text from this class (`from argus_tui.widgets.cells import SafeText as Text`), so a
    caption, tag or nickname holding ESC ] 52 or U+009B is drawn as `\\x1b]52` and `\\x9b`."""

    __slots__ = ()

    def __init__(self, text: str = "", *args: object, **kw: object) -> None:
        super().__init__(safe(text) if text else text, *args, **kw)  # type: ignore[arg-type]

    def append(self, text: "Text | str", style: object = None) -> "Text":  # type: ignore[override]
        return super().append(safe(text) if isinstance(text, str) else text, style)  # type: ignore[arg-type]


class _VisibleControls(Highlighter):
    """Shows each control, bidi or format character of an Input's value as one visible glyph
    (core/textsafe.py glyphs: same length, so the cursor and selection stay right)."""

    def highlight(self, text: Text) -> None:
        shown = glyphs(text.plain)
        if shown != text.plain:
            text.plain = shown


class SafeInput(Input):
    """An Input whose value (a path, a route parameter from a post) is drawn through the output
    boundary; what is typed and submitted is unchanged."""

    def __init__(self, *args: object, **kw: object) -> None:
        kw.setdefault("highlighter", _VisibleControls())
        super().__init__(*args, **kw)  # type: ignore[arg-type]


def cells(*values: object) -> list[Text]:
    return [SafeText(str(v), no_wrap=True, overflow="ellipsis") for v in values]


def one_line(value: object, limit: int | None = None) -> str:
    """One line of text: line breaks (real ones and a literal backslash-n in the data) shown as
    ⏎, cut with an ellipsis at `limit` characters."""
    text = " ⏎ ".join(t.strip() for t in safe(value).replace("\\n", "\n").splitlines() if t.strip())
    return text if limit is None or len(text) <= limit else text[: limit - 1] + "…"


def lines(*rows: Text) -> Text:
    return SafeText("\n").join(rows)


def fit_widths(available: int, naturals: Sequence[int], mins: Sequence[int], flex: int | None = None) -> list[int]:
    """Column widths summing to at most `available` (when the minimums allow): a column
    keeps its natural width if it fits; otherwise the widest columns are cut to one common
    cap (water-filling), never below their minimum. Spare room goes to the `flex` column
    (default: the widest)."""
    nat = [max(n, m) for n, m in zip(naturals, mins)]
    if sum(nat) <= available:
        out = list(nat)
        if out:
            grow = flex if flex is not None else max(range(len(out)), key=lambda i: nat[i])
            out[grow] += available - sum(out)
        return out
    lo, hi = 0, max(nat)
    while lo < hi:          # the largest cap whose widths still fit
        cap = (lo + hi + 1) // 2
        if sum(max(m, min(n, cap)) for n, m in zip(nat, mins)) <= available:
            lo = cap
        else:
            hi = cap - 1
    return [max(m, min(n, lo)) for n, m in zip(nat, mins)]


class FitTable(DataTable):
    """Call `set_columns(labels, mins)` once and `fit(rows)` after filling (rows as shown);
    widths are recomputed when the pane resizes."""

    def __init__(self, *args, **kw) -> None:
        super().__init__(*args, **kw)
        self._labels: list[str] = []
        self._mins: list[int] = []
        self._naturals: list[int] = []
        self._flex: int | None = None

    def set_columns(self, labels: Sequence[str], mins: Sequence[int], keys: Sequence[str] | None = None,
                    flex: int | None = None) -> None:
        """flex: the column that takes the spare width (e.g. a value or detail column)."""
        self._labels, self._mins, self._flex = list(labels), list(mins), flex
        self._naturals = [cell_len(lb) for lb in labels]
        for i, (label, width) in enumerate(zip(labels, mins)):
            self.add_column(label, width=width, key=keys[i] if keys else None)

    def fit(self, rows: Sequence[Sequence[object]], reset: bool = True) -> None:
        nat = [cell_len(lb) for lb in self._labels] if reset else list(self._naturals)
        for row in rows:
            for i, v in enumerate(row[: len(nat)]):
                w = cell_len(str(v))
                if w > nat[i]:
                    nat[i] = w
        self._naturals = nat
        self._apply()

    def _apply(self) -> None:
        width = self.scrollable_content_region.width or self.size.width
        if width <= 0 or not self._naturals:
            return
        pad = 2 * self.cell_padding * len(self._naturals)
        widths = fit_widths(max(0, width - pad - 1), self._naturals, self._mins, self._flex)
        changed = False
        for col, w in zip(self.ordered_columns, widths):
            if col.width != w or col.auto_width:
                col.width, col.auto_width, changed = w, False, True
        if changed:
            self._require_update_dimensions = True
            self._clear_caches()
            self.refresh()

    def on_resize(self) -> None:
        self._apply()
