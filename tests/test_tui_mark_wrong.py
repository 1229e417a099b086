"""`w` in the console ("mark as wrong", issue 35): on a hypothesis of a finished engine run, the
finding is recorded in the run DB's rejections (core.rejections.record, what a rerun of
`argus audit` reads back) and its value leaves the re-projected profile."""
from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable

from argus_tui.app import ArgusApp
from argus_tui.screens.modals import ChoiceScreen
from tui_engine import engine_run, q, screen_lines, settle, text_user

pytestmark = pytest.mark.slow

WHO = "person:tester"


async def until(pilot, cond, tries: int = 600) -> None:
    for _ in range(tries):
        if cond():
            return
        await pilot.pause(0.05)
    raise AssertionError(f"timed out on {pilot.app.screen}")


async def test_w_marks_a_finding_wrong_in_the_db_and_the_profile(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    user = text_user(tmp_path)
    run_id = engine_run(db, user, "r-wrong", steps=30)
    profile = set(q(db, "SELECT attribute, value FROM profile WHERE run_id=?", [run_id]))
    assert profile                                   # the run projected something to mark wrong
    app = ArgusApp(db, run_id=run_id, who=WHO)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await settle(pilot)
        assert screen.mode == "inspect"                 # a finished run (an audit's) opens read-only
        await pilot.press("question_mark")                  # the help names the key
        await until(pilot, lambda: any("mark its finding as wrong" in line for line in screen_lines(app)))
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen)
        target = next(h for h in screen.snap.hypotheses()
                      if h.status == "admitted" and (h.attribute, h.value) in profile)
        await pilot.press("3")
        await pilot.pause(0.2)
        table = screen.query_one("#hyp-table", DataTable)
        ids = [str(table.get_row_at(i)[0]).lstrip("+~") for i in range(table.row_count)]
        table.move_cursor(row=ids.index(target.node_id))
        await pilot.press("w")
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("v")                          # this value (not every value of the attribute)
        await pilot.pause(0.2)
        screen = await settle(pilot)
    assert q(db, "SELECT user_dir, attribute, value, by FROM rejections") == [
        (str(user.resolve()), target.attribute, target.value, WHO)]
    assert (target.attribute, target.value) not in set(
        q(db, "SELECT attribute, value FROM profile WHERE run_id=?", [run_id]))
    assert q(db, "SELECT status FROM nodes WHERE run_id=? AND node_id=?", [run_id, target.node_id]) == [("removed",)]
