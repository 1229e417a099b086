"""Console: `r` on a route with its parameters unchanged asks first, saying it will be charged
again (issue 37: it used to run and charge without a word). `n` charges nothing; `y` reruns and
charges; changed parameters run without the question. Real engine run, real OCR, real SQLite."""
from __future__ import annotations

from pathlib import Path

import pytest

from argus_tui.app import ArgusApp
from argus_tui.screens.modals import ChoiceScreen, RouteEditScreen
from tui_engine import CONFIG, q, screen_lines, settle, text_user, until

pytestmark = pytest.mark.slow

WHO = "person:tester"


@pytest.mark.parametrize("size", [(80, 24), (140, 45)])
async def test_rerun_with_the_same_parameters_asks_first(tmp_path: Path, size: tuple[int, int]) -> None:
    db = tmp_path / "runs.db"
    app = ArgusApp(db, user_dir=text_user(tmp_path), who=WHO, config=CONFIG)
    async with app.run_test(size=size) as pilot:
        screen = await settle(pilot)
        first = screen.proposal
        await pilot.press("a")
        screen = await settle(pilot)
        run_id = screen.run_id
        cost = q(db, "SELECT cost FROM routes WHERE run_id=? AND route_id=?", [run_id, first.route_id])[0][0]

        def charged() -> int:
            return q(db, "SELECT count(*) FROM budget_ledger WHERE run_id=?", [run_id])[0][0]

        def reruns() -> int:
            return q(db, "SELECT count(*) FROM routes WHERE run_id=? AND parent_route_id=?",
                     [run_id, first.route_id])[0][0]

        assert (charged(), reruns()) == (1, 0)

        async def rerun_unchanged() -> ChoiceScreen:
            await pilot.press("r")
            await until(pilot, lambda: isinstance(app.screen, RouteEditScreen))
            await pilot.click("#save")                     # no field touched
            await until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
            await pilot.pause(0.2)
            return app.screen

        # the question names the route and the charge, on screen, and n charges nothing
        ask = await rerun_unchanged()
        assert f"Rerun {first.route_id} (ocr)" in ask.question and "charged again" in ask.question
        assert f"{cost:g} units" in ask.question
        lines = screen_lines(app)
        for shown in (f"Rerun {first.route_id} (ocr)", f"Rerun, charge {cost:g} again (y)", "Cancel (n)"):
            assert any(shown in line for line in lines), (shown, lines)
        await pilot.press("n")
        await until(pilot, lambda: app.screen is screen)
        await pilot.pause(0.3)
        assert not screen.busy and (charged(), reruns()) == (1, 0)

        # y reruns it and charges it again
        await rerun_unchanged()
        await pilot.press("y")
        screen = await settle(pilot)
        assert (charged(), reruns()) == (2, 1)
        assert q(db, "SELECT decided_by FROM routes WHERE run_id=? AND parent_route_id=?",
                 [run_id, first.route_id]) == [(WHO,)]

        # changed parameters: no question, the rerun runs
        screen.query_one("#ledger").move_cursor(row=0)
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, RouteEditScreen))
        app.screen.query_one("#param-new").value = "zoom=3"
        await pilot.click("#save")
        await pilot.pause(0.2)
        assert not isinstance(app.screen, ChoiceScreen)
        screen = await settle(pilot)
        assert (charged(), reruns()) == (3, 2)
