"""ArgusApp: the investigation console (`argus tui`)."""
from __future__ import annotations

import getpass
import json
import os
from functools import partial
from pathlib import Path

from textual.app import App
from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Provider

from core.textsafe import json_text, printable
from argus_tui.screens.investigation import InvestigationScreen
from argus_tui.screens.modals import HelpScreen
from argus_tui.screens.start import StartScreen
from argus_tui.state import Snapshot


def default_who() -> str:
    try:
        name = getpass.getuser()
    except Exception:  # noqa: BLE001 — no passwd entry in some containers
        name = os.environ.get("USER") or "researcher"
    return f"person:{name}"


def argus_command() -> str:
    """`argus` as it can be run again from here, as printed for the person to paste: `argus` when
    PATH finds this very script, else the script's own path (`make demo` leaves argus in
    .venv/bin, not on PATH), else this interpreter with `-m argus_tui.cli`."""
    import shlex
    import shutil
    import sys

    script = Path(sys.argv[0]).resolve() if sys.argv and sys.argv[0] else None
    if script is not None and script.name == "argus" and script.is_file():
        found = shutil.which("argus")
        return "argus" if found and Path(found).resolve() == script else shlex.quote(str(script))
    return f"{shlex.quote(sys.executable)} -m argus_tui.cli"


def profile_json(snap: Snapshot) -> dict:
    """The profile as shown (as of the displayed step) in the predictions format."""
    from core.models import PredictedAttribute, Predictions

    attrs = [PredictedAttribute(attribute=p.attribute, value=p.value, confidence=p.confidence,
                                evidence=[str(e) for e in p.evidence]) for p in snap.profile]
    return Predictions(user_id=snap.run.user_id, system=snap.run.system, attributes=attrs).model_dump(
        exclude_none=True)


def _sixteen_colour_terminal() -> bool:
    """Terminals that only have the 16 ANSI colours get the ANSI theme (the terminal's own palette)."""
    term = os.environ.get("TERM", "")
    return not os.environ.get("COLORTERM") and (term in ("linux", "vt100", "vt220", "ansi") or term.endswith("-16color"))


class ArgusCommands(Provider):
    """Command palette: open run, jump to hypothesis, export profile, help."""

    def _commands(self) -> list[tuple[str, object, str]]:
        app: ArgusApp = self.app  # type: ignore[assignment]
        cmds: list[tuple[str, object, str]] = [
            ("Open run…", app.action_open_start, "start screen: a user folder or a saved runs.db"),
            ("Export profile", app.action_export_profile, "write the shown profile as predictions JSON"),
            ("Help: keys", app.action_help, "key bindings of the console"),
        ]
        screen = self.screen          # the screen the palette was opened from
        if isinstance(screen, InvestigationScreen) and screen.run_id is not None:
            cmds.insert(1, ("Inspect this run (step scrubber)",
                            partial(app.open_run, screen.db_path, screen.run_id, inspect=True),
                            "read-only view of any step of this run"))
        if isinstance(screen, InvestigationScreen) and screen.snap is not None:
            for h in screen.snap.hypotheses():
                cmds.append((f"Jump to hypothesis {h.node_id} {h.attribute}={h.value}",
                             partial(screen.jump_to_node, h.node_id), f"status {h.status}"))
        return cmds

    async def discover(self) -> Hits:
        for name, cb, help_text in self._commands()[:4]:
            yield DiscoveryHit(name, cb, help=help_text)  # type: ignore[arg-type]

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, cb, help_text in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), cb, help=help_text)  # type: ignore[arg-type]


