"""Transfer table: one engine, four data sets it was not fitted to in the same way.

    PYTHONPATH=$PWD nice -n 10 .venv/bin/python benchmarks/transfer.py [--users N] [--out DIR] [--json F]

Rows: the generated bench (seed 0) in style a and in style b (`argus bench generate --style b`),
PRISM (`argus import prism`: posts + topic lists; `prism-posts`: `--posts-only`) and SynthPAI dev
(`argus import synthpai`, plus SynthPAI's own top-1 / top-3 from its `score.py`). Columns: PES,
precision (right / checkable claims, docs/scoring.md), binary, false claims / claims, seconds per
user, then PES and precision per attribute, then the targets of issue 22 with met / not met.
`--baseline DIR` (an earlier --out, e.g. /work/base/s0) re-scores that run's predictions on the
same users with this checkout's evaluator and prints before -> after everywhere.
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


SETS = ("sopri-dev2", "gen-a", "gen-b", "prism", "prism-posts", "synthpai")


def make_bench(name: str, root: Path, data: Path) -> Path:
    """The bench of one row, made on first use and reused after (a folder with a manifest.json)."""
    if name == "sopri-dev2":   # already sopri/1 (written outside the team): used in place, never copied
        return data / "sopri-dev2"
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


def seconds_per_user(out_dir: Path, uids: list[str]) -> float | None:
    """Mean wall-clock seconds of the users' latest finished runs (the batch's results.jsonl)."""
    f = out_dir / "results.jsonl"
    if not f.is_file():
        return None
    last: dict[str, float] = {}
    for line in f.read_text(encoding="utf-8").splitlines():
        try:
            r = json.loads(line)
        except json.JSONDecodeError:
            continue
        if r.get("status") == "finished" and r.get("user_id") in uids and r.get("seconds") is not None:
            last[r["user_id"]] = float(r["seconds"])
    return sum(last.values()) / len(last) if last else None


def score_dir(bench: Path, pred_dir: Path, truths: list) -> dict:
    """PES, precision and both per attribute of one predictions folder on these users."""
    from core.eval.judge import get_judge
    from core.eval.metrics import evaluate, precision_by_attribute, summarize

    ev = evaluate(bench, pred_dir, get_judge("rules"), truths=truths, resamples=200)
    prec_attr = precision_by_attribute(ev.records)
    by_attr = {}
    for a in sorted({r.attribute for r in ev.leaked} | set(prec_attr)):
        s = summarize(r for r in ev.leaked if r.attribute == a)
        p = prec_attr.get(a)
        by_attr[a] = {"pes": s.pes, "n": s.n, "precision": p.precision if p else None,
                      "checkable": p.checkable if p else 0}
    p = ev.precision
    return {"users": len(truths), "pes": ev.overall.pes, "binary": ev.overall.binary, "pes_ci95": ev.pes_ci95,
            "false_claims": ev.false_claims, "claims": ev.total_claims, "precision": p.precision,
            "checkable": p.checkable, "right": p.right, "wrong_value": p.wrong_value,
            "contradicting": p.contradicting, "by_attribute": by_attr}


def run_set(name: str, bench: Path, out: Path, users: int | None, data: Path, cache_from: Path | None = None,
            baseline: Path | None = None, score_only: bool = False) -> dict:
    """Runs the engine on the set (unless `score_only`: the predictions already in OUT/<set>) and scores it."""
    from core.batch import run_batch
    from core.eval.metrics import load_truths

    od = out / name
    work = Path(tempfile.mkdtemp(prefix=f"transfer-{name}-")) if score_only else od   # never write into a read-only run
    if score_only:
        if not (od / "predictions").is_dir():
            raise SystemExit(f"error: --score-only: {od / 'predictions'} does not exist")
        failed, seconds = 0, 0.0
    else:
        seed_db = cache_from / name / "runs.db" if cache_from else None
        seeded = bool(seed_db and seed_db.is_file() and not (od / "runs.db").exists())
        summary = run_batch(bench, od, system="argus", backend="offline", workers=1, limit=users,
                            cache_from=seed_db if seeded else None)
        failed, seconds = len(summary.failed), summary.seconds
    truths = load_truths(bench)[:users] if users else load_truths(bench)
    uids = [t.user_id for t in truths]
    row = {"set": name, **score_dir(bench, od / "predictions", truths),
           "failed": failed, "seconds": seconds, "cached": bool(cache_from) and not score_only,
           "seconds_per_user": seconds_per_user(od, uids)}
    base_pred = baseline / name / "predictions" if baseline else None
    if base_pred is not None and base_pred.is_dir():
        row["before"] = {**score_dir(bench, base_pred, truths),
                         "seconds_per_user": seconds_per_user(baseline / name, uids)}
        if name == "synthpai":
            bwork = work / "before"
            bwork.mkdir(parents=True, exist_ok=True)
            row["before"]["synthpai"] = synthpai_topk(bench, base_pred, uids, data, bwork)
    if name == "prism" and not json.loads((bench / "manifest.json").read_text(encoding="utf-8")).get("topics"):
        row["note"] = f"{name}: {bench} was imported without the topic lists (an older importer): posts only"
        print(f"warning: {row['note']}", file=sys.stderr)
    if name == "synthpai":
        row["synthpai"] = synthpai_topk(bench, od / "predictions", uids, data, work)
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


def _ba(before: float | None, after: float | None, nd: int = 3, pct: bool = False) -> str:
    """`after`, or `before → after` when there is a before."""
    f = (lambda x: "–" if x is None else f"{100 * x:.1f} %") if pct else (lambda x: _f(x, nd))
    return f(after) if before is None else f"{f(before)} → {f(after)}"


# issue 22's targets: (set, what, threshold); "before" thresholds compare with the baseline
TARGETS = (
    ("synthpai", "top1", 0.45), ("synthpai", "top3", 0.50),
    ("gen-a", "pes", 0.55), ("gen-a", "precision", 0.90),
    ("gen-b", "pes", 0.55), ("gen-b", "precision", 0.90),
    ("prism", "pes", 0.32), ("prism", "precision", "before"),
    ("*", "precision", 0.90), ("*", "seconds_per_user", "before+10%"),
)


def _metric(r: dict, what: str) -> float | None:
    if what in ("top1", "top3"):
        return (r.get("synthpai") or {}).get(what)
    return r.get(what)


def targets(rows: list[dict]) -> list[tuple[str, str, str, str]]:
    """(set, target, value, met / not met / no baseline) for every target whose set was run."""
    out = []
    for want_set, what, thr in TARGETS:
        for r in rows:
            if want_set not in ("*", r["set"]):
                continue
            if want_set == "*" and any(s_ == r["set"] and w_ == what for s_, w_, _ in TARGETS):
                continue      # the set's own target of this metric is printed already
            v = _metric(r, what)
            b = _metric(r["before"], what) if r.get("before") else None
            if thr == "before":
                label, ok = "precision not lower than before", (None if b is None or v is None else v >= b - 1e-9)
            elif thr == "before+10%":
                label, ok = "time per user within 10 % of before", (None if b is None or v is None else v <= 1.1 * b)
                if r.get("cached"):
                    out.append((r["set"], label, f"{v or 0:.1f} s", "not comparable (tool cache seeded by --cache-from)"))
                    continue
            else:
                label = f"{what} ≥ {thr}"
                ok = None if v is None else v >= thr - 1e-9
            val = (f"{v:.1f} s" + (f" (before {b:.1f} s)" if b is not None else "") if what == "seconds_per_user" and v
                   else _ba(b, v, pct=what in ("top1", "top3")))
            out.append((r["set"], label, val, "no baseline" if ok is None else ("met" if ok else "NOT met")))
    return out


def markdown(rows: list[dict]) -> str:
    """The headline table, targets, then PES and precision per attribute (one column per set).
    With a baseline every number reads `before → after`. Plain text: no terminal width."""
    head = ("| set | users | PES | precision | right / wrong value / contradicting of checkable | binary "
            "| false claims / claims | s/user | SynthPAI top-1 / top-3 (pairs predicted) |")
    lines = [head, "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        b = r.get("before") or {}
        fc = f"{r['false_claims']} / {r['claims']}" + (f" ({100 * r['false_claims'] / r['claims']:.1f} %)" if r["claims"] else "")
        rw = f"{r['right']} / {r['wrong_value']} / {r['contradicting']} of {r['checkable']}"
        if b:
            rw = f"{b['right']} / {b['wrong_value']} / {b['contradicting']} of {b['checkable']} → " + rw
        sp, bsp = r.get("synthpai"), b.get("synthpai")
        spt = ""
        if sp:
            spt = (f"{_ba(bsp and bsp['top1'], sp['top1'], pct=True)} / {_ba(bsp and bsp['top3'], sp['top3'], pct=True)}"
                   f" ({sp['predicted_pairs']} of {sp['pairs']})")
        sec = _ba(b.get("seconds_per_user") if b else None, r.get("seconds_per_user"), nd=1)
        lines.append(f"| {r['set']} | {r['users']} | {_ba(b.get('pes') if b else None, r['pes'])} "
                     f"| {_ba(b.get('precision') if b else None, r['precision'])} | {rw} "
                     f"| {_ba(b.get('binary') if b else None, r['binary'])} | {fc} | {sec} | {spt} |")
    lines += ["", "| set | target | value | |", "|---|---|---:|---|"]
    lines += [f"| {s} | {t} | {v} | {m} |" for s, t, v, m in targets(rows)]
    attrs = sorted({a for r in rows for a in r["by_attribute"]})
    for key, title in (("pes", "PES"), ("precision", "precision (checkable claims)")):
        lines += ["", f"| attribute: {title} | " + " | ".join(r["set"] for r in rows) + " |",
                  "|---|" + "---:|" * len(rows)]
        for a in attrs:
            cells = []
            for r in rows:
                x = r["by_attribute"].get(a)
                bx = (r.get("before") or {}).get("by_attribute", {}).get(a) if r.get("before") else None
                n = (x["n"] if key == "pes" else x["checkable"]) if x else 0
                if x and (n or (bx and bx.get(key) is not None)):
                    cells.append(f"{_ba(bx.get(key) if bx else None, x.get(key), 2)} ({n})")
                else:
                    cells.append("")
            lines.append(f"| {a} | " + " | ".join(cells) + " |")
    lines += [f"\nNote: {r['note']}" for r in rows if r.get("note")]
    sps = [r for r in rows if r.get("synthpai")]
    for r in sps:
        before = ((r.get("before") or {}).get("synthpai") or {}).get("by_attribute", {})
        lines += ["", "| SynthPAI attribute | top-1 |", "|---|---:|"]
        lines += [f"| {a} | {_ba(before.get(a), v, pct=True)} |"
                  for a, v in sorted(r["synthpai"]["by_attribute"].items())]
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
    ap.add_argument("--baseline", type=Path, help="an earlier --out (e.g. /work/base/s0): re-score its predictions, "
                                                  "print before -> after and the targets against it")
    ap.add_argument("--score-only", action="store_true",
                    help="run nothing: score the predictions already in --out/<set>/predictions (e.g. --out /work/base/s0)")
    args = ap.parse_args(argv)
    if args.score_only and not args.out:
        ap.error("--score-only needs --out (the run whose predictions to score)")
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
        rows.append(run_set(name, bench, out, n or None, data, args.cache_from, args.baseline,
                            args.score_only))
        print(f"{name}: PES {_f(rows[-1]['pes'])}, precision {_f(rows[-1]['precision'])} in "
              f"{rows[-1]['seconds']:.0f}s", file=sys.stderr, flush=True)
    print(f"engine: {engine_checkout()}; offline backend; users per set: {args.users or 'all'}"
          + (f", generated sets: first {args.gen_users}" if args.gen_users else "") + "\n")
    print(markdown(rows))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    print(f"\npredictions: {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
