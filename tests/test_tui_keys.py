"""Console: a text field owns every key typed into it (issue 37). Typed fast after the key
that focuses the field (`/status` on the store, a paste), the letters used to reach the
widget that had the focus before: `s` sorted the store and `a` approved the route, charging
the budget and recording the route as decided by the person.

Each text field of the live screen, of its dialogs and of the start screen is focused the way
a person does it, then every letter and digit is typed in one burst (as a fast typist or a
paste sends them); the run DB must not move (step, spent, routes, ledger, events, hypothesis
history), no dialog may open or close, and the field holds what was typed. Real engine run,
real OCR, real SQLite, at 80x24 and 140x45."""
from __future__ import annotations

import string
from pathlib import Path

import pytest
from textual import events
from textual.widgets import Input

from argus_tui.app import ArgusApp
from argus_tui.screens.investigation import InvestigationScreen
from argus_tui.screens.modals import AutoRunScreen, ChoiceScreen, PromptScreen, RouteEditScreen
from argus_tui.screens.start import StartScreen
from tui_engine import CONFIG, q, rich_user, settle, until

pytestmark = pytest.mark.slow

WHO = "person:tester"
TYPED = string.ascii_lowercase + string.digits
KEY_NAMES = {"/": "slash"}


def run_state(db_path: Path, run_id: str) -> tuple:
    """Everything a key that acts would change, read from the run DB."""
    return (q(db_path, "SELECT step, spent, budget, status FROM runs WHERE run_id=?", [run_id]),
            q(db_path, "SELECT route_id, status, decided_by FROM routes WHERE run_id=? ORDER BY route_id", [run_id]),
            q(db_path, "SELECT count(*) FROM budget_ledger WHERE run_id=?", [run_id]),
            q(db_path, "SELECT count(*) FROM events WHERE run_id=?", [run_id]),
            q(db_path, "SELECT count(*) FROM hypothesis_history WHERE run_id=?", [run_id]))


async def burst(pilot, text: str) -> None:
    """Keys as a terminal delivers a fast typist's or a paste's: all queued before the first
    is handled (Pilot's press waits for the app to idle between keys, which hides the race)."""
    app = pilot.app
    for ch in text:
        event = events.Key(KEY_NAMES.get(ch, ch), ch)
        event.set_sender(app)
        app._driver.send_message(event)
    await pilot.pause(0.3)
    await pilot.pause(0.1)


async def type_in_every_field(pilot, modal) -> None:
    """Tab to each text field of a dialog in turn and type every letter and digit into it."""
    for inp in list(modal.query(Input)):
        for _ in range(12):
            if pilot.app.focused is inp:
                break
            await pilot.press("tab")
        assert pilot.app.focused is inp, f"tab never reached {inp.id} of {modal}"
        before = inp.value
        await burst(pilot, TYPED)
        assert pilot.app.screen is modal, f"typing in {inp.id} of {type(modal).__name__} left or opened a dialog"
        if inp.type == "text":
            assert inp.value.startswith(before) and inp.value.endswith(TYPED), (inp.id, inp.value)


