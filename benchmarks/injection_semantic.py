"""Semantic injection detection: catch rate on new wordings vs false flags on real posts.

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/injection_semantic.py \
        [--set synthpai=BENCH_DIR --set prism=BENCH_DIR ...] [--db CACHE.db]

Attacks: the paraphrased attacks of tests/test_injection_semantic.py (written for it, not the
patterns' or the bank's wordings). For each it prints whether the patterns (rules/hostile.py)
catch it, whether the semantic path (rules/hostile_semantic.py) does, and the catch rates of
pattern-only vs pattern + semantic. False flags: every text field (title, caption, hashtags,
comments, alt text, bio) of the given benches (sopri/1 folders, e.g. from `argus import synthpai`
and `argus import prism`; these hold no injections), counted per set at the shipped thresholds
and over a grid of thresholds, with the highest-scoring real sentences for inspection.
Embeddings are cached in --db (a run DB; default: a temporary one).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))


def bench_texts(bench: Path) -> list[str]:
    out: list[str] = []
    man = json.loads((bench / "manifest.json").read_text(encoding="utf-8"))
    for u in man.get("users", []):
        uid = u if isinstance(u, str) else u.get("user_id")
        udir = bench / "users" / str(uid)
        prof = udir / "profile.json"
        if prof.is_file():
            bio = json.loads(prof.read_text(encoding="utf-8")).get("bio")
            if isinstance(bio, str):
                out.append(bio)
        with (udir / "posts.jsonl").open(encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                try:
                    p = json.loads(line)
                except ValueError as e:
                    raise SystemExit(f"{udir / 'posts.jsonl'}:{n}: not JSON ({e})")
                out += [p.get("title"), p.get("caption")] + list(p.get("tags") or [])
                out += [c.get("text") for c in p.get("comments") or [] if isinstance(c, dict)]
                out += [i.get("alt") for i in p.get("images") or [] if isinstance(i, dict)]
    return [t for t in out if isinstance(t, str) and t.strip()]


def bench_cli(doc: str, run_id: str, argv: list[str] | None):
    """The injection benchmarks' command line (--set NAME=BENCH_DIR ..., --db CACHE.db) and the
    recorder whose run DB caches the embeddings. Returns (args, recorder, close)."""
    from db.store import open_db
    from tools.base import Recorder

    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--set", action="append", default=[], metavar="NAME=BENCH_DIR")
    ap.add_argument("--db", type=Path, help="run DB used as the embedding cache")
    a = ap.parse_args(argv)
    tmp = tempfile.TemporaryDirectory()
    db = open_db(a.db or Path(tmp.name) / "runs.db")

    def close() -> None:
        db.conn.close()
        tmp.cleanup()

    return a, Recorder(db, run_id=run_id, step=0), close


def bench_sets(specs: list[str]) -> list[tuple[str, Path]]:
    """--set NAME=BENCH_DIR values as (name, bench folder); a folder without a manifest is an error."""
    out = []
    for spec in specs:
        name, _, path = spec.partition("=")
        bench = Path(path)
        if not (bench / "manifest.json").is_file():
            raise SystemExit(f"error: --set {spec}: no manifest.json in {bench}")
        out.append((name, bench))
    return out


def main(argv: list[str] | None = None) -> int:
    a, rec, close = bench_cli(__doc__, "injection-bench", argv)
    from core.engine.rules import hostile_semantic as H
    from core.engine.rules.hostile import hostile_spans
    from test_injection_semantic import ATTACKS, HELDOUT, ORDINARY

    def scored(texts: list[str]) -> list[list[tuple[float, float, str, str]]]:
        """Per text: (sim, margin, prototype, piece) of each piece the detector compared."""
        return [[(p.sim, p.margin, p.prototype, p.text) for p in found] for found in H.examine(rec, texts)]

    def flagged(rows: list[tuple[float, float, str, str]], ms: float = H.MIN_SIM, mg: float = H.MARGIN) -> bool:
        return any(sim >= ms and m >= mg for sim, m, _, _ in rows)

    att: list = []
    for title, attacks in (("attacks", ATTACKS), ("held-out attacks (written after the bank's last revision)", HELDOUT)):
        print(f"## {title}: {len(attacks)} new wordings (tests/test_injection_semantic.py); "
              f"MIN_SIM {H.MIN_SIM}, MARGIN {H.MARGIN}, CLAUSE_SIM {H.CLAUSE_SIM}")
        res = scored([t for t, _ in attacks])
        pat = [bool(hostile_spans(t)) for t, _ in attacks]
        sem = [flagged(r) for r in res]
        print("pattern  semantic  sim    margin  text")
        for (t, _), p, f, r in zip(attacks, pat, sem, res):
            sim, m = max(((x[0], x[1]) for x in r), key=lambda v: v[1], default=(0.0, -1.0))
            print(f"{'yes' if p else 'no':7s}  {'yes' if f else 'no':8s}  {sim:.3f}  {m:+.3f}  {t[:70]!r}")
        n = len(attacks)
        both = sum(p or s for p, s in zip(pat, sem))
        print(f"caught: pattern only {sum(pat)}/{n} ({100 * sum(pat) / n:.0f} %), semantic only {sum(sem)}/{n}, "
              f"pattern + semantic {both}/{n} ({100 * both / n:.0f} %)\n")
        att += res
    n = len(att)
    ordi = scored(ORDINARY)
    print(f"ordinary addressing posts of the test flagged: {sum(map(flagged, ordi))}/{len(ORDINARY)}")

    sets = [("ordinary (test)", ORDINARY, ordi)]
    for name, bench in bench_sets(a.set):
        texts = bench_texts(bench)
        sets.append((name, texts, scored(texts)))
    grid_sim = [0.84, 0.85, 0.86, 0.87, 0.88]
    grid_m = [0.0, 0.01, 0.02, 0.03, 0.04]
    print("\n## false flags (texts flagged by meaning) per set; shipped thresholds, then a grid")
    for name, texts, res in sets:
        gated = sum(1 for t in texts if H.sentences(t))
        n_pieces = sum(len(r) for r in res)
        fp = sum(map(flagged, res))
        pfp = sum(1 for t in texts if hostile_spans(t))
        print(f"{name}: {len(texts)} texts, {gated} with a gated sentence, {n_pieces} pieces embedded; semantic flags {fp} "
              f"({100 * fp / max(1, len(texts)):.2f} %); pattern flags {pfp}")
        for s, m, proto, p in sorted((x for r in res for x in r if not H.is_injection(x[0], x[1])),
                                     key=lambda x: -x[1])[:4]:
            print(f"   top unflagged: sim {s:.3f} margin {m:+.3f} {p[:70]!r} ~ {proto[:40]!r}")
        for t, r in zip(texts, res):       # a bench with planted injections: judge these by eye
            if flagged(r):
                print(f"   FLAGGED{' (patterns too)' if hostile_spans(t) else ''}: {t[:110]!r}")
    print("\nMIN_SIM  MARGIN  " + "  ".join(f"{name[:12]:>12s}" for name, _, _ in sets) + "  attacks + held-out caught (semantic)")
    for ms in grid_sim:
        for mg in grid_m:
            cells = [sum(1 for r in res if flagged(r, ms, mg)) for _, _, res in sets]
            caught = sum(1 for r in att if flagged(r, ms, mg))
            print(f"{ms:7.2f}  {mg:6.2f}  " + "  ".join(f"{c:12d}" for c in cells) + f"  {caught}/{n}")
    close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
