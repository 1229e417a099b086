"""Time reading a 100k-file export (issue 36: 65-86 s, mostly in ExportSource.glob, before the
member index). Not a test: machine load changes the numbers.

    .venv/bin/python benchmarks/export_index.py [--files 100000] [--posts 1000] [--platform instagram|facebook|x]

Builds a synthetic export as an unpacked folder and as a zip (no real person's data): --posts
posts with one small photo each, the rest of --files as message threads and their media (what
makes a real export big), then prints the wall and CPU seconds of `argus import` (import_export,
writing OUT_DIR) on each, and of opening it and every platform's detect() alone. CPU time is
the number to compare on a shared machine (wall time waits for the other processes).
"""
from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import export_fixtures as fx  # noqa: E402

from core.bench.importers.exports import detect, import_export  # noqa: E402
from core.bench.importers.exports.source import open_source  # noqa: E402


def build(root: Path, platform: str, files: int, posts: int) -> Path:
    """An export folder of about `files` files."""
    photo = fx.jpeg((120, 80, 40), size=(32, 24))
    if platform == "instagram":
        base = fx.instagram(root, top="instagram-bench_2026") / "instagram-bench_2026"
        items = [{"media": [{"uri": f"media/posts/2026{i % 12 + 1:02d}/p{i}.jpg", "creation_timestamp": 1770000000 + i,
                             "title": f"post {i} #bench"}]} for i in range(posts)]
        (base / "your_instagram_activity/content/posts_1.json").write_text(fx.meta_json(items))
        for i in range(posts):
            p = base / f"media/posts/2026{i % 12 + 1:02d}/p{i}.jpg"
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(photo)
        msg = base / "your_instagram_activity/messages/inbox"
    elif platform == "facebook":
        base = fx.facebook(root) / "facebook-person"
        msg = base / "your_facebook_activity/messages/inbox"
    else:
        base = fx.x(root) / "twitter-2026-03-01"
        msg = base / "data/direct_messages_media"
    n = sum(1 for p in base.rglob("*") if p.is_file())
    t = 0
    while n < files:
        d = msg / f"thread_{t:05d}"
        d.mkdir(parents=True, exist_ok=True)
        (d / "message_1.json").write_text('{"messages": []}')
        n += 1
        for k in range(min(9, files - n)):
            (d / f"photo_{k}.jpg").write_bytes(photo)
            n += 1
        t += 1
    return root


def zip_folder(folder: Path, dest: Path) -> Path:
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_STORED) as z:
        for p in sorted(folder.rglob("*")):
            if p.is_file():
                z.write(p, p.relative_to(folder).as_posix())
    return dest


def lookups(src: Path) -> str:
    """Wall and CPU seconds to open the export and make the lookups of every platform's detect()."""
    t, c = time.perf_counter(), time.process_time()
    with open_source(src) as s:
        detect(s)
    return f"{time.perf_counter() - t:.2f}s wall, {time.process_time() - c:.2f}s CPU"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--files", type=int, default=100_000)
    ap.add_argument("--posts", type=int, default=1000)
    ap.add_argument("--platform", default="instagram", choices=["instagram", "facebook", "x"])
    a = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="argus-index-"))
    try:
        t = time.perf_counter()
        folder = build(tmp / "e", a.platform, a.files, a.posts)
        z = zip_folder(folder, tmp / "export.zip")
        n = sum(1 for p in folder.rglob("*") if p.is_file())
        print(f"built a {a.platform} export of {n} files in {time.perf_counter() - t:.1f}s")
        for label, src in (("folder", folder), ("zip", z)):
            print(f"{label}: open + detect {lookups(src)}")
            t, c = time.perf_counter(), time.process_time()
            r = import_export("auto", src, tmp / f"out-{label}")
            print(f"{label}: import {time.perf_counter() - t:.2f}s wall, {time.process_time() - c:.2f}s CPU "
                  f"({r.posts} posts, {r.images} images)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
