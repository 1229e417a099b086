"""False flags of the hostile reading: every text of a set read by the injection detectors.

    OMP_NUM_THREADS=1 PYTHONPATH=$PWD .venv/bin/python benchmarks/hostile_flags.py \
        --set sopri-dev2=/work/base/s5/sopri-dev2/runs.db --set prism=/work/benches/prism [--sample 15]

A set is a run DB (every distinct text of its evidence nodes: captions, tags, comments, alt text,
bios and the OCR lines of its images, as the engine perceived them; the flags the run recorded are
counted too) or a bench folder (sopri/1: manifest.json + users/*/posts.jsonl; its text fields only).
Each text is read now by the code of this checkout: the patterns (rules/hostile.py: a trigger or an
assertion), the semantic detector (rules/hostile_semantic.py: a sentence near an attack prototype)
and the addressee check (rules/addressee.py). Per set it prints the texts, the flagged texts (by
each detector and in all), the flagged share and a sample of the flagged texts with the detector
and the sentence that fired. SynthPAI, PRISM and the ordinary posts of sopri-dev2 hold no
injection aimed at Argus, so every flag there is a candidate false flag; the generated sets (gen-a,
gen-b) and sopri-dev2's adversarial users plant some on purpose: read their samples by eye.

A run DB is copied to a temporary folder first (its embedding cache then serves the semantic
detector without a model call for the sentences the run embedded; the original is never written).
"""
from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


def db_texts(path: Path) -> tuple[list[str], int]:
    """Distinct evidence texts of a run DB and how many of them the run recorded as hostile (its own
    trigger or semantic hit, not the taint of a later node of the post)."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    rows = con.execute("SELECT content, json_extract(data, '$.hostile') FROM nodes "
                       "WHERE kind = 'evidence' AND content IS NOT NULL AND trim(content) != ''").fetchall()
    con.close()
    texts: dict[str, bool] = {}
    for content, hostile in rows:
        own = bool(hostile) and hostile not in ("[]", "null") and not hostile.startswith('["(')
        texts[content] = texts.get(content, False) or own
    return list(texts), sum(texts.values())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--set", action="append", default=[], metavar="NAME=RUNS_DB_OR_BENCH", required=True)
    ap.add_argument("--sample", type=int, default=15, help="flagged texts shown per set")
    a = ap.parse_args(argv)

    from injection_semantic import bench_texts
    from core.engine.rules import hostile_semantic as H
    from core.engine.rules.hostile import hostile_ranges, normalise_for_detection, trigger_at
    from db.store import open_db
    from tools.base import Recorder

    rows = []
    for spec in a.set:
        name, _, where = spec.partition("=")
        src = Path(where)
        tmp = tempfile.TemporaryDirectory()
        if src.is_file():
            texts, recorded = db_texts(src)
            cache = Path(tmp.name) / "runs.db"
            shutil.copyfile(src, cache)
        elif (src / "manifest.json").is_file():
            texts, recorded, cache = bench_texts(src), None, Path(tmp.name) / "runs.db"
        else:
            raise SystemExit(f"error: --set {spec}: neither a run DB nor a bench folder with manifest.json")
        db = open_db(cache)
        rec = Recorder(db, run_id="hostile-flags", step=0)
        sem = H.detect(rec, texts)
        db.conn.close()
        tmp.cleanup()
        flagged = []
        n_pat = n_sem = 0
        for t, hit in zip(texts, sem):
            rng = hostile_ranges(t)
            why = []
            if rng:
                n_pat += 1
                kind = "trigger" if trigger_at(normalise_for_detection(t)[0]) is not None else "assertion"
                s, e = rng[0]
                why.append(f"pattern {kind}: {t[s:e][:90]!r}")
            if hit is not None:
                n_sem += 1
                why.append(f"semantic sim {hit.sim:.3f} margin {hit.margin:+.3f} ~ {hit.prototype[:40]!r}: "
                           f"{t[hit.start:hit.end][:90]!r}")
            if why:
                flagged.append((t, why))
        n = len(texts)
        rows.append((name, n, len(flagged), n_pat, n_sem, recorded))
        print(f"## {name}: {n} texts, {len(flagged)} flagged ({100 * len(flagged) / max(1, n):.2f} %): "
              f"patterns {n_pat}, semantic/addressee {n_sem}"
              + (f"; the run recorded {recorded}" if recorded is not None else ""))
        for t, why in flagged[:a.sample]:
            print(f"  - {' '.join(t.split())[:160]!r}")
            for w in why:
                print(f"      {w}")
        if len(flagged) > a.sample:
            print(f"  ... {len(flagged) - a.sample} more")
    print("\nset           texts  flagged  share %  patterns  semantic  recorded-by-run")
    for name, n, f, p, s, r in rows:
        print(f"{name:12s} {n:6d}  {f:7d}  {100 * f / max(1, n):7.2f}  {p:8d}  {s:8d}  {'' if r is None else r:>8}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
