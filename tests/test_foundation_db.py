"""Run store: migrations, re-open idempotence, private files, read queries and `argus runs`."""
from __future__ import annotations

import json
import os
import sqlite3
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from argus_tui.cli import app
from core.errors import InputError
from db import queries
from db.migrations import MIGRATIONS, apply_migrations
from db.store import dumps, now, open_db

runner = CliRunner()


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_migrations_from_an_empty_file_and_reopen(tmp_path: Path) -> None:
    path = tmp_path / "runs.db"
    path.touch()  # an existing empty file is a valid starting point too
    db = open_db(path)
    names = [r[0] for r in db.execute("SELECT name FROM _migrations ORDER BY rowid").fetchall()]
    assert names == [n for n, _ in MIGRATIONS]
    tables = set(db.table_names())
    assert {"runs", "posts", "images", "nodes", "edges", "hypothesis_history", "routes", "tool_calls",
            "model_calls", "budget_ledger", "events", "profile", "cache"} <= tables
    db.conn.close()
    db2 = open_db(path)
    assert apply_migrations(db2) == []  # nothing left to apply
    again = [r[0] for r in db2.execute("SELECT name FROM _migrations").fetchall()]
    assert sorted(again) == sorted(names)  # not recorded twice


def test_new_db_and_wal_files_are_private(tmp_path: Path) -> None:
    old = os.umask(0o022)  # a permissive umask must not leak into the DB files
    try:
        path = tmp_path / "sub" / "runs.db"
        db = open_db(path)
        db.execute("INSERT INTO cache (key, kind, name, output, created_at) VALUES ('k', 'tool', 't', '{}', ?)", [now()])
        db.conn.commit()
        wal = Path(str(path) + "-wal")
        shm = Path(str(path) + "-shm")
        assert _mode(path) == 0o600
        assert wal.exists(), "WAL mode expected"
        assert _mode(wal) == 0o600
        if shm.exists():
            assert _mode(shm) == 0o600
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        os.umask(old)


def _write_run(db, run_id: str = "r1", user_id: str = "u001") -> None:
    """A small finished run as the engine would leave it: posts, evidence citing posts,
    a hypothesis supported by two pieces of evidence, a derived hypothesis supporting another."""
    t = now()
    db["runs"].insert({"run_id": run_id, "user_id": user_id, "user_dir": f"/b/users/{user_id}", "system": "argus",
                       "backend": "offline", "config": dumps({"budget": 20}), "budget": 20, "spent": 3.5,
                       "status": "finished", "step": 4, "created_at": t, "updated_at": t, "finished_at": t})
    for i, (pid, cap) in enumerate([("p01", "Morning at Nanshan metro"), ("p02", "Example Garden gate fixed")]):
        db["posts"].insert({"run_id": run_id, "post_id": pid, "idx": i, "data": dumps({"post_id": pid, "caption": cap})})
        db["nodes"].insert({"run_id": run_id, "node_id": f"post:{pid}", "kind": "post", "post_id": pid, "content": ""})
    nodes = [
        ("e1", "evidence", "p01", "text", "caption", "Nanshan metro", None, None, "grounded"),
        ("e2", "evidence", "p02", "text", "caption", "Example Garden", None, None, "grounded"),
        ("e3", "evidence", "p02", "image", "sign", "gate sign", None, None, "grounded"),  # no cite edge: post_id
        ("h1", "hypothesis", None, None, None, "", "home_location", "Nanshan District, Shenzhen", "admitted"),
        ("h2", "hypothesis", None, None, None, "", "work_location", "Shenzhen", "admitted"),
        ("h3", "hypothesis", None, None, None, "", "religion", "Buddhism", "removed"),
    ]
    for nid, kind, pid, mod, car, content, attr, val, status in nodes:
        db["nodes"].insert({"run_id": run_id, "node_id": nid, "kind": kind, "post_id": pid, "modality": mod,
                            "carrier": car, "content": content, "attribute": attr, "value": val, "status": status,
                            "confidence": 0.8 if kind == "hypothesis" else None})
    for src, dst, kind in [("e1", "post:p01", "cite"), ("e2", "post:p02", "cite"), ("e1", "h1", "support"),
                           ("e2", "h1", "support"), ("e3", "h1", "support"), ("h1", "h2", "support"),
                           ("h2", "h1", "support")]:  # a cycle must not loop forever
        db["edges"].insert({"run_id": run_id, "src": src, "dst": dst, "kind": kind})
    db["profile"].insert({"run_id": run_id, "attribute": "home_location", "value": "Nanshan District, Shenzhen",
                          "level": "district", "confidence": 0.8, "sensitivity": 4, "evidence": dumps(["h1"])})
    db["profile"].insert({"run_id": run_id, "attribute": "work_location", "value": "Shenzhen", "level": "city",
                          "confidence": 0.7, "sensitivity": 3, "evidence": dumps(["h2"])})
    db.conn.commit()


