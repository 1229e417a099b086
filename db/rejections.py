"""The `rejections` table: findings a person marked as wrong in `argus audit --reject`
(core/rejections.py applies them to a run)."""
from __future__ import annotations

import sqlite_utils

from db.store import now


def add_rejection(db: sqlite_utils.Database, user_dir: str, attribute: str, value: str, by: str,
                  reason: str = "") -> None:
    db.execute("INSERT INTO rejections (user_dir, attribute, value, by, reason, created_at) VALUES (?,?,?,?,?,?)"
               " ON CONFLICT(user_dir, attribute, value) DO NOTHING",
               [user_dir, attribute, value, by, reason, now()])
    db.conn.commit()


def rejections_of(db: sqlite_utils.Database, user_dir: str) -> list[dict[str, str]]:
    rows = db.execute("SELECT attribute, value, by, reason, created_at FROM rejections WHERE user_dir=?"
                      " ORDER BY created_at, attribute, value", [user_dir]).fetchall()
    return [dict(zip(("attribute", "value", "by", "reason", "created_at"), r)) for r in rows]


# every rejection of a DB (an audit folder holds one account): read before --overwrite replaces it
ALL_ROWS = "SELECT attribute, value FROM rejections ORDER BY created_at"
