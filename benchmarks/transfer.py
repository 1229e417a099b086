"""Transfer table: one engine, four data sets it was not fitted to in the same way.

    PYTHONPATH=$PWD nice -n 10 .venv/bin/python benchmarks/transfer.py [--users N] [--out DIR] [--json F]

Rows: the generated bench (seed 0) in style a and in style b (`argus bench generate --style b`),
PRISM (`argus import prism`: posts + topic lists; `prism-posts`: `--posts-only`) and SynthPAI dev
(`argus import synthpai`, plus SynthPAI's own top-1 / top-3 from its `score.py`). Columns: PES, binary, false claims / claims, then PES per attribute.
Run it before and after every change to rules, prototypes or aggregators (docs/transfer.md).

Benches are made once under --benches (default /tmp/transfer-benches) and reused; predictions go
to --out (default: a fresh temporary folder) and a re-run with the same --out resumes. Runs use
`core.batch.run_batch` and scores `core.eval.metrics.evaluate`, exactly as `argus bench run` and
`argus eval` do. `--users N` takes the first N users of each set (SynthPAI labels of the other
profiles are left out of its top-k, so the subsample is scored on its own labels).
"""
from __future__ import annotations

import argparse
import inspect
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))   # after PYTHONPATH: a run against another checkout uses its engine
if str(ROOT / "benchmarks") not in sys.path:
    sys.path.insert(0, str(ROOT / "benchmarks"))


def shared_datasets() -> Path:
    """`shared/datasets` beside the checkout (CI layout), else /work/shared/datasets."""
    for base in (ROOT.parent / "shared", ROOT.parent.parent / "shared", Path("/work/shared")):
        if (base / "datasets").is_dir():
            return base / "datasets"
    raise SystemExit("error: shared/datasets not found beside the checkout nor at /work/shared")


SETS = ("gen-a", "gen-b", "prism", "prism-posts", "synthpai")


def make_bench(name: str, root: Path, data: Path) -> Path:
    """The bench of one row, made on first use and reused after (a folder with a manifest.json)."""
    out = root / name
    if (out / "manifest.json").is_file():
        return out
    if name.startswith("gen-"):
        from core.bench.generate import generate

        style = name.split("-", 1)[1]
        if "style" in inspect.signature(generate).parameters:
            generate(out, users=50, seed=0, workers=1, style=style)
        elif style == "a":
            generate(out, users=50, seed=0, workers=1)
        else:
            raise SystemExit(f"error: this checkout's generator has no style {style!r}; "
                             f"make {out} with a newer one (argus bench generate {out} --style {style})")
    elif name in ("prism", "prism-posts"):
        from core.bench.importers.prism import import_prism

        # prism: posts + the account's topic lists (PRISM's own input); prism-posts: the 3 posts only
        import_prism(data / "prism", out, topics=name == "prism")
    elif name == "synthpai":
        from core.bench.importers.synthpai import import_synthpai

        import_synthpai(data / "synthpai-dev" / "comments_dev.jsonl", out)
    return out


def _labelled_pairs_guessed(score_py: Path, labels: Path, pred: Path) -> int:
    """Labelled (profile, attribute) pairs with at least one guess, read by score.py's own loaders."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("synthpai_score", score_py)
    assert spec and spec.loader
    score = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(score)
    guesses = score.load_predictions(str(pred))
    return sum(1 for user, attr in score.load_labels(str(labels)) if guesses.get(user, {}).get(attr))


def synthpai_topk(bench: Path, pred_dir: Path, uids: list[str], data: Path, work: Path) -> dict:
    """SynthPAI's own metric (its score.py) on the profiles in `uids`."""
    from synthpai_pred import write_pred

    labels_src = data / "synthpai-dev" / "comments_dev.jsonl"
    pred = work / "synthpai_pred.jsonl"
    names = write_pred(bench, pred_dir, pred, uids)
    labels = work / "synthpai_labels.jsonl"
    with labels_src.open(encoding="utf-8") as src, labels.open("w", encoding="utf-8") as dst:
        for line in src:
            if line.strip() and json.loads(line).get("username") in names:
                dst.write(line)
    out = work / "synthpai_score.json"
    subprocess.run([sys.executable, str(data / "synthpai-dev" / "score.py"), "--labels", str(labels),
                    "--pred", str(pred), "--json", str(out)], check=True, stdout=subprocess.DEVNULL)
    m = json.loads(out.read_text())["metrics"]
    covered = _labelled_pairs_guessed(data / "synthpai-dev" / "score.py", labels, pred)
    return {"top1": m["all"]["top1"], "top3": m["all"]["top3"], "pairs": m["all"]["n"], "predicted_pairs": covered,
            "by_attribute": {k[5:]: v["top1"] for k, v in m.items() if k.startswith("attr:")}}


