"""What the live screen says, checked on real engine runs (real OCR, real SQLite; Pilot at 80x24
and 140x45): the changes bar (one line per change, no non-changes, ⏎ for line breaks, an
ellipsis where cut, a person's confirmation shown, with its mark in the store row), route cards
that say what they serve and what they expect, readable timeline rows, status colours from the
theme, new rows scrolled into view, visible focus, no emoji variation selector drawn, the footer
keys of the stop card, and the image viewer proposing (not running) its zoom route."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from rich.cells import cell_len
from textual.widgets import DataTable, Static

from argus_tui.app import ArgusApp
from argus_tui.screens.image_viewer import ImageViewerScreen
from argus_tui.screens.modals import ChoiceScreen, PromptScreen
from tui_engine import CONFIG, q, rich_user, screen_lines, settle, text_user, until

pytestmark = pytest.mark.slow

WHO = "person:tester"
SIZES = [(80, 24), (140, 45)]


def text_of(widget: Static) -> str:
    return str(widget.render())


def card_lines(screen) -> dict[str, str]:
    """The route card's lines by their first word (for, why, expects, target ...)."""
    out = {}
    for line in text_of(screen.query_one("#proposal-card", Static)).splitlines():
        head, _, rest = line.partition(" ")
        out.setdefault(head, rest)
    return out


def check_screen_text(app, size) -> None:
    for line in screen_lines(app):
        assert "\ufe0f" not in line, line                 # drawn two cells wide by terminals
        assert cell_len(line) == size[0], line
        assert "\\n" not in line, line                    # a literal backslash-n


def check_changes_bar(screen, size) -> list[str]:
    bar = screen.query_one("#changes", Static)
    rows = text_of(bar).splitlines()
    for row in rows:
        assert "\\n" not in row
        for old, new in re.findall(r" (\S+)→(\S+)", row):
            assert old != new, row                        # never a non-change
    # each row on one screen line, cut with an ellipsis when longer than the bar
    assert bar.region.height == len(rows) or bar.region.height == 3, (bar.region, rows)
    return rows


@pytest.mark.parametrize("size", SIZES)
async def test_the_live_screen_says_what_happened(tmp_path: Path, size: tuple[int, int]) -> None:
    user = rich_user(tmp_path)
    # one caption with a line break: values shown with ⏎, never a literal \n or a broken line
    posts = [json.loads(x) for x in (user / "posts.jsonl").read_text().splitlines()]
    posts[-1]["caption"] = "Weekend walk in Xili, Shenzhen,\nhome is close ✏️"
    (user / "posts.jsonl").write_text("".join(json.dumps(p) + "\n" for p in posts))
    db = tmp_path / "runs.db"
    app = ArgusApp(db, user_dir=user, who=WHO, config=CONFIG, theme="textual-dark")
    async with app.run_test(size=size) as pilot:
        screen = await settle(pilot)
        run_id = screen.run_id
        theme = app.current_theme
        kinds = set()
        for _ in range(3):
            if screen.proposal is None:
                break
            card = card_lines(screen)
            assert "for" in card, card                   # every card says what it serves
            kinds.add("exploration" if card["for"].startswith("exploration — ") else "hypothesis")
            if "expects" in card and "why" in card:
                assert card["expects"].rstrip("…") not in card["why"], card
            await pilot.press("a")
            screen = await settle(pilot)
            check_changes_bar(screen, size)
            check_screen_text(app, size)
            # the store shows the first new (else changed) row of the step
            marks = screen.changes.marks() if screen.changes else {}
            first = [r[0] for r in screen.query_one("#hyps").visible_rows() if marks.get(r[0]) == "+"] or [
                r[0] for r in screen.query_one("#hyps").visible_rows() if r[0] in marks]
            if first:
                await pilot.pause(0.2)
                assert screen.query_one("#hyps").row_visible(first[0]), first[0]
        assert kinds, kinds

        # statuses in the theme's colours
        table = screen.query_one("#hyp-table", DataTable)
        colours = {"admitted": theme.success, "suspended": theme.primary, "unresolved": theme.warning}
        seen = set()
        for i in range(table.row_count):
            status_cell = table.get_row_at(i)[5]
            status = str(status_cell).split(" ")[0]
            if status in colours:
                assert any(str(span.style).startswith(colours[status]) for span in status_cell.spans), status
                seen.add(status)
        assert "admitted" in seen

        # confirm an admitted hypothesis: the changes bar says so, the store row carries ✓
        target = next(h for h in screen.snap.hypotheses() if h.status == "admitted")
        await pilot.press("3")
        await pilot.pause(0.2)
        ids = [str(table.coordinate_to_cell_key((i, 0)).row_key.value) for i in range(table.row_count)]
        table.move_cursor(row=ids.index(target.node_id))
        await pilot.press("h")
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, PromptScreen))
        app.screen.query_one("#prompt").value = "I know this person"
        await pilot.press("enter")
        screen = await settle(pilot)
        rows = check_changes_bar(screen, size)
        assert any(f"✓ {target.node_id}" in r and f"confirmed by {WHO}" in r for r in rows), rows
        idx = [str(table.coordinate_to_cell_key((i, 0)).row_key.value) for i in range(table.row_count)]
        assert str(table.get_row_at(idx.index(target.node_id))[5]).endswith("✓")
        assert "no hypothesis or evidence changed" not in " ".join(rows)

        # the timeline reads as text (the JSON is in the detail view)
        await pilot.press("7")
        await pilot.pause(0.3)
        timeline = screen.query_one("#timeline-table", DataTable)
        details = [str(timeline.get_row_at(i)[2]) for i in range(timeline.row_count)]
        assert details and not any(d.lstrip().startswith("{") or '":' in d for d in details), details[:5]
        proposed = [d for d, k in zip(details, (str(timeline.get_row_at(i)[1]) for i in range(timeline.row_count)))
                    if k == "route_proposed"]
        assert proposed and all(" for h" in d or " exploration" in d for d in proposed), proposed
        assert not any("for None" in d for d in details)

        # focus is visible on the tabbed panes too: their tab row takes the accent colour
        from textual.color import Color

        accent = Color.parse(theme.accent)
        tabs = screen.query_one("#bottom ContentTabs")
        await pilot.press("3")
        await pilot.pause(0.2)
        def near(c: Color) -> bool:
            return all(abs(a - b) <= 2 for a, b in zip(c.rgb, accent.rgb)) and c.a > 0

        if not screen.has_class("-small"):        # (hidden in the small layout until its key)
            assert not near(tabs.styles.background)
        await pilot.press("7")
        await pilot.pause(0.3)
        assert screen.focused is screen.query_one("#timeline-table")
        assert near(tabs.styles.background), tabs.styles.background
        check_screen_text(app, size)
    assert q(db, "SELECT count(*) FROM events WHERE run_id=? AND kind='hypothesis_action'", [run_id])[0][0] == 1


