"""Opening the run store: private file (0600), WAL, migrations applied on open; closing it
complete on its own (the WAL checkpointed into the .db, see RunConnection)."""
from __future__ import annotations

import atexit
import json
import os
import sqlite3
import weakref
from datetime import datetime, timezone
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator
from urllib.parse import quote

import sqlite_utils

from core.errors import InputError
from db.migrations import apply_migrations


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def _create_private(path: Path) -> bool:
    """Create the file with mode 0600 before SQLite touches it (it holds inferred sensitive data);
    False when another worker created it first."""
    private_dir(path.parent)
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except FileExistsError:  # another worker created it first
        return False
    os.close(fd)
    return True


@contextmanager
def _migration_lock(path: Path) -> Iterator[None]:
    """An exclusive flock on the DB file while migrations run, so parallel workers opening a
    fresh DB do not both create the tables. On Linux flock locks are independent of SQLite's
    own fcntl locks on the same file."""
    try:
        import fcntl
    except ImportError:  # not POSIX: migrations still run, without the cross-process guard
        yield
        return
    # The fd is never closed: closing ANY fd of a file drops every POSIX (fcntl) lock this
    # process holds on it, including the locks of open SQLite connections, and concurrent
    # writers then corrupt the DB ("database disk image is malformed"). One fd per file
    # (device, inode) per process is kept instead.
    st = os.stat(path)
    fd = _LOCK_FDS.get((st.st_dev, st.st_ino))
    if fd is None:
        fd = _LOCK_FDS[(st.st_dev, st.st_ino)] = os.open(path, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)


_LOCK_FDS: dict[tuple[int, int], int] = {}


class RunConnection(sqlite3.Connection):
    """A writable run-store connection whose close() first checkpoints the WAL into the .db
    and truncates it, so the .db alone is the whole run (a person copies or mails that file).
    Connections still open when the process exits (normal exit, an exception, SIGTERM turned
    into SystemExit by the CLI, the console's quit) are closed this way by `close_all`."""

    def close(self) -> None:
        try:
            if self.in_transaction:      # a step cut short: its transaction is lost, nothing else
                self.rollback()
            # other writers may be busy (batch workers on one DB): do not wait long, the last
            # connection to close checkpoints anyway
            self.execute("PRAGMA busy_timeout=2000")
            self.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        except sqlite3.Error:            # closed already, or a checkpoint refused: close anyway
            pass
        super().close()


_OPEN: "weakref.WeakSet[RunConnection]" = weakref.WeakSet()


def checkpoint(db: sqlite_utils.Database) -> None:
    """Fold the WAL into the .db file now and truncate it (a shard read back as bytes)."""
    db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def close_db(db: sqlite_utils.Database | sqlite3.Connection) -> None:
    """Close a run store connection (checkpointed when writable); closing twice is harmless."""
    conn = db.conn if isinstance(db, sqlite_utils.Database) else db
    try:
        conn.close()
    except sqlite3.Error:
        pass


@atexit.register
def close_all() -> None:
    """Checkpoint and close every writable connection this process still has open (atexit runs
    after worker threads joined: a step in flight has committed)."""
    for conn in list(_OPEN):
        if getattr(conn, "pid", None) == os.getpid():    # never a parent's connection in a forked child
            close_db(conn)


def open_db(path: str | Path, *, readonly: bool = False) -> sqlite_utils.Database:
    """The run store at `path`: created private (0600) and migrated when writable; read-only
    connections never create or migrate. A file that is not SQLite raises InputError."""
    global _LAST
    path = Path(path)
    _LAST = path
    if readonly:
        if not path.is_file():
            raise FileNotFoundError(f"{path}: run database not found")
        conn = _connect_readonly(path)
        try:
            from db.migrations import check_schema

            check_schema(conn, path)
        except sqlite3.DatabaseError:
            pass                  # not SQLite: the caller's own check says so
        except InputError:
            conn.close()
            raise
        return sqlite_utils.Database(conn)
    from db.errors import boundary

    with boundary(path):
        return _open_writable(path)


_LAST: Path | None = None


def last_db() -> Path | None:
    """The run DB this process opened last (what a later fault names)."""
    return _LAST


def _connect_readonly(path: Path) -> sqlite3.Connection:
    """mode=ro; a WAL database on a read-only folder or mount cannot get its -shm file, so it
    is opened immutable there (nothing can write it anyway)."""
    uri = f"file:{quote(str(path.resolve()))}?mode=ro"
    conn = sqlite3.connect(uri, uri=True, check_same_thread=False)
    try:
        conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
        return conn
    except sqlite3.OperationalError:
        if os.access(path.parent, os.W_OK) and os.access(path, os.W_OK):
            return conn           # the caller reports the real fault
        conn.close()
    return sqlite3.connect(uri + "&immutable=1", uri=True, check_same_thread=False)


def _open_writable(path: Path) -> sqlite_utils.Database:
    created = not os.path.lexists(path) and _create_private(path)
    try:
        return _open_writable_inner(path, created)
    except BaseException:
        if created:          # a new DB whose first transaction failed is not left behind
            remove_db_files(path)
        raise


