"""Memory of a large batch: RSS of the driver and of its worker processes while N users run
(results stream to disk; the driver keeps only small per-user rows). Flat means the RSS at the
end is close to the RSS after the first tenth of the users.

    .venv/bin/python benchmarks/rss_flat.py [--users 1000] [--system textllm] [--workers 2]

The benchmark is a generated 2-user benchmark replicated to --users users (hard-linked images).
The default system, textllm, keeps the run short (~0.1 s of work per user) so what grows, if
anything, is the batch machinery; --system argus measures the engine too (much slower).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_util import children, generated, replicate, rss_mb  # noqa: E402
from core.batch import run_batch  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--users", type=int, default=1000)
    ap.add_argument("--system", default="textllm")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--executor", default="local")
    ap.add_argument("--tmp", type=Path, default=None)
    a = ap.parse_args()
    import os

    tmp = a.tmp or Path(tempfile.mkdtemp(prefix="argus-rss-"))
    src = generated(tmp / "src")
    bench = replicate(src, tmp / f"bench{a.users}", a.users)
    me = os.getpid()
    samples: list[tuple[int, float, float, float]] = []
    done = [0]
    every = max(1, a.users // 10)
    t0 = time.perf_counter()

    def on_result(_r) -> None:
        done[0] += 1
        if done[0] % every == 0 or done[0] == a.users:
            kids = children(me)
            samples.append((done[0], rss_mb(me), sum(rss_mb(k) for k in kids),
                            max([rss_mb(k) for k in kids] or [0.0])))

    s = run_batch(bench, tmp / f"out-{a.system}-{a.workers}", system=a.system, workers=a.workers,
                  executor=a.executor, on_result=on_result)
    secs = time.perf_counter() - t0
    print(f"{a.users} users, system {a.system}, {a.workers} worker(s), executor {a.executor}: "
          f"{secs:.1f}s, {len(s.failed)} failed")
    print(f"{'users done':>10} {'driver MB':>10} {'workers MB':>11} {'max worker MB':>14}")
    for d, p, c, m in samples:
        print(f"{d:>10} {p:>10.1f} {c:>11.1f} {m:>14.1f}")
    if len(samples) >= 2:
        first, last = samples[0], samples[-1]
        print(f"driver RSS end/first-tenth: {last[1] / first[1]:.3f}; "
              f"max worker RSS end/first-tenth: {last[3] / max(first[3], 1e-9):.3f}")


if __name__ == "__main__":
    main()
