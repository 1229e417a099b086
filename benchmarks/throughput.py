"""Batch throughput on this machine: users/minute with 1, 2 and `nproc` local worker processes
(and optionally Ray, local mode), and the speed-up against 1 worker.

    .venv/bin/python benchmarks/throughput.py [--users 6] [--system argus] [--bench DIR] [--ray]

Each configuration runs into a fresh OUT_DIR with a COLD tool cache (no cache shared between
configurations, so every one does its own OCR: OCR is what dominates a batch). Without --bench,
a benchmark is generated (--users users, seed 0); with --bench its first --users users are run.
Each worker gets max(1, cores // workers) threads for its OCR/embedding runtimes
(core/batch/threads.py); the table prints the threads per worker used. The machine's other load
shows in the numbers: the load average is printed before and after.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_util import generated  # noqa: E402
from core.batch import run_batch  # noqa: E402
from core.batch.threads import usable_cores  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--users", type=int, default=6)
    ap.add_argument("--system", default="argus")
    ap.add_argument("--bench", type=Path, default=None)
    ap.add_argument("--ray", action="store_true", help="also run Ray (local mode) with 2 workers")
    ap.add_argument("--out", type=Path, default=None, help="work folder (default: a new temp folder)")
    a = ap.parse_args()
    tmp = a.out or Path(tempfile.mkdtemp(prefix="argus-tp-"))
    bench = a.bench or generated(tmp / "bench", users=a.users)
    cores = usable_cores()
    counts = sorted({1, 2, cores})
    configs = [("local", w) for w in counts] + ([("ray", 2)] if a.ray else [])
    load0 = os.getloadavg()
    rows = []
    for executor, workers in configs:
        if executor == "ray":
            from core.batch.ray_exec import init_ray

            init_ray(workers)          # Ray start-up is not part of the users' time
        s = run_batch(bench, tmp / f"out-{executor}-{workers}", system=a.system, workers=workers, executor=executor,
                      limit=a.users)
        secs, upm = s.seconds, s.users_per_minute      # from the first user started to the last one done
        # before core/batch/threads.py every runtime took every core ("auto")
        rows.append((executor, workers, str(getattr(s, "threads_per_worker", "auto")), upm))
        print(f"{executor:>5} x{workers}: {s.users} users in {secs:.1f}s = {upm:.2f} users/min "
              f"({len(s.failed)} failed; load average {os.getloadavg()[0]:.2f})", flush=True)
    load1 = os.getloadavg()
    base = rows[0][3]
    print(f"\nmachine: {cores} usable cores; system {a.system}; {a.users} users, cold OCR cache; "
          f"load average {load0[0]:.2f} before, {load1[0]:.2f} after")
    print(f"{'executor':>8} {'workers':>7} {'threads/worker':>14} {'users/min':>10} {'speed-up vs 1 worker':>21}")
    for executor, workers, threads, upm in rows:
        print(f"{executor:>8} {workers:>7} {threads:>14} {upm:>10.2f} {upm / base:>21.2f}")


if __name__ == "__main__":
    main()