def run_set(name: str, bench: Path, out: Path, users: int | None, data: Path, cache_from: Path | None = None) -> dict:
    from core.batch import run_batch
    from core.eval.judge import get_judge
    from core.eval.metrics import evaluate, load_truths, summarize

    od = out / name
    seed_db = cache_from / name / "runs.db" if cache_from else None
    summary = run_batch(bench, od, system="argus", backend="offline", workers=1, limit=users,
                        cache_from=seed_db if seed_db and seed_db.is_file() and not (od / "runs.db").exists() else None)
    truths = load_truths(bench)[:users] if users else load_truths(bench)
    ev = evaluate(bench, od / "predictions", get_judge("rules"), truths=truths, resamples=200)
    by_attr = {}
    for a in sorted({r.attribute for r in ev.leaked}):
        s = summarize(r for r in ev.leaked if r.attribute == a)
        by_attr[a] = {"pes": s.pes, "n": s.n}
    row = {"set": name, "users": len(truths), "pes": ev.overall.pes, "binary": ev.overall.binary,
           "pes_ci95": ev.pes_ci95, "false_claims": ev.false_claims, "claims": ev.total_claims,
           "failed": len(summary.failed), "seconds": summary.seconds, "by_attribute": by_attr}
    if name == "prism" and not json.loads((bench / "manifest.json").read_text(encoding="utf-8")).get("topics"):
        row["note"] = f"{name}: {bench} was imported without the topic lists (an older importer): posts only"
        print(f"warning: {row['note']}", file=sys.stderr)
    if name == "synthpai":
        row["synthpai"] = synthpai_topk(bench, od / "predictions", [t.user_id for t in truths], data, od)
    return row


def engine_checkout() -> str:
    """Which checkout's engine ran (the one first on the path) and its commit."""
    import core

    where = Path(core.__file__).resolve().parent.parent
    try:
        rev = subprocess.run(["git", "-C", str(where), "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        rev = "unknown"
    return f"{where} @ {rev}"


def _f(x: float | None, nd: int = 3) -> str:
    return "–" if x is None else f"{x:.{nd}f}"


def markdown(rows: list[dict]) -> str:
    """The headline table, then PES per attribute (one column per set). Plain text: no terminal width."""
    head = "| set | users | PES | binary | false claims / claims | SynthPAI top-1 / top-3 (pairs predicted) |"
    lines = [head, "|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        fc = f"{r['false_claims']} / {r['claims']}" + (f" ({100 * r['false_claims'] / r['claims']:.1f} %)" if r["claims"] else "")
        sp = r.get("synthpai")
        spt = (f"{100 * sp['top1']:.1f} % / {100 * sp['top3']:.1f} % ({sp['predicted_pairs']} of {sp['pairs']})"
               if sp else "")
        lines.append(f"| {r['set']} | {r['users']} | {_f(r['pes'])} | {_f(r['binary'])} | {fc} | {spt} |")
    attrs = sorted({a for r in rows for a in r["by_attribute"]})
    lines += ["", "| attribute | " + " | ".join(r["set"] for r in rows) + " |",
              "|---|" + "---:|" * len(rows)]
    for a in attrs:
        cells = []
        for r in rows:
            x = r["by_attribute"].get(a)
            cells.append(f"{_f(x['pes'], 2)} ({x['n']})" if x else "")
        lines.append(f"| {a} | " + " | ".join(cells) + " |")
    lines += [f"\nNote: {r['note']}" for r in rows if r.get("note")]
    sps = [r for r in rows if r.get("synthpai")]
    for r in sps:
        lines += ["", "| SynthPAI attribute | top-1 |", "|---|---:|"]
        lines += [f"| {a} | {100 * v:.1f} % |" for a, v in sorted(r["synthpai"]["by_attribute"].items())]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--users", type=int, default=0, help="first N users of each set (0: all)")
    ap.add_argument("--gen-users", type=int, default=0, help="first N users of the generated sets (OCR makes them the slow ones)")
    ap.add_argument("--cache-from", type=Path, help="an earlier --out: seed each set's tool cache (OCR) from its runs.db")
    ap.add_argument("--out", type=Path, help="keep predictions and run DBs here (re-running resumes)")
    ap.add_argument("--benches", type=Path, default=Path(tempfile.gettempdir()) / "transfer-benches",
                    help="where the benches are made once and reused")
    ap.add_argument("--sets", default=",".join(SETS), help=f"comma-separated subset of {','.join(SETS)}")
    ap.add_argument("--json", type=Path, help="write the rows as JSON here")
    args = ap.parse_args(argv)
    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    bad = [s for s in sets if s not in SETS]
    if bad:
        ap.error(f"--sets: unknown {', '.join(bad)} (one of {', '.join(SETS)})")
    data = shared_datasets()
    out = args.out or Path(tempfile.mkdtemp(prefix="transfer-"))
    rows = []
    for name in sets:
        bench = make_bench(name, args.benches, data)
        n = (args.gen_users or args.users) if name.startswith("gen-") else args.users
        rows.append(run_set(name, bench, out, n or None, data, args.cache_from))
        print(f"{name}: PES {_f(rows[-1]['pes'])} in {rows[-1]['seconds']:.0f}s", file=sys.stderr, flush=True)
    print(f"engine: {engine_checkout()}; offline backend; users per set: {args.users or 'all'}"
          + (f", generated sets: first {args.gen_users}" if args.gen_users else "") + "\n")
    print(markdown(rows))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    print(f"\npredictions: {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
