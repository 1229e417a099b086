"""Console, live mode: drive a real investigation (real engine, real OCR, real SQLite) from
the keyboard with Pilot and check what lands in the run DB: decisions with who made them,
budget ledger, routes (approved / skipped / edited / rerun) and the graph; then close the
app mid-run and continue the run from its DB."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from argus_tui.app import ArgusApp
from argus_tui.screens.investigation import InvestigationScreen
from argus_tui.screens.modals import AutoRunScreen, RouteEditScreen
from tui_engine import CONFIG, q, settle, text_user

pytestmark = pytest.mark.slow

SIZE = (120, 40)
WHO = "person:tester"


@pytest.fixture()
def user(tmp_path: Path) -> Path:
    return text_user(tmp_path)


async def test_approve_rerun_skip_resume_edit(user: Path, tmp_path: Path) -> None:
    db_path = tmp_path / "runs.db"
    app = ArgusApp(db_path, user_dir=user, who=WHO, config=CONFIG)
    async with app.run_test(size=SIZE) as pilot:
        screen = await settle(pilot)
        run_id = screen.run_id
        assert screen.mode == "live" and screen.proposal is not None
        first = screen.proposal
        assert first.family == "ocr"

        # approve: the route runs, its cost is charged, the decision names the person
        await pilot.press("a")
        screen = await settle(pilot)
        row = q(db_path, "SELECT status, decided_by, cost FROM routes WHERE run_id=? AND route_id=?",
                [run_id, first.route_id])[0]
        assert row[0] == "done" and row[1] == WHO
        ledger = q(db_path, "SELECT route_id, units, remaining FROM budget_ledger WHERE run_id=?", [run_id])
        assert ledger == [(first.route_id, row[2], 20.0 - row[2])]
        assert q(db_path, "SELECT count(*) FROM tool_calls WHERE run_id=? AND route_id=?",
                 [run_id, first.route_id])[0][0] >= 1
        assert q(db_path, "SELECT count(*) FROM nodes WHERE run_id=? AND (json_extract(data,'$.route_id')=? "
                 "OR provenance LIKE ?)", [run_id, first.route_id, f'%"{first.route_id}"%'])[0][0] >= 1, \
            "the OCR route added evidence to the graph"
        assert f"remaining {20 - row[2]:g} / 20" in str(screen.query_one("#budget-summary").render())

        # rerun the first route (selected in the ledger) with a changed parameter
        screen.query_one("#ledger").move_cursor(row=0)
        await pilot.press("r")
        await pilot.pause(0.2)
        modal = app.screen
        assert isinstance(modal, RouteEditScreen)
        modal.query_one("#param-new").value = "zoom=3"
        await pilot.click("#save")
        screen = await settle(pilot)
        rerun = q(db_path, "SELECT route_id, status, decided_by, params FROM routes WHERE run_id=? "
                  "AND parent_route_id=?", [run_id, first.route_id])
        assert len(rerun) == 1 and rerun[0][1] in ("done", "failed") and rerun[0][2] == WHO
        assert json.loads(rerun[0][3])["zoom"] == 3
        assert q(db_path, "SELECT count(*) FROM budget_ledger WHERE run_id=?", [run_id])[0][0] == 2

        # skip: nothing charged, the route is marked skipped by the person
        second = screen.proposal
        assert second is not None and second.route_id not in (first.route_id, rerun[0][0])
        await pilot.press("x")
        screen = await settle(pilot)
        assert q(db_path, "SELECT status, decided_by FROM routes WHERE run_id=? AND route_id=?",
                 [run_id, second.route_id])[0] == ("skipped", WHO)
        assert q(db_path, "SELECT count(*) FROM budget_ledger WHERE run_id=?", [run_id])[0][0] == 2
        third = screen.proposal
        assert third is not None, "a third text-bearing image is still to be routed"
        step_before = screen.snap.step
    # the app closed mid-run; reopening continues the same run from its DB, same proposal
    assert q(db_path, "SELECT status FROM runs WHERE run_id=?", [run_id])[0][0] != "finished"
    app2 = ArgusApp(db_path, run_id=run_id, who="person:second")
    async with app2.run_test(size=SIZE) as pilot:
        screen = await settle(pilot)
        assert screen.mode == "live" and screen.run_id == run_id and screen.snap.step == step_before
        assert screen.proposal is not None and screen.proposal.route_id == third.route_id

        # edit: change a parameter in the modal; the edited route runs with it
        await pilot.press("e")
        await pilot.pause(0.2)
        modal = app2.screen
        assert isinstance(modal, RouteEditScreen)
        modal.query_one("#param-new").value = "zoom=2"
        modal.query_one("#reason").value = "small text"
        await pilot.click("#save")
        screen = await settle(pilot)
        status, by, params, reason = q(db_path, "SELECT status, decided_by, params, decision_reason FROM routes "
                                       "WHERE run_id=? AND route_id=?", [run_id, third.route_id])[0]
        assert status in ("edited", "failed") and by == "person:second" and reason == "small text"
        assert json.loads(params)["zoom"] == 2
        assert screen.snap.step > step_before
        assert q(db_path, "SELECT count(*) FROM budget_ledger WHERE run_id=?", [run_id])[0][0] == 3

        # every decision is in the events with who made it, and on the timeline
        decisions = [json.loads(d) for (d,) in q(db_path, "SELECT data FROM events WHERE run_id=? "
                                                  "AND kind='decision' ORDER BY id", [run_id])]
        assert [(d["action"], d["by"]) for d in decisions] == [
            ("approve", WHO), ("rerun", WHO), ("skip", WHO), ("edit", "person:second")]
        await pilot.press("7")
        await pilot.pause(0.2)
        timeline = screen.query_one("#timeline-table")
        rows = [" ".join(map(str, timeline.get_row_at(i))) for i in range(timeline.row_count)]
        assert sum(1 for r in rows if "decision" in r and "person:" in r) == 4


async def test_auto_run_records_policy(user: Path, tmp_path: Path) -> None:
    db_path = tmp_path / "runs.db"
    app = ArgusApp(db_path, user_dir=user, who=WHO, config=CONFIG)
    async with app.run_test(size=SIZE) as pilot:
        screen = await settle(pilot)
        run_id = screen.run_id
        await pilot.press("g")
        await pilot.pause(0.2)
        assert isinstance(app.screen, AutoRunScreen)
        app.screen.query_one("#steps").value = "2"
        await pilot.press("enter")
        await pilot.pause(0.2)
        screen = await settle(pilot)
        by = [r[0] for r in q(db_path, "SELECT decided_by FROM routes WHERE run_id=? AND decided_by IS NOT NULL "
                                "ORDER BY rowid", [run_id])]
        assert by == ["policy:console-auto"] * 2
        # the step keys belong to inspect mode: live mode ignores them
        before = screen.snap.step
        await pilot.press("left_square_bracket")
        await pilot.pause(0.1)
        assert screen.snap.step == before


def test_pause_stops_auto_run_after_the_step_in_flight(user: Path, tmp_path: Path) -> None:
    from argus_tui.live import LiveSession

    db_path = tmp_path / "runs.db"
    session = LiveSession.start(db_path, user, config=CONFIG)
    try:
        steps = session.auto_steps(10)
        first = next(steps)                   # one policy step ran and committed
        session.pause.set()                   # what the `p` key does
        rest = list(steps)
        assert len(rest) == 1 and rest[0].note == "paused after 1 auto step(s)"
        decided = q(db_path, "SELECT decided_by FROM routes WHERE run_id=? AND decided_by IS NOT NULL",
                    [session.run_id])
        assert decided == [("policy:console-auto",)]
        assert first.snap.step == rest[0].snap.step
    finally:
        session.close()


def test_auto_run_follows_the_configs_approval_rules(user: Path, tmp_path: Path) -> None:
    """The console's auto-run is the run's approval chain: a config rule decides before the auto
    policy, as in a headless run."""
    from argus_tui.live import LiveSession

    db_path = tmp_path / "runs.db"
    cfg = {**CONFIG, "approval": [{"families": "ocr", "action": "skip", "reason": "no OCR in this study"}]}
    session = LiveSession.start(db_path, user, config=cfg)
    try:
        list(session.auto_steps(2))
        rows = q(db_path, "SELECT family, status, decided_by FROM routes WHERE run_id=? AND decided_by IS NOT NULL"
                 " ORDER BY rowid", [session.run_id])
        assert rows and rows[0] == ("ocr", "skipped", "policy:config")
        assert all(by == "policy:config" for fam, _st, by in rows if fam == "ocr")
    finally:
        session.close()


async def test_palette_inspects_the_live_run(user: Path, tmp_path: Path) -> None:
    db_path = tmp_path / "runs.db"
    app = ArgusApp(db_path, user_dir=user, who=WHO, config=CONFIG)
    async with app.run_test(size=SIZE) as pilot:
        live = await settle(pilot)
        await pilot.press("ctrl+p")
        await pilot.pause(0.2)
        await pilot.press(*"inspect this run")
        await pilot.pause(0.5)
        await pilot.press("enter")
        for _ in range(100):
            if isinstance(app.screen, InvestigationScreen) and app.screen is not live and app.screen.snap:
                break
            await pilot.pause(0.05)
        assert app.screen.mode == "inspect" and app.screen.run_id == live.run_id
        assert app.screen.snap.step == live.snap.step
