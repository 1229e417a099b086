"""Snapshot tests (pytest-textual-snapshot) of the console at 120x40: the inspect screen of a
saved run, and the main (live) screen of a paused run awaiting a decision. Both runs are
synthetic rows with fixed timestamps and ids, so the pictures are deterministic; paths are
never shown. Update after a deliberate UI change with `pytest --snapshot-update`."""
from __future__ import annotations

from pathlib import Path


from argus_tui.app import ArgusApp
from argus_tui.screens.investigation import InvestigationScreen
from argus_tui.synthetic_run import write_synthetic_run, write_synthetic_user
from db.store import open_db

SIZE = (120, 40)


def _make(tmp_path: Path, pending: bool) -> Path:
    user = write_synthetic_user(tmp_path / "u_synth")
    path = tmp_path / "runs.db"
    db = open_db(path)
    write_synthetic_run(db, "run-snap", user_dir=user, pending=pending)
    db.conn.close()
    return path


async def _loaded(pilot) -> None:
    screen = pilot.app.screen
    for _ in range(200):
        if isinstance(screen, InvestigationScreen) and screen.snap is not None and not screen.busy:
            break
        await pilot.pause(0.05)
    await pilot.pause(0.2)


def test_inspect_screen_snapshot(snap_compare, tmp_path: Path) -> None:
    app = ArgusApp(_make(tmp_path, pending=False), run_id="run-snap", inspect=True, step=5, who="person:snap",
                   theme="textual-dark")
    assert snap_compare(app, terminal_size=SIZE, run_before=_loaded)


def test_main_screen_snapshot(snap_compare, tmp_path: Path) -> None:
    app = ArgusApp(_make(tmp_path, pending=True), run_id="run-snap", who="person:snap", theme="textual-dark")
    assert snap_compare(app, terminal_size=SIZE, run_before=_loaded)
