"""The run DB is complete on its own after every exit path (real engine, real OCR, real SQLite):
quitting the console with `q` or `ctrl+q`, quitting after an engine error, SIGTERM to the
console and to `argus investigate`. After each, only the `.db` is copied (no -wal) and the
copy must hold the whole run: the same events, routes and ledger as the original, and the
console's quit names the real command that continues the run."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from argus_tui.app import ArgusApp
from tui_engine import CONFIG, q, settle, text_user

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
WHO = "person:tester"
SIZES = [(80, 24), (140, 45)]
COUNTS = ("SELECT (SELECT count(*) FROM events WHERE run_id=?), (SELECT count(*) FROM routes WHERE run_id=?),"
          " (SELECT count(*) FROM budget_ledger WHERE run_id=?), (SELECT step FROM runs WHERE run_id=?)")


def db_alone(db_path: Path, tmp: Path, run_id: str) -> tuple:
    """Copy only the .db (what a person mails) and read the run from the copy."""
    wal = db_path.with_name(db_path.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0, f"{wal}: {wal.stat().st_size} bytes left in the WAL"
    out = tmp / "copied" / db_path.name
    out.parent.mkdir(exist_ok=True)
    shutil.copy(db_path, out)
    copy = q(out, COUNTS, [run_id] * 4)[0]
    assert copy == q(db_path, COUNTS, [run_id] * 4)[0]
    assert copy[0] > 0 and copy[2] > 0, copy     # events and at least one charged route
    return copy


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("key", ["q", "ctrl+q"])
async def test_quit_leaves_the_whole_run_in_the_db(tmp_path: Path, key: str, size: tuple[int, int]) -> None:
    user = text_user(tmp_path)
    db_path = tmp_path / "runs.db"
    app = ArgusApp(db_path, user_dir=user, who=WHO, config=CONFIG)
    async with app.run_test(size=size) as pilot:
        screen = await settle(pilot)
        run_id = screen.run_id
        await pilot.press("a")
        screen = await settle(pilot)
        step = screen.snap.step
        await pilot.press(key)
        await pilot.pause(0.2)
    events, _routes, ledger, saved_step = db_alone(db_path, tmp_path, run_id)
    assert ledger == 1 and saved_step == step
    # runnable as printed: under pytest no `argus` script ran, so this interpreter with -m
    # (tests/test_tui_command.py runs the printed command in a real terminal)
    assert app.continue_hint() == (f"run {run_id} is saved at step {step}; continue it with: "
                                   f"{sys.executable} -m argus_tui.cli tui {db_path.resolve()} --run {run_id}")


@pytest.mark.parametrize("size", SIZES)
async def test_quit_after_an_engine_error_leaves_the_whole_run(tmp_path: Path, size: tuple[int, int]) -> None:
    user = text_user(tmp_path)
    db_path = tmp_path / "runs.db"
    app = ArgusApp(db_path, user_dir=user, who=WHO, config=CONFIG)
    async with app.run_test(size=size) as pilot:
        screen = await settle(pilot)
        run_id = screen.run_id
        await pilot.press("a")
        screen = await settle(pilot)
        # the engine refuses zero budget units (ValueError from Investigation.extend_budget)
        await pilot.press("b")
        await pilot.pause(0.2)
        app.screen.query_one("#prompt").value = "0"
        await pilot.press("enter")
        await pilot.pause(0.3)
        await settle(pilot)
        assert "refused" in str(screen.query_one("#run-bar").render())
        await pilot.press("q")
        await pilot.pause(0.2)
    db_alone(db_path, tmp_path, run_id)


SCRIPT = """
import sys
sys.path[:0] = [{root!r}, {tests!r}]
from argus_tui.app import ArgusApp
from tui_engine import CONFIG, settle

async def approve(pilot):
    await settle(pilot)
    await pilot.press("a")
    await settle(pilot)
    print("approved", flush=True)

ArgusApp({db!r}, user_dir={user!r}, who="person:tester", config=CONFIG).run(headless=True, size=(80, 24),
                                                                              auto_pilot=approve)
"""


def _env() -> dict:
    return {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "80"}


def _wait_for(cond, proc: subprocess.Popen, timeout: float = 240) -> None:
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if cond():
            return
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.2)
    proc.kill()
    raise AssertionError("timed out")


def _decisions(db_path: Path) -> int:
    if not db_path.exists():
        return 0
    try:
        return q(db_path, "SELECT count(*) FROM events WHERE kind='decision'")[0][0]
    except Exception:  # noqa: BLE001 — the tables are not there yet
        return 0


def test_sigterm_to_the_console_leaves_the_whole_run(tmp_path: Path) -> None:
    user = text_user(tmp_path)
    db_path = tmp_path / "runs.db"
    script = SCRIPT.format(root=str(ROOT), tests=str(ROOT / "tests"), db=str(db_path), user=str(user))
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=_env(), stdin=subprocess.DEVNULL)
    assert proc.stdout is not None
    _wait_for(lambda: _decisions(db_path) >= 1, proc)
    assert proc.stdout.readline().strip() == "approved"     # the screen shows the step: the app idles
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, (proc.returncode, err)
    (run_id,) = q(db_path, "SELECT run_id FROM runs")[0]
    db_alone(db_path, tmp_path, run_id)


def test_investigate_leaves_the_whole_run_after_exit_and_sigterm(tmp_path: Path) -> None:
    user = text_user(tmp_path)
    cli = [sys.executable, "-m", "argus_tui.cli", "investigate", str(user), "--quiet",
           "--set", "ocr_in_perception=false"]
    # to the end
    done = tmp_path / "done" / "runs.db"
    res = subprocess.run([*cli, "--db", str(done)], capture_output=True, text=True, env=_env(),
                         stdin=subprocess.DEVNULL, timeout=300)
    assert res.returncode == 0, res.stderr
    (run_id,) = q(done, "SELECT run_id FROM runs")[0]
    db_alone(done, tmp_path / "done", run_id)
    # SIGTERM after the first decision: exits, and the .db alone has every committed step
    cut = tmp_path / "cut" / "runs.db"
    proc = subprocess.Popen([*cli, "--db", str(cut)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=_env(), stdin=subprocess.DEVNULL)
    _wait_for(lambda: _decisions(cut) >= 1, proc)
    proc.send_signal(signal.SIGTERM)
    _out, err = proc.communicate(timeout=120)
    assert proc.returncode in (143, 0), (proc.returncode, err)
    (run_id,) = q(cut, "SELECT run_id FROM runs")[0]
    db_alone(cut, tmp_path / "cut", run_id)
