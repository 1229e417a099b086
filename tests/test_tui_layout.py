"""Console layout on a real engine run (real OCR, real SQLite): `z` maximises every pane,
columns share the width, and what must stay visible does at 100x30."""
from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable

from argus_tui.app import ArgusApp
from argus_tui.screens.investigation import InvestigationScreen
from argus_tui.widgets.cells import fit_widths
from tui_engine import engine_run, text_user

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def saved_run(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("layout")
    db_path = root / "runs.db"
    engine_run(db_path, text_user(root), "run-layout", steps=3)
    return db_path


def test_fit_widths_cut_the_widest_first() -> None:
    assert fit_widths(30, [4, 10, 40], [2, 2, 2]) == [4, 10, 16]
    assert fit_widths(40, [4, 10, 8], [2, 2, 2]) == [4, 28, 8]     # spare room to the widest
    assert fit_widths(40, [4, 10, 8], [2, 2, 2], flex=2) == [4, 10, 26]   # ... or to the flex column
    assert sum(fit_widths(12, [10, 10, 10], [2, 2, 2])) <= 12
    assert fit_widths(3, [10, 10], [4, 4]) == [4, 4]                # never below the minimum


async def _opened(pilot) -> InvestigationScreen:
    for _ in range(400):
        screen = pilot.app.screen
        if isinstance(screen, InvestigationScreen) and screen.snap is not None:
            break
        await pilot.pause(0.05)
    await pilot.pause(0.3)
    return pilot.app.screen


async def test_z_maximises_every_pane(saved_run: Path) -> None:
    app = ArgusApp(saved_run, run_id="run-layout", inspect=True, who="person:t")
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await _opened(pilot)
        panes = {"1": "#left", "2": "#left", "3": "#hyps", "4": "#proposal", "5": "#budget",
                 "6": "#bottom", "7": "#bottom"}
        for key, pane_id in panes.items():
            await pilot.press(key)
            await pilot.pause(0.2)
            await pilot.press("z")
            await pilot.pause(0.2)
            pane = screen.query_one(pane_id)
            assert screen.maximized is pane, (key, screen.focused)
            assert pane.region.width == 100 and pane.region.height >= 25, (key, pane.region)
            await pilot.press("escape")
            await pilot.pause(0.2)
            assert screen.maximized is None
            assert screen.query_one("#left").region.width == 42


async def test_100x30_keeps_status_evidence_left_and_keys(saved_run: Path) -> None:
    app = ArgusApp(saved_run, run_id="run-layout", inspect=True, who="person:t")
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await _opened(pilot)
        hyp = screen.query_one("#hyp-table", DataTable)
        assert hyp.row_count > 0
        right_edge = hyp.region.right
        x = hyp.region.x
        for col in hyp.ordered_columns:          # every column, status and ev included, is on screen
            x += col.get_render_width(hyp)
        assert x <= right_edge, [(c.label.plain, c.width) for c in hyp.ordered_columns]
        status = hyp.ordered_columns[5]
        assert status.width >= len("unresolved")
        ledger = screen.query_one("#ledger", DataTable)
        assert ledger.ordered_columns[-1].label.plain == "left"
        x = ledger.region.x + sum(c.get_render_width(ledger) for c in ledger.ordered_columns)
        assert x <= ledger.region.right


@pytest.fixture(scope="module")
def rich_run(tmp_path_factory) -> Path:
    from tui_engine import rich_user

    root = tmp_path_factory.mktemp("layout-rich")
    db_path = root / "runs.db"
    engine_run(db_path, rich_user(root), "run-rich", steps=3)
    return db_path


@pytest.mark.parametrize("size", [(80, 24), (140, 45)])
async def test_small_terminals_stack_the_store_and_the_route_card(rich_run: Path, size) -> None:
    from tui_engine import screen_lines

    app = ArgusApp(rich_run, run_id="run-rich", inspect=True, who="person:t")
    async with app.run_test(size=size) as pilot:
        screen = await _opened(pilot)
        hyp = screen.query_one("#hyp-table", DataTable)
        assert hyp.row_count >= 5
        assert hyp.scrollable_content_region.height - hyp.header_height >= 5, hyp.region     # 5 store rows
        card = screen.query_one("#proposal")
        assert card.region.width >= 50 and card.region.height >= 8, card.region             # a readable card
        assert app.screen.region.contains_region(card.region)
        bar = screen_lines(app)[1]
        assert f"step {screen.snap.step}/{screen.snap.max_step}" in bar and "run run-rich" in bar, bar
        small = size == (80, 24)
        assert screen.has_class("-small") is small
        left = screen.query_one("#left")
        assert (left.region.width == 0) is small           # the posts open on their key instead
        await pilot.press("1")
        await pilot.pause(0.3)
        assert screen.focused is screen.query_one("#posts-table")
        assert screen.query_one("#posts-table").region.height >= 5
        if small:
            assert screen.maximized is left and left.region.width == 80
            await pilot.press("escape")
            await pilot.pause(0.2)
            assert screen.maximized is None and left.region.width == 0
            assert hyp.scrollable_content_region.height - hyp.header_height >= 5
