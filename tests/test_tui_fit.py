"""Console at 80x24 and 140x45, read from the rendered screen (issue 37): the `?` help fits
without being cut at the right edge; the footer names the keys that act, `w` (mark a finding
wrong) and the ones that open posts, the evidence graph, the profile and the timeline (1 2 6 7)
included, in one line;
the escalated route's pop-up hides neither the route card nor the budget. Real engine runs."""
from __future__ import annotations

from pathlib import Path

import pytest
from textual.containers import VerticalScroll
from textual.widgets._toast import Toast

from argus_tui.app import ArgusApp
from argus_tui.screens.investigation import InvestigationScreen
from argus_tui.screens.modals import HelpScreen
from tui_engine import CONFIG, screen_lines, settle, text_user, until

pytestmark = pytest.mark.slow

SIZES = [(80, 24), (140, 45)]
WHO = "person:tester"
ESCALATE = {**CONFIG, "approval": [{"families": "*ocr", "action": "escalate", "reason": "image text needs a look"}]}
PANES = ["w wrong", "d info", "1 posts", "2 graph", "6 profile", "7 time", "? help"]   # w acts in every mode


def footer(app) -> str:
    return screen_lines(app)[-1]


async def footer_says(pilot, entries: list[str]) -> str:
    await until(pilot, lambda: all(e in footer(pilot.app) for e in entries))
    return footer(pilot.app)


@pytest.mark.parametrize("size", SIZES)
async def test_help_fits_and_the_footer_names_the_keys(tmp_path: Path, size: tuple[int, int]) -> None:
    db = tmp_path / "runs.db"
    app = ArgusApp(db, user_dir=text_user(tmp_path), who=WHO, config=CONFIG, budget=2)
    async with app.run_test(size=size) as pilot:
        screen = await settle(pilot)
        quit_entry = ["q quit"] if size[0] >= 100 else []          # at 80 columns q is in `?` and on the stop card
        await footer_says(pilot, ["a approve", "x skip", "e edit", *PANES, *quit_entry])

        # `?`: the box and its table inside the screen, every table line closed on the right
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.pause(0.3)
        box = app.screen.query_one(VerticalScroll)
        assert box.region.right <= size[0], box.region
        assert box.virtual_size.width <= box.scrollable_content_region.width, (box.virtual_size, box.region)
        seen: list[str] = []
        for _ in range(40):
            inner = box.content_region          # inside the box's border and padding
            seen += [line[inner.x: inner.right] for line in screen_lines(app)[inner.y: inner.bottom]]
            if box.scroll_y >= box.max_scroll_y:
                break
            box.scroll_to(y=box.scroll_y + box.scrollable_content_region.height, animate=False)
            await pilot.pause(0.1)
        table = [line for line in seen if any(c in line for c in "┌├└│")]
        assert table, seen
        for line in table:
            for left, right in (("┌", "┐"), ("├", "┤"), ("└", "┘")):
                assert left not in line or right in line, line
            if "┌" not in line and "├" not in line and "└" not in line:
                assert line.count("│") >= 3, line                   # key │ does │: the last column is closed
        assert any("1`–`7" in line or "1–7" in line for line in seen), "the pane keys are in the help"
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen)

        # the engine stopped (budget spent): the keys that act then
        await pilot.press("a")
        screen = await settle(pilot)
        assert screen.stopped()
        text = await footer_says(pilot, ["b budget", "f force", "h hyp", *PANES, *quit_entry])
        assert "a approve" not in text
        run_id = screen.run_id

    app = ArgusApp(db, run_id=run_id, inspect=True)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: isinstance(app.screen, InvestigationScreen) and app.screen.snap is not None)
        text = await footer_says(pilot, ["[ prev", "] next", *PANES, "q quit"])
        assert "b budget" not in text and "a approve" not in text
        # each pane key named there opens its pane
        await pilot.press("7")
        await pilot.pause(0.2)
        assert app.focused is not None and app.focused.id == "timeline-table"


@pytest.mark.parametrize("size", SIZES)
async def test_the_escalation_popup_hides_neither_the_card_nor_the_budget(tmp_path: Path, size: tuple[int, int]) -> None:
    db = tmp_path / "runs.db"
    app = ArgusApp(db, user_dir=text_user(tmp_path), who=WHO, config=ESCALATE)
    async with app.run_test(size=size, notifications=True) as pilot:
        # the note pops up with the proposal (for 8 s): caught as it shows, then the screen read
        await until(pilot, lambda: isinstance(app.screen, InvestigationScreen) and bool(app.screen.query(Toast)))
        screen = app.screen
        await until(pilot, lambda: screen.proposal is not None and not screen.busy)
        await until(pilot, lambda: "image text needs a look" in " ".join(" ".join(screen_lines(app)).split()))
        shown = screen_lines(app)
        toasts = list(screen.query(Toast))
        assert toasts, shown
        for toast in toasts:
            for pane in ("#proposal", "#budget"):
                region = screen.query_one(pane).region
                assert not toast.region.overlaps(region), (pane, toast.region, region, shown)
        # and the card says it for as long as the route waits
        card = str(screen.query_one("#proposal-card").render())
        assert "asks escalated to person:" in card and "image text needs a look" in card, card
