"""Console, inspect mode: a saved run (rows written straight into a real SQLite run DB) opened
read-only; the step scrubber must show the graph, store, budget and profile as they were."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image
from textual.widgets import DataTable, Static, Tree

from argus_tui.app import ArgusApp
from argus_tui.screens.investigation import InvestigationScreen
from argus_tui.state import build_snapshot, provenance_chain
from argus_tui.synthetic_run import write_synthetic_run
from argus_tui.widgets.image_view import HalfBlockImage
from db.store import open_db

SIZE = (120, 40)


@pytest.fixture()
def run_db(tmp_path: Path) -> Path:
    user = tmp_path / "user"
    (user / "images").mkdir(parents=True)
    # a real image for p0001 (left half red, right half blue); p0002's file is corrupt
    im = Image.new("RGB", (64, 48), (255, 0, 0))
    im.paste((0, 0, 255), (32, 0, 64, 48))
    im.save(user / "images" / "p0001_1.png")
    (user / "images" / "p0002_1.png").write_bytes(b"not a png")
    path = tmp_path / "runs.db"
    db = open_db(path)
    write_synthetic_run(db, "run-a", user_dir=user)
    db.conn.close()
    return path


def sql(path: Path, query: str, args=()) -> list[tuple]:
    db = open_db(path, readonly=True)
    try:
        return db.execute(query, list(args)).fetchall()
    finally:
        db.conn.close()


def test_snapshot_as_of_step_matches_sql(run_db: Path) -> None:
    db = open_db(run_db, readonly=True)
    for step in (0, 3, 8):
        snap = build_snapshot(db, "run-a", step)
        n_nodes = sql(run_db, "SELECT count(*) FROM nodes WHERE run_id='run-a' AND step_created<=?", [step])[0][0]
        assert len(snap.nodes) == n_nodes
        spent = sql(run_db, "SELECT coalesce(sum(units),0) FROM budget_ledger WHERE run_id='run-a' AND step<=?",
                    [step])[0][0]
        assert snap.remaining == pytest.approx(20.0 - spent)
        # hypothesis status as of the step = its last history row at or before the step
        for h in snap.hypotheses():
            want = sql(run_db, "SELECT status FROM hypothesis_history WHERE run_id='run-a' AND node_id=? "
                       "AND step<=? ORDER BY id DESC LIMIT 1", [h.node_id, step])
            if want:
                assert h.status == want[0][0], (h.node_id, step)
        assert all(e.step <= step for e in snap.timeline)
    # latest state: h0002 ends unresolved (history at step 2); at step 0 it was still a candidate
    assert build_snapshot(db, "run-a", 0).nodes["h0002"].status == "candidate"
    assert build_snapshot(db, "run-a").nodes["h0002"].status == "unresolved"


def test_provenance_chain_follows_support_and_cite(run_db: Path) -> None:
    snap = build_snapshot(open_db(run_db, readonly=True), "run-a")
    chain = provenance_chain(snap, "h0001")
    kinds = [n.kind for n in chain]
    assert kinds[0] == "hypothesis" and "evidence" in kinds and "post" in kinds
    supporters = {r[0] for r in sql(run_db, "SELECT src FROM edges WHERE run_id='run-a' AND dst='h0001' "
                                    "AND kind='support'")}
    assert supporters <= {n.node_id for n in chain}
    # derived evidence rests on the hypothesis it came from, not the other way round
    assert [n.node_id for n in provenance_chain(snap, "d0001")][:2] == ["d0001", "h0001"]
    assert "d0001" not in {n.node_id for n in chain}


async def test_scrubber_shows_past_state(run_db: Path) -> None:
    app = ArgusApp(run_db, run_id="run-a", inspect=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.3)
        screen = app.screen
        assert isinstance(screen, InvestigationScreen) and screen.mode == "inspect"
        await _wait(pilot, lambda: screen.snap is not None)
        assert screen.snap.step == 8
        for _ in range(5):                      # back to step 3
            await pilot.press("left_square_bracket")
            await _wait(pilot, lambda: screen.snap.step < 8)
        await _wait(pilot, lambda: screen.snap.step == 3)
        n_hyp = sql(run_db, "SELECT count(*) FROM nodes WHERE run_id='run-a' AND kind='hypothesis' "
                    "AND step_created<=3")[0][0]
        assert app.screen.query_one("#hyp-table", DataTable).row_count == n_hyp
        spent = sql(run_db, "SELECT sum(units) FROM budget_ledger WHERE run_id='run-a' AND step<=3")[0][0]
        summary = str(app.screen.query_one("#budget-summary", Static).render())
        assert f"remaining {20 - spent:g} / 20" in summary
        n_ledger = sql(run_db, "SELECT count(*) FROM budget_ledger WHERE run_id='run-a' AND step<=3")[0][0]
        assert app.screen.query_one("#ledger", DataTable).row_count == n_ledger
        # the scrubber itself: focus it and press end
        app.screen.query_one("#scrubber").focus()
        await pilot.press("end")
        await _wait(pilot, lambda: screen.snap.step == 8)
        await pilot.pause(0.1)
        # after patching the table in place (3 -> 8), it holds exactly the latest store
        hyp = app.screen.query_one("#hyp-table", DataTable)
        shown = [(str(hyp.get_row_at(i)[0]), str(hyp.get_row_at(i)[5])) for i in range(hyp.row_count)]
        want = sql(run_db, "SELECT node_id, status FROM nodes WHERE run_id='run-a' AND kind='hypothesis' "
                   "ORDER BY node_id")
        assert shown == [(a, b) for a, b in want]
        # a timeline row jumps to its step
        await pilot.press("7")
        await pilot.pause(0.1)
        table = app.screen.query_one("#timeline-table", DataTable)
        table.focus()
        row = next(i for i in range(table.row_count) if str(table.get_row_at(i)[0]) == "2")
        table.move_cursor(row=row)
        await pilot.press("enter")
        await _wait(pilot, lambda: screen.snap.step == 2)
        # read-only: decisions are refused, nothing is written
        before = sql(run_db, "SELECT count(*) FROM events")[0][0]
        await pilot.press("a")
        await pilot.pause(0.1)
        assert sql(run_db, "SELECT count(*) FROM events")[0][0] == before


async def test_post_detail_renders_image_and_corrupt_image(run_db: Path) -> None:
    app = ArgusApp(run_db, run_id="run-a", inspect=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await _wait(pilot, lambda: getattr(screen, "snap", None) is not None)
        await pilot.pause(0.1)
        detail = app.screen.query_one("#post-detail", Static)
        text = _plain(app, detail)
        assert "Morning walk near the office #1" in text and "EXIF" in text
        assert "▀" in text                                  # the half-block image
        app.screen.query_one("#posts-table", DataTable).move_cursor(row=1)
        await pilot.pause(0.2)
        text = _plain(app, detail)
        assert "images/p0002_1.png" in text and "▀" not in text   # corrupt: a message, no crash


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
    app = ArgusApp(run_db, run_id="run-a", inspect=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await _wait(pilot, lambda: getattr(screen, "snap", None) is not None)
        await pilot.press("3")
        await pilot.pause(0.1)
        hyp = app.screen.query_one("#hyp-table", DataTable)
        total = hyp.row_count
        filt = app.screen.query_one("#hyp-filter")
        filt.value = "status:unresolved"
        await pilot.pause(0.1)
        want = sql(run_db, "SELECT count(*) FROM nodes WHERE run_id='run-a' AND kind='hypothesis' "
                   "AND status='unresolved'")[0][0]
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
        first_post = posts_group.children[0]
        first_post.expand()
        await pilot.pause(0.1)
        cited = {r[0] for r in sql(run_db, "SELECT src FROM edges WHERE run_id='run-a' AND dst='post:p0001' "
                                   "AND kind='cite'")}
        assert {c.data[0] for c in first_post.children} == cited


async def test_palette_export_profile(run_db: Path, tmp_path: Path) -> None:
    app = ArgusApp(run_db, run_id="run-a", inspect=True, step=4)
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
    out = run_db.parent / "run-a.step4.profile.json"
    data = json.loads(out.read_text())
    want = {r[0] for r in sql(run_db, "SELECT attribute FROM profile WHERE run_id='run-a' AND step<=4")}
    assert {a["attribute"] for a in data["attributes"]} == want and data["user_id"] == "u_synth"
    assert out.stat().st_mode & 0o077 == 0


async def test_palette_jump_to_hypothesis(run_db: Path) -> None:
    app = ArgusApp(run_db, run_id="run-a", inspect=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await _wait(pilot, lambda: getattr(screen, "snap", None) is not None)
        await pilot.press("ctrl+p")
        await pilot.pause(0.2)
        await pilot.press(*"jump h0007")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await pilot.pause(0.3)
        assert app.screen is screen
        tree = screen.query_one("#cpeg-tree", Tree)
        assert tree.cursor_node is not None and tree.cursor_node.data[0] == "h0007"
        assert screen.query_one("#left").active == "tab-cpeg"


async def test_layout_keys_resize_and_maximize(run_db: Path) -> None:
    app = ArgusApp(run_db, run_id="run-a", inspect=True)
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
    data = json.loads(db.execute("SELECT data FROM posts WHERE post_id='p0001'").fetchone()[0])
    data["caption"] = HOSTILE
    data["tags"] = ["[/]", "x" * 5000]
    with db.conn:
        db.execute("UPDATE posts SET data=?, ip_region=? WHERE post_id='p0001'", [json.dumps(data), "[/]"])
        db.execute("UPDATE nodes SET content=?, value=? WHERE node_id IN ('e0001_1', 'h0001')", [HOSTILE, "[/]"])
    db.conn.close()
    app = ArgusApp(run_db, run_id="run-a", inspect=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await _wait(pilot, lambda: getattr(screen, "snap", None) is not None)
        await pilot.pause(0.2)
        text = _plain(app, screen.query_one("#post-detail", Static))
        assert "[link=http://evil.example]click[/link]" in text and "[bold red]" in text
        assert str(screen.query_one("#posts-table", DataTable).get_row_at(0)[3]) == "[/]"
        await pilot.press("2")
        await pilot.pause(0.2)
        screen.jump_to_node("h0001")
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
