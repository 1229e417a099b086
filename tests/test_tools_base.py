"""Recorder: cache by content hash, one tool_calls row per call, errors recorded not raised."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from db.store import open_db
from tools.base import Recorder, ToolError, cache_key


@pytest.fixture()
def db(tmp_path: Path):
    d = open_db(tmp_path / "runs.db")
    yield d
    d.conn.close()


def _rows(db):
    return [dict(zip([c[0] for c in cur.description], r))
            for cur in [db.execute("SELECT * FROM tool_calls ORDER BY id")] for r in cur.fetchall()]


def test_cache_key_is_canonical_and_content_sensitive() -> None:
    a = cache_key("ocr", {"image": "a.jpg", "zoom": 2}, "h1")
    assert a == cache_key("ocr", {"zoom": 2, "image": "a.jpg"}, "h1")          # key order irrelevant
    assert a != cache_key("ocr", {"image": "a.jpg", "zoom": 2}, "h2")          # file content changed
    assert a != cache_key("zoom_ocr", {"image": "a.jpg", "zoom": 2}, "h1")     # other tool
    assert a != cache_key("ocr", {"image": "a.jpg", "zoom": 3}, "h1")
    assert len(a) == 64


def test_second_identical_call_is_served_from_cache_and_both_are_recorded(db) -> None:
    calls = []

    def tool(x: int) -> dict:
        calls.append(x)
        return {"double": 2 * x, "items": (1, 2)}

    rec = Recorder(db, run_id="r1", step=3, route_id="rt1")
    out1 = rec.call("double", tool, {"x": 21}, cost=2.0)
    out2 = rec.call("double", tool, {"x": 21}, cost=2.0)
    assert out1 == out2 == {"double": 42, "items": [1, 2]}
    assert calls == [21]                                  # the tool ran once
    rows = _rows(db)
    assert [r["cached"] for r in rows] == [0, 1]
    assert [r["cost"] for r in rows] == [2.0, 0.0]        # a cache hit costs nothing
    assert rows[0]["cache_key"] == rows[1]["cache_key"]
    assert (rows[0]["run_id"], rows[0]["step"], rows[0]["route_id"]) == ("r1", 3, "rt1")
    assert json.loads(rows[0]["inputs"]) == {"x": 21}
    assert json.loads(rows[0]["outputs"]) == {"double": 42, "items": [1, 2]}
    assert db.execute("SELECT count(*) FROM cache WHERE kind='tool' AND name='double'").fetchone()[0] == 1
    # rerun (no cache) runs the tool again
    Recorder(db, "r1", 4, use_cache=False).call("double", tool, {"x": 21})
    assert calls == [21, 21]


def test_errors_are_recorded_not_raised_and_not_cached(db) -> None:
    n = {"calls": 0}

    def broken(path: str) -> dict:
        n["calls"] += 1
        raise ToolError(f"{path}: corrupt or truncated image")

    def buggy() -> dict:
        return {"x": 1 / 0}

    rec = Recorder(db, "r1", 1)
    assert rec.call("ocr", broken, {"path": "img/p1.jpg"}) == {"error": "img/p1.jpg: corrupt or truncated image"}
    assert rec.call("ocr", broken, {"path": "img/p1.jpg"})["error"]
    assert n["calls"] == 2                                 # errors are retried, not cached
    out = rec.call("bug", buggy, {})
    assert out["error"].startswith("ZeroDivisionError")
    rows = _rows(db)
    assert [r["error"] is not None for r in rows] == [True, True, True]
    assert rows[0]["outputs"] is None
    assert db.execute("SELECT count(*) FROM cache").fetchone()[0] == 0


def test_content_hash_separates_cache_entries(db) -> None:
    rec = Recorder(db, "r1", 1)
    seen = []

    def tool(image: str) -> dict:
        seen.append(image)
        return {"n": len(seen)}

    assert rec.call("ocr", tool, {"image": "a.jpg"}, content_hash="aaa") == {"n": 1}
    assert rec.call("ocr", tool, {"image": "a.jpg"}, content_hash="bbb") == {"n": 2}   # file edited
    assert rec.call("ocr", tool, {"image": "a.jpg"}, content_hash="aaa") == {"n": 1}   # cached


def test_inside_an_outer_transaction_rows_join_it(db) -> None:
    """The engine commits a step atomically: tool rows written inside its transaction roll
    back with it and are not committed behind its back."""
    rec = Recorder(db, "r1", 1)
    db.conn.execute("BEGIN")
    db.conn.execute("INSERT INTO events (run_id, step, kind, created_at) VALUES ('r1', 1, 'x', 'now')")
    rec.call("t", lambda: {"ok": True}, {})
    assert db.conn.in_transaction
    db.conn.rollback()
    assert _rows(db) == []
    assert db.execute("SELECT count(*) FROM events").fetchone()[0] == 0
    rec.call("t", lambda: {"ok": True}, {})                 # outside: committed at once
    assert not db.conn.in_transaction and len(_rows(db)) == 1


def test_recorder_without_db_still_runs_and_keeps_records() -> None:
    rec = Recorder(None)
    assert rec.call("t", lambda a: {"a": a}, {"a": 1}) == {"a": 1}
    assert rec.records[0].tool == "t" and rec.records[0].outputs == {"a": 1}


def test_concurrent_calls_on_one_connection_are_all_recorded(db) -> None:
    import threading

    def work(i: int) -> None:
        rec = Recorder(db, "r1", i)
        for j in range(10):
            rec.call("t", lambda a, b: {"s": a + b}, {"a": i, "b": j})

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert db.execute("SELECT count(*) FROM tool_calls").fetchone()[0] == 40
    assert db.execute("SELECT count(*) FROM cache").fetchone()[0] == 40
