"""What the age-arithmetic readers cost next to all the rules (issue 34): every caption and comment of a
sopri/1 set read by `extract_cues`, and by `age_arithmetic` alone, on the same Documents. Prints ratios.

    PYTHONPATH=$PWD python benchmarks/age_readers_cost.py [/work/shared/datasets/sopri-dev2]
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from core.engine.rules import extract_cues
from core.engine.rules.age_arithmetic import age_arithmetic
from core.engine.rules.documents import document


def texts(root: Path) -> list[str]:
    out: list[str] = []
    for f in sorted(root.glob("users/*/posts.jsonl")):
        for line in f.read_text(encoding="utf-8").splitlines():
            p = json.loads(line)
            out += [p.get("caption") or ""] + [c.get("text") or "" for c in p.get("comments") or []]
    return [t for t in out if t]


def timed(fn, ts: list[str], rounds: int = 3) -> float:
    t0 = time.perf_counter()
    for _ in range(rounds):
        for t in ts:
            fn(t)
    return time.perf_counter() - t0


if __name__ == "__main__":
    root = Path(sys.argv[1] if len(sys.argv) > 1 else "/work/shared/datasets/sopri-dev2")
    ts = texts(root)
    for t in ts:
        extract_cues(t)          # warm the caches (Documents, compiled tables, embedder-free rules)
    whole = timed(extract_cues, ts)
    age = timed(lambda t: age_arithmetic(document(t)), ts)
    print(f"{len(ts)} texts: age arithmetic / all rules = {age / whole:.3f}")
