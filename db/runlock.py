"""One writer per run: a process that resumes a run holds a POSIX byte-range lock on the run DB
file, at an offset derived from the run id far above SQLite's own lock bytes (which sit at
1 GiB), until it exits. A second process resuming the same run waits up to WAIT_S for it,
then gets a DBError naming the DB, the run and the holder's pid (two writers of one run
produced `UNIQUE constraint failed: nodes.run_id, nodes.node_id` and no profile).

The lock fd is never closed: closing any fd of a file drops every POSIX lock the process
holds on it, SQLite's included (the same rule as db.store._migration_lock)."""
from __future__ import annotations

import os
import time
import zlib
from pathlib import Path

from db.errors import DBError

WAIT_S = float(os.environ.get("ARGUS_RUN_LOCK_WAIT_S", "10"))   # how long a second writer waits
_BASE = 0x6000_0000          # above SQLite's PENDING/RESERVED/SHARED bytes at 0x4000_0000
_SPAN = 1 << 24
_FDS: dict[tuple[int, int], int] = {}
_HELD: set[tuple[int, int, int]] = set()


def _fd(path: Path) -> int:
    st = os.stat(path)
    key = (st.st_dev, st.st_ino)
    fd = _FDS.get(key)
    if fd is None:
        fd = _FDS[key] = os.open(path, os.O_RDWR)
    return fd


def claim_run(db_path: str | Path, run_id: str, *, wait_s: float = WAIT_S) -> None:
    """Hold the write lock of `run_id` in this DB for the rest of the process (reentrant within
    a process), or raise DBError when another process holds it after wait_s."""
    try:
        import fcntl
        import struct
    except ImportError:       # not POSIX: no cross-process guard
        return
    path = Path(db_path)
    try:
        fd = _fd(path)
    except OSError:           # read-only file: nothing will be written through this process
        return
    st = os.fstat(fd)
    off = _BASE + zlib.crc32(run_id.encode("utf-8")) % _SPAN
    if (st.st_dev, st.st_ino, off) in _HELD:
        return
    deadline = time.monotonic() + wait_s
    while True:
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, off, os.SEEK_SET)
            _HELD.add((st.st_dev, st.st_ino, off))
            return
        except OSError:
            if time.monotonic() >= deadline:
                break
            time.sleep(0.2)
    pid = "?"
    try:
        req = struct.pack("hhqqi", fcntl.F_WRLCK, os.SEEK_SET, off, 1, 0)
        pid = str(struct.unpack("hhqqi", fcntl.fcntl(fd, fcntl.F_GETLK, req))[4])
    except (OSError, struct.error):
        pass
    raise DBError(path, f"run {run_id} is being written by another process (pid {pid}); wait for it to finish "
                  "(or start a fresh run with --new)", field="run_id")


def claim_run_of(db, run_id: str, *, wait_s: float = WAIT_S) -> None:
    """claim_run for an open run store (its main file; nothing for an in-memory DB)."""
    rows = db.execute("PRAGMA database_list").fetchall()
    file = next((r[2] for r in rows if r[1] == "main"), "")
    if file:
        claim_run(file, run_id, wait_s=wait_s)
