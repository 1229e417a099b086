"""Cost of the semantic cue layer on one core: cold (embed) and warm (run-DB cache) per 100 sentences.

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/semantic_speed.py [--sentences 200] [--source FILE.jsonl]

Sentences are the candidate sentences (semantic.candidate_sentences: stance "self", long enough)
of SynthPAI dev comments (default source) or of any JSON Lines file with a "caption"/"text" field.
Prints CPU seconds per 100 sentences for: candidate selection, cold embedding (model already
loaded), matching against the banks, warm re-run through the cache; and the ratios to the issue's
budget (2 s per 100 sentences cold). CPU time (process_time) is reported next to wall time because
the development machine is shared.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BUDGET_COLD = 2.0     # s per 100 sentences (issue 13)


def _default_source() -> Path:
    rel = Path("datasets") / "synthpai-dev" / "comments_dev.jsonl"
    for root in (ROOT.parent / "shared", ROOT.parent.parent / "shared", Path("/work/shared")):
        if (root / rel).is_file():
            return root / rel
    return ROOT.parent / "shared" / rel


def _texts(source: Path, limit: int) -> list[str]:
    out: list[str] = []
    with source.open(encoding="utf-8") as fh:
        for line in fh:
            obj = json.loads(line)
            for c in obj.get("comments", []) if "comments" in obj else [obj]:
                t = c.get("text") or c.get("caption")
                if isinstance(t, str):
                    out.append(t)
            if len(out) >= limit * 3:
                break
    return out


def _clock() -> tuple[float, float]:
    return time.process_time(), time.perf_counter()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sentences", type=int, default=200)
    ap.add_argument("--source", type=Path, default=_default_source())
    a = ap.parse_args(argv)
    from core.engine.rules import semantic
    from db.store import open_db
    from tools import embed as E
    from tools.base import Recorder

    texts = _texts(a.source, a.sentences)
    c0, w0 = _clock()
    sents = [t[s:e] for t in texts for s, e in semantic.candidate_sentences(t)][: a.sentences]
    c1, w1 = _clock()
    n = len(sents)
    if n == 0:
        raise SystemExit(f"{a.source}: no candidate sentences")
    E._model()
    semantic.load_banks()
    with tempfile.TemporaryDirectory() as tmp:
        db = open_db(Path(tmp) / "runs.db")
        c2, w2 = _clock()
        vecs = E.embed(Recorder(db, run_id="cold", step=0), sents)
        c3, w3 = _clock()
        semantic.match(vecs)
        c4, w4 = _clock()
        E.embed(Recorder(db, run_id="warm", step=0), sents)
        c5, w5 = _clock()
        db.conn.close()
    per = 100.0 / n
    print(f"{n} candidate sentences from {len(texts)} texts ({a.source.name}); OMP_NUM_THREADS={os.environ['OMP_NUM_THREADS']}")
    print("step                    cpu s/100   wall s/100")
    for name, (ca, wa, cb, wb) in [("select candidates", (c0, w0, c1, w1)), ("embed cold", (c2, w2, c3, w3)),
                                   ("match banks", (c3, w3, c4, w4)), ("embed warm (cache)", (c4, w4, c5, w5))]:
        print(f"{name:22s}  {(cb - ca) * per:9.3f}  {(wb - wa) * per:11.3f}")
    cold = (c1 - c0 + c4 - c2) * per
    print(f"cold total (cpu) / budget {BUDGET_COLD:.1f} s per 100 sentences: {cold / BUDGET_COLD:.2f}")
    print(f"warm / cold: {(c5 - c4) / max(1e-9, c3 - c2):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
