"""What the audit report reads of a run besides the profile (db/queries.py): its posts (time,
text, geotag) and its header numbers."""
from __future__ import annotations

import json
from typing import Any

import sqlite_utils


def run_header(db: sqlite_utils.Database, run_id: str) -> tuple[str, str, int, float, float]:
    """(user_id, user_dir, posts, spent, budget)."""
    return db.execute(
        "SELECT r.user_id, r.user_dir, (SELECT COUNT(*) FROM posts p WHERE p.run_id=r.run_id), r.spent, r.budget"
        " FROM runs r WHERE r.run_id=?", [run_id]).fetchone()


def run_posts(db: sqlite_utils.Database, run_id: str) -> dict[str, dict[str, Any]]:
    """post_id -> the post as loaded (timestamp, caption, title, images, geo ...), in post order."""
    out: dict[str, dict[str, Any]] = {}
    for pid, ts, data in db.execute("SELECT post_id, timestamp, data FROM posts WHERE run_id=? ORDER BY idx",
                                    [run_id]).fetchall():
        try:
            d = json.loads(data or "{}")
        except ValueError:
            d = {}
        d = d if isinstance(d, dict) else {}
        d["timestamp"] = ts
        out[pid] = d
    return out