@pytest.mark.parametrize("size", SIZES)
async def test_stop_card_keys_and_a_picked_zoom_route_to_approve(tmp_path: Path, size: tuple[int, int]) -> None:
    db = tmp_path / "runs.db"
    app = ArgusApp(db, user_dir=text_user(tmp_path), who=WHO, config=CONFIG, budget=4)
    async with app.run_test(size=size) as pilot:
        screen = await settle(pilot)
        run_id = screen.run_id
        await pilot.pause(0.3)
        footer = screen_lines(app)[-1]
        assert "a approve" in footer and "b budget" not in footer
        for _ in range(4):
            if screen.proposal is None:
                break
            await pilot.press("a")
            screen = await settle(pilot)
        assert screen.proposal is None and "the engine stopped" in text_of(screen.query_one("#proposal-card", Static))
        await pilot.pause(0.3)
        footer = screen_lines(app)[-1]
        for key in ("b budget", "f force", "h hyp"):
            assert key in footer, footer
        for key in ("a approve", "x skip", "e edit"):
            assert key not in footer, footer
        await pilot.press("a")                              # says what to do instead of nothing
        await pilot.pause(0.2)
        assert any("the engine stopped" in str(n.message) for n in app._notifications)

        # more budget, then a zoom route picked in the image viewer: proposed as a card, not run
        await pilot.press("b")
        await until(pilot, lambda: isinstance(app.screen, PromptScreen))
        app.screen.query_one("#prompt").value = "4"
        await pilot.press("enter")
        screen = await settle(pilot)
        charged = q(db, "SELECT count(*) FROM budget_ledger WHERE run_id=? AND units > 0", [run_id])[0][0]
        calls = q(db, "SELECT count(*) FROM tool_calls WHERE run_id=?", [run_id])[0][0]
        await pilot.press("1")
        await pilot.pause(0.3)
        posts = [p.post_id for p in screen.snap.posts]
        screen.query_one("#posts-table", DataTable).move_cursor(row=posts.index("p02"))
        await pilot.press("v")
        await until(pilot, lambda: isinstance(app.screen, ImageViewerScreen))
        await pilot.press("n")
        box = list(app.screen.pick)
        await pilot.press("enter")
        await pilot.pause(0.5)
        screen = await settle(pilot)
        if screen.maximized is not None:
            await pilot.press("escape")
            await pilot.pause(0.2)
        assert q(db, "SELECT count(*) FROM budget_ledger WHERE run_id=? AND units > 0", [run_id])[0][0] == charged
        assert q(db, "SELECT count(*) FROM tool_calls WHERE run_id=?", [run_id])[0][0] == calls
        card = text_of(screen.query_one("#proposal-card", Static))
        assert "zoom_ocr" in card and "cost 2" in card and str(box[0]) in card
        await pilot.pause(0.3)
        footer = screen_lines(app)[-1]
        assert "a approve" in footer, footer
        await pilot.press("a")
        await pilot.pause(0.3)
        screen = await settle(pilot)
        assert q(db, "SELECT count(*) FROM budget_ledger WHERE run_id=? AND units > 0", [run_id])[0][0] == charged + 1
        last = q(db, "SELECT tool, inputs FROM tool_calls WHERE run_id=? ORDER BY id DESC LIMIT 1", [run_id])[0]
        assert "ocr" in last[0] and json.loads(last[1]).get("box") == box
