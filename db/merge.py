"""Merging per-task run DB shards into OUT_DIR/runs.db (the Ray executor's last step).

Tables keyed by run id are copied as they are; append-only tables with an AUTOINCREMENT id
(events, tool_calls, model_calls, hypothesis_history, budget_ledger) get new ids in the
merged DB; the content-addressed cache is merged with INSERT OR IGNORE. A shard is deleted
only after its transaction committed, so an interrupted merge is simply redone."""
from __future__ import annotations

from pathlib import Path

from db.store import open_db

KEYED = ("runs", "posts", "images", "nodes", "node_versions", "edges", "routes", "profile", "profile_history", "cache")
APPEND = ("events", "tool_calls", "model_calls", "hypothesis_history", "budget_ledger")


def _columns(db, schema: str, table: str) -> list[str]:
    return [r[1] for r in db.execute(f"PRAGMA {schema}.table_info({table})").fetchall()]


def merge_shard(db, shard: Path) -> int:
    """Copy one shard into the open DB; returns the number of runs it held."""
    open_db(shard).conn.close()             # an older shard gets the current migrations first
    db.execute("ATTACH DATABASE ? AS shard", [str(shard)])
    try:
        # only runs not merged before (a merge interrupted after its commit is not doubled)
        new = [r[0] for r in db.execute("SELECT run_id FROM shard.runs WHERE run_id NOT IN"
                                        " (SELECT run_id FROM main.runs)").fetchall()]
        with db.conn:
            db.execute("CREATE TEMP TABLE IF NOT EXISTS _merge_runs (run_id TEXT PRIMARY KEY)")
            db.execute("DELETE FROM temp._merge_runs")
            db.conn.executemany("INSERT INTO temp._merge_runs VALUES (?)", [(r,) for r in new])
            for t in KEYED:
                cols = ", ".join(c for c in _columns(db, "shard", t) if c in set(_columns(db, "main", t)))
                where = "" if t == "cache" else " WHERE run_id IN (SELECT run_id FROM temp._merge_runs)"
                db.execute(f"INSERT OR IGNORE INTO main.{t} ({cols}) SELECT {cols} FROM shard.{t}{where}")
            for t in APPEND:
                main_cols = set(_columns(db, "main", t))
                cols = ", ".join(c for c in _columns(db, "shard", t) if c != "id" and c in main_cols)
                db.execute(f"INSERT INTO main.{t} ({cols}) SELECT {cols} FROM shard.{t}"
                           " WHERE run_id IN (SELECT run_id FROM temp._merge_runs) ORDER BY id")
        n = len(new)
    finally:
        db.execute("DETACH DATABASE shard")
    return n


def merge_shards(out_dir: Path, db_path: Path | None = None) -> int:
    """Merge every OUT_DIR/shards/*.db into the run DB and delete it; returns runs merged."""
    shard_dir = Path(out_dir) / "shards"
    if not shard_dir.is_dir():
        return 0
    db = open_db(db_path or Path(out_dir) / "runs.db")
    total = 0
    try:
        for shard in sorted(shard_dir.glob("*.db")):
            total += merge_shard(db, shard)
            for suffix in ("", "-wal", "-shm"):
                Path(str(shard) + suffix).unlink(missing_ok=True)
    finally:
        db.conn.close()
    try:
        shard_dir.rmdir()
    except OSError:
        pass
    return total