class ArgusApp(App):
    TITLE = "Argus"
    CSS_PATH = "argus.tcss"
    COMMANDS = App.COMMANDS | {ArgusCommands}
    # q quits from every screen (a focused text field takes it as a letter; ctrl+q always quits)
    BINDINGS = [Binding("question_mark", "help", "Help", show=False), Binding("q", "quit", "Quit", show=False)]

    def notify(self, message: str, *, title: str = "", **kw) -> None:  # type: ignore[override]
        """Every toast passes the output boundary (a path or post id may hold ESC or U+009B)."""
        super().notify(printable(message, lines=True), title=printable(title), **kw)

    def __init__(self, db_path: str | Path | None = None, *, user_dir: str | Path | None = None,
                 run_id: str | None = None, budget: float = 20.0, backend: str = "offline",
                 inspect: bool = False, step: int | None = None, who: str | None = None,
                 theme: str | None = None, config: dict | None = None):
        super().__init__()
        self.config = config      # engine config overrides for a new run (runs.config)
        self.db_path = Path(db_path) if db_path else None
        self.user_dir = Path(user_dir) if user_dir else None
        self.run_id = run_id
        self.budget = budget
        self.backend = backend
        self.inspect = inspect
        self.step = step
        self.who = who or default_who()
        self._theme_name = theme
        self._live_screens: list[InvestigationScreen] = []

    def on_mount(self) -> None:
        self._catch_sigterm()
        theme = self._theme_name or os.environ.get("ARGUS_THEME") or (
            "ansi-dark" if _sixteen_colour_terminal() else None)
        if theme:
            self.theme = theme
        if self.run_id and self.db_path:
            self.open_run(self.db_path, self.run_id, inspect=self.inspect, step=self.step)
        elif self.user_dir and self.db_path:
            self.start_or_continue(self.db_path, self.user_dir, self.budget, self.backend)
        else:
            self.push_screen(StartScreen(self.db_path, self.user_dir, self.budget, self.backend))

    # screens
    def open_run(self, db_path: str | Path, run_id: str, *, inspect: bool, step: int | None = None) -> None:
        from argus_tui.state import load_run
        from db.store import open_db

        try:
            run = load_run(open_db(db_path, readonly=True), run_id)
        except Exception as e:  # noqa: BLE001
            self.notify(f"{db_path}: cannot open ({type(e).__name__}: {e})", severity="error", markup=False)
            return
        if run is None:
            self.notify(f"{db_path}: no run {run_id!r}", severity="error", markup=False)
            return
        live = not inspect and run.status != "finished"
        if not inspect and not live:
            self.notify(f"run {run_id} is finished: opened read-only", timeout=4, markup=False)
        self.push_screen(InvestigationScreen(db_path, run_id, mode="live" if live else "inspect", who=self.who,
                                             step=step))

    def start_or_continue(self, db_path: Path, user_dir: Path, budget: float, backend: str) -> None:
        """A new run of `user_dir`, unless it has an unfinished run: then ask."""
        from argus_tui.screens.modals import ChoiceScreen
        from argus_tui.state import unfinished_runs_of
        from db.store import open_db

        pending = []
        if Path(db_path).is_file():
            try:
                pending = unfinished_runs_of(open_db(db_path, readonly=True), user_dir)
            except Exception:  # noqa: BLE001 — an unreadable DB is reported when the run opens
                pending = []
        if not pending:
            self.start_live(db_path, user_dir, budget, backend)
            return
        run = pending[0]

        def chosen(answer: str | None) -> None:
            if answer == "continue":
                self.open_run(db_path, run.run_id, inspect=False)
            elif answer == "new":
                self.start_live(db_path, user_dir, budget, backend)
            else:
                self.push_screen(StartScreen(db_path, user_dir, budget, backend))

        self.push_screen(ChoiceScreen(
            f"{user_dir} has an unfinished run {run.run_id} (created {run.created_at or '?'}, step {run.step}, "
            f"spent {run.spent:g} of {run.budget:g}, backend {run.backend}). Continue it or start a new run?",
            [("continue", "c", "Continue it"), ("new", "n", "Start a new run"), ("start", "s", "Start screen")]),
            chosen)

    def start_live(self, db_path: str | Path, user_dir: str | Path, budget: float, backend: str) -> None:
        self.push_screen(InvestigationScreen(db_path, None, mode="live", who=self.who, start_args={
            "user_dir": str(user_dir), "budget": budget, "backend": backend, "config": self.config}))

    def _catch_sigterm(self) -> None:
        """SIGTERM quits like `q` (screens unmount, the run DB is closed and checkpointed)
        instead of killing the process with the run's last steps in the WAL."""
        import asyncio
        import signal
        import threading

        if threading.current_thread() is not threading.main_thread():
            return
        try:
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, self.exit)
        except (NotImplementedError, RuntimeError):   # not POSIX, or no loop
            pass

    def on_unmount(self) -> None:
        import asyncio
        import signal

        try:
            asyncio.get_running_loop().remove_signal_handler(signal.SIGTERM)
        except (NotImplementedError, RuntimeError, ValueError):
            pass

    def continue_hint(self) -> str | None:
        """After quitting a live run that has not finished: the real command that continues it."""
        import shlex

        for s in reversed(self._live_screens):
            if s.mode == "live" and s.run_id and s.snap is not None and s.snap.run.status != "finished":
                return (f"run {s.run_id} is saved at step {s.snap.step}; continue it with: "
                        f"{argus_command()} tui {shlex.quote(str(s.db_path.resolve()))} --run {shlex.quote(s.run_id)}")
        return None

    def step_in_flight(self) -> bool:
        """True when an engine step was still running as the app closed."""
        return any(isinstance(s, InvestigationScreen) and s.busy for s in self._live_screens)

    def push_screen(self, screen, *args, **kwargs):  # type: ignore[override]
        if isinstance(screen, InvestigationScreen):
            self._live_screens.append(screen)
        return super().push_screen(screen, *args, **kwargs)

    # actions
    def action_open_start(self) -> None:
        self.push_screen(StartScreen(self.db_path, self.user_dir, self.budget, self.backend))

    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    def action_export_profile(self) -> None:
        screen = self.screen
        if not isinstance(screen, InvestigationScreen) or screen.snap is None:
            self.notify("open a run first", severity="warning")
            return
        snap = screen.snap
        out = screen.db_path.parent / f"{snap.run.run_id}.step{snap.step}.profile.json"
        fd = os.open(out, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600)   # inferred data: private
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(json_text(profile_json(snap), indent=2))
        self.notify(f"profile written: {out}", timeout=6, markup=False)