@pytest.fixture()
def runs_db(tmp_path: Path) -> Path:
    path = tmp_path / "runs.db"
    db = open_db(path)
    _write_run(db, "r1", "u001")
    _write_run(db, "r2-other", "u002")
    db.conn.close()
    return path


def test_queries_follow_support_and_cite_edges_to_posts(runs_db: Path) -> None:
    db = queries.open_runs_readonly(runs_db)
    runs = queries.list_runs(db)
    assert [r["run_id"] for r in runs] == ["r1", "r2-other"]
    assert runs[0]["n_profile"] == 2 and runs[0]["config"] == {"budget": 20}
    assert queries.get_run(db, "nope") is None
    assert queries.find_run(db, "r2")["run_id"] == "r2-other"
    assert [p["evidence"] for p in queries.profile_rows(db, "r1")] == [["h1"], ["h2"]]
    assert [h.node_id for h in queries.hypotheses(db, "r1", statuses=["admitted"])] == ["h1", "h2"]
    chain = queries.evidence_chain(db, "r1", "h1")
    assert chain.kind == "hypothesis" and chain.attribute == "home_location"
    kids = {c.node_id: c for c in chain.children}
    assert set(kids) == {"e1", "e2", "e3", "h2"}
    assert all(c.via == "support" for c in kids.values())
    assert [g.node_id for g in kids["e1"].children] == ["post:p01"]
    assert kids["e1"].children[0].via == "cite"
    assert kids["e1"].children[0].content == "Morning at Nanshan metro"  # text from the posts table
    assert [g.post_id for g in kids["e3"].children] == ["p02"]  # no cite edge: falls back to post_id
    h1_again = kids["h2"].children[0]
    assert h1_again.node_id == "h1" and h1_again.cycle and not h1_again.children
    assert queries.chain_post_ids(chain) == ["p01", "p02"]


