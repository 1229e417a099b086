"""Batch throughput on this machine: users/minute with 1 and 2 local worker processes and with
Ray (local mode, 2 CPUs), and the speed-up ratios against 1 worker.

    .venv/bin/python benchmarks/throughput.py [--users 8] [--system argus] [--bench DIR]

Each configuration runs into a fresh OUT_DIR (no cache shared between configurations, so every
one does its own OCR). Without --bench, a benchmark is generated (--users users, seed 0).
The machine's other load shows in the numbers: run it on an idle machine for clean ratios.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_util import generated  # noqa: E402
from core.batch import run_batch  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--users", type=int, default=8)
    ap.add_argument("--system", default="argus")
    ap.add_argument("--bench", type=Path, default=None)
    ap.add_argument("--no-ray", action="store_true")
    a = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="argus-tp-"))
    bench = a.bench or generated(tmp / "bench", users=a.users)
    configs = [("local", 1), ("local", 2)] + ([] if a.no_ray else [("ray", 2)])
    rows = []
    for executor, workers in configs:
        if executor == "ray":
            from core.batch.ray_exec import init_ray

            init_ray(workers)          # Ray start-up is not part of the users' time
        t0 = time.perf_counter()
        s = run_batch(bench, tmp / f"out-{executor}-{workers}", system=a.system, workers=workers, executor=executor)
        secs = time.perf_counter() - t0
        upm = 60 * s.users / secs
        rows.append((executor, workers, s.users, len(s.failed), secs, upm))
        print(f"{executor:>5} x{workers}: {s.users} users in {secs:.1f}s = {upm:.2f} users/min "
              f"({len(s.failed)} failed)", flush=True)
    base = rows[0][5]
    print(f"\nmachine: {os.cpu_count()} CPUs; system {a.system}; load average {os.getloadavg()[0]:.2f}")
    print(f"{'executor':>8} {'workers':>7} {'users/min':>10} {'speed-up vs 1 worker':>21}")
    for executor, workers, _n, _f, _s, upm in rows:
        print(f"{executor:>8} {workers:>7} {upm:>10.2f} {upm / base:>21.2f}")


if __name__ == "__main__":
    main()
