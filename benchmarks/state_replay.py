"""Cost of replaying a run's history: for each run of a run DB, the time of
`db.queries.state_at` at every committed step against the mean wall time of one engine step,
and the history rows written per step. Prints ratios (a replay should be a small fraction of
a step), never asserts.

    python benchmarks/state_replay.py OUT_DIR/runs.db [--runs 10]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from db import queries  # noqa: E402


def _seconds(a: str, b: str) -> float:
    return (datetime.fromisoformat(b) - datetime.fromisoformat(a)).total_seconds()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("db", type=Path)
    ap.add_argument("--runs", type=int, default=10)
    a = ap.parse_args()
    db = queries.open_runs_readonly(a.db)
    runs = [r for r in queries.list_runs(db) if r["status"] == "finished"][: a.runs]
    if not runs:
        sys.exit(f"{a.db}: no finished runs")
    replay_ms, step_ms, rows_per_step = [], [], []
    for r in runs:
        rid, steps = r["run_id"], int(r["step"])
        t0 = time.perf_counter()
        for s in range(1, steps + 1):
            queries.state_at(db, rid, s)
        replay_ms.append((time.perf_counter() - t0) * 1000 / steps)
        step_ms.append(_seconds(r["created_at"], r["finished_at"] or r["updated_at"]) * 1000 / steps)
        rows = sum(db.execute(f"SELECT COUNT(*) FROM {t} WHERE run_id=?", [rid]).fetchone()[0]
                   for t in ("node_versions", "edges", "profile_history"))
        rows_per_step.append(rows / steps)
    print(f"runs {len(runs)}  steps/run {statistics.mean(int(r['step']) for r in runs):.1f}")
    print(f"state_at per step      {statistics.mean(replay_ms):8.1f} ms")
    print(f"engine wall per step   {statistics.mean(step_ms):8.1f} ms")
    print(f"replay / step ratio    {statistics.mean(replay_ms) / max(1e-9, statistics.mean(step_ms)):8.4f}")
    print(f"history rows per step  {statistics.mean(rows_per_step):8.1f}")


if __name__ == "__main__":
    main()
