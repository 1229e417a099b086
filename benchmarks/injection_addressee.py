"""Addressees by meaning (rules/addressee.py): the candidate addressee of every sentence of the dev
benches (which hold no injection) and of the addressee attacks of tests/test_injection_addressees.py,
scored against the bank; prints the real heads nearest a machine (to fit MIN_SIM / MARGIN so that
none is flagged) and the attacks caught at the shipped thresholds.

    PYTHONPATH=. .venv/bin/python benchmarks/injection_addressee.py BENCH_DIR [BENCH_DIR ...]
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from injection_semantic import bench_texts  # noqa: E402

from core.engine.rules.addressee import MARGIN, MIN_SIM, candidate, machine_addressed, score  # noqa: E402
from core.engine.rules.base import SENTENCE  # noqa: E402
from core.engine.rules.hostile import normalise_for_detection  # noqa: E402


def heads(texts: list[str]) -> list[str]:
    out = []
    for t in texts:
        norm = normalise_for_detection(t)[0]
        for m in SENTENCE.finditer(norm):
            h = candidate(m.group(0))
            if h:
                out.append(h)
    return out


def main() -> None:
    from test_injection_addressees import ATTACKS, ORDINARY

    t0 = time.time()
    for b in sys.argv[1:]:
        texts = bench_texts(Path(b))
        hs = sorted(set(heads(texts)))
        sc = score(None, hs)
        flagged = [(h, s) for h, s in zip(hs, sc) if machine_addressed(s[0], s[1])]
        print(f"{b}: {len(texts)} texts, {len(hs)} distinct heads, flagged {len(flagged)} at MIN_SIM {MIN_SIM} MARGIN {MARGIN}")
        for h, (sim, mar, proto) in sorted(zip(hs, sc), key=lambda x: -x[1][1])[:12]:
            print(f"   {sim:.3f} {mar:+.3f} {h[:50]!r} ~ {proto!r}")
    for name, L in (("attacks", ATTACKS), ("ordinary", ORDINARY)):
        hs = [heads([t])[:1] for t in L]
        sc = score(None, [h[0] for h in hs if h])
        it = iter(sc)
        got = 0
        for t, h in zip(L, hs):
            s = next(it) if h else None
            ok = bool(s and machine_addressed(s[0], s[1]))
            got += ok
            print(f"  {name} {'CAUGHT' if ok else '-':6} {s and f'{s[0]:.3f} {s[1]:+.3f}'} {t[:60]!r}")
        print(f"{name}: {got} of {len(L)} flagged")
    print(f"{time.time() - t0:.1f}s")


if __name__ == "__main__":
    main()
