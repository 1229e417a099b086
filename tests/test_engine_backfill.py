"""Runs perceived before the perceiver attached text features (an old-shaped run DB: the same
rows without `features` in nodes and node versions) get them computed when resumed: one
transaction per backfill, recorded once per run, written as node versions at the step the run
continues with, and the resumed run aggregates exactly as a fresh run does (real engine runs,
real SQLite)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.engine import backfill as bf
from core.engine.context import RunContext
from core.engine.graph import Graph
from core.engine.hypothesizer import hypothesize
from core.engine.loop import Investigation
from core.nodes.evidence import TextFeatures
from db.queries import state_at
from db.store import open_db

POSTS = [
    {"post_id": "p1", "timestamp": "2025-04-12T19:00:00+08:00", "caption": "Turning 30 today! my birthday cake"},
    {"post_id": "p2", "timestamp": "2025-04-20T10:00:00+08:00", "caption": "Long shift at the ward, I work as a nurse."},
    {"post_id": "p3", "timestamp": "2025-04-22T21:00:00+08:00", "caption": "Back home, finally some sleep."},
]


def _user(root: Path) -> Path:
    udir = root / "u1"
    udir.mkdir(parents=True)
    (udir / "profile.json").write_text(json.dumps({"user_id": "u1"}))
    (udir / "posts.jsonl").write_text("\n".join(json.dumps(p) for p in POSTS) + "\n")
    return udir


def _old_shaped(tmp_path: Path) -> tuple[Path, str, dict[str, dict]]:
    """A run stopped after perception, then stripped of its text features as an engine from
    before them wrote it. Returns (db, run_id, the features perception had attached)."""
    db_path = tmp_path / "old.db"
    inv = Investigation.start(db_path, _user(tmp_path))
    run_id = inv.run_id
    feats = {n.node_id: n.data.features for n in inv.graph.evidence() if n.data.features is not None}
    assert feats
    db = inv.db
    with db.conn:
        db.execute("UPDATE nodes SET data=json_remove(data, '$.features') WHERE run_id=?", [run_id])
        db.execute("UPDATE node_versions SET data=json_remove(data, '$.features') WHERE run_id=? AND data IS NOT NULL",
                   [run_id])
        db.execute("DELETE FROM run_backfills WHERE run_id=?", [run_id])
    db.conn.close()
    return db_path, run_id, feats


def _hyp_attributes(db_path: Path, run_id: str, inv: Investigation) -> set[str]:
    db = open_db(db_path)
    ctx = RunContext(db=db, run_id=run_id, user=inv.ctx.user, graph=Graph(db, run_id), budget=inv.ctx.budget,
                     config=inv.ctx.config)
    return {h.attribute for h in hypothesize(ctx.view, ctx.settings)}


def test_resume_backfills_the_text_features_of_an_old_run(tmp_path):
    db_path, run_id, feats = _old_shaped(tmp_path)
    db = open_db(db_path)
    step = db.execute("SELECT step FROM runs WHERE run_id=?", [run_id]).fetchone()[0]
    loaded = Graph(db, run_id)
    assert not any(n.data.features is not None for n in loaded.evidence())
    db.conn.close()

    inv = Investigation.resume(db_path, run_id)
    # every text node got back exactly the features perception computes
    assert {n.node_id: n.data.features for n in inv.graph.evidence() if n.data.features is not None} == feats
    assert inv.db.execute("SELECT name, step, nodes FROM run_backfills WHERE run_id=?", [run_id]).fetchall() == [
        ("b001_text_features", step + 1, len(feats))]
    versions = inv.db.execute("SELECT node_id, step, reason, data FROM node_versions WHERE run_id=? AND reason=?",
                              [run_id, "backfill: text features"]).fetchall()
    assert {v[0] for v in versions} == set(feats) and {v[1] for v in versions} == {step + 1}
    assert all(TextFeatures.model_validate(json.loads(v[3])["features"]) == feats[v[0]] for v in versions)
    # the run's past is unchanged: as of its last committed step the nodes have no features
    past = state_at(inv.db, run_id, step)
    assert past.evidence and not any(n.data.features is not None for n in past.evidence)
    # ... and the graph a fresh load gives (what the next step aggregates) has them
    assert "birth_date" in _hyp_attributes(db_path, run_id, inv)

    inv.run()
    fresh = Investigation.start(tmp_path / "fresh.db", tmp_path / "u1")
    fresh.run()
    got = {a.attribute: a.value for a in inv.profile().attributes}
    assert "birth_date" in got and got == {a.attribute: a.value for a in fresh.profile().attributes}

    # resumed again: recorded once, nothing recomputed
    n_versions = inv.db.execute("SELECT count(*) FROM node_versions WHERE run_id=?", [run_id]).fetchone()[0]
    inv.db.conn.close()
    again = Investigation.resume(db_path, run_id)
    assert again.db.execute("SELECT count(*) FROM run_backfills WHERE run_id=?", [run_id]).fetchone()[0] == 1
    assert again.db.execute("SELECT count(*) FROM node_versions WHERE run_id=?", [run_id]).fetchone()[0] == n_versions


def test_without_the_backfill_the_old_run_aggregates_without_features(tmp_path):
    """What the backfill repairs: the old-shaped graph gives no birthday (the aggregators read
    features, never the raw text)."""
    db_path, run_id, _ = _old_shaped(tmp_path)
    inv = Investigation.start(tmp_path / "other.db", tmp_path / "u1")   # a context for the user
    assert "birth_date" not in _hyp_attributes(db_path, run_id, inv)


def test_a_failing_backfill_changes_nothing(tmp_path, monkeypatch):
    db_path, run_id, _ = _old_shaped(tmp_path)

    def b002_breaks(g: Graph) -> int:
        bf.b001_text_features(g)          # writes node versions, then fails inside the transaction
        raise RuntimeError("killed mid-backfill")

    monkeypatch.setattr(bf, "BACKFILLS", [("b002_breaks", b002_breaks)])
    with pytest.raises(RuntimeError):
        Investigation.resume(db_path, run_id)
    db = open_db(db_path)
    assert db.execute("SELECT count(*) FROM run_backfills WHERE run_id=?", [run_id]).fetchone()[0] == 0
    assert db.execute("SELECT count(*) FROM node_versions WHERE run_id=? AND reason LIKE 'backfill:%'",
                      [run_id]).fetchone()[0] == 0
    assert not db.execute("SELECT 1 FROM nodes WHERE run_id=? AND json_extract(data, '$.features') IS NOT NULL",
                          [run_id]).fetchone()
