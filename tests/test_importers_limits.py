"""Limits that lose nothing else (issue 36): hard links in an unpacked export refused as the
docs say; a disk-full import names the file being written and leaves nothing half-made (a real
file-size limit, RLIMIT_FSIZE, on the real filesystem); one over-long Reddit comment cut and
counted; over-size media skipped by size before any byte is read."""
from __future__ import annotations

import io
import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from core.bench.importers.exports import import_export
from core.errors import InputError
from core.models import MAX_TEXT

sys.path.insert(0, str(Path(__file__).parent))
import export_fixtures as fx  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
MEDIA = Path("twitter-2026-03-01") / "data" / "tweets_media"


def _env(tmp_path: Path) -> dict[str, str]:
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "COLUMNS": "80", "PYTHONPATH": str(ROOT),
            "HOME": str(tmp_path)}


@pytest.mark.parametrize("target", ["outside", "inside"])
def test_a_hard_link_in_an_unpacked_export_is_refused(tmp_path: Path, target: str) -> None:
    folder = fx.x(tmp_path / "e")
    secret = tmp_path / "secret.jpg" if target == "outside" else folder / MEDIA / "1003-Abc123.jpg"
    if target == "outside":
        secret.write_bytes(fx.jpeg((1, 2, 3)))
    link = folder / MEDIA / "1003-linked.jpg"
    os.link(secret, link)
    with pytest.raises(InputError) as ei:
        import_export("x", folder, tmp_path / "out")
    assert "hard link" in ei.value.message and "1003-" in ei.value.message
    assert not (tmp_path / "out").exists()


def _noisy_jpeg(n: int = 300) -> bytes:
    out = io.BytesIO()
    Image.frombytes("RGB", (n, n), os.urandom(n * n * 3)).save(out, "JPEG", quality=95)
    return out.getvalue()


def _import_limited(tmp_path: Path, src: Path, out: Path, *extra: str, limit: int | None = 100_000):
    def set_limit() -> None:      # Python ignores SIGXFSZ: a write over the limit fails with EFBIG
        if limit:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return subprocess.run([sys.executable, "-m", "argus_tui.cli", "import", "x", str(src), str(out), *extra],
                          capture_output=True, text=True, cwd=tmp_path, env=_env(tmp_path),
                          stdin=subprocess.DEVNULL, timeout=600, preexec_fn=set_limit)


def test_a_disk_full_import_names_the_file_and_leaves_nothing(tmp_path: Path) -> None:
    folder = fx.x(tmp_path / "e")
    (folder / MEDIA / "1003-Abc123.jpg").write_bytes(_noisy_jpeg())       # ~150 kB, over the 100 kB limit
    out = tmp_path / "out"
    p = _import_limited(tmp_path, folder, out)
    assert p.returncode == 2 and "Traceback" not in p.stderr and len(p.stderr.strip().splitlines()) == 1, p.stderr
    assert str(out / "users" / "person_x" / "images") in p.stderr and "runs.db" not in p.stderr
    assert not out.exists()                                                 # nothing half-made
    assert _import_limited(tmp_path, folder, out, limit=None).returncode == 0   # the rerun works
    (out / "mine.txt").write_text("mine")
    p = _import_limited(tmp_path, folder, out, "--overwrite")              # full disk during --overwrite
    assert p.returncode == 2 and "images" in p.stderr
    assert {x.name for x in out.iterdir()} - {".argus-written"} == {"mine.txt"}   # no half import, theirs kept
    p = _import_limited(tmp_path, folder, out, "--overwrite", limit=None)
    assert p.returncode == 0, p.stderr
    assert (out / "manifest.json").is_file() and (out / "mine.txt").read_text() == "mine"


def test_one_over_long_reddit_comment_is_cut_and_counted(tmp_path: Path) -> None:
    folder = fx.reddit(tmp_path / "e")
    f = next(folder.rglob("comments.csv"))
    long_body = "I ran along the river again today. " * 6000            # ~210k characters, over csv's 128 KiB
    f.write_text(f.read_text() + "c3,https://www.reddit.com/r/running/comments/t2/x/c3/,2026-03-04 12:00:00 UTC,,"
                 f"running,0,https://www.reddit.com/r/running/comments/t2/x/,t1_ghi,\"{long_body}\",\n")
    r = import_export("reddit", folder, tmp_path / "out")
    posts = [json.loads(x) for x in (Path(r.user_dir) / "posts.jsonl").read_text().splitlines()]
    cut = next(p for p in posts if p.get("source_id") == "c3")
    assert len(cut["caption"]) == MAX_TEXT and r.posts == 4               # every other post still read
    assert any("text over" in line and "cut" in line for line in r.summary.lines())


def test_over_size_media_are_skipped_by_size_unread(tmp_path: Path) -> None:
    """A 1 GiB and a 500 MiB (sparse) video: neither refuses the export nor is read into memory
    (peak memory as with the same export without them, well under the 500 MiB a read would add)."""
    code = ("import json, resource, sys; from core.bench.importers.exports import import_export; "
            "r = import_export('x', sys.argv[1], sys.argv[2]); "
            "print(json.dumps({'lines': r.summary.lines(), 'images': r.images, "
            "'rss_kb': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))")

    def run(folder: Path, out: Path) -> dict:
        p = subprocess.run([sys.executable, "-c", code, str(folder), str(out)], capture_output=True,
                           text=True, env=_env(tmp_path), cwd=tmp_path, timeout=600)
        assert p.returncode == 0, p.stderr
        return json.loads(p.stdout)

    plain = run(fx.x(tmp_path / "plain"), tmp_path / "out-plain")
    folder = fx.x(tmp_path / "e")
    for name, size in (("1003-huge.mp4", 1 << 30), ("1003-big.mp4", 500 << 20)):
        with open(folder / MEDIA / name, "wb") as fh:
            fh.truncate(size)
    got = run(folder, tmp_path / "out")
    assert "skipped 2 media files: over 200 MiB, not read" in got["lines"]
    assert got["images"] == plain["images"] >= 1                            # the ordinary photos are kept
    assert got["rss_kb"] - plain["rss_kb"] < 100 * 1024, (got["rss_kb"], plain["rss_kb"])
