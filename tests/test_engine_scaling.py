"""What keeps the engine's cost linear in account size: indexed graph look-ups that agree with
a scan, and no SQL statement of a real run that scans a whole table (benchmarks/scaling.py
times it)."""
from __future__ import annotations

import re

import pytest

from core.engine.loop import Investigation
from db.store import open_db
from engine_user import make_user


@pytest.fixture(scope="module")
def traced_run(tmp_path_factory):
    root = tmp_path_factory.mktemp("scaling")
    udir = make_user(root, malformed_line=False)
    db = open_db(root / "runs.db")
    statements: dict[str, str] = {}
    db.conn.set_trace_callback(lambda s: statements.setdefault(re.sub(r"\s+", " ", s.strip())[:400], s))
    inv = Investigation.start(db, udir)
    inv.run()
    db.conn.set_trace_callback(None)
    return db, inv, statements


def test_graph_indexes_agree_with_a_scan(traced_run):
    _db, inv, _ = traced_run
    g = inv.graph
    ev = g.evidence()
    posts = {n.post_id for n in ev}
    images = {n.data.image_id for n in ev if n.data.image_id}
    assert len(posts) > 3 and len(images) > 2          # the test user has posts with images
    for p in posts:
        assert g.of_post(p) == [n for n in ev if n.post_id == p]
    for i in images:
        assert g.of_image(i) == [n for n in ev if n.data.image_id == i]
    assert g.of_post("no-such-post") == [] and g.of_image("no-such-image") == []


def test_no_statement_of_a_run_scans_a_whole_table(traced_run):
    db, _inv, statements = traced_run
    scans = {}
    checked = 0
    for sql in statements.values():
        if not re.match(r"\s*(SELECT|UPDATE|DELETE|INSERT)", sql, re.I):
            continue
        try:
            plan = db.conn.execute("EXPLAIN QUERY PLAN " + sql).fetchall()
        except Exception:       # a statement that only makes sense inside its transaction
            continue
        checked += 1
        full = [row[3] for row in plan if re.match(r"SCAN (?!CONSTANT)\w+$", row[3])]
        if full:
            scans[sql[:160]] = full
    assert checked > 20
    assert scans == {}


def test_signature_follows_every_state_change_and_its_undo(traced_run):
    from core.engine.graph import Graph

    db, inv, _ = traced_run
    g = Graph(db, inv.run_id)                       # rebuilt from the DB: the same fingerprint
    assert g.signature() == inv.graph.signature()
    n = next(x for x in g.evidence() if x.status != "rejected")
    before, status, conf = g.signature(), n.status, n.confidence
    try:
        g.set_status(n, "rejected", "test")
        assert g.signature() != before
        n.confidence = 0.123
        g.update_node(n)
        changed = g.signature()
        n.confidence = conf
        g.update_node(n)
        assert g.signature() not in (before, changed)
        g.set_status(n, status, "test: undone")
        assert g.signature() == before
    finally:
        db.conn.rollback()
