"""The run store's error boundary end to end (issue 26, docs/cli.md): a run DB that is being
written by another process, read-only (file, folder, mount), corrupt or on a full disk gives
one `error:` line naming the file and what to do, exit 2, no traceback, and nothing
half-written (a DB the command created is removed again; --out is whole or absent)."""
from __future__ import annotations

import os
import shlex
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from faults import make_text_bench  # noqa: E402

pytestmark = pytest.mark.slow
ARGUS = str(Path(sys.executable).parent / "argus")
ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "80"}


def _run(*args: str, unprivileged: bool = False, env: dict | None = None) -> subprocess.CompletedProcess:
    cmd = [ARGUS, *args]
    if unprivileged and os.getuid() == 0:          # root writes through any file mode
        if not shutil.which("capsh"):
            pytest.skip("root without capsh: file modes cannot be enforced")
        cmd = ["capsh", "--drop=cap_dac_override,cap_dac_read_search", "--", "-c", shlex.join(cmd)]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env or ENV)


def _one_clean_line(r: subprocess.CompletedProcess, *words: str) -> str:
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr, r.stderr
    lines = [ln for ln in r.stderr.splitlines() if ln.strip() and not ln.startswith("note:")]
    assert len(lines) == 1 and lines[0].startswith("error:"), r.stderr
    for w in words:
        assert w.casefold() in lines[0].casefold(), (w, lines[0])
    return lines[0]


@pytest.fixture(scope="module")
def user(tmp_path_factory):
    bench = make_text_bench(tmp_path_factory.mktemp("dbf") / "bench", n=1, renamed=None)
    return bench / "users" / "u000"


def _finished_db(user: Path, db: Path) -> None:
    r = _run("investigate", str(user), "--db", str(db), "-q")
    assert r.returncode == 0, r.stderr


@pytest.fixture
def tmpfs(tmp_path):
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mnt)], capture_output=True)
    if r.returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    yield mnt
    subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


def test_second_writer_of_one_run_gets_a_clear_error(user, tmp_path):
    db = tmp_path / "runs.db"
    r = _run("investigate", str(user), "--db", str(db), "-q",
             env={**ENV, "ARGUS_ENGINE_EXIT_AFTER_STEP": "1"})
    assert r.returncode == 137, r.stderr                        # an unfinished run is left
    run_id = sqlite3.connect(db).execute("SELECT run_id FROM runs").fetchone()[0]
    holder = subprocess.Popen([sys.executable, "-c",
                               "import sys, time\nfrom core.engine.loop import Investigation\n"
                               f"Investigation.resume({str(db)!r}, {run_id!r})\nprint('held', flush=True)\n"
                               "time.sleep(60)\n"], stdout=subprocess.PIPE, text=True, env=ENV)
    try:
        assert holder.stdout.readline().strip() == "held"
        _one_clean_line(_run("investigate", str(user), "--db", str(db), "-q",
                             env={**ENV, "ARGUS_RUN_LOCK_WAIT_S": "1"}), str(db), run_id, "another process")
    finally:
        holder.kill()
        holder.wait()
    r = _run("investigate", str(user), "--db", str(db), "-q")     # the holder gone: it resumes
    assert r.returncode == 0, r.stderr
    con = sqlite3.connect(db)
    assert con.execute("SELECT status FROM runs").fetchall() == [("finished",)]
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_read_only_db_file(user, tmp_path):
    db = tmp_path / "runs.db"
    _finished_db(user, db)
    os.chmod(db, 0o400)
    _one_clean_line(_run("investigate", str(user), "--db", str(db), "-q", "--new", unprivileged=True), str(db),
                    "read-only")
    r = _run("runs", "list", str(db), unprivileged=True)
    assert r.returncode == 0 and "u000" in r.stdout, r.stderr


