"""Is the investigation where evidence is found? Every issue #12 target from one script.

    .venv/bin/python benchmarks/investigation.py [--benches /tmp/style-benches] [--sets gen-a,gen-b,prism]
        [--users 50] [--prism-users 0] [--ocr-all-users 10] [--out DIR] [--cache-from DIR]
        [--warm ablate,prism] [--baseline /tmp/s12-base.json]

BENCHES holds gen-a and gen-b (`argus bench generate --users 50 --seed 0`, generator style a and
b) and prism (`argus import prism`, text only), as benchmarks/transfer.py makes them. For the
first --users users of each generated set it runs, one run DB per mode (OUT/<set>/<mode>):
  argus     the default engine (cheap skim, routed OCR/zoom/gazetteer paid from B = 20)
  ablate    the same with the investigator ablated (config investigator=false: the skim only)
  ocr_all   the old perception (config ocr_in_perception=true: OCR of every text-bearing image
            during the skim), on the first --ocr-all-users users: "today's" time per user
and on PRISM (--prism-users, 0 = all) the default engine. It prints PES with its bootstrap 95 %
CI, the PES of the ablation and the paired difference (CI), executed routes per user, time per
user against the OCR time of what the run actually read (the sum of its uncached `ocr` tool
calls, `tool_calls.duration_ms`), and the OCR-all run's time per user.

Honest OCR times need cold caches: a mode's run DB starts empty unless the mode is listed in
--warm and --cache-from is given (DIR/<set>/runs.db, e.g. a benchmarks/transfer.py --out; then
its tool cache is copied in first). Every row says whether its times are cold or warm; the
ablation's times are not reported (only its PES), so warming it only saves CPU. Re-running with
the same --out resumes (users already done are read from OUT/<set>/<mode>/rows.jsonl); users
run in order with every mode each, so a stopped run reports on its first users (--users K).
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

from core.batch import _seed_cache  # noqa: E402
from core.engine.loop import Investigation  # noqa: E402
from core.eval.judge import get_judge  # noqa: E402
from core.eval.metrics import compare, evaluate  # noqa: E402
from core.loader import user_dirs  # noqa: E402
from db.store import open_db  # noqa: E402

MODES = {"argus": {}, "ablate": {"investigator": False}, "ocr_all": {"ocr_in_perception": True}}
GEN_SETS = ("gen-a", "gen-b")
BEFORE_ISSUE = {"ablation": 0.003, "routes": "0-1"}     # main before issue #12, from the issue text


def subset(bench: Path, n: int, root: Path) -> Path:
    """A benchmark of the first n users (0: all; symlinked user folders)."""
    users = user_dirs(bench)[:n] if n else user_dirs(bench)
    dst = root / f"{bench.name}-first{len(users)}"
    (dst / "users").mkdir(parents=True, exist_ok=True)
    for uid, udir in users:
        if not (dst / "users" / uid).exists():
            (dst / "users" / uid).symlink_to(udir.resolve())
    man = json.loads((bench / "manifest.json").read_text())
    man["users"] = [u for u, _ in users]
    (dst / "manifest.json").write_text(json.dumps(man))
    return dst


class ModeRun:
    """One mode's run DB (OUT/<set>/<mode>) and per-user rows (resumed from rows.jsonl)."""

    def __init__(self, out: Path, config: dict, seed_db: Path | None):
        self.out, self.config = out, config
        (out / "predictions").mkdir(parents=True, exist_ok=True)
        fresh = not (out / "runs.db").exists()
        self.db = open_db(out / "runs.db")
        meta = out / "meta.json"
        if fresh:
            if seed_db is not None:
                self.db.conn.close()
                _seed_cache(out / "runs.db", seed_db)
                self.db = open_db(out / "runs.db")
            warm = bool(self.db.execute("SELECT COUNT(*) FROM cache WHERE kind='tool'").fetchone()[0])
            meta.write_text(json.dumps({"warm": warm, "cache_from": str(seed_db) if seed_db else None}))
        self.warm = bool(json.loads(meta.read_text())["warm"]) if meta.is_file() else False
        self.rows_f = out / "rows.jsonl"
        self.done = {json.loads(x)["user"]: json.loads(x) for x in self.rows_f.read_text().splitlines()} \
            if self.rows_f.is_file() else {}

    def run_user(self, uid: str, udir: Path) -> None:
        if uid in self.done and (self.out / "predictions" / f"{uid}.json").is_file():
            return
        db = self.db
        t0 = time.perf_counter()
        inv = Investigation.start(db, udir, config=self.config)
        pred = inv.run()
        wall = time.perf_counter() - t0
        pred.system = "argus-offline"
        (self.out / "predictions" / f"{uid}.json").write_text(pred.model_dump_json(exclude_none=True))
        routes = db.execute("SELECT COUNT(*) FROM routes WHERE run_id=? AND status IN ('done','edited','failed')",
                            [inv.run_id]).fetchone()[0]
        ocr_ms, hits = db.execute("SELECT COALESCE(SUM(CASE WHEN cached=0 THEN duration_ms END), 0),"
                                  " SUM(cached) FROM tool_calls WHERE run_id=? AND tool='ocr'", [inv.run_id]).fetchone()
        row = {"user": uid, "wall": wall, "routes": routes, "ocr_s": ocr_ms / 1000.0, "ocr_cache_hits": hits or 0,
               "spent": inv.budget.spent}
        self.done[uid] = row
        with self.rows_f.open("a") as fh:
            fh.write(json.dumps(row) + "\n")
        print(f"  {self.out.parent.name}/{self.out.name} {uid}: {wall:.1f}s, {routes} routes, OCR {row['ocr_s']:.1f}s",
              file=sys.stderr, flush=True)

    def tool_seconds(self, uid: str) -> dict[str, float]:
        """Uncached tool time by tool of the user's last finished run (where the non-OCR time goes)."""
        r = self.db.execute("SELECT run_id FROM runs WHERE user_id=? AND status='finished' ORDER BY created_at DESC"
                            " LIMIT 1", [uid]).fetchone()
        if r is None:
            return {}
        return {t: ms / 1000.0 for t, ms in self.db.execute(
            "SELECT tool, SUM(duration_ms) FROM tool_calls WHERE run_id=? AND cached=0 GROUP BY tool", [r[0]])}

    def summary(self, bench: Path) -> dict:
        rows = [self.done[u] for u, _ in user_dirs(bench)]
        tools: dict[str, float] = {}
        for u, _ in user_dirs(bench):
            for t, sec in self.tool_seconds(u).items():
                tools[t] = tools.get(t, 0.0) + sec / len(rows)
        return {"rows": rows, "warm": self.warm, "tools": tools, "wall": statistics.mean(r["wall"] for r in rows),
                "routes": statistics.mean(r["routes"] for r in rows),
                "ocr": statistics.mean(r["ocr_s"] for r in rows),
                "ratio": sum(r["wall"] for r in rows) / max(1e-9, sum(r["ocr_s"] for r in rows))}


