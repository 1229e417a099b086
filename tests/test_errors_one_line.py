"""Every error one line naming the file, no traceback (issue 36): an encrypted zip member, a
Bluesky record nested 10,000 deep, an output path under a regular file, `investigate --out` an
existing folder (refused before the run), a run DB of a newer schema, an over-long --tz, and
Ctrl-C at any moment of `argus import` (exit 130)."""
from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from core.bench.importers.exports import import_export
from core.errors import InputError

sys.path.insert(0, str(Path(__file__).parent))
import export_fixtures as fx  # noqa: E402
import faults  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _env(tmp_path: Path) -> dict[str, str]:
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "COLUMNS": "80", "PYTHONPATH": str(ROOT),
            "HOME": str(tmp_path)}


def _argus(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "argus_tui.cli", *args], capture_output=True, text=True,
                          cwd=tmp_path, env=_env(tmp_path), stdin=subprocess.DEVNULL, timeout=600)


def _one_line_error(p: subprocess.CompletedProcess, *needles: str) -> str:
    assert p.returncode == 2, (p.returncode, p.stderr)
    assert "Traceback" not in p.stderr and len(p.stderr.strip().splitlines()) == 1, p.stderr
    for n in needles:
        assert n in p.stderr, (n, p.stderr)
    return p.stderr


def _encrypt_flag(zip_path: Path, member: str) -> None:
    """Set the 'encrypted' bit of one member in its local and central headers (what a
    password-protected zip has; zipfile then asks for a password)."""
    data = bytearray(zip_path.read_bytes())
    name = member.encode()
    for sig, flag_at, name_at in ((b"PK\x03\x04", 6, 30), (b"PK\x01\x02", 8, 46)):
        i = data.find(sig)
        while i >= 0:
            if data[i + name_at:i + name_at + len(name)] == name:
                data[i + flag_at] |= 1
            i = data.find(sig, i + 4)
    zip_path.write_bytes(bytes(data))


def test_a_password_protected_member_is_one_line(tmp_path: Path) -> None:
    src = fx.zip_dir(fx.x(tmp_path / "e"), tmp_path / "x.zip")
    _encrypt_flag(src, "twitter-2026-03-01/data/tweets.js")
    p = _argus(tmp_path, "import", "auto", str(src), str(tmp_path / "out"))
    _one_line_error(p, str(src), "tweets.js", "password")
    assert not (tmp_path / "out").exists()


def test_a_bluesky_record_nested_10000_deep_is_skipped_and_counted(tmp_path: Path) -> None:
    recs = fx.bluesky_records()
    key = next(k for k in sorted(recs) if "feed.post" in k)
    recs[key] = dict(recs[key], embed=fx.RawCBOR(b"\xa1\x61a" * 10_000 + b"\xf6"))
    (tmp_path / "e").mkdir()
    car = tmp_path / "e" / "repo.car"
    car.write_bytes(fx.car(recs)[0])
    r = import_export("bluesky", car, tmp_path / "out")
    assert r.posts >= 1                          # the other records are read
    assert any("nested too deeply" in line for line in r.summary.lines())


def test_an_output_path_under_a_regular_file(tmp_path: Path) -> None:
    src = fx.x(tmp_path / "e")
    (tmp_path / "notes.txt").write_text("mine")
    p = _argus(tmp_path, "import", "x", str(src), str(tmp_path / "notes.txt" / "out"))
    _one_line_error(p, "notes.txt", "is a file")
    p = _argus(tmp_path, "audit", str(src), "--out", str(tmp_path / "notes.txt" / "a"))
    _one_line_error(p, "notes.txt", "is a file")
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_investigate_out_an_existing_folder_is_refused_before_the_run(tmp_path: Path) -> None:
    udir = faults.make_base(tmp_path / "bench")
    (tmp_path / "profiles").mkdir()
    t0 = time.perf_counter()
    p = _argus(tmp_path, "investigate", str(udir), "--db", str(tmp_path / "r.db"), "--out", str(tmp_path / "profiles"),
               "-q")
    _one_line_error(p, "--out", "profiles")
    assert not (tmp_path / "r.db").exists()      # no run was started
    assert time.perf_counter() - t0 < 60


def test_a_run_db_of_a_newer_schema(tmp_path: Path) -> None:
    from db.store import open_db

    db = tmp_path / "runs.db"
    open_db(db).conn.close()
    con = sqlite3.connect(db)
    con.execute("INSERT INTO _migrations (name, applied_at) VALUES ('m042_from_the_future', datetime('now'))")
    con.execute("ALTER TABLE runs RENAME COLUMN status TO state")     # what a newer Argus might do
    con.commit()
    con.close()
    p = _argus(tmp_path, "runs", "list", str(db))
    n = len(sqlite3.connect(db).execute("SELECT name FROM _migrations").fetchall())
    _one_line_error(p, str(db), f"this run DB was written by a newer Argus (schema {n}")
    with pytest.raises(InputError, match="newer Argus"):
        open_db(db)                              # never migrated either


def test_an_over_long_time_zone_name(tmp_path: Path) -> None:
    src = fx.x(tmp_path / "e")
    p = _argus(tmp_path, "import", "x", str(src), str(tmp_path / "out"), "--tz", "A" * 10_000)
    err = _one_line_error(p, "--tz")
    assert len(err) < 400 and not (tmp_path / "out").exists()


def test_ctrl_c_at_any_moment_of_an_import(tmp_path: Path) -> None:
    """SIGINT after 0 .. ~3 s (module loading, reading, writing, validating): exit 130, never a
    traceback, never a half-made OUT_DIR."""
    folder = fx.x(tmp_path / "e")
    media = folder / "twitter-2026-03-01" / "data" / "tweets_media"
    for i in range(150):
        (media / f"1003-p{i}.jpg").write_bytes(fx.jpeg((i, 100, 200), size=(400, 300)))
    # the interpreter's own start (its `site` import) is Python's, before any of Argus runs: from
    # the moment a bare interpreter would have started, every moment is Argus's
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True, env=_env(tmp_path))
    start = 1.5 * (time.perf_counter() - t0)
    outcomes = set()
    for k, d in enumerate([0.0, 0.05, 0.1, 0.2, 0.3, 0.45, 0.6, 0.8, 1.0, 1.2, 1.5, 1.8, 2.2, 2.6, 3.0]):
        delay = start + d
        out = tmp_path / f"out{k}"
        proc = subprocess.Popen([sys.executable, "-m", "argus_tui.cli", "import", "x", str(folder), str(out)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                                env=_env(tmp_path), stdin=subprocess.DEVNULL)
        time.sleep(delay)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=300)
        assert "Traceback" not in err and "KeyboardInterrupt" not in err, (delay, err)
        # 130, or killed by SIGINT after saying so (a shell shows both as 130)
        assert proc.returncode in (0, 130, -signal.SIGINT), (delay, proc.returncode, err)
        if proc.returncode == 0:
            outcomes.add("finished")
            assert (out / "manifest.json").is_file()
        else:
            outcomes.add("interrupted")
            assert err.strip() == "error: aborted", (delay, err)
            if not (out / "manifest.json").is_file():             # cut before the end: nothing kept
                assert not out.exists() or not any(out.iterdir()), (delay, list(out.rglob("*")))
    assert "interrupted" in outcomes
