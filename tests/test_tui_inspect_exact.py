"""Inspect is exact at every step (real engine runs, real OCR, real SQLite; Pilot at 80x24 and
140x45): the budget as it was at the step (a later "+units" not counted), profile evidence
chains with "+N more" and all of them in the detail view, `--step` past the end exits 2."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from argus_tui.app import ArgusApp
from argus_tui.live import LiveSession
from argus_tui.screens.detail import DetailScreen
from argus_tui.screens.investigation import InvestigationScreen
from tui_engine import CONFIG, engine_run, q, rich_user, screen_lines, text_user, until

pytestmark = pytest.mark.slow

SIZES = [(80, 24), (140, 45)]


@pytest.fixture(scope="module")
def extended(tmp_path_factory) -> tuple[Path, int]:
    """A run of 20 units: one step, then +6 units, then more steps."""
    root = tmp_path_factory.mktemp("extended")
    db = root / "runs.db"
    engine_run(db, text_user(root), "run-ext", steps=1)
    session = LiveSession.resume(db, "run-ext")
    try:
        session.extend(6, by="person:t")
        ext_step = session.refresh().snap.step
        list(session.auto_steps(2))
    finally:
        session.close()
    return db, ext_step


@pytest.fixture(scope="module")
def rich_run(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("rich")
    db = root / "runs.db"
    engine_run(db, rich_user(root), "run-rich", steps=3)
    return db


async def _open(pilot, step: int | None = None) -> InvestigationScreen:
    await until(pilot, lambda: isinstance(pilot.app.screen, InvestigationScreen) and pilot.app.screen.snap)
    screen = pilot.app.screen
    if step is not None:
        screen.goto_step(step)
        await until(pilot, lambda: screen.snap.step == step)
    await pilot.pause(0.2)
    return screen


def budget_text(screen) -> str:
    return str(screen.query_one("#budget-summary").render())


@pytest.mark.parametrize("size", SIZES)
async def test_the_budget_is_the_one_of_the_step(extended, size) -> None:
    db, ext_step = extended
    ledger = q(db, "SELECT step, remaining FROM budget_ledger WHERE run_id='run-ext' ORDER BY id")
    app = ArgusApp(db, run_id="run-ext", inspect=True, who="person:t")
    async with app.run_test(size=size) as pilot:
        before = ext_step - 1                    # after a charged route, before the "+6"
        screen = await _open(pilot, before)
        left = [r for s, r in ledger if s <= before][-1]
        assert left < 20
        assert f"remaining {left:g} / 20 units" in budget_text(screen)
        screen.goto_step(ext_step)
        await until(pilot, lambda: screen.snap.step == ext_step)
        await pilot.pause(0.2)
        assert f"/ 26 units" in budget_text(screen)
        screen.goto_step(0)
        await until(pilot, lambda: screen.snap.step == 0)
        await pilot.pause(0.2)
        assert "remaining 20 / 20 units" in budget_text(screen)


@pytest.mark.parametrize("size", SIZES)
async def test_profile_chains_say_how_many_more_and_the_detail_lists_all(rich_run, size) -> None:
    app = ArgusApp(rich_run, run_id="run-rich", inspect=True, who="person:t")
    async with app.run_test(size=size) as pilot:
        screen = await _open(pilot, 1)
        prof = max(screen.snap.profile, key=lambda p: len(p.evidence))
        assert len(prof.evidence) > 6
        await pilot.press("6")
        await pilot.pause(0.3)
        body = str(screen.query_one("#profile-body").render())
        assert f"+{len(prof.evidence) - 6} more" in body
        await pilot.press("d")
        await until(pilot, lambda: isinstance(app.screen, DetailScreen))
        await pilot.pause(0.2)
        text = str(app.screen.query_one("#detail-body").render())
        for eid in prof.evidence:
            assert f"↳ {eid}" in text, eid
        assert "more (d" not in text


def test_inspect_step_past_the_end_exits_2(extended) -> None:
    db, _ = extended
    top = q(db, "SELECT step FROM runs WHERE run_id='run-ext'")[0][0]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1]), "COLUMNS": "80"}
    for step in ("99", str(top + 1), "-1"):
        res = subprocess.run([sys.executable, "-m", "argus_tui.cli", "tui", str(db), "--run", "run-ext", "--inspect",
                              "--step", step], capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL,
                             timeout=60)      # the console never opens: on a bad step it would wait for keys
        assert res.returncode == 2, (step, res.stderr)
        assert f"run run-ext has committed steps 0..{top}, not {step}" in " ".join(res.stderr.split())