def test_read_only_folder_leaves_no_db(user, tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    os.chmod(ro, 0o500)
    _one_clean_line(_run("investigate", str(user), "--db", str(ro / "runs.db"), "-q", unprivileged=True), "runs.db",
                    "read-only")
    assert not list(ro.iterdir())


def test_read_only_mount(user, tmpfs):
    db = tmpfs / "runs.db"
    _finished_db(user, db)
    assert subprocess.run(["mount", "-o", "remount,ro", str(tmpfs)], capture_output=True).returncode == 0
    r = _run("runs", "list", str(db))
    assert r.returncode == 0 and "u000" in r.stdout, r.stderr     # a valid DB stays readable
    _one_clean_line(_run("investigate", str(user), "--db", str(db), "-q", "--new"), str(db), "read-only")


def test_corrupt_page(user, tmp_path):
    db = tmp_path / "runs.db"
    _finished_db(user, db)
    con = sqlite3.connect(db)
    page = con.execute("PRAGMA page_size").fetchone()[0]
    root = con.execute("SELECT rootpage FROM sqlite_master WHERE name='nodes'").fetchone()[0]
    con.close()
    with db.open("r+b") as fh:                   # one page (the nodes table's) overwritten
        fh.seek((root - 1) * page)
        fh.write(b"\xff" * page)
    _one_clean_line(_run("runs", "show", str(db)), str(db), "corrupt")
    _one_clean_line(_run("investigate", str(user), "--db", str(db), "-q"), str(db), "corrupt")


def _fill(mnt: Path, leave: int = 0) -> None:
    """Fill the device, then free `leave` bytes again."""
    filler = mnt / "filler"
    with filler.open("wb", buffering=0) as fh:
        try:
            while True:
                fh.write(b"\0" * 4096)
                fh.flush()
        except OSError:
            pass
    if leave:
        os.truncate(filler, max(0, filler.stat().st_size - leave))


def test_disk_full_on_db_removes_the_new_db(user, tmpfs):
    _fill(tmpfs, leave=16384)
    _one_clean_line(_run("investigate", str(user), "--db", str(tmpfs / "runs.db"), "-q"), "runs.db", "full")
    assert sorted(p.name for p in tmpfs.iterdir()) == ["filler"]


def test_disk_full_on_out_leaves_no_half_file(user, tmp_path, tmpfs):
    _fill(tmpfs)
    out = tmpfs / "profile.json"
    _one_clean_line(_run("investigate", str(user), "--db", str(tmp_path / "runs.db"), "-q", "--out", str(out)),
                    str(out), "full")
    assert sorted(p.name for p in tmpfs.iterdir()) == ["filler"]


# A process that holds an OUT_DIR's batch lock the way a running `bench run` does (db.runlock.claim_batch on
# its runs.db) until its stdin closes: a first batch that is certainly still running, however fast the
# engine (a real first `bench run` of text users could finish before a second process had started).
_HOLD_BATCH = (
    "import sys; from db.store import open_db; from db.runlock import claim_batch; "
    "db = open_db(sys.argv[1]); claim_batch(sys.argv[1]); print('held', flush=True); sys.stdin.read()"
)


def test_two_bench_runs_on_one_out_dir(tmp_path):
    bench = make_text_bench(tmp_path / "bench", n=12, renamed=None)
    out = tmp_path / "out"
    out.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", _HOLD_BATCH, str(out / "runs.db")], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    try:
        assert holder.stdout.readline().strip() == "held", holder.stderr.read()
        second = _run("bench", "run", str(bench), "--out", str(out), "-q", env={**ENV, "ARGUS_RUN_LOCK_WAIT_S": "1"})
        _one_clean_line(second, str(out / "runs.db"), "another `bench run`")
        assert not (out / "results.jsonl").is_file() or not (out / "results.jsonl").read_text().strip()
    finally:
        holder.stdin.close()
        holder.wait(timeout=60)
    # the first batch gone, the same command runs the whole bench
    r = _run("bench", "run", str(bench), "--out", str(out), "-q")
    assert r.returncode == 0, (r.stdout, r.stderr)
    rows = (out / "results.jsonl").read_text().splitlines()
    assert len(rows) == 12
    assert sqlite3.connect(out / "runs.db").execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 12