def test_open_readonly_refuses_missing_and_foreign_files(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not found"):
        queries.open_runs_readonly(tmp_path / "missing.db")
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(InputError, match="SQLite"):
        queries.open_runs_readonly(junk)
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.commit()
    with pytest.raises(InputError, match="no runs table"):
        queries.open_runs_readonly(other)


def test_readonly_connection_cannot_write(runs_db: Path) -> None:
    db = queries.open_runs_readonly(runs_db)
    with pytest.raises(sqlite3.OperationalError):
        db.execute("DELETE FROM runs")


def test_runs_list_cli(runs_db: Path) -> None:
    res = runner.invoke(app, ["runs", "list", str(runs_db)], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    assert "r1" in res.output and "u002" in res.output and "finished" in res.output
    res = runner.invoke(app, ["runs", "list", str(runs_db), "--json"])
    assert [r["user_id"] for r in json.loads(res.output)] == ["u001", "u002"]


def test_runs_show_cli(runs_db: Path) -> None:
    res = runner.invoke(app, ["runs", "show", str(runs_db), "r1"], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    out = res.output
    assert "home_location" in out and "Nanshan District, Shenzhen" in out
    assert "post p01" in out and "Morning at Nanshan metro" in out  # evidence chain reaches the post
    assert "Buddhism" not in out  # removed hypotheses hidden by default
    assert "Buddhism" in runner.invoke(app, ["runs", "show", str(runs_db), "r1", "--all"],
                                       env={"COLUMNS": "200"}).output
    data = json.loads(runner.invoke(app, ["runs", "show", str(runs_db), "r1", "--json"]).output)
    assert data["run"]["run_id"] == "r1"
    assert data["profile"][0]["chains"][0]["node_id"] == "h1"


def test_runs_cli_bad_input_exits_2(runs_db: Path, tmp_path: Path) -> None:
    res = runner.invoke(app, ["runs", "show", str(runs_db), "zzz"])
    assert res.exit_code == 2 and "zzz" in res.output
    res = runner.invoke(app, ["runs", "list", str(tmp_path / "nothing.db")])
    assert res.exit_code == 2 and "nothing.db" in res.output and "not found" in res.output
    assert not (tmp_path / "nothing.db").exists()  # reading never creates a DB


def test_parallel_workers_opening_a_fresh_db_migrate_once(tmp_path: Path) -> None:
    path = tmp_path / "shared.db"
    code = ("import sys, time; from db.store import open_db; "
            "t = float(sys.argv[2]); time.sleep(max(0.0, t - time.time())); "
            "db = open_db(sys.argv[1]); db.execute('SELECT COUNT(*) FROM runs').fetchone()")
    import subprocess
    import sys
    import time

    start = time.time() + 1.0  # all four start opening at the same moment
    procs = [subprocess.Popen([sys.executable, "-c", code, str(path), str(start)], stderr=subprocess.PIPE, text=True)
             for _ in range(4)]
    errs = [p.communicate(timeout=120)[1] for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0, 0], errs
    db = open_db(path)
    names = [r[0] for r in db.execute("SELECT name FROM _migrations").fetchall()]
    assert names == [n for n, _ in MIGRATIONS]
    assert _mode(path) == 0o600


def test_open_db_on_a_foreign_file_is_an_input_error(tmp_path: Path) -> None:
    junk = tmp_path / "notes.db"
    junk.write_bytes(b"hello, not a database" * 200)
    with pytest.raises(InputError, match="notes.db"):
        open_db(junk)
    assert junk.read_bytes().startswith(b"hello")  # untouched


def test_readonly_open_with_awkward_path_characters(tmp_path: Path) -> None:
    path = tmp_path / "my runs #1?.db"
    db = open_db(path)
    _write_run(db)
    db.conn.close()
    ro = queries.open_runs_readonly(path)
    assert [r["run_id"] for r in queries.list_runs(ro)] == ["r1"]


def test_a_migration_that_fails_midway_leaves_nothing_behind(tmp_path: Path, monkeypatch) -> None:
    """Each migration and its _migrations row are one transaction: a migration interrupted after
    some of its statements (a crash, a kill) is redone from scratch on the next open."""
    import db.migrations as mig

    db = open_db(tmp_path / "runs.db")
    calls = []

    def m999_two_tables(d) -> None:
        mig.run_script(d, "CREATE TABLE extra_a (x INTEGER);\n-- the second one\nCREATE TABLE extra_b (y TEXT);\n")
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("killed between the statements and the _migrations row")

    monkeypatch.setattr(mig, "MIGRATIONS", [*mig.MIGRATIONS, ("m999_two_tables", m999_two_tables)])
    with pytest.raises(RuntimeError):
        mig.apply_migrations(db)
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall()}
    assert not {"extra_a", "extra_b"} & tables
    assert mig.apply_migrations(db) == ["m999_two_tables"]        # redone cleanly, no "already exists"
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall()}
    assert {"extra_a", "extra_b"} <= tables
