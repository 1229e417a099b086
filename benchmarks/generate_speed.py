"""Time `argus bench generate` at the default scale (50 users) and print the ratio to the
2-minute budget. Not a test: machine load changes the number.

    .venv/bin/python benchmarks/generate_speed.py [--users 50] [--seed 0] [--workers 0]
"""
from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from pathlib import Path

from core.bench.generate import generate

BUDGET_S = 120.0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--users", type=int, default=50)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=0)
    args = ap.parse_args()
    out = Path(tempfile.mkdtemp(prefix="argus-genspeed-")) / "bench"
    try:
        t0 = time.perf_counter()
        cpu0 = os.times()
        res = generate(out, users=args.users, seed=args.seed, workers=args.workers or None)
        dt = time.perf_counter() - t0
        cpu1 = os.times()
        cpu = (cpu1.user - cpu0.user) + (cpu1.children_user - cpu0.children_user)
        print(f"users={res.users} posts={res.posts} images={res.images} wall={dt:.1f}s cpu={cpu:.1f}s "
              f"per_image={1000 * dt / max(1, res.images):.0f}ms budget={BUDGET_S:.0f}s ratio={dt / BUDGET_S:.2f} "
              f"load={os.getloadavg()[0]:.1f} self_check_problems={len(res.problems)}")
    finally:
        shutil.rmtree(out.parent, ignore_errors=True)


if __name__ == "__main__":
    main()
