"""Text built from data without Rich markup parsing. Post text such as "[/]" or
"[link=...]" must show literally and never restyle or break a pane (post content is data):
DataTable cells, tree labels and detail panes are assembled from (text, style) parts."""
from __future__ import annotations

from rich.text import Text


def cells(*values: object) -> list[Text]:
    return [Text(str(v), no_wrap=True, overflow="ellipsis") for v in values]


def one_line(value: object, limit: int | None = None) -> str:
    text = " / ".join(t for t in str(value).splitlines() if t.strip())
    return text if limit is None or len(text) <= limit else text[: limit - 1] + "…"


def lines(*rows: Text) -> Text:
    return Text("\n").join(rows)
