"""Dialogs a person can see and trust (real engine, real OCR, real SQLite, Pilot at 80x24 and
140x45): every field of the edit, rerun and force dialogs shows what is typed; a refusal keeps
the dialog open with what was typed and a message under every bad field, nothing charged; no
budget left names the `b` key; the force dialog lists every family whole; dialog texts wrap."""
from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input

from argus_tui.app import ArgusApp
from argus_tui.screens.investigation import force_families
from argus_tui.screens.modals import ChoiceScreen, RouteEditScreen
from tui_engine import CONFIG, q, screen_lines, settle, text_user, until

pytestmark = pytest.mark.slow

WHO = "person:tester"
SIZES = [(80, 24), (140, 45)]


def charged(db: Path, run_id: str) -> int:
    return q(db, "SELECT count(*) FROM budget_ledger WHERE run_id=? AND units > 0", [run_id])[0][0]


async def _type_in_every_field(pilot, app) -> None:
    modal = app.screen
    assert isinstance(modal, RouteEditScreen)
    for i, inp in enumerate(modal.query(Input)):
        typed = f"zz{chr(ord('a') + i)}9"
        inp.focus()
        inp.value = ""
        await pilot.pause(0.05)
        await pilot.press(*typed)
        await pilot.pause(0.1)
        assert inp.value == typed and app.focused is inp
        label = str(inp.parent.children[0].render())
        shown = [line for line in screen_lines(app) if typed in line]
        assert len(shown) == 1 and label in shown[0], (inp.id, label, screen_lines(app))
        assert inp.region.height >= 1 and app.screen.region.contains_region(inp.region)
    await pilot.press("escape")
    await pilot.pause(0.1)


@pytest.mark.parametrize("size", SIZES)
async def test_every_dialog_field_shows_what_is_typed(tmp_path: Path, size: tuple[int, int]) -> None:
    app = ArgusApp(tmp_path / "runs.db", user_dir=text_user(tmp_path), who=WHO, config=CONFIG)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("e")                                   # edit the proposed route
        await until(pilot, lambda: isinstance(app.screen, RouteEditScreen))
        await _type_in_every_field(pilot, app)
        await pilot.press("a")
        await settle(pilot)
        await pilot.press("r")                                   # rerun the route that ran
        await until(pilot, lambda: isinstance(app.screen, RouteEditScreen))
        await _type_in_every_field(pilot, app)
        await pilot.press("f")                                   # force: every family listed whole
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.pause(0.2)
        text = "\n".join(screen_lines(app))
        for i, fam in enumerate(force_families()):
            assert f"{i + 1}  {fam}" in text, (fam, text)
        await pilot.press(str(force_families().index("zoom_ocr") + 1))
        await until(pilot, lambda: isinstance(app.screen, RouteEditScreen))
        await _type_in_every_field(pilot, app)


@pytest.mark.parametrize("size", SIZES)
async def test_a_refusal_keeps_the_dialog_and_names_every_bad_field(tmp_path: Path, size: tuple[int, int]) -> None:
    db = tmp_path / "runs.db"
    app = ArgusApp(db, user_dir=text_user(tmp_path), who=WHO, config=CONFIG, budget=4)
    async with app.run_test(size=size) as pilot:
        screen = await settle(pilot)
        run_id = screen.run_id
        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press(str(force_families().index("ocr") + 1))
        await until(pilot, lambda: isinstance(app.screen, RouteEditScreen))
        modal = app.screen
        fields = list(modal.params)
        for name, value in (("file", ""), ("box", "x"), ("zoom", "abc")):
            modal.query_one(f"#param-{fields.index(name)}", Input).value = value
        modal.query_one("#reason", Input).value = "typed with care"
        await pilot.click("#save")
        await pilot.pause(0.3)
        assert app.screen is modal                   # still open, what was typed kept
        assert modal.query_one("#reason", Input).value == "typed with care"
        assert modal.query_one(f"#param-{fields.index('box')}", Input).value == "x"
        for name in ("file", "box", "zoom"):
            err = modal.query_one(f"#err-{fields.index(name)}")
            assert err.display and str(err.render()).startswith("↑ "), name
            assert err.region.height >= 1 and modal.region.contains_region(err.region), (name, err.region)
        assert not modal.query_one(f"#err-{fields.index('carrier')}").display
        assert charged(db, run_id) == 0
        await pilot.press("escape")
        await pilot.pause(0.1)
        # spend the budget (two OCR routes of 2), then a good forced route names the b key
        for _ in range(2):
            await pilot.press("a")
            screen = await settle(pilot)
        assert screen.snap.remaining == 0 and charged(db, run_id) == 2
        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press(str(force_families().index("ocr") + 1))
        await until(pilot, lambda: isinstance(app.screen, RouteEditScreen))
        modal = app.screen
        modal.query_one(f"#param-{list(modal.params).index('file')}", Input).value = "images/p02_1.png"
        await pilot.click("#save")
        await pilot.pause(0.3)
        assert app.screen is modal
        top = str(modal.query_one("#err-route").render())
        assert "press b for more budget" in top and "extend_budget" not in top
        assert any("press b for more budget" in line for line in screen_lines(app))
        assert charged(db, run_id) == 2


@pytest.mark.parametrize("size", SIZES)
async def test_the_continue_question_is_shown_whole(tmp_path: Path, size: tuple[int, int]) -> None:
    from tui_engine import engine_run

    user = text_user(tmp_path)
    db = tmp_path / "runs.db"
    engine_run(db, user, "run-half", steps=1)
    app = ArgusApp(db, user_dir=user, who=WHO, config=CONFIG)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.pause(0.2)
        created = q(db, "SELECT created_at FROM runs WHERE run_id='run-half'")[0][0]
        text = "".join(c for c in "".join(screen_lines(app)) if c not in " ▀▄█▊▎▌▐▔▁│╭╮╰╯─")
        assert f"created{created}" in text, text
        assert "Continueitorstartanewrun?" in text