@pytest.mark.parametrize("size", [(80, 24), (140, 45)])
async def test_typing_in_any_text_field_never_acts(tmp_path: Path, size: tuple[int, int]) -> None:
    user = rich_user(tmp_path)
    db_path = tmp_path / "runs.db"
    app = ArgusApp(db_path, user_dir=user, who=WHO, config=CONFIG)
    async with app.run_test(size=size) as pilot:
        screen = await settle(pilot)
        await pilot.press("a")                       # one route run, so `r` (rerun) has a dialog too
        screen = await settle(pilot)
        run_id = screen.run_id
        proposal = screen.proposal
        assert proposal is not None and screen.snap.hypotheses(), "a route waits and the store has rows"
        state = run_state(db_path, run_id)

        # the hypothesis filter, focused with `3` then `/`, typed in one go: letters that come
        # before the field has the focus are dropped, never acted on; then the field takes them all
        for keys, fid in (("3/", "#hyp-filter"), ("7/", "#timeline-filter")):    # 7: full screen at 80x24
            await burst(pilot, keys + TYPED)
            field = screen.query_one(fid, Input)
            assert app.focused is field and TYPED.endswith(field.value), (keys, app.focused, field.value)
            assert app.screen is screen and run_state(db_path, run_id) == state, f"typing {keys}{TYPED} acted"
            await burst(pilot, TYPED)
            assert field.value.endswith(TYPED) and app.screen is screen and run_state(db_path, run_id) == state
            field.value = ""
            await pilot.press("enter")                 # leaves the filter for its table
            assert app.focused is not field
        await pilot.press("escape")

        async def dialog(keys: list[str], kind: type) -> None:
            await pilot.press("3")
            await pilot.press(*keys)
            await until(pilot, lambda: isinstance(app.screen, kind) and app.screen.query(Input))
            modal = app.screen
            await pilot.pause(0.1)
            await type_in_every_field(pilot, modal)
            await pilot.press("escape")
            await until(pilot, lambda: app.screen is screen)
            assert run_state(db_path, run_id) == state, f"typing in the {kind.__name__} of {keys} acted"

        await dialog(["e"], RouteEditScreen)         # edit the proposed route
        await dialog(["r"], RouteEditScreen)         # rerun the route that ran
        await dialog(["f", "1"], RouteEditScreen)    # force: the first family's parameters
        await dialog(["b"], PromptScreen)            # more budget
        await dialog(["g"], AutoRunScreen)           # auto-run N steps
        await dialog(["h", "n"], PromptScreen)       # note on the selected hypothesis: the reason

        # the command palette's search line
        await pilot.press("ctrl+p")
        await until(pilot, lambda: app.screen is not screen and app.screen.query(Input))
        palette = app.screen
        await burst(pilot, TYPED)
        assert app.screen is palette and run_state(db_path, run_id) == state
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen)

        assert screen.proposal is not None and screen.proposal.route_id == proposal.route_id and not screen.busy
        assert not any(isinstance(s, ChoiceScreen) for s in app.screen_stack)
    assert run_state(db_path, run_id) == state


@pytest.mark.parametrize("size", [(80, 24), (140, 45)])
async def test_typing_in_the_start_screen_never_opens_a_run(tmp_path: Path, size: tuple[int, int]) -> None:
    """The start screen's fields (folder, user id, budget, runs.db): `i` and `c` open a run
    only from the run list. The runs arriving from their worker never take the focus from a
    field the person types in (they did: the next `c` continued a run)."""
    from tui_engine import engine_run

    user = rich_user(tmp_path)
    db_path = tmp_path / "runs.db"
    engine_run(db_path, user, "r_saved", steps=2)
    state = run_state(db_path, "r_saved")
    app = ArgusApp(db_path)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: isinstance(app.screen, StartScreen) and app.screen.query_one("#runs").row_count)
        start = app.screen
        folder = start.query_one("#user-dir", Input)
        await pilot.click("#user-dir")
        await burst(pilot, TYPED)
        assert app.focused is folder and folder.value == TYPED and app.screen is start
        # the run list read again (as `List runs` does) while the person types in the folder field
        start.list_runs()
        await pilot.pause(0.5)
        assert app.focused is folder, "the run list took the focus from the field being typed in"
        await burst(pilot, TYPED)
        assert app.screen is start and folder.value == TYPED * 2
        for fid in ("#bench-user", "#budget", "#db-path"):
            field = start.query_one(fid, Input)
            await pilot.click(fid)
            assert app.focused is field
            await burst(pilot, TYPED)
            assert app.screen is start, f"typing in {fid} opened {app.screen}"
            assert TYPED in field.value or field.type != "text", (fid, field.value)   # at the clicked place
    assert run_state(db_path, "r_saved") == state
    assert not any(isinstance(s, InvestigationScreen) for s in app.screen_stack)
