"""One writer per run: a process that starts or resumes a run holds a byte-range lock on the run
DB file, at an offset derived from the run id far above SQLite's own lock bytes (which sit at
1 GiB), until it exits. A second process resuming the same run waits up to WAIT_S for it,
then gets a DBError naming the DB and the run (two writers of one run produced `UNIQUE
constraint failed: nodes.run_id, nodes.node_id` and no profile). `claim_batch` does the same for
one `bench run` per OUT_DIR.

The lock is an open-file-description lock (Linux F_OFD_SETLK): a classic POSIX lock is dropped
when the process closes any fd of the file, and SQLite closes its fds whenever a connection
closes. The lock fd itself is never closed (the same rule as db.store._migration_lock)."""
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
    ofd = getattr(fcntl, "F_OFD_SETLK", None)
    req = struct.pack("hhqqi", fcntl.F_WRLCK, os.SEEK_SET, off, 1, 0)
    deadline = time.monotonic() + wait_s
    while True:
        try:
            if ofd is not None:       # tied to this fd's open file description, not to the process
                fcntl.fcntl(fd, ofd, req)
            else:
                fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, off, os.SEEK_SET)
            _HELD.add((st.st_dev, st.st_ino, off))
            return
        except OSError:
            if time.monotonic() >= deadline:
                break
            time.sleep(0.2)
    raise DBError(path, f"run {run_id} is being written by another process; wait for it to finish "
                  "(or start a fresh run with --new)", field="run_id")


def claim_run_of(db, run_id: str, *, wait_s: float = WAIT_S) -> None:
    """claim_run for an open run store (its main file; nothing for an in-memory DB)."""
    rows = db.execute("PRAGMA database_list").fetchall()
    file = next((r[2] for r in rows if r[1] == "main"), "")
    if file:
        claim_run(file, run_id, wait_s=wait_s)


def claim_batch(db_path: str | Path, *, wait_s: float = WAIT_S) -> None:
    """One `bench run` per OUT_DIR at a time: the batch holds a lock on its runs.db for the rest of
    the process; a second one waits wait_s, then gets a DBError saying so."""
    try:
        claim_run(db_path, "\x00batch", wait_s=wait_s)
    except DBError:
        raise DBError(db_path, "another `bench run` is writing this OUT_DIR; wait for it to finish "
                      "or use another --out") from None
