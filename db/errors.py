"""The run store's error boundary: every SQLite or file-system fault of a run DB (locked by
another writer, read-only file, folder or mount, a corrupt page, a full disk, a run being
written by another process) becomes one DBError naming the file and what to do, which the
CLI prints as one line with exit 2 (docs/cli.md)."""
from __future__ import annotations

import errno
import sqlite3
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from core.errors import InputError

_FULL = (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC), errno.EFBIG)
_READONLY = (errno.EROFS, errno.EACCES, errno.EPERM)


class DBError(InputError):
    """A run DB that cannot be used as asked (the reason says what to do)."""

    def __reduce__(self):       # crosses process pools whole (a worker's fault stops the batch)
        return (_rebuild, (type(self), self.file, self.reason, self.field, self.line))


def _rebuild(cls, file, reason, field, line):
    return cls(file, reason, field=field, line=line)


def describe(exc: BaseException, path: str | Path) -> DBError:
    """The one-line error for a fault of the run DB at `path`."""
    msg = str(exc)
    low = msg.lower()
    if isinstance(exc, DBError):
        return exc
    if isinstance(exc, OSError) and not isinstance(exc, sqlite3.Error):
        where = exc.filename or path
        if exc.errno in _FULL:
            return DBError(where, "disk full (no space left on the device); free some space or write elsewhere")
        if exc.errno in _READONLY:
            return DBError(where, f"cannot write here ({exc.strerror}); the file, its folder or the mount is "
                           "read-only: choose a writable place (--db / --out)")
        return DBError(where, f"{exc.strerror or msg}")
    if "locked" in low or "busy" in low:
        return DBError(path, "database is locked by another process writing to it (another argus run?); "
                       "wait for it to finish, or use another --db")
    if "readonly" in low or "read-only" in low or "unable to open" in low or "access permission" in low:
        return DBError(path, "cannot write the run database (the file, its folder or the mount is read-only); "
                       "make it writable or use another --db")
    if "full" in low or "disk i/o" in low:
        return DBError(path, f"cannot write the run database ({msg}: the disk is full or failing); "
                       "free some space or use another --db")
    if "malformed" in low or "not a database" in low or "corrupt" in low or "file is encrypted" in low:
        return DBError(path, f"the run database is corrupt ({msg}); restore it from a copy, or recover it with "
                       "`sqlite3 FILE .recover`, or use another --db")
    if isinstance(exc, sqlite3.IntegrityError):
        return DBError(path, f"the run database refused a write ({msg}): another process wrote the same run at "
                       "the same time; run one investigation of a run at a time")
    return DBError(path, f"run database error ({type(exc).__name__}: {msg})")


def is_db_fault(exc: BaseException) -> bool:
    """A fault of the store or the disk under it (not a bug of the caller)."""
    if isinstance(exc, sqlite3.Error):
        return not isinstance(exc, (sqlite3.ProgrammingError, sqlite3.InterfaceError))
    return isinstance(exc, OSError) and exc.errno in _FULL + _READONLY + (errno.EIO,)


@contextmanager
def boundary(path: str | Path) -> Iterator[None]:
    """Faults of the run DB at `path` inside the block are raised as one DBError."""
    try:
        yield
    except DBError:
        raise
    except (sqlite3.Error, OSError) as e:
        if not is_db_fault(e):
            raise
        raise describe(e, path) from e
