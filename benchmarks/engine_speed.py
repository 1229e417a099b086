"""Engine speed: time per user vs the OCR floor, and the warm re-run with cached tool calls.

    .venv/bin/python benchmarks/engine_speed.py BENCH_DIR [--users 10] [--json OUT.json]

For each user (same process, OCR model warmed up once first):
  run    wall time of a fresh investigation (empty tool cache for that user)
  floor  time to OCR only the text-bearing images of that user (images whose OCR found
         text), calling RapidOCR directly with no cache: the least any OCR-based system pays
  warm   a second, new investigation of the same user in the same run DB (tool cache warm)
Prints per-user rows and the totals; ratio = run / floor (goal <= 1.2), warm goal <= 0.3 s.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.engine.loop import Investigation  # noqa: E402
from core.loader import user_dirs  # noqa: E402
from db.store import open_db  # noqa: E402
from tools.ocr import default_ocr  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bench", type=Path)
    ap.add_argument("--users", type=int, default=10)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()

    ocr = default_ocr()
    warm_img = next(iter(sorted((args.bench / "users").glob("*/images/*"))), None)
    if warm_img is not None:
        ocr.read(warm_img)          # model load is not part of any user's time
    db_path = Path(tempfile.mkdtemp(prefix="argus-speed-")) / "runs.db"
    db = open_db(db_path)
    rows = []
    for uid, udir in user_dirs(args.bench)[: args.users]:
        t0 = time.perf_counter()
        inv = Investigation.start(db, udir)
        inv.run()
        t_run = time.perf_counter() - t0
        texty = []
        for inp, out in db.execute("SELECT inputs, outputs FROM tool_calls WHERE run_id=? AND tool='ocr'"
                                   " AND route_id IS NULL AND outputs IS NOT NULL", [inv.run_id]).fetchall():
            if json.loads(out).get("lines"):
                texty.append(str(udir / json.loads(inp)["file"]))
        n_ocr = db.execute("SELECT COUNT(*) FROM tool_calls WHERE run_id=? AND tool='ocr'", [inv.run_id]).fetchone()[0]
        n_images = db.execute("SELECT COUNT(*) FROM images WHERE run_id=?", [inv.run_id]).fetchone()[0]
        t1 = time.perf_counter()
        for p in texty:
            ocr.read(Path(p))
        t_floor = time.perf_counter() - t1
        t2 = time.perf_counter()
        Investigation.start(db, udir).run()
        t_warm = time.perf_counter() - t2
        routes = db.execute("SELECT COUNT(*) FROM routes WHERE run_id=? AND status IN ('done','failed','edited')",
                            [inv.run_id]).fetchone()[0]
        row = {"user": uid, "images": n_images, "ocr_calls": n_ocr, "text_images": len(texty),
               "routes": routes, "run_s": round(t_run, 3), "floor_s": round(t_floor, 3), "warm_s": round(t_warm, 3),
               "ratio": round(t_run / t_floor, 3) if t_floor > 0 else None}
        rows.append(row)
        print(json.dumps(row), flush=True)
    tot = {k: round(sum(r[k] for r in rows), 3) for k in ("run_s", "floor_s", "warm_s")}
    summary = {"users": len(rows), **tot,
               "ratio": round(tot["run_s"] / tot["floor_s"], 3) if tot["floor_s"] else None,
               "warm_per_user_s": round(tot["warm_s"] / max(1, len(rows)), 3),
               "run_per_user_s": round(tot["run_s"] / max(1, len(rows)), 3)}
    print("summary:", json.dumps(summary))
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "summary": summary}, indent=1))


if __name__ == "__main__":
    main()
