"""Start screen: open a sopri/1 user folder (or one user of a benchmark) for a new run,
or a saved runs.db and one of its runs; choose backend and budget."""
from __future__ import annotations

import os
from pathlib import Path

from argus_tui.widgets.cells import SafeText as Text  # the output boundary (core/textsafe.py)
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, DataTable, Footer, Header, Input, Label, Select, Static
from argus_tui.widgets.cells import SafeInput as Input  # noqa: F811 -- values drawn through the output boundary

from argus_tui.state import list_runs
from argus_tui.widgets.cells import FitTable, cells
from argus_tui.widgets.focus import focus_now
from core.errors import InputError


def backend_names() -> list[str]:
    try:
        from core.engine.backend import available_backends

        return available_backends() or ["offline"]
    except Exception:  # noqa: BLE001 — a broken plugin must not keep the console from starting
        return ["offline"]


def resolve_user(path: Path, user: str | None) -> Path:
    """A user folder, or one user of a benchmark folder (manifest.json)."""
    if (path / "manifest.json").is_file():
        from core.loader import user_dirs

        users = dict(user_dirs(path))
        if not users:
            raise InputError(path / "manifest.json", "no users listed", field="users")
        if user is None:
            return next(iter(users.values()))
        if user not in users:
            raise InputError(path / "manifest.json", f"user {user!r} not in the benchmark", field="users")
        return users[user]
    if not path.is_dir():
        raise InputError(path, "user folder not found")
    if not (path / "posts.jsonl").is_file():
        raise InputError(path / "posts.jsonl", "file not found (not a sopri/1 user folder)")
    return path


