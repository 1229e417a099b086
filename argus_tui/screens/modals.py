"""Modal dialogs: edit a route's parameters, ask for N auto steps, and the help screen."""
from __future__ import annotations

import json
from typing import Any

from rich.text import Text
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
    RouteEditScreen > Vertical { width: 90; max-width: 98%; height: auto; max-height: 95%; border: thick $primary;
                                 background: $surface; padding: 0 1; }
    RouteEditScreen .field { height: 1; margin-bottom: 1; }
    RouteEditScreen .field Label { width: 14; }
    RouteEditScreen Input { height: 1; border: none; padding: 0 1; width: 1fr; background: $boost; }
    RouteEditScreen Input:focus { background: $accent 30%; }
    RouteEditScreen #edit-buttons { height: 3; }
    RouteEditScreen VerticalScroll { height: auto; max-height: 12; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, params: dict[str, Any], hint: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.params = dict(params)
        self.hint = hint

    def compose(self) -> ComposeResult:
        # one line per field, so the reason stays on screen at 100x30; Tab moves between
        # fields without selecting their text (typing edits, it does not replace)
        with Vertical():
            yield Label(f"[b]{self.title_text}[/b]  [dim]tab: next field · enter: run · escape: cancel[/dim]")
            with VerticalScroll():
                for i, (k, v) in enumerate(self.params.items()):
                    with Horizontal(classes="field"):
                        yield Label(k, markup=False)
                        yield Input(json.dumps(v, ensure_ascii=False) if not isinstance(v, str) else v,
                                    id=f"param-{i}", select_on_focus=False)
            with Horizontal(classes="field"):
                yield Label("add key=value")
                yield Input(placeholder=self.hint or "e.g. box=[10,10,200,80]; zoom=3", id="param-new",
                            select_on_focus=False)
            with Horizontal(classes="field"):
                yield Label("reason")
                yield Input(placeholder="why (recorded with the decision)", id="reason", select_on_focus=False)
            with Horizontal(id="edit-buttons"):
                yield Button("Save and run", variant="primary", id="save")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.query(Input).first().focus()

    def result(self) -> dict:
        params: dict[str, Any] = {}
        for i, k in enumerate(self.params):
            params[k] = parse_value(self.query_one(f"#param-{i}", Input).value)
        for extra in self.query_one("#param-new", Input).value.split(";"):    # box=[..]; zoom=2
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


class ChoiceScreen(ModalScreen[str | None]):
    """A question with a few answers, each a button with a key. Dismisses with the answer's
    id, or None on escape; q quits (unless q is one of the keys)."""

    DEFAULT_CSS = """
    ChoiceScreen { align: center middle; }
    ChoiceScreen > Vertical { width: 84; max-width: 95%; height: auto; max-height: 90%; border: thick $primary;
                              background: $surface; padding: 1 2; }
    ChoiceScreen Horizontal { height: auto; margin-top: 1; }
    ChoiceScreen Button { margin-right: 1; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, question: str, choices: list[tuple[str, str, str]]) -> None:
        """choices: (id, key, label)."""
        super().__init__()
        self.question = question
        self.choices = choices

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.question, markup=False)
            with Horizontal():
                for cid, key, label in self.choices:
                    yield Button(Text(f"{label} ({key})"), id=f"choice-{cid}")

    def on_mount(self) -> None:
        self.query(Button).first().focus()

    def on_key(self, event) -> None:
        for cid, key, _ in self.choices:
            if event.key == key:
                event.stop()
                self.dismiss(cid)
                return
        if event.key == "q":
            event.stop()
            self.app.exit()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(str(event.button.id).removeprefix("choice-"))

    def action_cancel(self) -> None:
        self.dismiss(None)


class PromptScreen(ModalScreen[str | None]):
    """One line of text (a reason, a number). Dismisses with the text, or None on escape."""

    DEFAULT_CSS = """
    PromptScreen { align: center middle; }
    PromptScreen > Vertical { width: 84; max-width: 95%; height: auto; border: thick $primary; background: $surface;
                              padding: 1 2; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, question: str, value: str = "", placeholder: str = "") -> None:
        super().__init__()
        self.question, self.value, self.placeholder = question, value, placeholder

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.question, markup=False)
            yield Input(self.value, placeholder=self.placeholder, id="prompt", select_on_focus=False)

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def _ok(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip())

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
| `d` | detail of the focused row or node: a timeline row or tool call (inputs, outputs, OCR lines with confidences), a route, a hypothesis (status history, reasons), a CPeg node, a post |
| `v` | the selected post's image, large, with the OCR boxes read so far; arrows move and shift+arrows resize a region, `n` snaps to the next OCR box, `enter` proposes a zoom route on it |
| `h` | on a hypothesis: reject (never projected), confirm (admitted, as derived evidence) or note, with a reason |
| `f` | force a route of your choosing: family, then its parameters (validated by the tool's input model; a refusal charges nothing) |
| `b` | add budget units (continues a run the engine stopped) |
| `1`–`7` | focus posts, CPeg, hypotheses, route, budget, profile, timeline |
| `8` | advice: edits to the posts that would lower what they reveal |
| `+` / `-` | widen / narrow the left column |
| `>` / `<` | taller / shorter hypothesis store |
| `z` | maximise the focused pane (`escape` restores) |
| `[` / `]` | inspect: previous / next step (also ←/→ on the step bar) |
| `enter` on a timeline row | inspect: jump to that step |
| `s` | sort the hypothesis store by the next column; `/` filters it |
| `ctrl+p` | command palette: open run, jump to hypothesis, export profile |
| `?` | this help |
| `q` / `ctrl+q` | quit from any screen (`q` types when a text field has focus; `ctrl+q` always quits). A live run continues from its DB next time; `ctrl+c` copies selected text |

Every decision is recorded with who made it (`person:<you>` or `policy:<name>`) and shows in the timeline.
"""


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 90; height: 80%; border: thick $primary; background: $surface; padding: 0 1; }
    """
    BINDINGS = [Binding("escape,question_mark", "close", "Close"), Binding("q", "app.quit", "Quit")]

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Markdown(HELP)

    def action_close(self) -> None:
        self.dismiss(None)
