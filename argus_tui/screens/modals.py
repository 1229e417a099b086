"""Modal dialogs: edit a route's parameters, ask for N auto steps, and the help screen."""
from __future__ import annotations

import json
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Markdown


def parse_value(text: str) -> Any:
    """A parameter typed by a person: JSON when it parses (numbers, lists, boxes), else text."""
    text = text.strip()
    try:
        return json.loads(text)
    except ValueError:
        return text


class RouteEditScreen(ModalScreen[dict | None]):
    """Edit (or set up a rerun of) a route: one field per parameter, plus one new key=value
    line and a reason. Dismisses with {"params": {...}, "reason": str} or None."""

    DEFAULT_CSS = """
    RouteEditScreen { align: center middle; }
    RouteEditScreen > Vertical { width: 80; height: auto; max-height: 90%; border: thick $primary; background: $surface; padding: 1 2; }
    RouteEditScreen Input { margin-bottom: 1; }
    RouteEditScreen Horizontal { height: auto; }
    RouteEditScreen VerticalScroll { height: auto; max-height: 26; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, params: dict[str, Any]) -> None:
        super().__init__()
        self.title_text = title
        self.params = dict(params)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(f"[b]{self.title_text}[/b]")
            with VerticalScroll():
                for i, (k, v) in enumerate(self.params.items()):
                    yield Label(k)
                    yield Input(json.dumps(v, ensure_ascii=False) if not isinstance(v, str) else v,
                                id=f"param-{i}")
                yield Label("add parameter (key=value)")
                yield Input(placeholder="e.g. zoom=3 or box=[10,10,200,80]", id="param-new")
                yield Label("reason (recorded with the decision)")
                yield Input(id="reason")
            with Horizontal():
                yield Button("Save", variant="primary", id="save")
                yield Button("Cancel", id="cancel")

    def result(self) -> dict:
        params: dict[str, Any] = {}
        for i, k in enumerate(self.params):
            params[k] = parse_value(self.query_one(f"#param-{i}", Input).value)
        extra = self.query_one("#param-new", Input).value
        if "=" in extra:
            k, _, v = extra.partition("=")
            if k.strip():
                params[k.strip()] = parse_value(v)
        return {"params": params, "reason": self.query_one("#reason", Input).value.strip() or None}

    @on(Button.Pressed, "#save")
    def _save(self) -> None:
        self.dismiss(self.result())

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.dismiss(self.result())

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


class AutoRunScreen(ModalScreen[int | None]):
    DEFAULT_CSS = """
    AutoRunScreen { align: center middle; }
    AutoRunScreen > Vertical { width: 50; height: auto; border: thick $primary; background: $surface; padding: 1 2; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("Auto-run how many steps? (policy approves; press p to pause)")
            yield Input("5", id="steps", type="integer")

    @on(Input.Submitted)
    def _ok(self, event: Input.Submitted) -> None:
        try:
            n = int(event.value)
        except ValueError:
            self.notify("a whole number of steps, please", severity="error")
            return
        self.dismiss(max(1, min(n, 1000)))

    def action_cancel(self) -> None:
        self.dismiss(None)


HELP = """\
# Argus console — keys

| key | does |
|---|---|
| `a` | approve the proposed route (runs it, charges the budget) |
| `x` | skip it (the hypothesis stays unresolved/suspended) |
| `e` | edit the route's parameters (crop box, zoom, query…) then run it |
| `r` | rerun a route already run (the one selected in the budget ledger, or the last) with new parameters |
| `g` | auto-run N steps with the policy approver |
| `p` | pause an auto-run after the step in flight |
| `1`–`7` | focus posts, CPeg, hypotheses, route, budget, profile, timeline |
| `8` | advice: edits to the posts that would lower what they reveal |
| `+` / `-` | widen / narrow the left column |
| `>` / `<` | taller / shorter hypothesis store |
| `z` | maximise the focused pane (`escape` restores) |
| `[` / `]` | inspect: previous / next step (also ←/→ on the step bar) |
| `enter` on a timeline row | inspect: jump to that step |
| `s` | sort the hypothesis store by the next column; `/` filters it |
| `ctrl+p` | command palette: open run, jump to hypothesis, export profile |
| `?` | this help; `q` quits (a live run continues from its DB next time) |

Every decision is recorded with who made it (`person:<you>` or `policy:<name>`) and shows in the timeline.
"""


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 90; height: 80%; border: thick $primary; background: $surface; padding: 0 1; }
    """
    BINDINGS = [Binding("escape,q,question_mark", "close", "Close")]

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Markdown(HELP)

    def action_close(self) -> None:
        self.dismiss(None)
