"""Batch runs under faults: kill -9 of the whole process group with several workers resumes to
exactly one finished run per user; workers die with their driver; the manifest is checked
before anything runs (no path traversal); finished runs are keyed on profile.json's user_id."""
from __future__ import annotations

import os
import signal
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


def _bench_run(bench: Path, out: Path, workers: int, **kw) -> subprocess.Popen:
    return subprocess.Popen([ARGUS, "bench", "run", str(bench), "--out", str(out), "--workers", str(workers)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True, **kw)


def _running_in_shards(out: Path) -> bool:
    for shard in (out / "shards").glob("*.db"):
        try:
            con = sqlite3.connect(f"file:{shard}?mode=ro", uri=True, timeout=0.2)
            try:
                if con.execute("SELECT 1 FROM runs WHERE status='running'").fetchone():
                    return True
            finally:
                con.close()
        except sqlite3.Error:
            continue
    return False


def _wait(cond, timeout: float) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.05)
    return False


def _runs(out: Path) -> list[tuple[str, str]]:
    con = sqlite3.connect(out / "runs.db")
    try:
        return con.execute("SELECT user_id, status FROM runs ORDER BY user_id").fetchall()
    finally:
        con.close()


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/status").read_text().split("State:")[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def test_kill9_of_the_process_group_with_two_workers_resumes_to_one_run_per_user(tmp_path):
    bench = make_text_bench(tmp_path / "bench")
    out = tmp_path / "out"
    p = _bench_run(bench, out, 2)
    assert _wait(lambda: _running_in_shards(out), 240), "no run started"
    os.killpg(p.pid, signal.SIGKILL)
    p.wait()
    again = _bench_run(bench, out, 2)
    _, err = again.communicate(timeout=600)
    assert again.returncode == 0, err
    runs = _runs(out)
    users = sorted(["u000", "u001", "acct-2", "u003", "u004", "u005"])
    assert sorted(u for u, _ in runs) == users, runs          # one run per user, no stale duplicate
    assert {s for _, s in runs} == {"finished"}, runs
    assert not list((out / "shards").glob("*.db")) if (out / "shards").exists() else True
    # a third run skips everyone, including the user whose folder name differs from its user_id
    third = _bench_run(bench, out, 2)
    _, err = third.communicate(timeout=600)
    assert third.returncode == 0, err
    assert sorted(u for u, _ in _runs(out)) == users


def test_workers_die_with_their_driver(tmp_path):
    bench = make_text_bench(tmp_path / "bench", n=8)
    out = tmp_path / "out"
    p = _bench_run(bench, out, 2)
    try:
        assert _wait(lambda: len(list((out / "shards").glob("worker-*.db"))) >= 2, 240), "workers did not start"
        workers = [int(s.stem.split("-")[1]) for s in (out / "shards").glob("worker-*.db")]
        assert all(_alive(w) for w in workers)
        os.kill(p.pid, signal.SIGKILL)                        # the driver only, not its group
        p.wait()
        assert _wait(lambda: not any(_alive(w) for w in workers), 15), "orphaned workers still running"
    finally:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def test_bench_run_refuses_a_traversing_manifest_before_writing_anything(tmp_path):
    bench = make_text_bench(tmp_path / "bench", n=2)
    (bench / "manifest.json").write_text('{"format": "sopri/1", "users": ["u000", "../../bench/users/u001"]}')
    out = tmp_path / "deep" / "out"
    r = subprocess.run([ARGUS, "bench", "run", str(bench), "--out", str(out)], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 2
    assert "manifest.json [users.1]" in r.stderr and "not a folder name" in r.stderr
    assert not (tmp_path / "deep").exists() and not (tmp_path / "bench" / "predictions").exists()
