"""Investigation.close() and `with` (issue 34's time per user, and file descriptors): a run DB that
start() or resume() opened from a path is closed by close(), on leaving a `with` block and when
start() fails; a Database the caller passed in stays open (the caller's to close)."""
from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest

from core.engine.loop import Investigation
from db.store import open_db


def _user(root: Path) -> Path:
    u = root / "u"
    u.mkdir(parents=True)
    (u / "profile.json").write_text(json.dumps({"user_id": "u1", "platform": "instagram", "nickname": "sam",
                                                "bio": "", "language": "en"}), encoding="utf-8")
    (u / "posts.jsonl").write_text(json.dumps({"post_id": "p0", "caption": "Back at the bakery at 5am again"}) + "\n",
                                   encoding="utf-8")
    return u


def _open_fds(path: Path) -> int:
    """This process's file descriptors on `path` (Linux /proc)."""
    n = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            n += os.readlink(f"/proc/self/fd/{fd}") == str(path)
        except OSError:
            pass
    return n


def _closed(inv: Investigation) -> bool:
    try:
        inv.db.execute("SELECT 1")
    except sqlite3.ProgrammingError:           # "Cannot operate on a closed database."
        return True
    return False


def test_close_closes_the_run_db_start_opened(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    inv = Investigation.start(db, _user(tmp_path))
    inv.run()
    opened = _open_fds(db)
    assert not _closed(inv)
    inv.close()
    # what stays is one lock fd per DB file and process, kept by design (db/runlock.py, db/store.py)
    kept = _open_fds(db)
    assert _closed(inv) and kept < opened and _open_fds(Path(f"{db}-wal")) == 0
    inv.close()                                  # twice is fine

    for _ in range(3):                           # no fd left behind per investigation
        again = Investigation.resume(db, inv.run_id)
        assert again.finished and not _closed(again)
        again.close()
        assert _closed(again) and _open_fds(db) == kept


def test_with_closes_the_run_db(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    with Investigation.start(db, _user(tmp_path)) as inv:
        inv.run()
        attrs = inv.profile().attributes
    assert attrs is not None and _closed(inv) and _open_fds(Path(f"{db}-wal")) == 0


def test_a_database_passed_in_stays_open(tmp_path: Path) -> None:
    db = open_db(tmp_path / "runs.db")
    with Investigation.start(db, _user(tmp_path)) as inv:
        inv.run()
    assert not _closed(inv)
    assert db.execute("SELECT count(*) FROM runs").fetchone()[0] == 1
    db.conn.close()


def test_a_failed_start_leaves_no_open_db(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    with pytest.raises(Exception):
        Investigation.start(db, tmp_path / "no-such-user")
    assert _open_fds(Path(f"{db}-wal")) == 0 and _open_fds(db) <= 1     # at most the migration lock's fd
