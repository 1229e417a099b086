"""Console latency on a real run (real engine, real OCR, real SQLite), headless (App.run_test):

- launch -> first proposal: from creating the app on a new user folder to the first route
  proposal on screen (includes perception: reading posts and images);
- keypress -> updated screen: `a` (approve: the engine runs the OCR route) until the screen
  shows the next step, and a UI-only key (`7`, the timeline tab) until it is drawn.

Prints seconds, the UI thread's share of the approve (render time / keypress-to-screen) and
the load average (wall time on a shared machine mostly measures the other processes).

    .venv/bin/python benchmarks/tui_latency.py [--decisions 3]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from argus_tui.app import ArgusApp  # noqa: E402
from argus_tui.screens.investigation import InvestigationScreen  # noqa: E402
from tui_engine import CONFIG, text_user  # noqa: E402


async def measure(root: Path, decisions: int) -> dict[str, float]:
    user = text_user(root)
    t0, c0 = time.perf_counter(), time.process_time()
    app = ArgusApp(root / "runs.db", user_dir=user, who="person:bench", config=CONFIG)
    async with app.run_test(size=(140, 45)) as pilot:
        while not (isinstance(app.screen, InvestigationScreen) and app.screen.proposal is not None
                   and not app.screen.busy):
            await pilot.pause(0.01)
        await pilot.pause(0)
        first, first_cpu = time.perf_counter() - t0, time.process_time() - c0
        screen = app.screen
        approve, ui_share = [], []
        for _ in range(decisions):
            if screen.proposal is None:
                break
            before, renders = screen.snap.step, len(screen.render_ms)
            t1 = time.perf_counter()
            await pilot.press("a")
            while screen.busy or screen.snap.step == before:
                await pilot.pause(0.005)
            took = time.perf_counter() - t1
            approve.append(took)
            ui_share.append(sum(screen.render_ms[renders:]) / 1000 / took)
        keys = []
        for key in ("7", "6") * 3:
            t2 = time.perf_counter()
            await pilot.press(key)
            await pilot.pause(0)
            keys.append(time.perf_counter() - t2)
    return {"launch_to_first_proposal_s": first, "launch_cpu_s": first_cpu,
            "approve_to_screen_s_median": statistics.median(approve) if approve else float("nan"),
            "ui_share_of_approve": statistics.median(ui_share) if ui_share else float("nan"),
            "ui_key_to_screen_s_median": statistics.median(keys), "decisions": len(approve)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decisions", type=int, default=3)
    args = ap.parse_args()
    if hasattr(os, "getloadavg"):
        print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as tmp:
        res = asyncio.run(measure(Path(tmp), args.decisions))
    for k, v in res.items():
        print(f"{k}: {v:.3f}" if isinstance(v, float) else f"{k}: {v}")


if __name__ == "__main__":
    main()
