"""Console timing: open a saved run with ~5,000 CPeg nodes and scrub its steps.

Targets (issue 7): a 5,000-node saved run opens in < 1 s; a step's UI update takes
< 100 ms outside tool time. Prints each measurement and its ratio to the target
(ratio < 1 meets it). Headless (App.run_test), so it measures the app, not a terminal.

    .venv/bin/python benchmarks/tui_open.py [--posts 500] [--evidence 8] [--hypotheses 500]
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
from argus_tui.synthetic_run import write_synthetic_run, write_synthetic_user  # noqa: E402
from db.store import open_db  # noqa: E402


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
    ap.add_argument("--posts", type=int, default=500)
    ap.add_argument("--evidence", type=int, default=8, help="evidence nodes per post")
    ap.add_argument("--hypotheses", type=int, default=500)
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--scrub", type=int, default=10, help="steps to scrub back")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "runs.db"
        user = write_synthetic_user(Path(tmp) / "u_synth", posts=min(args.posts, 50))
        db = open_db(path)
        write_synthetic_run(db, "big", posts=args.posts, evidence_per_post=args.evidence,
                            hypotheses=args.hypotheses, steps=args.steps, user_dir=user)
        t = time.perf_counter()
        snap = build_snapshot(db, "big")
        snap_s = time.perf_counter() - t
        db.conn.close()
        print(f"run: {len(snap.nodes)} nodes, {len(snap.edges)} edges, {len(snap.timeline)} timeline rows, "
              f"{snap.max_step} steps")
        res = asyncio.run(measure(path, "big", args.scrub))
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
