"""Snapshot tests (pytest-textual-snapshot) of the console on a run written by the real
engine (real OCR, real SQLite; fixed run id, fixed post timestamps, paths never shown):
the inspect screen at 80x24 (small layout), 100x30, 140x45 and 200x60, and the live screen
awaiting a decision at 100x30 and 80x24.
Update after a deliberate UI change with `pytest --snapshot-update`."""
from __future__ import annotations

from pathlib import Path

import pytest

from argus_tui.app import ArgusApp
from argus_tui.screens.investigation import InvestigationScreen
from tui_engine import engine_run, text_user

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def saved_run(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("snap")
    db_path = root / "runs.db"
    engine_run(db_path, text_user(root), "run-snap", steps=2)
    return db_path


async def _loaded(pilot) -> None:
    for _ in range(400):
        screen = pilot.app.screen
        if isinstance(screen, InvestigationScreen) and screen.snap is not None and not screen.busy:
            break
        await pilot.pause(0.05)
    await pilot.pause(0.3)


@pytest.mark.parametrize("size", [(100, 30), (140, 45), (200, 60)])
def test_inspect_screen_snapshot(snap_compare, saved_run: Path, size: tuple[int, int]) -> None:
    app = ArgusApp(saved_run, run_id="run-snap", inspect=True, step=2, who="person:snap", theme="textual-dark")
    assert snap_compare(app, terminal_size=size, run_before=_loaded)


@pytest.fixture(scope="module")
def rich_run(tmp_path_factory) -> Path:
    from tui_engine import rich_user

    root = tmp_path_factory.mktemp("snap-rich")
    db_path = root / "runs.db"
    engine_run(db_path, rich_user(root), "run-snap-rich", steps=3)
    return db_path


def test_small_inspect_screen_snapshot(snap_compare, rich_run: Path) -> None:
    """80x24: the store (at least 5 rows) over a readable route card, the panes on their keys."""
    app = ArgusApp(rich_run, run_id="run-snap-rich", inspect=True, step=3, who="person:snap", theme="textual-dark")
    assert snap_compare(app, terminal_size=(80, 24), run_before=_loaded)


@pytest.fixture(scope="module")
def rich_live(tmp_path_factory) -> Path:
    from tui_engine import rich_user

    root = tmp_path_factory.mktemp("snap-rich-live")
    db_path = root / "runs.db"
    engine_run(db_path, rich_user(root), "run-snap-live", steps=1)      # unfinished: a route waits
    return db_path


def test_small_live_screen_snapshot(snap_compare, rich_live: Path) -> None:
    app = ArgusApp(rich_live, run_id="run-snap-live", who="person:snap", theme="textual-dark")
    assert snap_compare(app, terminal_size=(80, 24), run_before=_loaded)


def test_main_screen_snapshot(snap_compare, saved_run: Path) -> None:
    app = ArgusApp(saved_run, run_id="run-snap", who="person:snap", theme="textual-dark")
    assert snap_compare(app, terminal_size=(100, 30), run_before=_loaded)
