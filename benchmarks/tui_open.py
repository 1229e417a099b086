"""Console timing: open a big saved run written by the real engine and scrub its steps.

Targets (issue 7): a 5,000-node saved run opens in < 1 s; a step's UI update takes
< 100 ms outside tool time. Prints each measurement and its ratio to the target
(ratio < 1 meets it). Headless (App.run_test), so it measures the app, not a terminal.

The run is a real investigation (real engine, real SQLite) of a generated text-only user
with --posts posts whose captions carry many cues (places, times, people, work), so the
CPeg is big; the engine then runs up to --steps auto-approved routes.

    .venv/bin/python benchmarks/tui_open.py [--posts 300] [--steps 20]
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from argus_tui.app import ArgusApp  # noqa: E402
from argus_tui.screens.investigation import InvestigationScreen  # noqa: E402
from argus_tui.state import build_snapshot  # noqa: E402
from db.store import open_db  # noqa: E402

CAPTIONS = [
    "Took Line {n} from Keyuan Station to work again, the hospital night shift starts at 8.",
    "Dinner with my husband at a hotpot place in {place}, we go every {day}.",
    "Back home in {place}, Shenzhen after a long week, I live near Block {n}.",
    "Weekend trip to {city}, the pandas were amazing. Turning {age} next month!",
    "My colleague at {place} Hospital lent me a book about marathon training.",
    "Gym on {day} evening as usual, then the metro home to {place}.",
]
PLACES = ["Nanshan", "Futian", "Luohu", "Bao'an", "Longgang"]
CITIES = ["Chengdu", "Xi'an", "Hangzhou", "Guilin", "Kunming"]
DAYS = ["Monday", "Tuesday", "Friday", "Saturday"]


def write_text_user(root: Path, posts: int) -> Path:
    """A sopri/1 user with `posts` text posts whose captions vary places, days and numbers."""
    import json

    u = root / "u_big"
    u.mkdir(parents=True)
    (u / "profile.json").write_text(json.dumps({"user_id": "u_big", "platform": "rednote", "ip_region": "Guangdong"}))
    lines = []
    for i in range(posts):
        text = CAPTIONS[i % len(CAPTIONS)].format(n=i % 12 + 1, place=PLACES[i % 5], day=DAYS[i % 4],
                                                  city=CITIES[i % 5], age=25 + i % 10)
        lines.append(json.dumps({"post_id": f"p{i + 1:04d}", "caption": text, "ip_region": "Guangdong",
                                 "timestamp": f"2025-{i % 12 + 1:02d}-{i % 28 + 1:02d}T{8 + i % 12:02d}:00:00+08:00"}))
    (u / "posts.jsonl").write_text("\n".join(lines) + "\n")
    return u


async def measure(db_path: Path, run_id: str, scrub: int) -> dict[str, float]:
    t0, c0 = time.perf_counter(), time.process_time()
    app = ArgusApp(db_path, run_id=run_id, inspect=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        while not (isinstance(screen, InvestigationScreen) and screen.snap is not None):
            await pilot.pause(0.01)
            screen = app.screen
        await pilot.pause(0)            # let the first paint happen
        opened, opened_cpu = time.perf_counter() - t0, time.process_time() - c0
        steps, steps_cpu = [], []
        for _ in range(scrub):
            before = screen.snap.step
            t1, c1 = time.perf_counter(), time.process_time()
            await pilot.press("left_square_bracket")
            while screen.snap.step == before:
                await pilot.pause(0.005)
            steps.append(time.perf_counter() - t1)
            steps_cpu.append(time.process_time() - c1)
        render = list(screen.render_ms)
        render_cpu = list(screen.render_cpu_ms)
    return {"open_s": opened, "open_cpu_s": opened_cpu, "step_cpu_s_median": statistics.median(steps_cpu),
            "step_s_median": statistics.median(steps), "step_s_max": max(steps),
            "render_ms_median": statistics.median(render[1:] or render), "render_ms_max": max(render),
            "render_cpu_ms_median": statistics.median(render_cpu[1:] or render_cpu)}


def main() -> None:
    import os

    if hasattr(os, "getloadavg"):
        print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--posts", type=int, default=300)
    ap.add_argument("--steps", type=int, default=20, help="auto-approved routes after perception")
    ap.add_argument("--scrub", type=int, default=5, help="steps to scrub back")
    args = ap.parse_args()
    from argus_tui.live import LiveSession

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "runs.db"
        user = write_text_user(Path(tmp), args.posts)
        t = time.perf_counter()
        session = LiveSession.start(path, user, budget=100.0, run_id="big")
        for _ in session.auto_steps(args.steps):
            pass
        session.close()
        print(f"engine run: {time.perf_counter() - t:.1f} s")
        db = open_db(path, readonly=True)
        t = time.perf_counter()
        snap = build_snapshot(db, "big")
        snap_s = time.perf_counter() - t
        db.conn.close()
        print(f"run: {len(snap.nodes)} nodes, {len(snap.edges)} edges, {len(snap.timeline)} timeline rows, "
              f"{snap.max_step} steps")
        res = asyncio.run(measure(path, "big", min(args.scrub, snap.max_step)))
    print(f"build_snapshot (latest)        {snap_s * 1000:8.1f} ms")
    print(f"open saved run (app start→UI)  {res['open_s'] * 1000:8.1f} ms   ratio to 1 s target: {res['open_s']:.2f}"
          f"   (CPU {res['open_cpu_s'] * 1000:.0f} ms; wall time grows on a loaded machine)")
    print(f"scrub one step (read+render)   {res['step_s_median'] * 1000:8.1f} ms median, "
          f"{res['step_s_max'] * 1000:.1f} ms max   (CPU {res['step_cpu_s_median'] * 1000:.0f} ms median)")
    print(f"UI update of a step (render)   {res['render_ms_median']:8.1f} ms median, {res['render_ms_max']:.1f} ms max"
          f"   ratio to 100 ms target: {res['render_ms_median'] / 100:.2f}"
          f"   (UI-thread CPU {res['render_cpu_ms_median']:.1f} ms median)")


if __name__ == "__main__":
    main()
