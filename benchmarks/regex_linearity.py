"""Time per text field against its length on worst-case inputs (issue 26): flat means linear.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/regex_linearity.py [--lengths 1000,5000,20000] [--e2e]

For each worst case of tests/regex_corpus.py (runs of newlines and spaces, a long word or
number, repeated trigger prefixes) and each length, one field goes the engine's way: the
loader's whitespace shortening, hostile_ranges, extract_cues, text_features. Prints µs per
character per length and the ratio of the longest to the shortest (1 is flat; a quadratic
pattern gives the length ratio). --e2e also investigates (perception, no OCR) users with a
caption of 5,000 newlines, a comment of 1,500 newlines and 200 comments of 20,000 characters.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from regex_corpus import worst_cases  # noqa: E402


def field_time(text: str) -> float:
    from core.engine.rules import extract_cues, text_features
    from core.engine.rules.hostile import hostile_ranges
    from core.loader import collapse_whitespace

    t = time.perf_counter()
    s = collapse_whitespace(text)
    hostile_ranges(s)
    extract_cues(s)
    text_features(s)
    return time.perf_counter() - t


def e2e(work: Path) -> None:
    from core.engine.loop import Investigation

    cases = {
        "caption of 5,000 newlines": [{"post_id": "p1", "caption": "hi" + "\n" * 5000 + "I am 30"}],
        "comment of 1,500 newlines": [{"post_id": "p1", "caption": "hi",
                                       "comments": [{"author": "x", "text": "\n" * 1500 + "nice"}]}],
        "200 comments of 20,000 characters": [{"post_id": "p1", "caption": "hi", "comments": [
            {"author": f"c{i}", "text": ("lovely view from Nanshan " * 800)[:20_000]} for i in range(200)]}],
    }
    for name, posts in cases.items():
        udir = work / name.replace(" ", "_").replace(",", "") / "users" / "u"
        udir.mkdir(parents=True)
        (udir / "posts.jsonl").write_text("\n".join(json.dumps(p) for p in posts) + "\n", encoding="utf-8")
        t = time.perf_counter()
        Investigation.start(udir.parents[1] / "runs.db", udir, config={"ocr_in_perception": False})
        print(f"e2e {name}: perception {time.perf_counter() - t:.1f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lengths", default="1000,2500,5000,10000,20000")
    ap.add_argument("--e2e", action="store_true")
    a = ap.parse_args()
    lengths = [int(x) for x in a.lengths.split(",")]
    field_time("warm up the lexicons")
    print("case\t" + "\t".join(f"µs/char@{n}" for n in lengths) + f"\tratio {lengths[-1]}/{lengths[0]}")
    worst = 0.0
    for case in worst_cases(10):
        per = [field_time(worst_cases(n)[case]) / n * 1e6 for n in lengths]
        ratio = per[-1] / per[0] if per[0] else 0.0
        worst = max(worst, ratio)
        print(case + "\t" + "\t".join(f"{x:.2f}" for x in per) + f"\t{ratio:.2f}")
    print(f"worst ratio of time per character, {lengths[-1]} vs {lengths[0]} characters: {worst:.2f} "
          f"(flat: ~1; quadratic: {lengths[-1] / lengths[0]:.0f})")
    if a.e2e:
        with tempfile.TemporaryDirectory(prefix="argus-rx-") as d:
            e2e(Path(d))


if __name__ == "__main__":
    main()
