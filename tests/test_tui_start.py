"""Start screen and quitting, on a run the real engine wrote: the run list says when, which
folder and which backend; enter continues an unfinished run, `i` inspects; `--user` on a
folder with an unfinished run asks; q / ctrl+q quit from every screen."""
from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable, Input

from argus_tui.app import ArgusApp
from argus_tui.screens.investigation import InvestigationScreen
from argus_tui.screens.modals import ChoiceScreen, HelpScreen
from argus_tui.screens.start import StartScreen
from tui_engine import engine_run, q, text_user

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def unfinished(tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("start")
    user = text_user(root)
    db_path = root / "runs.db"
    engine_run(db_path, user, "run-open", steps=1)
    return db_path, user


async def _wait(pilot, cond, tries: int = 300) -> None:
    for _ in range(tries):
        if cond():
            return
        await pilot.pause(0.05)
    raise AssertionError(f"timed out; screen is {pilot.app.screen}")


async def test_run_list_enter_continues_i_inspects(unfinished) -> None:
    db_path, user = unfinished
    app = ArgusApp(db_path, who="person:t")
    async with app.run_test(size=(100, 30)) as pilot:
        table = app.screen.query_one("#runs", DataTable)
        await _wait(pilot, lambda: table.row_count == 1)
        row = [str(c) for c in table.get_row_at(0)]
        created = q(db_path, "SELECT created_at FROM runs WHERE run_id='run-open'")[0][0]
        assert row[0] == created[5:16].replace("T", " ")
        spent = q(db_path, "SELECT spent FROM runs WHERE run_id='run-open'")[0][0]
        assert row[1] == "run-open" and row[4] == "offline" and row[7] == f"{spent:g}/20"
        # the info pane fills once the row is selected (a moment later under load)
        await _wait(pilot, lambda: str(user.resolve()) in str(app.screen.query_one("#run-info").render()))
        info = str(app.screen.query_one("#run-info").render())
        assert str(user.resolve()) in info and created in info   # whole, wherever the table cuts
        assert app.screen.focused is table          # not an input: q quits, it does not type
        await pilot.press("enter")
        await _wait(pilot, lambda: isinstance(app.screen, InvestigationScreen) and app.screen.snap is not None)
        assert app.screen.mode == "live"
        app.pop_screen()
        await pilot.pause(0.2)
        await pilot.press("i")
        await _wait(pilot, lambda: isinstance(app.screen, InvestigationScreen) and app.screen.snap is not None)
        assert app.screen.mode == "inspect"


async def test_user_with_unfinished_run_asks(unfinished) -> None:
    db_path, user = unfinished
    app = ArgusApp(db_path, user_dir=user, who="person:t")
    async with app.run_test(size=(100, 30)) as pilot:
        await _wait(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        assert "run-open" in app.screen.question
        await pilot.press("c")
        await _wait(pilot, lambda: isinstance(app.screen, InvestigationScreen) and app.screen.snap is not None)
        assert app.screen.mode == "live" and app.screen.run_id == "run-open"
    assert q(db_path, "SELECT count(*) FROM runs")[0][0] == 1, "continuing started no new run"


async def test_q_quits_everywhere_but_types_in_a_focused_field(unfinished) -> None:
    db_path, _ = unfinished
    for setup in ("start", "help", "inspect"):
        app = ArgusApp(db_path, run_id="run-open" if setup == "inspect" else None, inspect=True, who="person:t")
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause(0.5)
            if setup == "start":
                field = app.screen.query_one("#user-dir", Input)
                field.focus()
                await pilot.press("q")
                assert field.value.endswith("q") and app.is_running
                await pilot.press("ctrl+q")
            else:
                if setup == "help":
                    await pilot.press("question_mark")
                    await _wait(pilot, lambda: isinstance(app.screen, HelpScreen))
                await pilot.press("q")
            await pilot.pause(0.3)
            assert not app.is_running, setup
    assert isinstance(StartScreen, type)
