"""One all-or-nothing write: a migration with its `_migrations` row, a backfill with its
`run_backfills` row."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

import sqlite_utils


@contextmanager
def immediate(db: sqlite_utils.Database) -> Iterator[None]:
    """A BEGIN IMMEDIATE transaction (the write lock taken up front, so two processes opening
    the same DB serialise): committed when the block ends, rolled back on any error."""
    if db.conn.in_transaction:
        db.conn.commit()
    db.conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.conn.rollback()
        raise
    db.conn.commit()
