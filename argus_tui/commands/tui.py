"""Commands: tui — the investigation console."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from argus_tui.cli_base import app, fail


@app.command("tui")
def tui(
    runs_db: Optional[Path] = typer.Argument(None, help="runs.db to open (created for a new run); or --db"),
    db: Optional[Path] = typer.Option(None, "--db", help="the run database, as in investigate and advise "
                                      "(the same as RUNS_DB)"),
    user: Optional[Path] = typer.Option(None, "--user", help="sopri/1 user folder (or a benchmark folder) for a new run"),
    bench_user: Optional[str] = typer.Option(None, "--bench-user", help="user id when --user is a benchmark folder"),
    run: Optional[str] = typer.Option(None, "--run", help="run id in RUNS.db to continue (live) or inspect"),
    budget: float = typer.Option(20.0, "--budget", help="route budget in units"),
    backend: str = typer.Option("offline", "--backend", help="model backend"),
    inspect: bool = typer.Option(False, "--inspect", help="open the run read-only with the step scrubber"),
    step: Optional[int] = typer.Option(None, "--step", help="inspect: the step to show first"),
    theme: Optional[str] = typer.Option(None, "--theme", help="e.g. ansi-dark for 16-colour terminals"),
    who: Optional[str] = typer.Option(None, "--who", help="name recorded with your decisions (person:<name>)"),
    set_: Optional[list[str]] = typer.Option(None, "--set", help="engine config for a new run, KEY=VALUE "
                                             "(e.g. ocr_in_perception=false); repeatable"),
) -> None:
    """The investigation console: a new stepwise run, or a saved run to continue or inspect."""
    from argus_tui.app import ArgusApp
    from argus_tui.screens.start import resolve_user

    if budget <= 0:
        fail(f"--budget: must be positive, got {budget}")
    if db is not None and runs_db is not None and db != runs_db:
        fail(f"--db: the run database given twice ({runs_db} and --db {db})")
    runs_db = runs_db or db
    if inspect and not run:
        if runs_db is None:
            fail("--inspect: needs RUNS.db (or --db)")
        run = newest_run(runs_db, user)       # the inspector on the newest run, not the start screen
    if run and runs_db is None:
        fail("--run: needs RUNS.db")
    if runs_db is not None and run and not runs_db.is_file():
        fail(f"{runs_db}: run database not found")
    if runs_db is not None and runs_db.exists() and not runs_db.is_file():
        fail(f"{runs_db}: not a file")
    from core.errors import InputError

    try:
        user_dir = resolve_user(user, bench_user) if user is not None else None
    except InputError as e:
        fail(e.message)
    if run:
        from argus_tui.state import load_run
        from db.store import open_db

        try:
            found = load_run(open_db(runs_db, readonly=True), run)  # type: ignore[arg-type]
        except Exception as e:  # noqa: BLE001 — not SQLite, wrong schema...
            fail(f"{runs_db}: cannot read runs ({type(e).__name__}: {e})")
        if found is None:
            fail(f"{runs_db} [run]: no run {run!r}")
        if step is not None:
            from argus_tui.state import max_step

            top = max_step(open_db(runs_db, readonly=True), run)  # type: ignore[arg-type]
            if not 0 <= step <= top:      # like `runs show --step`: never silently another step
                fail(f"{runs_db} [--step]: run {run} has committed steps 0..{top}, not {step}")
    if user_dir is not None and runs_db is None:
        runs_db = Path("runs.db")
    if theme:
        from textual.theme import BUILTIN_THEMES

        if theme not in BUILTIN_THEMES:
            fail(f"--theme: unknown theme {theme!r} (e.g. {', '.join(sorted(BUILTIN_THEMES)[:6])})")
    config = parse_sets(set_ or [])
    who_id = (who if who.startswith("person:") else f"person:{who}") if who else None
    from argus_tui.widgets.image_view import detect_terminal_graphics

    detect_terminal_graphics()       # Sixel / Kitty graphics for post images where the terminal has them
    console_app = ArgusApp(runs_db, user_dir=user_dir, run_id=run, budget=budget, backend=backend,
                           inspect=inspect, step=step, who=who_id, theme=theme, config=config)
    console_app.run()
    from argus_tui.cli_base import err_console

    hint = console_app.continue_hint()
    if console_app.step_in_flight():
        # the engine thread is finishing its step; it commits before the process exits
        err_console.print("finishing the step in flight (it is saved)…", markup=False, highlight=False)
    if hint:
        err_console.print(hint, markup=False, highlight=False, soft_wrap=True)


def newest_run(runs_db: Path, user: Path | None) -> str:
    """The newest run in RUNS.db (of the --user folder when given), for `--inspect` without --run."""
    from argus_tui.state import list_runs
    from db.store import open_db

    if not runs_db.is_file():
        fail(f"{runs_db}: run database not found")
    try:
        runs = list_runs(open_db(runs_db, readonly=True))
    except Exception as e:  # noqa: BLE001 — not SQLite, wrong schema...
        fail(f"{runs_db}: cannot read runs ({type(e).__name__}: {e})")
    if user is not None:
        want = user.resolve()
        runs = [r for r in runs if r.user_dir and (Path(r.user_dir).resolve() == want
                                                   or want in Path(r.user_dir).resolve().parents)]
    if not runs:
        fail(f"{runs_db} [runs]: no run to inspect" + (f" of {user}" if user is not None else ""))
    return runs[0].run_id


def parse_sets(items: list[str]) -> dict | None:
    """--set KEY=VALUE pairs; values are JSON when they parse (true, 3, "x"), else text."""
    import json

    from core.engine.context import DEFAULT_CONFIG

    out: dict = {}
    for item in items:
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep or not key:
            fail(f"--set {item!r}: expected KEY=VALUE")
        if key not in DEFAULT_CONFIG:
            fail(f"--set {key}: unknown engine setting (known: {', '.join(sorted(DEFAULT_CONFIG))})")
        try:
            out[key] = json.loads(raw)
        except ValueError:
            out[key] = raw
    return out or None
