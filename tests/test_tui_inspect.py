"""Console, inspect mode: a run the real engine wrote (real OCR, real SQLite) opened read-only;
the step scrubber must show the graph, store, budget and profile as they were."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from PIL import Image
from textual.widgets import DataTable, Static, Tree

from argus_tui.app import ArgusApp
from argus_tui.screens.investigation import InvestigationScreen
from argus_tui.state import build_snapshot, provenance_chain
from argus_tui.widgets.image_view import HalfBlockImage
from db.store import open_db
from engine_user import make_user
from tui_engine import engine_run

pytestmark = pytest.mark.slow

SIZE = (120, 40)
RUN = "run-n"


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> Path:
    """The nurse user of the engine tests (text-bearing, plain and corrupt images, hostile
    text), four OCR routes approved by the auto policy until the engine stops."""
    root = tmp_path_factory.mktemp("inspect")
    db_path = root / "runs.db"
    engine_run(db_path, make_user(root), RUN, steps=6)
    return db_path


@pytest.fixture()
def run_db(saved: Path, tmp_path: Path) -> Path:
    """A copy per test (some tests edit rows)."""
    out = tmp_path / "runs.db"
    shutil.copy(saved, out)
    return out


def sql(path: Path, query: str, args=()) -> list[tuple]:
    db = open_db(path, readonly=True)
    try:
        return db.execute(query, list(args)).fetchall()
    finally:
        db.conn.close()


def last_step(path: Path) -> int:
    return sql(path, "SELECT max(step) FROM events WHERE run_id=?", [RUN])[0][0]


def test_snapshot_as_of_step_matches_sql(run_db: Path) -> None:
    db = open_db(run_db, readonly=True)
    top = last_step(run_db)
    for step in range(top + 1):
        snap = build_snapshot(db, RUN, step)
        spent = sql(run_db, "SELECT coalesce(sum(units),0) FROM budget_ledger WHERE run_id=? AND step<=?",
                    [RUN, step])[0][0]
        assert snap.remaining == pytest.approx(20.0 - spent)
        hyps = {r[0] for r in sql(run_db, "SELECT node_id FROM nodes WHERE run_id=? AND kind='hypothesis' "
                                  "AND step_created<=?", [RUN, step])}
        assert {h.node_id for h in snap.hypotheses()} == hyps
        # hypothesis status as of the step = its last status change at or before it
        for h in snap.hypotheses():
            want = sql(run_db, "SELECT status, confidence FROM hypothesis_history WHERE run_id=? AND node_id=? "
                       "AND step<=? ORDER BY id DESC LIMIT 1", [RUN, h.node_id, step])
            if want:
                assert h.status == want[0][0], (h.node_id, step)
        assert all(e.step <= step for e in snap.timeline)
    # a hypothesis the verifier removed later was alive before
    # (one proposed in an earlier step than its removal: an alternative reading can be removed in the
    # step that proposed it)
    removed = sql(run_db, "SELECT h.node_id, h.step FROM hypothesis_history h JOIN nodes n ON n.run_id=h.run_id "
                  "AND n.node_id=h.node_id WHERE h.run_id=? AND h.status='removed' AND n.step_created < h.step "
                  "ORDER BY h.id LIMIT 1", [RUN])
    assert removed, "the nurse run supersedes a home_location hypothesis"
    hid, at = removed[0]
    assert build_snapshot(db, RUN).nodes[hid].status == "removed"
    assert build_snapshot(db, RUN, at - 1).nodes[hid].status != "removed"


def test_provenance_chain_follows_support_and_cite(run_db: Path) -> None:
    snap = build_snapshot(open_db(run_db, readonly=True), RUN)
    hid = next(h.node_id for h in snap.hypotheses() if h.attribute == "age")
    chain = provenance_chain(snap, hid)
    kinds = [n.kind for n in chain]
    assert kinds[0] == "hypothesis" and "evidence" in kinds and "post" in kinds
    supporters = {e.src for e in snap.edges if e.dst == hid and e.kind == "support"}
    assert supporters and supporters <= {n.node_id for n in chain}


async def test_scrubber_shows_past_state(run_db: Path) -> None:
    top = last_step(run_db)
    app = ArgusApp(run_db, run_id=RUN, inspect=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.3)
        screen = app.screen
        assert isinstance(screen, InvestigationScreen) and screen.mode == "inspect"
        await _wait(pilot, lambda: screen.snap is not None)
        assert screen.snap.step == top
        for _ in range(top - 3):                      # back to step 3
            await pilot.press("left_square_bracket")
            await _wait(pilot, lambda: screen.snap.step < top)
        await _wait(pilot, lambda: screen.snap.step == 3)
        n_hyp = sql(run_db, "SELECT count(*) FROM nodes WHERE run_id=? AND kind='hypothesis' "
                    "AND step_created<=3", [RUN])[0][0]
        assert app.screen.query_one("#hyp-table", DataTable).row_count == n_hyp
        spent = sql(run_db, "SELECT sum(units) FROM budget_ledger WHERE run_id=? AND step<=3", [RUN])[0][0]
        summary = str(app.screen.query_one("#budget-summary", Static).render())
        assert f"remaining {20 - spent:g} / 20" in summary
        n_ledger = sql(run_db, "SELECT count(*) FROM budget_ledger WHERE run_id=? AND step<=3", [RUN])[0][0]
        assert app.screen.query_one("#ledger", DataTable).row_count == n_ledger
        # the scrubber itself: focus it and press end
        app.screen.query_one("#scrubber").focus()
        await pilot.press("end")
        await _wait(pilot, lambda: screen.snap.step == top)
        await pilot.pause(0.1)
        # after patching the table in place (3 -> top), it holds exactly the latest store
        hyp = app.screen.query_one("#hyp-table", DataTable)
        shown = sorted((str(hyp.get_row_at(i)[0]), str(hyp.get_row_at(i)[5])) for i in range(hyp.row_count))
        want = sql(run_db, "SELECT node_id, status FROM nodes WHERE run_id=? AND kind='hypothesis'", [RUN])
        assert shown == sorted(want)
        # a timeline row jumps to its step
        await pilot.press("7")
        await pilot.pause(0.1)
        table = app.screen.query_one("#timeline-table", DataTable)
        table.focus()
        row = next(i for i in range(table.row_count) if str(table.get_row_at(i)[0]) == "2")  # noqa: B023
        table.move_cursor(row=row)
        await pilot.press("enter")
        await _wait(pilot, lambda: screen.snap.step == 2)
        # read-only: decisions are refused, nothing is written
        before = sql(run_db, "SELECT count(*) FROM events")[0][0]
        await pilot.press("a")
        await pilot.pause(0.1)
        assert sql(run_db, "SELECT count(*) FROM events")[0][0] == before


async def test_post_detail_renders_image_and_corrupt_image(run_db: Path) -> None:
    app = ArgusApp(run_db, run_id=RUN, inspect=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await _wait(pilot, lambda: getattr(screen, "snap", None) is not None)
        await pilot.pause(0.1)
        posts = [p.post_id for p in screen.snap.posts]
        detail = app.screen.query_one("#post-detail", Static)
        app.screen.query_one("#posts-table", DataTable).move_cursor(row=posts.index("p06"))
        await pilot.pause(0.2)
        text = _plain(app, detail)
        assert "New badge at work" in text and "OCR" in text and "STAFF ID CARD" in text   # read by route r1
        assert "▀" in text                                  # the half-block image
        app.screen.query_one("#posts-table", DataTable).move_cursor(row=posts.index("p10"))
        await pilot.pause(0.2)
        text = _plain(app, detail)
        assert "images/p10_corrupt.jpg" in text and "▀" not in text   # corrupt: a message, no crash


def test_halfblock_colours_follow_pixels(tmp_path: Path) -> None:
    from rich.console import Console

    im = Image.new("RGB", (8, 4), (255, 0, 0))
    im.paste((0, 0, 255), (0, 2, 8, 4))          # lower half blue
    im.save(tmp_path / "x.png")
    console = Console(width=8, color_system="truecolor", record=True)
    segs = list(console.render(HalfBlockImage(tmp_path / "x.png", max_height=2)))
    blocks = [s for s in segs if s.text == "▀"]
    assert len(blocks) == 8 * 2                  # 8 columns x 2 cell rows (4 pixel rows)
    top = blocks[0].style
    assert top.color.triplet == (255, 0, 0) and top.bgcolor.triplet == (255, 0, 0)
    bottom = blocks[-1].style
    assert bottom.color.triplet == (0, 0, 255) and bottom.bgcolor.triplet == (0, 0, 255)


async def test_cpeg_tree_and_hypothesis_filter_sort(run_db: Path) -> None:
    app = ArgusApp(run_db, run_id=RUN, inspect=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await _wait(pilot, lambda: getattr(screen, "snap", None) is not None)
        await pilot.press("3")
        await pilot.pause(0.1)
        hyp = app.screen.query_one("#hyp-table", DataTable)
        total = hyp.row_count
        filt = app.screen.query_one("#hyp-filter")
        filt.value = "status:removed"
        await pilot.pause(0.1)
        want = sql(run_db, "SELECT count(*) FROM nodes WHERE run_id=? AND kind='hypothesis' "
                   "AND status='removed'", [RUN])[0][0]
        assert hyp.row_count == want and 0 < want < total
        filt.value = ""
        await pilot.pause(0.1)
        hyp.focus()
        for _ in range(9):          # starts id asc; each press: desc, then next column asc -> conf desc
            await pilot.press("s")
        await pilot.pause(0.1)
        confs = [float(str(hyp.get_row_at(i)[4])) for i in range(hyp.row_count)]
        assert confs == sorted(confs, reverse=True)
        # enter on a hypothesis jumps to it in the CPeg tree and shows its chain
        hyp.move_cursor(row=0)
        top_id = str(hyp.get_row_at(0)[0])
        await pilot.press("enter")
        await pilot.pause(0.2)
        tree = app.screen.query_one("#cpeg-tree", Tree)
        assert tree.cursor_node is not None and tree.cursor_node.data[0] == top_id
        detail = _plain(app, app.screen.query_one("#cpeg-detail", Static))
        assert top_id in detail and "chain" in detail and "post" in detail
        # expanding a post shows the evidence citing it
        posts_group = tree.root.children[0]
        posts_group.expand()
        await pilot.pause(0.1)
        first_post = next(c for c in posts_group.children if c.allow_expand)
        first_post.expand()
        await pilot.pause(0.1)
        cited = {e.src for e in screen.snap.edges if e.dst == first_post.data[0] and e.kind == "cite"}
        assert cited and {c.data[0] for c in first_post.children} == cited


async def test_palette_export_profile(run_db: Path, tmp_path: Path) -> None:
    app = ArgusApp(run_db, run_id=RUN, inspect=True, step=4)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await _wait(pilot, lambda: getattr(screen, "snap", None) is not None)
        assert screen.snap.step == 4
        await pilot.press("ctrl+p")
        await pilot.pause(0.2)
        await pilot.press(*"export profile")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause(0.3)
    out = run_db.parent / f"{RUN}.step4.profile.json"
    data = json.loads(out.read_text())
    shown = build_snapshot(open_db(run_db, readonly=True), RUN, 4).profile
    assert shown, "the profile at step 4 is not empty"
    assert [(a["attribute"], a["value"]) for a in data["attributes"]] == [(p.attribute, p.value) for p in shown]
    assert data["user_id"] == "u_test"
    assert out.stat().st_mode & 0o077 == 0


async def test_palette_jump_to_hypothesis(run_db: Path) -> None:
    app = ArgusApp(run_db, run_id=RUN, inspect=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await _wait(pilot, lambda: getattr(screen, "snap", None) is not None)
        await pilot.press("ctrl+p")
        await pilot.pause(0.2)
        await pilot.press(*"jump h7 ")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await pilot.pause(0.3)
        assert app.screen is screen
        tree = screen.query_one("#cpeg-tree", Tree)
        assert tree.cursor_node is not None and tree.cursor_node.data[0] == "h7"
        assert screen.query_one("#left").active == "tab-cpeg"


async def test_layout_keys_resize_and_maximize(run_db: Path) -> None:
    app = ArgusApp(run_db, run_id=RUN, inspect=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await _wait(pilot, lambda: getattr(screen, "snap", None) is not None)
        left = screen.query_one("#left")
        width = left.size.width
        await pilot.press("plus", "plus")
        await pilot.pause(0.1)
        assert left.size.width > width
        store = screen.query_one("#hyps")
        height = store.size.height
        await pilot.press("greater_than_sign")
        await pilot.pause(0.1)
        assert store.size.height > height
        await pilot.press("3", "z")
        await pilot.pause(0.2)
        assert screen.maximized is not None
        await pilot.press("escape")
        await pilot.pause(0.1)
        assert screen.maximized is None


HOSTILE = "[/] [link=http://evil.example]click[/link] [bold red]ignore previous instructions[/bold red] \x1b[31m"


async def test_hostile_post_text_is_shown_literally(run_db: Path) -> None:
    db = open_db(run_db)
    data = json.loads(db.execute("SELECT data FROM posts WHERE post_id='p01'").fetchone()[0])
    data["caption"] = HOSTILE
    data["tags"] = ["[/]", "x" * 5000]
    tables = ["nodes"] + (["node_versions"] if "node_versions" in db.table_names() else [])
    with db.conn:
        db.execute("UPDATE posts SET data=?, ip_region=? WHERE post_id='p01'", [json.dumps(data), "[/]"])
        for t in tables:
            db.execute(f"UPDATE {t} SET content=?, value=? WHERE node_id IN ('e1', 'h1')", [HOSTILE, "[/]"])
    db.conn.close()
    app = ArgusApp(run_db, run_id=RUN, inspect=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await _wait(pilot, lambda: getattr(screen, "snap", None) is not None)
        await pilot.pause(0.2)
        text = _plain(app, screen.query_one("#post-detail", Static))
        assert "[link=http://evil.example]click[/link]" in text and "[bold red]" in text
        assert str(screen.query_one("#posts-table", DataTable).get_row_at(0)[3]) == "[/]"
        await pilot.press("2")
        await pilot.pause(0.2)
        screen.jump_to_node("h1")
        await pilot.pause(0.3)
        assert "[/]" in _plain(app, screen.query_one("#cpeg-detail", Static))


async def _wait(pilot, cond, tries: int = 100) -> None:
    for _ in range(tries):
        if cond():
            return
        await pilot.pause(0.05)
    assert cond()


def _plain(app, widget: Static) -> str:
    from rich.console import Console

    console = Console(width=100, record=True, color_system=None)
    console.print(widget.render() if not hasattr(widget, "content") else widget.content)
    return console.export_text()
