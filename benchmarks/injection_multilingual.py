"""Injection defence in any language (issue 26): recall on the multilingual set, false flags on real posts.

    OMP_NUM_THREADS=1 PYTHONPATH=$PWD .venv/bin/python benchmarks/injection_multilingual.py \
        --set synthpai=/work/benches/synthpai --set prism=/work/benches/prism --set gen-a=/work/benches/gen-a ... \
        [--db CACHE.db]

Recall: every sentence of tests/injection_sentences.py (SENTENCES: at least 100 in at least
10 languages, written for the test; SPELLING: spaced letters, markup comments) is caught when
the patterns (rules/hostile.py, on the normalised text) or the meaning (rules/hostile_semantic.py)
flag it. False flags: every text field (title, caption, hashtags, comments, alt text, bio,
nickname) of each --set bench is checked the same way; a flag on a text that holds none of the
injections the bench planted (generated benches list them in truth.json) is a false flag. Prints per-language recall, the misses, and the flags per set with their texts.
"""
from __future__ import annotations

import os
import sys
from collections import Counter
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))


def planted_texts(bench: Path) -> list[str]:
    """The injections a generated bench planted (truth.json `injections`; read by this benchmark
    only, never by the engine): texts holding one are not counted as false flags."""
    import json

    out: list[str] = []
    for truth in sorted((bench / "users").glob("*/truth.json")):
        try:
            doc = json.loads(truth.read_text(encoding="utf-8"))
        except ValueError:
            continue
        out += [str(i.get("text")) for i in doc.get("injections") or [] if isinstance(i, dict) and i.get("text")]
    return out


def flags(rec, texts: list[str]) -> list[str | None]:
    """Per text: 'pattern', 'semantic' or None."""
    from core.engine.rules import hostile_semantic as H
    from core.engine.rules.hostile import hostile_ranges

    pat = [bool(hostile_ranges(t)) for t in texts]
    sem = H.detect(rec, texts)
    return ["pattern" if p else "semantic" if s is not None else None for p, s in zip(pat, sem)]


def main(argv: list[str] | None = None) -> int:
    from injection_semantic import bench_cli, bench_sets, bench_texts
    from injection_sentences import SENTENCES, SPELLING

    a, rec, close = bench_cli(__doc__, "injection-multilingual", argv)
    texts = [t for _, t in SENTENCES] + SPELLING
    langs = [lang for lang, _ in SENTENCES] + ["tricks"] * len(SPELLING)
    got = flags(rec, texts)
    per: Counter = Counter()
    hit: Counter = Counter()
    for lang, g in zip(langs, got):
        per[lang] += 1
        hit[lang] += g is not None
    print(f"## recall on {len(texts)} injection sentences in {len(set(langs) - {'tricks'})} languages + spelling tricks")
    print("language\tsentences\tcaught\trecall")
    for lang in per:
        print(f"{lang}\t{per[lang]}\t{hit[lang]}\t{hit[lang] / per[lang]:.2f}")
    by = Counter(g for g in got if g)
    total = sum(hit.values())
    print(f"recall {total}/{len(texts)} = {total / len(texts):.3f} (patterns {by['pattern']}, meaning only {by['semantic']})")
    for t, g in zip(texts, got):
        if g is None:
            print(f"  missed: {t!r}")
    print("\n## false flags on real posts (every flag is false: these sets hold no injections)")
    worst = 0
    for name, bench in bench_sets(a.set):
        real = bench_texts(bench)
        planted = planted_texts(bench)        # a generated bench's own injections (truth.json)
        res = flags(rec, real)
        low = [p.casefold() for p in planted]      # a style may lower-case the planted text
        is_planted = [any(p in t.casefold() for p in low) for t in real]
        n = sum(1 for r, p in zip(res, is_planted) if r and not p)
        worst = max(worst, n)
        caught = sum(1 for r, p in zip(res, is_planted) if r and p)
        print(f"{name}: {len(real)} texts, false flags {n} (patterns "
              f"{sum(r == 'pattern' for r, p in zip(res, is_planted) if not p)}, meaning "
              f"{sum(r == 'semantic' for r, p in zip(res, is_planted) if not p)})"
              + (f"; planted injections caught {caught}/{sum(is_planted)}" if planted else ""))
        for t, r, p in zip(real, res, is_planted):
            if r and not p:
                print(f"   FLAGGED ({r}): {t[:120]!r}")
            elif p and not r:
                print(f"   planted, missed: {t[:120]!r}")
    print(f"\nsummary: recall {total / len(texts):.3f} on {len(texts)} sentences; false flags on the sets: "
          f"{'max ' + str(worst) if a.set else 'not measured'}")
    close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
