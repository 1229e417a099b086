"""The why on screen, on a run the real engine wrote (real OCR, real SQLite): the detail view
of a tool call shows the OCR lines with confidences, a hypothesis its status history, the
image viewer draws the OCR boxes on a copy and moves/resizes a region from the keyboard."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from argus_tui.app import ArgusApp
from argus_tui.screens.detail import DetailScreen
from argus_tui.screens.image_viewer import OCR_COLOUR, ImageViewerScreen, annotated, ocr_boxes
from argus_tui.screens.investigation import InvestigationScreen
from tui_engine import engine_run, q, text_user

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def saved_run(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("why")
    db_path = root / "runs.db"
    engine_run(db_path, text_user(root), "run-why", steps=2)
    return db_path


async def _wait(pilot, cond, tries: int = 300) -> None:
    for _ in range(tries):
        if cond():
            return
        await pilot.pause(0.05)
    raise AssertionError(f"timed out on {pilot.app.screen}")


async def test_detail_of_tool_call_and_hypothesis(saved_run: Path) -> None:
    ocr = q(saved_run, "SELECT outputs FROM tool_calls WHERE run_id='run-why' AND tool='ocr' ORDER BY id LIMIT 1")
    lines = json.loads(ocr[0][0])["lines"]
    app = ArgusApp(saved_run, run_id="run-why", inspect=True, who="person:t")
    async with app.run_test(size=(140, 45)) as pilot:
        await _wait(pilot, lambda: isinstance(app.screen, InvestigationScreen) and app.screen.snap is not None)
        screen = app.screen
        await pilot.press("7")
        await pilot.pause(0.3)
        screen.query_one("#timeline-filter").value = "tool:ocr"
        await pilot.pause(0.3)
        screen.query_one("#timeline-table").focus()
        screen.query_one("#timeline-table").move_cursor(row=0)
        await pilot.press("d")
        await _wait(pilot, lambda: isinstance(app.screen, DetailScreen))
        body = app.screen.body.plain
        for ln in lines:        # every OCR line with its confidence, whole
            assert ln["text"] in body and f"{ln['score']:.3f}" in body
        await pilot.press("escape")
        await pilot.pause(0.2)
        # a hypothesis: its status history with the verifier's reasons
        hid, = q(saved_run, "SELECT node_id FROM nodes WHERE run_id='run-why' AND kind='hypothesis' LIMIT 1")[0]
        history = q(saved_run, "SELECT step, status, reason FROM hypothesis_history WHERE run_id='run-why' "
                    "AND node_id=? ORDER BY id", [hid])
        await pilot.press("3")
        await pilot.pause(0.3)
        screen.query_one("#hyp-table").move_cursor(row=[r.node_id for r in screen.snap.hypotheses()].index(hid))
        await pilot.press("d")
        await _wait(pilot, lambda: isinstance(app.screen, DetailScreen))
        body = app.screen.body.plain
        assert "status history" in body
        for step, status, reason in history:
            assert status in body and (reason or "") in body


async def test_image_viewer_draws_ocr_boxes_and_moves_the_region(saved_run: Path) -> None:
    app = ArgusApp(saved_run, run_id="run-why", inspect=True, who="person:t")
    async with app.run_test(size=(100, 30)) as pilot:
        await _wait(pilot, lambda: isinstance(app.screen, InvestigationScreen) and app.screen.snap is not None)
        screen = app.screen
        read = q(saved_run, "SELECT inputs FROM tool_calls WHERE run_id='run-why' AND tool='ocr' ORDER BY id LIMIT 1")
        file = json.loads(read[0][0])["file"]
        post = next(p.post_id for p in screen.snap.posts if p.data["images"][0]["file"] == file)
        await pilot.press("1")
        await pilot.pause(0.2)
        screen.query_one("#posts-table").move_cursor(row=[p.post_id for p in screen.snap.posts].index(post))
        await pilot.press("v")
        await _wait(pilot, lambda: isinstance(app.screen, ImageViewerScreen))
        viewer = app.screen
        assert viewer.boxes and viewer.boxes == ocr_boxes(screen.snap, file)
        # the boxes are drawn on a copy: the file is unchanged, the copy has red on a box edge
        box = viewer.boxes[0][0]
        im = annotated(viewer.path, [box], None)
        assert im.getpixel((int(box[0]) + 1, int((box[1] + box[3]) / 2))) == OCR_COLOUR
        from PIL import Image

        with Image.open(viewer.path) as orig:
            assert orig.convert("RGB").getpixel((int(box[0]) + 1, int((box[1] + box[3]) / 2))) != OCR_COLOUR
        start = list(viewer.pick)
        await pilot.press("right", "down", "shift+right")
        await pilot.pause(0.2)
        w, h = viewer.size_px
        sx, sy = w // viewer.STEPS, h // viewer.STEPS
        assert viewer.pick == [start[0] + sx, start[1] + sy, start[2] + 2 * sx, start[3] + sy]
        await pilot.press("n")
        await pilot.pause(0.2)
        assert viewer.pick[:2] == [int(box[0]), int(box[1])]
        await pilot.press("enter")            # read-only: no route is proposed from inspect mode
        await pilot.pause(0.2)
        assert isinstance(app.screen, ImageViewerScreen)
