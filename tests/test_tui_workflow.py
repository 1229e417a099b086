"""The stepwise workflow end to end with the real engine, real OCR and SQLite, driven from the
keyboard: approve, skip, edit with a zoom box that reaches the OCR tool, rerun; reject a
hypothesis (it stays out of the profile); the engine stops and says why; a forced route is
refused on a bad parameter (nothing charged) and runs on a good one; a zoom route on a region
picked in the image viewer; more budget. Then inspect shows, at every step, what the live
screens showed at that step (profile, hypotheses with confidence, CPeg detail)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.console import Console
from textual.widgets import DataTable, Static

from argus_tui.app import ArgusApp
from argus_tui.screens.image_viewer import ImageViewerScreen
from argus_tui.screens.investigation import InvestigationScreen, force_families
from argus_tui.screens.modals import ChoiceScreen, PromptScreen, RouteEditScreen
from tui_engine import CONFIG, q, settle, text_user

pytestmark = pytest.mark.slow

WHO = "person:tester"
SIZE = (140, 45)


def plain(widget: Static) -> str:
    console = Console(width=200, record=True, color_system=None)
    console.print(widget.content if hasattr(widget, "content") else widget.render())
    return console.export_text()


async def capture(pilot, screen: InvestigationScreen) -> dict:
    """What the screen shows: the profile pane, the hypothesis rows (marks stripped) and the
    CPeg detail of every hypothesis."""
    await pilot.press("6")
    await pilot.pause(0.2)
    table = screen.query_one("#hyp-table", DataTable)
    rows = sorted(tuple(str(c).lstrip("+~") if i == 0 else str(c) for i, c in enumerate(table.get_row_at(r)))
                  for r in range(table.row_count))
    cpeg = {}
    for row in rows:
        screen.jump_to_node(row[0])
        await pilot.pause(0.2)
        cpeg[row[0]] = plain(screen.query_one("#cpeg-detail", Static))
    screen.query_one("#left").active = "tab-posts"
    await pilot.pause(0.1)
    return {"profile": plain(screen.query_one("#profile-body", Static)), "hyps": rows, "cpeg": cpeg}


async def until(pilot, cond, tries: int = 600) -> None:
    for _ in range(tries):
        if cond():
            return
        await pilot.pause(0.05)
    raise AssertionError(f"timed out on {pilot.app.screen}")


def ledger_rows(db: Path, run_id: str) -> int:
    return q(db, "SELECT count(*) FROM budget_ledger WHERE run_id=? AND units > 0", [run_id])[0][0]


async def test_stepwise_run_then_inspect_every_step(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    user = text_user(tmp_path)
    seen: dict[int, dict] = {}
    app = ArgusApp(db, user_dir=user, who=WHO, config=CONFIG)
    async with app.run_test(size=SIZE) as pilot:
        screen = await settle(pilot)
        run_id = screen.run_id
        seen[screen.snap.step] = await capture(pilot, screen)

        async def decide(*keys: str) -> None:
            await pilot.press(*keys)
            await pilot.pause(0.2)
            s = await settle(pilot)
            seen[s.snap.step] = await capture(pilot, s)

        # 1 approve
        first = screen.proposal
        assert first is not None and first.family == "ocr" and first.hypothesis_id
        card = plain(screen.query_one("#proposal-card", Static))
        assert f"for {first.hypothesis_id}" in card and "why" in card and "expects" in card
        await decide("a")
        assert q(db, "SELECT status, decided_by FROM routes WHERE run_id=? AND route_id=?",
                 [run_id, first.route_id])[0] == ("done", WHO)
        assert screen.query_one("#changes").display and f"step {screen.snap.step}" in plain(
            screen.query_one("#changes", Static))
        # 2 skip
        second = screen.proposal
        assert second is not None
        await decide("x")
        assert q(db, "SELECT status FROM routes WHERE run_id=? AND route_id=?",
                 [run_id, second.route_id])[0][0] == "skipped"
        # 3 edit with a zoom box: the box reaches the OCR tool
        third = screen.proposal
        assert third is not None and third.family in ("ocr", "zoom_ocr")
        await pilot.press("e")
        await until(pilot, lambda: isinstance(app.screen, RouteEditScreen))
        assert app.focused is app.screen.query_one("#param-0")          # the first field has focus
        app.screen.query_one("#param-new").value = "box=[10, 20, 400, 80]; zoom=2"
        app.screen.query_one("#reason").value = "the top line"
        await pilot.click("#save")
        s = await settle(pilot)
        seen[s.snap.step] = await capture(pilot, s)
        calls = q(db, "SELECT inputs FROM tool_calls WHERE run_id=? AND route_id=? AND tool LIKE '%ocr%'",
                  [run_id, third.route_id])
        assert calls and any(json.loads(i).get("box") == [10, 20, 400, 80] for (i,) in calls), calls
        # 4 rerun the first route with another zoom
        screen.query_one("#ledger").move_cursor(row=0)
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, RouteEditScreen))
        app.screen.query_one("#param-new").value = "zoom=3"
        await pilot.click("#save")
        s = await settle(pilot)
        seen[s.snap.step] = await capture(pilot, s)
        assert q(db, "SELECT count(*) FROM routes WHERE run_id=? AND parent_route_id=?",
                 [run_id, first.route_id])[0][0] == 1

        # reject a hypothesis that is in the profile: it leaves the profile and stays out
        profiled = {r[0] for r in q(db, "SELECT attribute FROM profile WHERE run_id=?", [run_id])}
        target = next(h for h in screen.snap.hypotheses() if h.status == "admitted" and h.attribute in profiled)
        await pilot.press("3")
        await pilot.pause(0.2)
        ids = [str(screen.query_one("#hyp-table", DataTable).get_row_at(i)[0]).lstrip("+~")
               for i in range(screen.query_one("#hyp-table", DataTable).row_count)]
        screen.query_one("#hyp-table", DataTable).move_cursor(row=ids.index(target.node_id))
        await pilot.press("h")
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, PromptScreen))
        app.screen.query_one("#prompt").value = "a different person"
        await pilot.press("enter")
        await pilot.pause(0.2)
        s = await settle(pilot)
        seen[s.snap.step] = await capture(pilot, s)
        status, data = q(db, "SELECT status, data FROM nodes WHERE run_id=? AND node_id=?",
                         [run_id, target.node_id])[0]
        assert status == "removed" and json.loads(data).get("rejected_by") == WHO
        assert (target.attribute, target.value) not in set(q(db, "SELECT attribute, value FROM profile "
                                                              "WHERE run_id=?", [run_id]))
        assert target.node_id not in {h.node_id for h in s.snap.hypotheses() if h.status != "removed"}

        # skip what is left until the engine stops: the stop card says why and what next
        for _ in range(12):
            if s.proposal is None:
                break
            await decide("x")
            s = app.screen
        assert s.proposal is None
        reason = json.loads(q(db, "SELECT data FROM events WHERE run_id=? AND kind='run_finished' "
                              "ORDER BY id DESC LIMIT 1", [run_id])[0][0])["reason"]
        card = plain(s.query_one("#proposal-card", Static))
        assert reason in card and "more budget" in card and "force a route" in card

        # a forced route: a bad parameter is refused naming the field, nothing is charged
        charged = ledger_rows(db, run_id)
        families = force_families()
        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press(str(families.index("ocr") + 1))
        await until(pilot, lambda: isinstance(app.screen, RouteEditScreen))
        edit = app.screen
        fields = list(edit.params)
        edit.query_one(f"#param-{fields.index('file')}").value = "images/p02_1.png"
        edit.query_one(f"#param-{fields.index('zoom')}").value = "99"
        await pilot.click("#save")
        await pilot.pause(0.3)
        assert app.screen is edit and edit.query_one(f"#err-{fields.index('zoom')}").display
        await pilot.press("escape")
        s = await settle(pilot)
        assert ledger_rows(db, run_id) == charged
        # ... and a good one runs and is charged, decided by the person
        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press(str(families.index("ocr") + 1))
        await until(pilot, lambda: isinstance(app.screen, RouteEditScreen))
        fields = list(app.screen.params)
        app.screen.query_one(f"#param-{fields.index('file')}").value = "images/p02_1.png"
        await pilot.click("#save")
        await pilot.pause(0.3)
        s = await settle(pilot)
        seen[s.snap.step] = await capture(pilot, s)
        assert ledger_rows(db, run_id) == charged + 1
        forced = q(db, "SELECT family, status, decided_by FROM routes WHERE run_id=? ORDER BY rowid DESC LIMIT 1",
                   [run_id])[0]
        assert forced == ("ocr", "done", WHO)

        # a zoom route on a region picked in the image viewer (snapped to an OCR box)
        await pilot.press("1")
        await pilot.pause(0.2)
        posts = [p.post_id for p in s.snap.posts]
        s.query_one("#posts-table", DataTable).move_cursor(row=posts.index("p02"))
        await pilot.press("v")
        await until(pilot, lambda: isinstance(app.screen, ImageViewerScreen))
        assert app.screen.boxes
        await pilot.press("n")
        box = list(app.screen.pick)
        await pilot.press("enter")           # proposes the zoom route as a card ...
        await pilot.pause(0.3)
        s = await settle(pilot)
        assert "zoom_ocr" in plain(s.query_one("#proposal-card", Static))
        await pilot.press("a")               # ... which runs when approved
        await pilot.pause(0.3)
        s = await settle(pilot)
        seen[s.snap.step] = await capture(pilot, s)
        zoom = q(db, "SELECT inputs FROM tool_calls WHERE run_id=? ORDER BY id DESC LIMIT 1", [run_id])[0][0]
        assert json.loads(zoom).get("box") == box

        # more budget
        await pilot.press("b")
        await until(pilot, lambda: isinstance(app.screen, PromptScreen))
        app.screen.query_one("#prompt").value = "10"
        await pilot.press("enter")
        await pilot.pause(0.3)
        s = await settle(pilot)
        seen[s.snap.step] = await capture(pilot, s)
        assert q(db, "SELECT budget FROM runs WHERE run_id=?", [run_id])[0][0] == 30

    # inspect: every step looks as it did live
    assert len(seen) >= 8
    app = ArgusApp(db, run_id=run_id, inspect=True, who=WHO)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, InvestigationScreen) and app.screen.snap is not None)
        screen = app.screen
        for step, live in sorted(seen.items()):
            screen.goto_step(step)
            await until(pilot, lambda: screen.snap.step == step)       # noqa: B023
            await pilot.pause(0.2)
            assert await capture(pilot, screen) == live, f"step {step}"
