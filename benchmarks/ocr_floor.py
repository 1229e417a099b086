"""OCR floor of a sopri/1 benchmark: the time it takes just to OCR the text-bearing images
(cheap edge-density signal, then RapidOCR on those), per user. An investigation cannot be
faster than this floor; the engine's own timing is compared against it as a ratio.

    .venv/bin/python benchmarks/ocr_floor.py BENCH_DIR [--users 5] [--json out.json]

Prints per-user seconds, images OCRed / all images, and the median per-image OCR time.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tools.base import ToolError  # noqa: E402
from tools.images import image_signals  # noqa: E402
from tools.ocr import default_ocr  # noqa: E402

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".webp", ".gif", ".bmp"}


def user_dirs(bench: Path) -> list[Path]:
    root = bench / "users" if (bench / "users").is_dir() else bench
    return sorted(p for p in root.iterdir() if p.is_dir() and (p / "images").is_dir())


def floor_for_user(udir: Path) -> dict:
    ocr = default_ocr()
    images = sorted(p for p in (udir / "images").glob("*") if p.suffix.lower() in IMAGE_SUFFIXES)
    t0 = time.perf_counter()
    per_image: list[float] = []
    ocred = errors = lines = 0
    for img in images:
        try:
            sig = image_signals(img)
            if not sig["text_bearing"]:
                continue
            t1 = time.perf_counter()
            lines += len(ocr.read(img))
            per_image.append(time.perf_counter() - t1)
            ocred += 1
        except ToolError:
            errors += 1
    return {
        "user": udir.name, "images": len(images), "ocr_images": ocred, "errors": errors, "lines": lines,
        "seconds": round(time.perf_counter() - t0, 3),
        "median_ocr_s": round(statistics.median(per_image), 3) if per_image else 0.0,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bench", type=Path)
    ap.add_argument("--users", type=int, default=5, help="first N users (0 = all)")
    ap.add_argument("--json", type=Path, default=None)
    a = ap.parse_args(argv)
    if not a.bench.is_dir():
        print(f"error: {a.bench}: not a benchmark directory", file=sys.stderr)
        return 2
    users = user_dirs(a.bench)
    if a.users:
        users = users[: a.users]
    warm = default_ocr()
    t = time.perf_counter()
    if hasattr(warm, "warm_up"):
        warm.warm_up()
    print(f"OCR engine {warm.name}: warm-up {time.perf_counter() - t:.2f}s")
    rows = [floor_for_user(u) for u in users]
    for r in rows:
        print(f"{r['user']}: {r['seconds']:.2f}s floor, {r['ocr_images']}/{r['images']} images OCRed, "
              f"{r['lines']} lines, median {r['median_ocr_s']:.2f}s/image, {r['errors']} errors")
    if rows:
        secs = [r["seconds"] for r in rows]
        print(f"floor per user: median {statistics.median(secs):.2f}s, total {sum(secs):.1f}s over {len(rows)} users")
    if a.json:
        a.json.write_text(json.dumps({"engine": warm.name, "users": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
