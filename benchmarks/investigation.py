"""Is the investigation where evidence is found? (issue #12 targets, one script)

    .venv/bin/python benchmarks/investigation.py [--bench /tmp/loop-g] [--prism /tmp/loop-prism]
        [--users 50] [--prism-users 0] [--today-users 10] [--out DIR] [--parts gen,today,prism]

BENCH is `argus bench generate BENCH --users 50 --seed 0`; PRISM is `argus import prism
../shared/datasets/prism PRISM` (text only). For the first --users users of BENCH it runs, each
in a fresh run DB (no tool cache carried over):
  skim+routes   the default engine (cheap skim, routed OCR/zoom/gazetteer from B = 20)
  -investigator the same with --ablate investigator (the skim only)
  OCR-all       the old mode, ocr_in_perception=true (OCR of every text-bearing image during
                the skim), on the first --today-users users: the "today" time per user
and prints PES (95 % CI), the paired ΔPES of the ablation (CI), executed routes per user, time
per user, and time / OCR time of what the run read (sum of the run's uncached OCR tool calls,
`tool_calls.duration_ms`). On PRISM (--prism-users, 0 = all) it prints the default engine's PES.
The 'before' column is main before issue #12, from the issue text.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.engine.loop import Investigation  # noqa: E402
from core.eval.judge import get_judge  # noqa: E402
from core.eval.metrics import compare, evaluate  # noqa: E402
from core.loader import user_dirs  # noqa: E402
from db.store import open_db  # noqa: E402
from tools.ocr import default_ocr  # noqa: E402

BEFORE = {"pes": 0.509, "ablation": 0.003, "prism": 0.175}   # issue #12, measured on main


def subset(bench: Path, n: int, root: Path) -> Path:
    """A benchmark of the first n users (symlinked user folders)."""
    users = user_dirs(bench)[:n] if n else user_dirs(bench)
    dst = root / f"{bench.name}-{len(users)}"
    (dst / "users").mkdir(parents=True, exist_ok=True)
    for uid, udir in users:
        if not (dst / "users" / uid).exists():
            (dst / "users" / uid).symlink_to(udir.resolve())
    man = json.loads((bench / "manifest.json").read_text())
    man["users"] = [u for u, _ in users]
    (dst / "manifest.json").write_text(json.dumps(man))
    return dst


def run_all(bench: Path, out: Path, config: dict, users: int | None = None) -> dict:
    (out / "predictions").mkdir(parents=True, exist_ok=True)
    db = open_db(out / "runs.db")
    rows = []
    for uid, udir in user_dirs(bench)[:users]:
        t0 = time.perf_counter()
        inv = Investigation.start(db, udir, config=config)
        pred = inv.run()
        wall = time.perf_counter() - t0
        pred.system = "argus-offline"
        (out / "predictions" / f"{uid}.json").write_text(pred.model_dump_json(exclude_none=True))
        routes = db.execute("SELECT COUNT(*) FROM routes WHERE run_id=? AND status IN ('done','edited','failed')",
                            [inv.run_id]).fetchone()[0]
        ocr_ms = db.execute("SELECT COALESCE(SUM(duration_ms), 0) FROM tool_calls WHERE run_id=? AND tool='ocr'"
                            " AND cached=0", [inv.run_id]).fetchone()[0]
        rows.append({"user": uid, "wall": wall, "routes": routes, "ocr_s": ocr_ms / 1000.0,
                     "spent": inv.budget.spent})
        print(f"  {out.name} {uid}: {wall:.1f}s, {routes} routes, OCR {ocr_ms / 1000:.1f}s", flush=True)
    db.conn.close()
    return {"rows": rows, "wall": statistics.mean(r["wall"] for r in rows),
            "routes": statistics.mean(r["routes"] for r in rows),
            "ratio": sum(r["wall"] for r in rows) / max(1e-9, sum(r["ocr_s"] for r in rows))}


def parts_keys(parts: set[str]) -> set[str]:
    keys = set()
    if "gen" in parts:
        keys |= {"argus", "ablate", "pes", "pes_ci", "pes_ablate", "delta", "delta_ci"}
    if "today" in parts:
        keys |= {"today", "argus_same_users_wall", "pes_today_subset", "pes_argus_subset"}
    if "prism" in parts:
        keys |= {"prism", "prism_pes", "prism_ci", "prism_n"}
    return keys


def fmt_ci(ci) -> str:
    return f"[{ci[0]:.3f}, {ci[1]:.3f}]" if ci else "n/a"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench", type=Path, default=Path("/tmp/loop-g"))
    ap.add_argument("--prism", type=Path, default=Path("/tmp/loop-prism"))
    ap.add_argument("--users", type=int, default=50)
    ap.add_argument("--prism-users", type=int, default=0, help="0: all PRISM users")
    ap.add_argument("--today-users", type=int, default=10, help="users of the OCR-all timing run (0: skip)")
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--parts", default="gen,today,prism",
                    help="which runs (gen: default + ablation, today: OCR-all timing, prism); results accumulate"
                         " in OUT/results.json, so parts can run at different times")
    args = ap.parse_args()
    root = args.out or Path(tempfile.mkdtemp(prefix="argus-investigation-"))
    judge = get_judge("rules")
    warm = next(iter(sorted((args.bench / "users").glob("*/images/*"))), None)
    if warm is not None:
        default_ocr().read(warm)                   # model load is no user's time,
    from core.engine import rules                  # nor the one-time rule compilation
    from tools.gazetteer import default_gazetteer

    default_gazetteer()                            # ... and gazetteer index build
    rules.extract_cues("warm up in Shenzhen")

    parts = set(args.parts.split(","))
    res: dict = json.loads((root / "results.json").read_text()) if (root / "results.json").is_file() else {}
    bench = subset(args.bench, args.users, root)
    if "gen" in parts:
        res.update({"argus": run_all(bench, root / "argus", {}),
                    "ablate": run_all(bench, root / "ablate", {"investigator": False})})
        c = compare(bench, root / "argus", root / "ablate", judge)
        res["pes"], res["pes_ci"] = c.base.overall.pes, c.base.pes_ci95
        res["pes_ablate"], res["delta"], res["delta_ci"] = c.other.overall.pes, c.delta_pes, c.delta_ci95
    if "today" in parts and args.today_users:
        res["today"] = run_all(bench, root / "today", {"ocr_in_perception": True}, users=args.today_users)
        own = res["argus"]["rows"][:args.today_users]
        res["argus_same_users_wall"] = statistics.mean(r["wall"] for r in own)
        today_bench = subset(args.bench, args.today_users, root / "today-bench")
        res["pes_today_subset"] = evaluate(today_bench, root / "today", judge).overall.pes
        res["pes_argus_subset"] = evaluate(today_bench, root / "argus", judge).overall.pes
    if "prism" in parts and args.prism.is_dir():
        pb = subset(args.prism, args.prism_users, root)
        res["prism"] = run_all(pb, root / "prism", {})
        ev = evaluate(pb, root / "prism", judge)
        res["prism_pes"], res["prism_ci"], res["prism_n"] = ev.overall.pes, ev.pes_ci95, len(ev.users)
    # merge with what other parts (possibly run at the same time) saved meanwhile
    saved = json.loads((root / "results.json").read_text()) if (root / "results.json").is_file() else {}
    res = {**saved, **{k: v for k, v in res.items() if k in parts_keys(parts)}}
    (root / "results.json").write_text(json.dumps(res, default=str))
    if "argus" not in res:
        print(f"saved {sorted(res)} in {root / 'results.json'}")
        return
    a, n = res["argus"], len(res["argus"]["rows"])
    print()
    print(f"generated bench {args.bench} (first {n} users), PRISM {args.prism}; run DBs in {root}")
    print(f"'before' = main before issue #12, from the issue text (PES and ablation on 50 users, PRISM on all)")
    print(f"{'measure':<46} {'before (main)':>14} {'now':>22}  target")
    print(f"{'PES (95% CI)':<46} {BEFORE['pes']:>14.3f} {res['pes']:>8.3f} {fmt_ci(res['pes_ci']):>13}  >= before (CI)")
    d = res["delta"]
    print(f"{'PES cost of --ablate investigator (CI)':<46} {-BEFORE['ablation']:>+14.3f} "
          f"{d:>+8.3f} {fmt_ci(res['delta_ci']):>13}  >= 0.05")
    print(f"{'PES with --ablate investigator':<46} {'':>14} {res['pes_ablate']:>8.3f}")
    print(f"{'executed routes per user (mean)':<46} {'0-1':>14} {a['routes']:>22.2f}  >= 5")
    print(f"{'time per user / OCR time of what it read':<46} {'':>14} {a['ratio']:>22.2f}  <= 1.2")
    if "today" in res:
        t = res["today"]
        print(f"{'time per user, s (first %d users)' % args.today_users:<46} {t['wall']:>14.1f} "
              f"{res['argus_same_users_wall']:>22.1f}  < before")
        print(f"{'  OCR-all mode: time / OCR time':<46} {t['ratio']:>14.2f}")
        print(f"{'  PES on those users (OCR-all vs now)':<46} {res['pes_today_subset']:>14.3f} "
              f"{res['pes_argus_subset']:>22.3f}")
    if "prism_pes" in res:
        print(f"{'PRISM PES (%d users, text only) (CI)' % res['prism_n']:<46} {BEFORE['prism']:>14.3f} "
              f"{res['prism_pes']:>8.3f} {fmt_ci(res['prism_ci']):>13}  >= before")
    if args.json:
        args.json.write_text(json.dumps(res, indent=1, default=str))


if __name__ == "__main__":
    main()