def run_mode(bench: Path, out: Path, config: dict, seed_db: Path | None) -> dict:
    """Run every user of `bench` in one mode (resuming); returns the mode's summary."""
    m = ModeRun(out, config, seed_db)
    for uid, udir in user_dirs(bench):
        m.run_user(uid, udir)
    return m.summary(bench)


def fmt_ci(ci) -> str:
    return f"[{ci[0]:.3f}, {ci[1]:.3f}]" if ci else "n/a"


def temp(m: dict) -> str:
    return "warm cache" if m["warm"] else "cold cache"


def gen_report(name: str, bench: Path, root: Path, seed: dict[str, Path | None], ocr_all_users: int,
               baseline: dict[str, float]) -> list[str]:
    judge = get_judge("rules")
    sub = bench
    # user by user, every mode (the OCR-all one on the first users), so a stopped run has all measures
    runs = {m: ModeRun(root / name / m, MODES[m], seed[m]) for m in MODES if m != "ocr_all" or ocr_all_users}
    for i, (uid, udir) in enumerate(user_dirs(sub)):
        for m, r in runs.items():
            if m != "ocr_all" or i < ocr_all_users:
                r.run_user(uid, udir)
    a, b = runs["argus"].summary(sub), runs["ablate"].summary(sub)
    c = compare(sub, root / name / "argus" / "predictions", root / name / "ablate" / "predictions", judge)
    n = len(a["rows"])
    base = baseline.get(name)
    lines = [f"{name}: first {n} users of {bench.name} (seed 0)",
             f"  PES (95% bootstrap CI)                    {c.base.overall.pes:.3f} {fmt_ci(c.base.pes_ci95)}"
             + (f"   main baseline {base:.3f}: target not below it (within the CI)" if base is not None else ""),
             f"  PES with the investigator ablated         {c.other.overall.pes:.3f} {fmt_ci(c.other.pes_ci95)}",
             f"  PES cost of ablating it (paired CI)       {c.delta_pes:+.3f} {fmt_ci(c.delta_ci95)}"
             f"   target >= 0.05 (issue: {BEFORE_ISSUE['ablation']:+.3f} before)",
             f"  executed routes per user (mean)           {a['routes']:.2f}   target >= 5",
             f"  time per user, s ({temp(a)})             {a['wall']:.2f}",
             f"  OCR time of what it read, s per user      {a['ocr']:.2f}   (uncached ocr tool calls)",
             f"  time / OCR time                           {a['ratio']:.2f}   target <= 1.2 ({temp(a)})",
             "  other tool time, s per user               " + ", ".join(
                 f"{t} {sec:.2f}" for t, sec in sorted(a["tools"].items(), key=lambda x: -x[1]) if t != "ocr")]
    if ocr_all_users:
        few = subset(bench, ocr_all_users, root / "benches")
        o = runs["ocr_all"].summary(few)
        k = len(o["rows"])
        own = statistics.mean(r["wall"] for r in a["rows"][:k])
        pes_o = evaluate(few, root / name / "ocr_all" / "predictions", judge).overall.pes
        pes_a = evaluate(few, root / name / "argus" / "predictions", judge).overall.pes
        lines += [f"  OCR every text image (ocr_in_perception), first {k} users:",
                  f"    time per user, s ({temp(o)})           {o['wall']:.2f}   vs default engine {own:.2f}"
                  f" ({temp(a)}): target lower -> {'yes' if own < o['wall'] else 'NO'}",
                  f"    its OCR time per user, s               {o['ocr']:.2f}   (time / OCR {o['ratio']:.2f})",
                  f"    PES on those users                     {pes_o:.3f}   vs default engine {pes_a:.3f}"]
    return lines