def remove_db_files(path: Path) -> None:
    """The DB file and its -wal/-shm side files, removed (missing ones ignored)."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        try:
            os.unlink(str(path) + suffix)
        except OSError:
            pass


def _open_writable_inner(path: Path, created: bool) -> sqlite_utils.Database:
    if created:
        pass
    elif (note := tighten(path)) is not None:
        import sys

        print(f"note: {note}", file=sys.stderr)
    old = os.umask(0o077)  # the -wal/-shm side files are private too
    try:
        conn = sqlite3.connect(str(path), timeout=30, check_same_thread=False, factory=RunConnection)
        conn.pid = os.getpid()  # type: ignore[attr-defined]
        conn.db_path = str(path)  # type: ignore[attr-defined]  (what a schema error names)
        _OPEN.add(conn)
        try:
            conn.execute("PRAGMA busy_timeout=30000")
            db = sqlite_utils.Database(conn)
            with _migration_lock(path):
                # switching a fresh file to WAL can answer "locked" without waiting on the busy
                # handler when another process switches it at the same moment: serialise it too
                conn.execute("PRAGMA journal_mode=WAL")
                apply_migrations(db)
            conn.execute("PRAGMA synchronous=NORMAL")
        except sqlite3.DatabaseError as e:
            conn.close()
            if "not a database" in str(e) or "malformed" in str(e):
                raise InputError(path, f"not a readable run database ({e})") from e
            raise
    finally:
        os.umask(old)
    return db


PRIVATE_MODE = 0o600
DIR_MODE = 0o700


class UnsafeOutputError(InputError):
    """An output path Argus refuses to write through (a symbolic link, a non-regular file)."""


def private_dir(path: str | Path) -> Path:
    """Create `path` and its missing parents 0700 (whatever the umask; an existing folder is
    left as it is). A symbolic link at `path` is refused: outputs never go through links."""
    path = Path(path)
    if path.is_symlink():
        raise UnsafeOutputError(path, "is a symbolic link; Argus does not write through links (remove it)")
    missing = []
    p = path
    while not os.path.lexists(p) and p != p.parent:
        missing.append(p)
        p = p.parent
    for d in reversed(missing):
        try:
            os.mkdir(d, DIR_MODE)
        except FileExistsError:
            pass
    if not path.is_dir():
        raise UnsafeOutputError(path, "exists and is not a folder")
    return path


def write_private(path: str | Path, text: str, *, append: bool = False) -> Path:
    """Write (or append) text to a file that holds inferred data (profiles, predictions,
    results, plans, reports), private (0600). A write goes to a new temp file beside the
    target (O_CREAT|O_EXCL|O_NOFOLLOW, so nothing pre-placed is followed or reused), is
    flushed, then renamed over the target: a link at the target is replaced, never followed,
    and a failure (disk full) leaves the old file whole and no temp file. An append opens the
    target with O_NOFOLLOW and refuses anything but a regular file; it is tightened to 0600."""
    path = Path(path)
    private_dir(path.parent)
    if append:
        with open_append_private(path) as fh:
            fh.write(text)
        return path
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), PRIVATE_MODE)
    try:
        try:
            os.fchmod(fd, PRIVATE_MODE)
            with os.fdopen(fd, "w", encoding="utf-8", newline="", closefd=False) as fh:
                fh.write(text)
                fh.flush()
                os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException as e:
        tmp.unlink(missing_ok=True)
        from db.errors import describe, is_db_fault

        if isinstance(e, OSError) and is_db_fault(e):     # disk full, read-only: one line naming the file
            e.filename = str(path)
            raise describe(e, path) from e
        raise
    return path


def open_append_private(path: str | Path):
    """A text file opened for appending (created 0600), never through a link: O_NOFOLLOW, and
    the opened file must be a regular file (a FIFO or device pre-placed there is refused)."""
    import stat

    path = Path(path)
    private_dir(path.parent)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0)
                     | getattr(os, "O_NONBLOCK", 0), PRIVATE_MODE)
    except OSError as e:
        if path.is_symlink():
            raise UnsafeOutputError(path, "is a symbolic link; Argus does not write through links (remove it)") from e
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UnsafeOutputError(path, "exists and is not a regular file")
        os.fchmod(fd, PRIVATE_MODE)
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "a", encoding="utf-8", newline="")


def tighten(path: Path) -> str | None:
    """chmod an existing run DB (and its -wal/-shm side files) to 0600; a note when it was
    readable by others, else None."""
    note = None
    for p in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        try:
            mode = p.stat().st_mode & 0o777
        except OSError:
            continue
        if mode & 0o077:
            try:
                os.chmod(p, PRIVATE_MODE)
            except OSError:
                continue
            if p == path:
                note = f"{path}: mode was {mode:04o}, tightened to 0600 (the run store holds inferred data)"
    return note


def dumps(obj: object) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, default=str)
