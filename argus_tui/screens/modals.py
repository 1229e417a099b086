"""Modal dialogs: edit a route's parameters, ask for N auto steps, and the help screen."""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Markdown, Static

from argus_tui.widgets.cells import SafeInput as Input  # values drawn through the output boundary
from argus_tui.widgets.cells import SafeText as Text  # the output boundary (core/textsafe.py)
from argus_tui.widgets.focus import focus_now
from core.textsafe import printable


def parse_value(text: str) -> Any:
    """A parameter typed by a person: JSON when it parses (numbers, lists, boxes), else text."""
    text = text.strip()
    try:
        return json.loads(text)
    except ValueError:
        return text


def shown_value(value: Any) -> str:
    """A parameter as its dialog field shows it (text as is, anything else as JSON)."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def as_typed(params: dict[str, Any]) -> dict[str, Any]:
    """Parameters as the edit dialog returns them when no field is touched."""
    return {k: parse_value(shown_value(v)) for k, v in params.items()}


class RouteEditScreen(ModalScreen[dict | None]):
    """Edit (or set up a rerun of) a route: one field per parameter, plus one new key=value
    line and a reason. Dismisses with {"params": {...}, "reason": str} or None."""

    DEFAULT_CSS = """
    RouteEditScreen { align: center middle; }
    RouteEditScreen > Vertical { width: 90; max-width: 98%; height: auto; max-height: 95%; border: thick $primary;
                                 background: $surface; padding: 0 1; }
    RouteEditScreen .field { height: 1; margin-top: 1; }
    RouteEditScreen .field Label { width: 14; }
    /* one-line fields: no border in any state (Input:focus draws a tall border by default,
       which in one row leaves only the border: typing blind) */
    RouteEditScreen Input, RouteEditScreen Input:focus { height: 1; border: none; padding: 0 1; width: 1fr;
                                                         background: $boost; }
    RouteEditScreen Input:focus { background: $accent 30%; }
    RouteEditScreen Input.-invalid, RouteEditScreen Input.-invalid:focus { border: none; background: $error 30%; }
    RouteEditScreen .field-error { height: auto; padding-left: 14; color: $text-error; display: none; }
    RouteEditScreen .field-error.-shown { display: block; }
    RouteEditScreen #err-route { padding-left: 0; }
    RouteEditScreen #edit-buttons { height: 3; margin-top: 1; }
    RouteEditScreen VerticalScroll { height: auto; max-height: 12; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, params: dict[str, Any], hint: str = "",
                 validate: Callable[[dict[str, Any]], dict[str, str]] | None = None) -> None:
        """validate: the typed params -> {field: problem} ("" for the route as a whole); while it
        finds problems the dialog stays open, each message under its field, nothing is sent."""
        super().__init__()
        self.title_text = title
        self.params = dict(params)
        self.hint = hint
        self.validate = validate

    def compose(self) -> ComposeResult:
        # one line per field, so the reason stays on screen at 100x30; Tab moves between
        # fields without selecting their text (typing edits, it does not replace)
        with Vertical():
            yield Label(Text.assemble((self.title_text, "bold"), "  ",
                                      ("tab: next field · enter: run · escape: cancel", "dim")))
            yield Static("", id="err-route", classes="field-error")
            with VerticalScroll():
                for i, (k, v) in enumerate(self.params.items()):
                    with Horizontal(classes="field"):
                        yield Label(printable(k), markup=False)
                        yield Input(shown_value(v), id=f"param-{i}", select_on_focus=False)
                    yield Static("", id=f"err-{i}", classes="field-error")
            with Horizontal(classes="field"):
                yield Label("add key=value")
                yield Input(placeholder=self.hint or "e.g. box=[10,10,200,80]; zoom=3", id="param-new",
                            select_on_focus=False)
            yield Static("", id="err-new", classes="field-error")
            with Horizontal(classes="field"):
                yield Label("reason")
                yield Input(placeholder="why (recorded with the decision)", id="reason", select_on_focus=False)
            with Horizontal(id="edit-buttons"):
                yield Button("Save and run", variant="primary", id="save")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        focus_now(self.query(Input).first())

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

    def problems(self, result: dict) -> dict[str, str]:
        return self.validate(result["params"]) if self.validate is not None else {}

    def show_problems(self, problems: dict[str, str]) -> None:
        """Each problem under its field (all of them); a field added on the key=value line, or
        the route as a whole, at the top."""
        names = list(self.params)
        rest = []
        for i, k in enumerate(names):
            msg = problems.get(k)
            err = self.query_one(f"#err-{i}", Static)
            err.update(Text(f"↑ {msg}") if msg else "")
            err.set_class(bool(msg), "-shown")
            self.query_one(f"#param-{i}", Input).set_class(bool(msg), "-invalid")
        extra = [f"{k}: {m}" for k, m in problems.items() if k and k not in names]
        err = self.query_one("#err-new", Static)
        err.update(Text("↑ " + "; ".join(extra)) if extra else "")
        err.set_class(bool(extra), "-shown")
        self.query_one("#param-new", Input).set_class(bool(extra), "-invalid")
        if problems.get(""):
            rest.append(problems[""])
        top = self.query_one("#err-route", Static)
        top.update(Text("refused: " + " · ".join(rest)) if rest else "")
        top.set_class(bool(rest), "-shown")
        bad = [f"#param-{names.index(k)}" for k in problems if k in names] or (["#param-new"] if extra else [])
        if bad:
            focus_now(self.query_one(bad[0], Input))

    def _try_save(self) -> None:
        result = self.result()
        problems = self.problems(result)
        if problems:
            self.show_problems(problems)      # the dialog stays open with what was typed
            return
        self.dismiss(result)

    @on(Button.Pressed, "#save")
    def _save(self) -> None:
        self._try_save()

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self._try_save()

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
    ChoiceScreen Label { width: 100%; }
    ChoiceScreen Horizontal { height: auto; margin-top: 1; }
    ChoiceScreen Button { margin-right: 1; }
    /* many answers (force: the families): one compact line each, none cut at 80x24 */
    ChoiceScreen #choice-list { height: auto; max-height: 14; margin-top: 1; }
    ChoiceScreen #choice-list Button { width: 100%; margin: 0; content-align: left middle; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, question: str, choices: list[tuple[str, str, str]]) -> None:
        """choices: (id, key, label)."""
        super().__init__()
        self.question = question
        self.choices = choices

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(printable(self.question, lines=True), markup=False)
            if len(self.choices) > 3:
                with VerticalScroll(id="choice-list"):
                    for cid, key, label in self.choices:
                        yield Button(Text.assemble((key, "bold"), f"  {label}"), id=f"choice-{cid}", compact=True)
                return
            with Horizontal():
                for cid, key, label in self.choices:
                    yield Button(Text(f"{label} ({key})"), id=f"choice-{cid}")

    def on_mount(self) -> None:
        focus_now(self.query(Button).first())

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
    PromptScreen Label { width: 100%; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, question: str, value: str = "", placeholder: str = "") -> None:
        super().__init__()
        self.question, self.value, self.placeholder = question, value, placeholder

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(printable(self.question, lines=True), markup=False)
            yield Input(self.value, placeholder=self.placeholder, id="prompt", select_on_focus=False)

    def on_mount(self) -> None:
        focus_now(self.query_one(Input))

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
| `r` | rerun a route already run (the one selected in the budget ledger, or the last) with new parameters; unchanged ones ask first (charged again) |
| `g` | auto-run N steps with the policy approver |
| `p` | pause an auto-run after the step in flight |
| `d` | detail of the focused row or node: a timeline row or tool call (inputs, outputs, OCR lines with confidences), a route, a hypothesis (status history, reasons), a CPeg node, a post |
| `v` | the selected post's image, large, with the OCR boxes read so far; arrows move and shift+arrows resize a region, `n` snaps to the next OCR box, `enter` proposes a zoom route on it |
| `h` | on a hypothesis: reject (never projected), confirm (admitted, as derived evidence) or note, with a reason |
| `w` | on a hypothesis: mark its finding as wrong, this value or every value of the attribute; recorded in the run DB (a rerun of `argus audit` rejects it again, as `--reject` does) and the profile re-projected; works on a finished (saved) run too |
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
    HelpScreen > VerticalScroll { width: 90; max-width: 100%; height: 80%; border: thick $primary; background: $surface;
                                  padding: 0 1; }
    """
    BINDINGS = [Binding("escape,question_mark", "close", "Close"), Binding("q", "app.quit", "Quit")]

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Markdown(HELP)

    def action_close(self) -> None:
        self.dismiss(None)
