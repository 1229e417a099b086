"""Opening the run store: private file (0600), WAL, migrations applied on open."""
from __future__ import annotations

import json
import os
import sqlite3
from datetime import datetime, timezone
from pathlib import Path

import sqlite_utils

from db.migrations import apply_migrations


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def _create_private(path: Path) -> None:
    """Create the file with mode 0600 before SQLite touches it (it holds inferred sensitive data)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    os.close(fd)


def open_db(path: str | Path, *, readonly: bool = False) -> sqlite_utils.Database:
    path = Path(path)
    if readonly:
        if not path.is_file():
            raise FileNotFoundError(f"{path}: run database not found")
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
        return sqlite_utils.Database(conn)
    if not path.exists():
        _create_private(path)
    old = os.umask(0o077)  # the -wal/-shm side files are private too
    try:
        conn = sqlite3.connect(str(path), timeout=30, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA busy_timeout=30000")
        db = sqlite_utils.Database(conn)
        apply_migrations(db)
    finally:
        os.umask(old)
    return db


def dumps(obj: object) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, default=str)
