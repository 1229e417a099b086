"""Engine cost against account size: time per post at 10, 100 and 1,000 posts.

    .venv/bin/python benchmarks/scaling.py [--bench DIR] [--sizes 10,100,1000] [--images 24]
                                           [--image-share 3] [--profile N]

Each account is synthesised in the sopri/1 format from the posts of an existing benchmark
(default: a generated one, seed 0; `--bench` takes any sopri/1 folder): posts are taken in turn
from its users (text, tags, comments, timestamps as they are; new post ids), and every
`--image-share`-th post carries one image from a pool of `--images` images of that benchmark.
Images are shared across posts and sizes, so after a warm-up run over the pool the skim's and the
routes' OCR are served from the run DB's content-addressed cache: the numbers measure the
engine (perception bookkeeping, hypothesizer, verifier, router, projection, SQLite), not OCR.

The run is the real headless engine (`Investigation.start(...).run()`, what `argus investigate`
and the batch run), default budget. For each size it prints wall seconds, engine seconds (wall
minus the time of tool calls that were not served from the cache: 0 when the cache is warm),
ms per post, steps and routes, then the ratio of per-post time at the largest vs the smallest
size (linear cost = 1.0). `--profile N` prints the cProfile top N functions of the largest size.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_util import generated  # noqa: E402
from core.engine.loop import Investigation  # noqa: E402
from core.loader import iter_posts, user_dirs  # noqa: E402
from db.store import open_db  # noqa: E402


def _source_posts(bench: Path) -> tuple[list[dict], list[Path], dict]:
    """All posts of the benchmark (round-robin over users, so consecutive posts come from different
    users), the paths of its post images, and the first user's profile.json."""
    users = user_dirs(bench)
    per_user = [[p.model_dump(mode="json", exclude_none=True) for p in iter_posts(d / "posts.jsonl")]
                for _uid, d in users]
    posts = [per_user[u][i] for i in range(max(map(len, per_user))) for u in range(len(users))
             if i < len(per_user[u])]
    images = [d / ref["file"] for (_uid, d), ps in zip(users, per_user) for p in ps for ref in p.get("images") or []]
    profile = json.loads((users[0][1] / "profile.json").read_text(encoding="utf-8"))
    return posts, images, profile


def synthesise(dst: Path, n: int, posts: list[dict], pool: list[Path], profile: dict, share: int) -> Path:
    """A sopri/1 user folder of n posts; every `share`-th post has one image of the pool."""
    (dst / "images").mkdir(parents=True, exist_ok=True)
    for i, src in enumerate(pool):
        tgt = dst / "images" / f"pool{i:03d}{src.suffix}"
        if not tgt.exists():
            shutil.copyfile(src, tgt)
    lines = []
    for i in range(n):
        p = dict(posts[i % len(posts)])
        p["post_id"] = f"s{i + 1:05d}"
        p["images"] = []
        if pool and i % share == 0:
            k = (i // share) % len(pool)
            p["images"] = [{"file": f"images/pool{k:03d}{pool[k].suffix}", "alt": None}]
        lines.append(json.dumps(p, ensure_ascii=False))
    (dst / "posts.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    prof = {k: v for k, v in profile.items() if k != "avatar"}
    prof["user_id"] = dst.name
    (dst / "profile.json").write_text(json.dumps(prof, ensure_ascii=False), encoding="utf-8")
    return dst


def run_one(db, udir: Path) -> dict:
    t0 = time.perf_counter()
    inv = Investigation.start(db, udir)
    inv.run()
    wall = time.perf_counter() - t0
    tool_ms = db.execute("SELECT COALESCE(SUM(duration_ms), 0) FROM tool_calls WHERE run_id=? AND cached=0",
                         [inv.run_id]).fetchone()[0]
    routes = db.execute("SELECT COUNT(*) FROM routes WHERE run_id=? AND status IN ('done','edited','failed')",
                        [inv.run_id]).fetchone()[0]
    nodes = db.execute("SELECT COUNT(*) FROM nodes WHERE run_id=?", [inv.run_id]).fetchone()[0]
    return {"wall": wall, "engine": max(0.0, wall - tool_ms / 1000.0), "steps": inv.ctx.step, "routes": routes,
            "nodes": nodes}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench", type=Path, default=None)
    ap.add_argument("--sizes", default="10,100,1000")
    ap.add_argument("--images", type=int, default=24, help="size of the shared image pool")
    ap.add_argument("--image-share", type=int, default=3, help="every Nth post carries one image")
    ap.add_argument("--profile", type=int, default=0, help="print the cProfile top N of the largest size")
    ap.add_argument("--out", type=Path, default=None, help="work folder (default: a new temp folder)")
    a = ap.parse_args()
    sizes = [int(s) for s in a.sizes.split(",")]
    tmp = a.out or Path(tempfile.mkdtemp(prefix="argus-scaling-"))
    bench = a.bench or generated(tmp / "bench", users=10)
    posts, images, profile = _source_posts(bench)
    pool = images[:: max(1, len(images) // max(1, a.images))][: a.images]
    db = open_db(tmp / "runs.db")
    # warm-up: one post per pool image, so every image's skim and OCR are in the cache
    warm = synthesise(tmp / "users" / "warm", len(pool) * a.image_share, posts, pool, profile, a.image_share)
    t0 = time.perf_counter()
    run_one(db, warm)
    print(f"warm-up over {len(pool)} pool images: {time.perf_counter() - t0:.1f}s", flush=True)
    rows = []
    for n in sizes:
        udir = synthesise(tmp / "users" / f"scale{n}", n, posts, pool, profile, a.image_share)
        prof = cProfile.Profile() if a.profile and n == max(sizes) else None
        if prof:
            prof.enable()
        r = run_one(db, udir)
        if prof:
            prof.disable()
        r["posts"] = n
        rows.append(r)
        print(f"{n:>6} posts: wall {r['wall']:.2f}s, engine {r['engine']:.2f}s = {1000 * r['engine'] / n:.1f} ms/post"
              f" ({r['steps']} steps, {r['routes']} routes, {r['nodes']} nodes)", flush=True)
        if prof:
            s = io.StringIO()
            pstats.Stats(prof, stream=s).sort_stats("cumulative").print_stats(a.profile)
            print(s.getvalue())
    load = os.getloadavg()
    print(f"\nmachine: {os.cpu_count()} CPUs, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"{'posts':>6} {'engine s':>9} {'ms/post':>8} {'routes':>7}")
    for r in rows:
        print(f"{r['posts']:>6} {r['engine']:>9.2f} {1000 * r['engine'] / r['posts']:>8.1f} {r['routes']:>7}")
    lo, hi = rows[0], rows[-1]
    print(f"per-post time ratio {hi['posts']}/{lo['posts']} posts: "
          f"{(hi['engine'] / hi['posts']) / (lo['engine'] / lo['posts']):.2f} (linear = 1.0)")


if __name__ == "__main__":
    main()
