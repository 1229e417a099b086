"""Executors: a process pool and Ray (local mode) give the same predictions as one in-process
worker; Ray's per-task shards are merged into one run DB without duplicates; results stream
to results.jsonl; a broken user fails alone; re-running skips finished users."""
from __future__ import annotations

import json
import shutil
import sqlite3

import pytest

from batch_fixtures import gen_bench  # noqa: F401  (fixture)
from core.batch import run_batch
from db.merge import merge_shards
from core.models import Predictions

SYSTEM = "textllm"   # no OCR: the executor is what is under test here


def _preds(out):
    return {p.stem: sorted((a.attribute, a.value) for a in Predictions.model_validate_json(p.read_text()).attributes)
            for p in sorted((out / "predictions").glob("*.json"))}


def _count(db, sql):
    con = sqlite3.connect(db)
    try:
        return con.execute(sql).fetchone()[0]
    finally:
        con.close()


def _with_broken_user(src, dst):
    shutil.copytree(src, dst)
    bad = dst / "users" / "u_bad"
    bad.mkdir()
    (bad / "profile.json").write_text("{ broken")   # a recorded error only (the folder name stands in)
    # no posts.jsonl: nothing to investigate, the user fails (alone)
    man = json.loads((dst / "manifest.json").read_text())
    man["users"].append("u_bad")
    (dst / "manifest.json").write_text(json.dumps(man))
    return dst


def test_pool_matches_inprocess_and_streams_results(gen_bench, tmp_path):
    bench = _with_broken_user(gen_bench, tmp_path / "bench")
    one = run_batch(bench, tmp_path / "one", system=SYSTEM, workers=1)
    two = run_batch(bench, tmp_path / "two", system=SYSTEM, workers=2)
    assert [r.user_id for r in one.failed] == ["u_bad"] == [r.user_id for r in two.failed]
    assert "posts.jsonl" in two.failed[0].error and "not found" in two.failed[0].error
    assert one.done == two.done == 2
    assert _preds(tmp_path / "one") == _preds(tmp_path / "two") and len(_preds(tmp_path / "two")) == 2
    lines = [json.loads(x) for x in (tmp_path / "two" / "results.jsonl").read_text().splitlines()]
    assert sorted(x["user_id"] for x in lines) == ["u001", "u002", "u_bad"]
    assert {x["status"] for x in lines} == {"finished", "failed"}
    again = run_batch(bench, tmp_path / "two", system=SYSTEM, workers=2)
    assert again.skipped == 2 and again.done == 0
    assert _count(tmp_path / "two" / "runs.db", "SELECT COUNT(*) FROM runs WHERE status='finished'") == 2


def test_ray_local_mode_shards_merged(gen_bench, tmp_path):
    pytest.importorskip("ray")
    ref = run_batch(gen_bench, tmp_path / "ref", system=SYSTEM, workers=1)
    s = run_batch(gen_bench, tmp_path / "ray", system=SYSTEM, workers=2, executor="ray")
    assert not s.failed and s.done == 2
    out = tmp_path / "ray"
    assert not (out / "shards").exists()                              # merged and removed
    assert _preds(out) == _preds(tmp_path / "ref")
    db = out / "runs.db"
    assert _count(db, "SELECT COUNT(*) FROM runs WHERE system='textllm' AND status='finished'") == 2
    # each run's rows came along: nodes, edges, profile and events of both users
    for table in ("nodes", "edges", "profile", "events"):
        assert _count(db, f"SELECT COUNT(DISTINCT run_id) FROM {table}") == 2, table
    assert _count(db, "SELECT COUNT(*) FROM events") == _count(tmp_path / "ref" / "runs.db", "SELECT COUNT(*) FROM events")
    again = run_batch(gen_bench, out, system=SYSTEM, workers=2, executor="ray")
    assert again.skipped == 2 and again.done == 0                    # finished users are not redone
    assert _count(db, "SELECT COUNT(*) FROM runs WHERE status='finished'") == 2


def test_merge_is_idempotent(gen_bench, tmp_path):
    """A shard merged twice (an interrupted merge redone) adds its runs once."""
    run_batch(gen_bench, tmp_path / "a", system=SYSTEM, workers=1, limit=1)
    shard_dir = tmp_path / "out" / "shards"
    shard_dir.mkdir(parents=True)
    shutil.copy(tmp_path / "a" / "runs.db", shard_dir / "u001.db")
    keep = tmp_path / "keep.db"
    shutil.copy(tmp_path / "a" / "runs.db", keep)
    assert merge_shards(tmp_path / "out") == 1
    shard_dir.mkdir()
    shutil.copy(keep, shard_dir / "u001.db")
    assert merge_shards(tmp_path / "out") == 0
    db = tmp_path / "out" / "runs.db"
    assert _count(db, "SELECT COUNT(*) FROM runs") == 1
    assert _count(db, "SELECT COUNT(*) FROM events") == _count(keep, "SELECT COUNT(*) FROM events")


def test_many_users_two_processes_keep_the_db_sound(gen_bench, tmp_path):
    """Two worker processes writing one runs.db for 40 users: every user finishes and the DB
    passes integrity_check (opening a DB used to close an fd on it, dropping SQLite's locks)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from bench_util import replicate

    bench = replicate(gen_bench, tmp_path / "b40", 40)
    s = run_batch(bench, tmp_path / "out", system=SYSTEM, workers=2)
    assert not s.failed, s.failed[:3]
    db = tmp_path / "out" / "runs.db"
    assert _count(db, "SELECT COUNT(*) FROM runs WHERE status='finished'") == 40
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    con.close()
