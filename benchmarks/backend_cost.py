"""Model-backend cost and quality: the offline backend vs every loop role on a model, same users.

    .venv/bin/python benchmarks/backend_cost.py [--users 3] [--posts 5] [--seed 3] [--budget 8]
        [--base-url URL --model NAME] [--json OUT.json]

Generates a small benchmark (`core.bench.generate`, users cut to their first --posts posts),
then for each user runs (1) the offline backend and (2) the openai backend with perceiver,
hypothesizer, router, verifier and deep_visual on the model, each in its own run DB. Without
--base-url it starts the tests' local llama.cpp server (SmolLM2-135M-Instruct, text-only;
`make llm`). Prints per user and role: calls, cache hits, failures, prompt and completion
tokens, model time, and wall time per user and backend; then PES of both (rules judge) and
whether a replay of each model run with no server reproduced its profile exactly.
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from core.backends.client import usage_summary  # noqa: E402
from core.backends.openai_backend import backend_options  # noqa: E402
from core.engine.loop import Investigation  # noqa: E402
from core.eval.judge import RulesJudge  # noqa: E402
from core.eval.metrics import evaluate  # noqa: E402

MODEL_ROLES = ("perceiver", "hypothesizer", "router", "verifier", "deep_visual")


def small_bench(dst: Path, users: int, posts: int, seed: int) -> Path:
    from core.bench.generate import generate

    full = dst.parent / "full"
    generate(full, users=users, seed=seed)
    man = json.loads((full / "manifest.json").read_text())
    for uid in man["users"]:
        src, d = full / "users" / uid, dst / "users" / uid
        shutil.copytree(src, d)
        lines = (src / "posts.jsonl").read_text(encoding="utf-8").splitlines()
        (d / "posts.jsonl").write_text("\n".join(lines[:posts]) + "\n", encoding="utf-8")
    (dst / "manifest.json").write_text(json.dumps({**man, "name": f"backend-cost-{users}x{posts}"}))
    return dst


def write_config(path: Path, base_url: str, model: str) -> Path:
    roles = "".join(f'[roles.{r}]\nmodel = "{model}"\nmax_tokens = 200\n' for r in MODEL_ROLES)
    path.write_text(f'[backend]\nbase_url = "{base_url}"\ntimeout = 300\nmax_retries = 1\nparse_retries = 1\n{roles}')
    return path


def run_one(db: Path, user: Path, backend: str, budget: float, config: dict | None = None):
    t0 = time.perf_counter()
    inv = Investigation.start(db, user, budget=budget, backend=backend, config=config)
    prof = inv.run()
    return inv, prof, time.perf_counter() - t0


def pes(bench: Path, preds: Path) -> float | None:
    return evaluate(bench, preds, RulesJudge(), resamples=0).overall.pes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--users", type=int, default=3)
    ap.add_argument("--posts", type=int, default=5)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--budget", type=float, default=8)
    ap.add_argument("--base-url", default=None)
    ap.add_argument("--model", default=None)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()

    work = Path(tempfile.mkdtemp(prefix="argus-backend-cost-"))
    bench = small_bench(work / "bench", args.users, args.posts, args.seed)
    server = None
    if args.base_url is None:
        from llm_server import MODEL_ALIAS, LlamaServer

        server = LlamaServer.start()
        base_url, model = server.base_url, MODEL_ALIAS
    else:
        base_url, model = args.base_url, args.model or "default"
    cfg = write_config(work / "argus.toml", base_url, model)
    out = {"users": [], "base_url": base_url, "model": model}
    try:
        from tools.ocr import default_ocr

        first = next(iter(sorted((bench / "users").glob("*/images/*"))), None)
        if first is not None:
            default_ocr().read(first)       # model load is not part of any user's time
        users = sorted(p for p in (bench / "users").iterdir() if p.is_dir())
        for d in ("pred_offline", "pred_model"):
            (work / d).mkdir()
        for u in users:
            off, off_prof, off_s = run_one(work / "offline.db", u, "offline", args.budget)
            inv, prof, model_s = run_one(work / "model.db", u, "openai", args.budget, backend_options(config=cfg))
            rep, rep_prof, rep_s = run_one(work / "replay.db", u, "replay", args.budget,
                                           backend_options(replay=work / "model.db"))
            (work / "pred_offline" / f"{off.user_id}.json").write_text(off_prof.model_dump_json())
            (work / "pred_model" / f"{inv.user_id}.json").write_text(prof.model_dump_json())
            roles = usage_summary(inv.db, inv.run_id)
            fallbacks = [json.loads(d)["role"] for (d,) in inv.db.execute(
                "SELECT data FROM events WHERE run_id=? AND kind='role_fallback'", [inv.run_id]).fetchall()]
            same = rep_prof.model_dump(exclude={"system"}) == prof.model_dump(exclude={"system"})
            out["users"].append({"user": inv.user_id, "posts": args.posts, "offline_s": round(off_s, 2),
                                 "model_s": round(model_s, 2), "replay_s": round(rep_s, 2), "roles": roles,
                                 "fallbacks": fallbacks, "replay_identical": same,
                                 "offline_attributes": len(off_prof.attributes),
                                 "model_attributes": len(prof.attributes)})
        out["pes_offline"] = pes(bench, work / "pred_offline")
        out["pes_model"] = pes(bench, work / "pred_model")
    finally:
        if server is not None:
            server.stop()

    print(f"model {model} at {base_url}; {len(out['users'])} generated users x {args.posts} posts, budget {args.budget:g}")
    hdr = f"{'user':<10} {'role':<13} {'calls':>5} {'cached':>6} {'failed':>6} {'prompt tok':>10} {'compl tok':>9} {'model s':>8}"
    for u in out["users"]:
        print(f"\n{u['user']}: wall offline {u['offline_s']:.1f} s, with model {u['model_s']:.1f} s "
              f"(x{u['model_s'] / max(u['offline_s'], 1e-9):.1f}), replay {u['replay_s']:.1f} s; attributes offline "
              f"{u['offline_attributes']}, with model {u['model_attributes']}; replay identical: "
              f"{'yes' if u['replay_identical'] else 'NO'}; fallbacks: {', '.join(u['fallbacks']) or 'none'}")
        print(f"{u['user']:<10} {'(offline)':<13} {0:>5} {0:>6} {0:>6} {0:>10} {0:>9} {0:>8.1f}")
        print(hdr)
        tot = {"calls": 0, "cached": 0, "failed": 0, "prompt_tokens": 0, "completion_tokens": 0, "duration_ms": 0.0}
        for r in u["roles"]:
            print(f"{u['user']:<10} {r['role']:<13} {r['calls']:>5} {r['cached']:>6} {r['failed']:>6} "
                  f"{r['prompt_tokens']:>10} {r['completion_tokens']:>9} {r['duration_ms'] / 1000:>8.1f}")
            for k in tot:
                tot[k] += r[k]
        print(f"{u['user']:<10} {'total':<13} {tot['calls']:>5} {tot['cached']:>6} {tot['failed']:>6} "
              f"{tot['prompt_tokens']:>10} {tot['completion_tokens']:>9} {tot['duration_ms'] / 1000:>8.1f}")
    po, pm = out["pes_offline"], out["pes_model"]
    print(f"\nPES offline {po:.4f}   PES with model {pm:.4f}   model >= offline: {'yes' if pm >= po else 'NO'}"
          if po is not None and pm is not None else f"\nPES offline {po}   PES with model {pm}")
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
