"""kill -9 at random moments of a run, including in the middle of routed OCR steps (not only
between steps): the same command resumes the run to the identical profile, the DB passes
`PRAGMA integrity_check`, and there is one run."""
from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from engine_user import make_user  # noqa: E402

pytestmark = pytest.mark.slow
ARGUS = str(Path(sys.executable).parent / "argus")
ROUTED = ["--set", "ocr_in_perception=false"]        # OCR as routed steps: kills land inside routes


def _investigate(udir: Path, db: Path, out: Path | None = None, **kw) -> subprocess.Popen:
    cmd = [ARGUS, "investigate", str(udir), "--db", str(db), "-q", *ROUTED] + (["--out", str(out)] if out else [])
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, **kw)


def _step(db: Path) -> tuple[int, str, int] | None:
    """(committed step, status, routes started) of the only run, or None."""
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=0.2)
        try:
            r = con.execute("SELECT step, status, run_id FROM runs").fetchone()
            if r is None:
                return None
            routes = con.execute("SELECT COUNT(*) FROM tool_calls WHERE run_id=? AND tool='ocr'", [r[2]]).fetchone()[0]
            return int(r[0]), str(r[1]), int(routes)
        finally:
            con.close()
    except sqlite3.Error:
        return None


@pytest.fixture(scope="module")
def user(tmp_path_factory):
    root = tmp_path_factory.mktemp("kr")
    udir = make_user(root, malformed_line=False)
    ref = root / "ref.json"
    p = _investigate(udir, root / "ref.db", ref)
    _, err = p.communicate(timeout=900)
    assert p.returncode == 0, err
    return udir, ref.read_text()


def _kill_inside(udir: Path, db: Path, want_step: int, delay: float) -> tuple[int, str, int] | None:
    """Start a run, kill -9 its process group `delay` s after step `want_step` committed; the
    state read just before the kill."""
    p = _investigate(udir, db)
    end = time.monotonic() + 600
    while time.monotonic() < end and p.poll() is None:
        s = _step(db)
        if s and s[0] >= want_step:
            time.sleep(delay)                             # somewhere inside the next route
            break
        time.sleep(0.02)
    killed_at = _step(db)
    if p.poll() is None:
        os.killpg(p.pid, signal.SIGKILL)
    p.wait()
    return killed_at


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_kill9_mid_route_resumes_to_the_identical_profile(user, tmp_path, seed):
    udir, ref = user
    rng = random.Random(seed)
    want_step = rng.randint(2, 5)                         # step 1 is perception; later steps are routes
    delay = rng.uniform(0.0, 1.5)
    # a fast machine can finish the last routes inside the delay: try again, earlier, in a fresh DB
    for attempt in range(4):
        db = tmp_path / f"runs{attempt}.db"
        killed_at = _kill_inside(udir, db, want_step, delay)
        if killed_at is not None and killed_at[1] == "running":
            break
        want_step, delay = max(2, want_step - 1), delay / 3
    assert killed_at is not None and killed_at[1] == "running", f"run ended before the kill: {killed_at}"
    out = tmp_path / "profile.json"
    again = _investigate(udir, db, out)
    _, err = again.communicate(timeout=900)
    assert again.returncode == 0, err
    assert out.read_text() == ref, f"killed at {killed_at}: profile differs"
    con = sqlite3.connect(db)
    try:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert con.execute("SELECT COUNT(*), MIN(status) FROM runs").fetchone() == (1, "finished")
    finally:
        con.close()