class StartScreen(Screen):
    DEFAULT_CSS = """
    StartScreen > Vertical { padding: 1 2; }
    StartScreen .row { height: auto; margin-bottom: 1; }
    StartScreen Input { width: 1fr; }
    StartScreen Label.cap { width: 18; padding-top: 1; }
    StartScreen #runs { height: 1fr; min-height: 5; border: round $primary; }
    StartScreen #start-error { color: $error; height: auto; }
    StartScreen #run-info { height: auto; color: $text-muted; }
    """
    BINDINGS = [Binding("q", "app.quit", "Quit"), Binding("ctrl+q", "app.quit", "Quit", show=False, priority=True),
                Binding("i", "inspect", "Inspect run"), Binding("c", "continue_run", "Continue run"),
                Binding("question_mark", "app.help", "Help")]

    def __init__(self, db_path: str | Path | None = None, user_dir: str | Path | None = None,
                 budget: float = 20.0, backend: str = "offline"):
        super().__init__()
        self.db_path = str(db_path or "runs.db")
        self.user_dir = str(user_dir or "")
        self.budget = budget
        self.backend = backend

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        backends = backend_names()
        with Vertical():
            yield Static("[b]New investigation[/b] — a sopri/1 user folder, or a benchmark folder and a user id")
            with Horizontal(classes="row"):
                yield Label("user/bench folder", classes="cap")
                yield Input(self.user_dir, placeholder="path/to/bench/users/u001 or path/to/bench", id="user-dir")
                yield Input(placeholder="user id (benchmark)", id="bench-user", max_length=200)
            with Horizontal(classes="row"):
                yield Label("backend / budget", classes="cap")
                yield Select([(b, b) for b in backends], value=self.backend if self.backend in backends
                             else backends[0], allow_blank=False, id="backend")
                yield Input(str(self.budget), id="budget", type="number")
                yield Button("Start new run", variant="primary", id="start")
            yield Static("[b]Saved runs[/b] — enter continues an unfinished run (opens a finished one read-only), "
                         "[b]i[/b] inspects any run read-only")
            with Horizontal(classes="row"):
                yield Label("runs.db", classes="cap")
                yield Input(self.db_path, id="db-path")
                yield Button("List runs", id="list")
            table = FitTable(id="runs", cursor_type="row")
            table.set_columns(RUN_COLUMNS, (10, 6, 6, 6, 6, 6, 3, 5), flex=3)
            yield table
            yield Static("", id="run-info")
            with Horizontal(classes="row"):
                yield Button("Continue run", id="continue")
                yield Button("Inspect run", id="inspect")
            yield Static("", id="start-error")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "start"
        # focus where a key does something useful: typing a path when there is none yet,
        # else the Start button (so q quits instead of typing into a field)
        focus_now(self.query_one("#start" if self.user_dir else "#user-dir"))
        if Path(self.db_path).is_file():
            self.list_runs()

    def _error(self, msg: str) -> None:
        self.query_one("#start-error", Static).update(Text(msg))
        self.notify(msg, severity="error", timeout=8, markup=False)

    @on(Button.Pressed, "#list")
    @on(Input.Submitted, "#db-path")
    def _list(self) -> None:
        self.list_runs()

    @work(thread=True, exclusive=True, group="runs")
    def list_runs(self) -> None:
        path = Path(self.query_one("#db-path", Input).value)
        if not path.is_file():
            self.app.call_from_thread(self._error, f"{path}: run database not found")
            return
        try:
            from db.store import open_db

            runs = list_runs(open_db(path, readonly=True))
        except Exception as e:  # noqa: BLE001 — e.g. not a SQLite file
            self.app.call_from_thread(self._error, f"{path}: cannot read runs ({type(e).__name__}: {e})")
            return
        self.app.call_from_thread(self._fill_runs, runs)

    def _fill_runs(self, runs) -> None:
        table = self.query_one("#runs", FitTable)
        table.clear()
        rows = [run_row(r) for r in runs]
        for r, row in zip(runs, rows):
            table.add_row(*cells(*row), key=r.run_id)
        table.fit(rows)
        self._runs = {r.run_id: r for r in runs}
        self.query_one("#start-error", Static).update("" if runs else "no runs in this database yet")
        focused = self.focused
        typing = isinstance(focused, Input) and (focused.id != "user-dir" or focused.value)
        if runs and not self.user_dir and not typing:
            # never taken from a field the person types in: the next letters would be i / c
            focus_now(table)

    def _selected_run(self) -> str | None:
        table = self.query_one("#runs", DataTable)
        if table.row_count == 0:
            self._error("no run selected: list the runs of a runs.db first")
            return None
        return str(table.coordinate_to_cell_key((table.cursor_row, 0)).row_key.value)

    @on(Button.Pressed, "#start")
    @on(Input.Submitted, "#user-dir")
    @on(Input.Submitted, "#bench-user")
    @on(Input.Submitted, "#budget")
    def _start(self) -> None:
        raw = self.query_one("#user-dir", Input).value.strip()
        if not raw:
            self._error("user folder: required")
            return
        try:
            user_dir = resolve_user(Path(raw), self.query_one("#bench-user", Input).value.strip() or None)
            budget = float(self.query_one("#budget", Input).value or 20)
            if budget <= 0:
                raise InputError("budget", "must be a positive number of units", field="budget")
        except InputError as e:
            self._error(e.message)
            return
        except ValueError:
            self._error("budget: not a number")
            return
        backend = str(self.query_one("#backend", Select).value)
        self.app.start_or_continue(self.query_one("#db-path", Input).value, user_dir, budget, backend)  # type: ignore[attr-defined]

    @on(Button.Pressed, "#continue")
    def action_continue_run(self) -> None:
        run_id = self._selected_run()
        if run_id:
            self.app.open_run(self.query_one("#db-path", Input).value, run_id, inspect=False)  # type: ignore[attr-defined]

    @on(Button.Pressed, "#inspect")
    def action_inspect(self) -> None:
        run_id = self._selected_run()
        if run_id:
            self.app.open_run(self.query_one("#db-path", Input).value, run_id, inspect=True)  # type: ignore[attr-defined]

    @on(DataTable.RowHighlighted, "#runs")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        """The highlighted run whole (the table may cut long folders)."""
        run = getattr(self, "_runs", {}).get(str(event.row_key.value))
        if run is not None:
            self.query_one("#run-info", Static).update(Text.assemble(
                (run.run_id, "bold"), f"  {run.user_id}  {run.user_dir or '-'}  created {run.created_at or '-'}  "
                f"backend {run.backend}  {run.status}  step {run.step}  spent {run.spent:g} of {run.budget:g}"))

    @on(DataTable.RowSelected, "#runs")
    def _enter(self) -> None:
        """Enter continues an unfinished run; a finished one opens read-only."""
        run_id = self._selected_run()
        run = getattr(self, "_runs", {}).get(run_id)
        if run is not None:
            self.app.open_run(self.query_one("#db-path", Input).value, run_id,  # type: ignore[attr-defined]
                              inspect=not run.unfinished)


RUN_COLUMNS = ("created", "run", "user", "folder", "backend", "status", "step", "spent/budget")


def run_row(r) -> tuple[str, ...]:
    """A run as a table row: short created time and folder (the line under the table shows both whole)."""
    created = (r.created_at or "")[5:16].replace("T", " ")
    return (created, r.run_id, r.user_id, short_path(r.user_dir), r.backend, r.status, str(r.step),
            f"{r.spent:g}/{r.budget:g}")


def short_path(path: str | None) -> str:
    if not path:
        return "-"
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel
