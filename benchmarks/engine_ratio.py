"""Time per user of two engines on the same machine, interleaved: this checkout against an earlier commit.

    PYTHONPATH=$PWD nice -n 10 .venv/bin/python benchmarks/engine_ratio.py --base REV \
        --cache-from /work/base/s1 [--sets sopri-dev2,synthpai,gen-a] [--users 20] [--rounds 2]

Issue 33 asks that reading each text once costs no more time per user than before. Both engines run
`core.batch.run_batch` (offline backend, one worker) in their own process with their own code on
PYTHONPATH (REV is checked out into a temporary git worktree), over the same users, with the tool cache
(OCR) seeded from the same earlier transfer run (`--cache-from`, an `--out` of benchmarks/transfer.py), so
what is timed is the engine's own work: reading, hypotheses, routes, verification, projection. Rounds
alternate the order (base, head / head, base) so a load change on a shared machine hits both; the table
gives each engine's median seconds per user and the ratio head / base (goal: <= 1.0), wall clock and
CPU (the process's own user + system time over the same span: on a shared machine waiting for a core
moves the wall clock by 2-3x between runs and the CPU time much less), and the 1-minute load average
before and after the set.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from transfer import make_bench, shared_datasets  # noqa: E402

_RUN = """
import json, sys, time
from pathlib import Path
from core.batch import run_batch
bench, out, seed, limit = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], int(sys.argv[4])
cpu = time.process_time()
s = run_batch(bench, out, system="argus", backend="offline", workers=1, limit=limit or None,
              cache_from=Path(seed) if seed else None)
print(json.dumps({"seconds": s.seconds, "cpu": time.process_time() - cpu, "failed": len(s.failed)}))
"""


def run_once(code: Path, bench: Path, seed: Path | None, users: int) -> tuple[float, float]:
    """(wall, CPU) seconds per user of one fresh batch run of the engine at `code`."""
    out = Path(tempfile.mkdtemp(prefix="argus-ratio-"))
    env = {"PYTHONPATH": str(code), "PATH": "/usr/bin:/bin", "HOME": str(Path.home())}
    p = subprocess.run([sys.executable, "-c", _RUN, str(bench), str(out / "run"), str(seed or ""), str(users)],
                       cwd=code, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"error: engine at {code} failed on {bench}:\n{p.stderr[-2000:]}")
    r = json.loads(p.stdout.strip().splitlines()[-1])
    n = users or len(list((bench / "users").iterdir()))
    return r["seconds"] / max(1, n), r["cpu"] / max(1, n)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", required=True, help="the earlier commit (any git revision of this repository)")
    ap.add_argument("--cache-from", type=Path, help="an earlier transfer.py --out: seeds each set's OCR cache")
    ap.add_argument("--sets", default="sopri-dev2,synthpai,gen-a")
    ap.add_argument("--users", type=int, default=20, help="first N users of each set (0: all)")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--benches", type=Path, default=Path(tempfile.gettempdir()) / "transfer-benches")
    args = ap.parse_args()

    base_dir = Path(tempfile.mkdtemp(prefix="argus-base-")) / "src"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(base_dir), args.base], check=True)
    try:
        data = shared_datasets()
        print(f"base {args.base} vs head {ROOT}; users per set: {args.users or 'all'}; rounds: {args.rounds}")
        print("| set | base s/user | head s/user | head / base | base CPU s/user | head CPU s/user | CPU head / base "
              "| load 1 min |\n|---|---:|---:|---:|---:|---:|---:|---|")
        for name in args.sets.split(","):
            bench = make_bench(name, args.benches, data)
            seed = args.cache_from / name / "runs.db" if args.cache_from else None
            seed = seed if seed and seed.is_file() else None
            times: dict[str, list[tuple[float, float]]] = {"base": [], "head": []}
            load0 = os.getloadavg()[0]
            for i in range(args.rounds):
                order = (("base", base_dir), ("head", ROOT)) if i % 2 == 0 else (("head", ROOT), ("base", base_dir))
                for label, code in order:
                    times[label].append(run_once(code, bench, seed, args.users))
            b, h = (statistics.median(t for t, _ in times[k]) for k in ("base", "head"))
            bc, hc = (statistics.median(c for _, c in times[k]) for k in ("base", "head"))
            print(f"| {name} | {b:.2f} | {h:.2f} | {h / b:.2f} | {bc:.2f} | {hc:.2f} | {hc / bc:.2f} "
                  f"| {load0:.1f} -> {os.getloadavg()[0]:.1f} |", flush=True)
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base_dir)], check=False)


if __name__ == "__main__":
    main()
