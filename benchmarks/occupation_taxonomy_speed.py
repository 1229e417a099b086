"""Cost of the open occupation taxonomy (rules/occupation_taxonomy.py) in the rules' pass: extract_cues over
the captions and comments of a sopri/1 bench, with the taxonomy's merge and with it replaced by the
identity, same machine, same texts; prints seconds and the ratio (issue 34 target: time per user <= 1.2x).

    PYTHONPATH=$PWD nice -n 10 .venv/bin/python benchmarks/occupation_taxonomy_speed.py [BENCH] [--repeat N]
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from core.engine.rules import extract as extract_mod
from core.engine.rules import occupation_taxonomy


def texts(bench: Path) -> list[str]:
    out: list[str] = []
    for posts in sorted(bench.glob("users/*/posts.jsonl")):
        for line in posts.read_text(encoding="utf-8").splitlines():
            try:
                p = json.loads(line)
            except ValueError:
                continue
            out += [t for t in (p.get("title"), p.get("caption")) if isinstance(t, str) and t]
            out += [c.get("text") for c in p.get("comments") or [] if isinstance(c, dict) and isinstance(c.get("text"), str)]
    return out


def run(ts: list[str], repeat: int) -> float:
    t0 = time.perf_counter()
    for _ in range(repeat):
        for t in ts:
            extract_mod.extract_cues(t, carrier="caption")
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("bench", nargs="?", default="/work/shared/datasets/sopri-dev2")
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    ts = texts(Path(a.bench))
    occupation_taxonomy.index()          # the file is loaded once per process (not timed)
    run(ts[:50], 1)                      # warm caches
    with_t = run(ts, a.repeat)
    merge = occupation_taxonomy.merge
    occupation_taxonomy.merge = lambda ctx, found: found
    try:
        without = run(ts, a.repeat)
    finally:
        occupation_taxonomy.merge = merge
    t0 = time.perf_counter()
    occupation_taxonomy.load()
    load_s = time.perf_counter() - t0
    print(f"{len(ts)} texts x {a.repeat}: rules with taxonomy {with_t:.2f} s, without {without:.2f} s, "
          f"ratio {with_t / without:.3f}; loading the file {load_s:.2f} s once per process")


if __name__ == "__main__":
    main()
