"""What the recognizers' Document views cost (issue 33: "the registry refuses undeclared reads"): every
caption and comment of a sopri/1 set read by `extract_cues` as it runs (each extractor handed a
rules/registry.DocumentView of the text, which checks its declared reads), and with the view bypassed
(each extractor handed the Document itself), on the same cached Documents, rounds interleaved. Prints
the CPU seconds of each and the ratio views / bare (goal: about 1.0).

    PYTHONPATH=$PWD python benchmarks/recognizer_views.py [/work/shared/datasets/sopri-dev2] [--rounds 5]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from age_readers_cost import texts  # noqa: E402

from core.engine.rules import extract  # noqa: E402
from core.engine.rules.registry import Registry  # noqa: E402


def timed(ts: list[str]) -> float:
    t0 = time.process_time()       # CPU seconds of this process: a shared machine's load moves the wall clock
    for t in ts:
        extract.extract_cues(t)
    return time.process_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("root", nargs="?", default="/work/shared/datasets/sopri-dev2")
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    ts = texts(Path(a.root))
    view = Registry.view
    timed(ts)                                   # build and cache every Document once
    views, bare = [], []
    for i in range(a.rounds):
        for mode in (("views", "bare") if i % 2 == 0 else ("bare", "views")):
            Registry.view = view if mode == "views" else (lambda self, name, doc: doc)  # type: ignore[method-assign]
            (views if mode == "views" else bare).append(timed(ts))
    Registry.view = view                        # type: ignore[method-assign]
    v, b = statistics.median(views), statistics.median(bare)
    print(f"{len(ts)} texts, {a.rounds} rounds: views {v:.3f} s, bare {b:.3f} s, ratio views / bare {v / b:.3f}")


if __name__ == "__main__":
    main()