def prism_report(bench: Path, root: Path, users: int, seed_db: Path | None, baseline: dict[str, float]) -> list[str]:
    sub = subset(bench, users, root / "benches")
    p = run_mode(sub, root / "prism" / "argus", MODES["argus"], seed_db)
    ev = evaluate(sub, root / "prism" / "argus" / "predictions", get_judge("rules"))
    base = baseline.get("prism")
    return [f"prism: {len(ev.users)} users (text only)",
            f"  PES (95% bootstrap CI)                    {ev.overall.pes:.3f} {fmt_ci(ev.pes_ci95)}"
            + (f"   main baseline {base:.3f}: target not below it" if base is not None else ""),
            f"  executed routes per user (mean)           {p['routes']:.2f}",
            f"  time per user, s ({temp(p)})             {p['wall']:.3f}"]


def load_baseline(path: Path | None) -> dict[str, float]:
    """PES per set of a benchmarks/transfer.py --json output (the lead's baseline on main)."""
    if path is None or not path.is_file() or not path.stat().st_size:
        return {}
    return {r["set"]: r["pes"] for r in json.loads(path.read_text()) if r.get("pes") is not None}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--benches", type=Path, default=Path("/tmp/style-benches"))
    ap.add_argument("--sets", default="gen-a,gen-b,prism")
    ap.add_argument("--users", type=int, default=50, help="first N users of each generated set")
    ap.add_argument("--prism-users", type=int, default=0, help="0: all PRISM users")
    ap.add_argument("--ocr-all-users", type=int, default=10, help="users of the OCR-all timing run (0: skip)")
    ap.add_argument("--out", type=Path, default=None, help="run DBs and rows (re-running resumes)")
    ap.add_argument("--cache-from", type=Path, default=None,
                    help="DIR with <set>/runs.db (e.g. a transfer.py --out): seeds the tool cache of --warm modes")
    ap.add_argument("--warm", default="ablate,prism",
                    help="modes seeded from --cache-from (argus, ablate, ocr_all, prism); the others run cold")
    ap.add_argument("--baseline", type=Path, default=Path("/tmp/s12-base.json"),
                    help="transfer.py --json of main: its PES per set is printed as the baseline")
    args = ap.parse_args(argv)
    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    bad = [s for s in sets if s not in (*GEN_SETS, "prism")]
    if bad:
        ap.error(f"--sets: unknown {', '.join(bad)} (gen-a, gen-b, prism)")
    warm = {w.strip() for w in args.warm.split(",") if w.strip()}
    bad = sorted(warm - {*MODES, "prism"})
    if bad:
        ap.error(f"--warm: unknown {', '.join(bad)} ({', '.join([*MODES, 'prism'])})")
    for s in sets:
        if not (args.benches / s / "manifest.json").is_file():
            ap.error(f"--benches: {args.benches / s}/manifest.json not found (make it with benchmarks/transfer.py)")
    root = args.out or Path(tempfile.mkdtemp(prefix="argus-investigation-"))
    baseline = load_baseline(args.baseline)

    def seed_of(name: str, mode: str) -> Path | None:
        p = args.cache_from / name / "runs.db" if args.cache_from else None
        return p if p is not None and mode in warm and p.is_file() else None

    # one-time costs are no user's time: the OCR model load, rule compilation, gazetteer index
    from core.engine import rules
    from tools.gazetteer import default_gazetteer
    from tools.ocr import default_ocr

    gen = [s for s in sets if s in GEN_SETS]
    ocr = default_ocr()
    if hasattr(ocr, "warm_up"):     # all its models: reading one image that has no text loads only the detector
        ocr.warm_up()
    default_gazetteer()
    rules.extract_cues("warm up in Shenzhen")
    # ... nor the embedding model and the semantic prototypes: one text-only user in a scratch DB
    text_user = next(iter(user_dirs(args.benches / "prism")), None) if (args.benches / "prism").is_dir() else None
    if text_user is not None:
        with tempfile.TemporaryDirectory() as tmp:
            Investigation.start(Path(tmp) / "warm.db", text_user[1]).run()

    report: list[str] = []
    for name in gen:
        bench = subset(args.benches / name, args.users, root / "benches")
        report += gen_report(name, bench, root, {m: seed_of(name, m) for m in MODES}, args.ocr_all_users, baseline)
        print("\n".join(report[-12:]), file=sys.stderr, flush=True)
    if "prism" in sets:
        report += prism_report(args.benches / "prism", root, args.prism_users, seed_of("prism", "prism"), baseline)
    import core

    print(f"engine: {Path(core.__file__).resolve().parent.parent}; offline backend; budget B = 20; run DBs in {root}")
    print(f"cache: cold = the mode's run DB started empty; warm = seeded from {args.cache_from} (--warm {args.warm})")
    print("\n".join(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
