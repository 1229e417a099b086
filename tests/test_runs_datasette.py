"""`argus runs datasette RUNS.db`: the metadata files Datasette reads, and the real Datasette
server started by the command on a free port, its canned queries read as JSON over HTTP."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from db.datasette import QUERIES, config, metadata

sys.path.insert(0, str(Path(__file__).parent))
from engine_user import make_user  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def run_db(tmp_path_factory) -> tuple[Path, str]:
    """A real offline investigation (OCR routes, a removed and suspended hypotheses)."""
    from core.engine.loop import Investigation

    t = tmp_path_factory.mktemp("ds")
    inv = Investigation.start(t / "runs.db", make_user(t / "u"), backend="offline")
    inv.run()
    run_id = inv.run_id
    inv.db.conn.close()
    return t / "runs.db", run_id


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


def test_metadata_names_every_table_of_a_run_db(run_db) -> None:
    import sqlite3

    db, _ = run_db
    tables = {r[0] for r in sqlite3.connect(db).execute("SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'")}
    m = metadata(db)["databases"]["runs"]
    assert tables <= set(m["tables"]), tables - set(m["tables"])
    cols = {t: {r[1] for r in sqlite3.connect(db).execute(f"PRAGMA table_info({t})")} for t in tables}
    for t, entry in m["tables"].items():     # facets and described columns exist (Datasette refuses others)
        if t in cols:
            assert set(entry.get("facets", [])) <= cols[t], t
            assert set(entry.get("columns", {})) <= cols[t], t
    assert set(config(db)["databases"]["runs"]["queries"]) == set(QUERIES)


def test_cli_serves_the_canned_queries_on_localhost(run_db, tmp_path: Path) -> None:
    pytest.importorskip("datasette")
    db, run_id = run_db
    port = _free_port()
    env = {**os.environ, "COLUMNS": "80", "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "argus_tui.cli", "runs", "datasette", str(db), "--port", str(port),
                             "--dir", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, env=env, cwd=tmp_path)
    try:
        base = f"http://127.0.0.1:{port}/runs"
        deadline = time.monotonic() + 90
        while True:
            try:
                _get(f"http://127.0.0.1:{port}/-/versions.json")
                break
            except OSError:
                assert proc.poll() is None, proc.stdout.read().decode() if proc.stdout else ""
                assert time.monotonic() < deadline, "datasette did not start within 90 s"
                time.sleep(0.3)
        meta = _get(f"http://127.0.0.1:{port}/-/metadata.json")
        assert meta["title"] == "Argus runs: runs.db"
        assert meta["databases"]["runs"]["tables"]["nodes"]["facets"] == ["kind", "status", "carrier", "attribute"]
        prof = _get(f"{base}/profile_with_evidence.json?_shape=objects&run_id={run_id}")["rows"]
        assert prof and all(r["run_id"] == run_id and r["evidence_id"] for r in prof)
        import sqlite3

        projected = {a for (a,) in sqlite3.connect(db).execute("SELECT attribute FROM profile WHERE run_id = ?", [run_id])}
        assert {r["attribute"] for r in prof} == projected     # every profile value, with its evidence rows
        assert any(r["attribute"] == "real_name" and r["post_id"] == "p06" for r in prof)   # the badge's post
        routes = _get(f"{base}/routes_by_cost.json?_shape=objects")["rows"]
        assert routes[0]["family"] == "ocr" and routes[0]["cost"] > 0 and routes[0]["done"] == routes[0]["routes"]
        why = _get(f"{base}/why_was_this_hypothesis_removed.json?_shape=objects")["rows"]
        removed = [r for r in why if r["status"] == "removed"]
        assert removed and all(r["reason"] for r in removed)
        one = removed[0]["node_id"]
        only = _get(f"{base}/why_was_this_hypothesis_removed.json?_shape=objects&node_id={one}")["rows"]
        assert {r["node_id"] for r in only} == {one}
        top = _get(f"{base}/posts_that_reveal_most.json?_shape=objects&run_id={run_id}")["rows"]
        assert top and top[0]["hypotheses"] >= top[-1]["hypotheses"] >= 1 and top[0]["attributes"]
        facets = _get(f"{base}/nodes.json?_facet=kind&_size=0")["facet_results"]["kind"]["results"]
        assert {f["value"] for f in facets} >= {"post", "evidence", "hypothesis"}
    finally:
        proc.send_signal(signal.SIGTERM)       # the command exec'd datasette: this is its process
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    for f in ("metadata.yml", "datasette.yml"):
        assert (tmp_path / f).stat().st_mode & 0o777 == 0o600


def test_cli_refuses_a_file_that_is_not_a_run_db(tmp_path: Path) -> None:
    bad = tmp_path / "x.db"
    bad.write_text("not sqlite")
    p = subprocess.run([sys.executable, "-m", "argus_tui.cli", "runs", "datasette", str(bad), "--no-serve"],
                       capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
                       stdin=subprocess.DEVNULL)
    assert p.returncode == 2 and str(bad) in p.stderr
    assert not (tmp_path / "metadata.yml").exists()


# -- launched safely (issue 36, item 2) ---------------------------------------------------------

class _Served:
    """`argus runs datasette DB --port P` started in `cwd`; stopped with SIGTERM on exit."""

    def __init__(self, db: str, cwd: Path, *extra: str, env: dict | None = None):
        self.port = _free_port()
        self.proc = subprocess.Popen([sys.executable, "-m", "argus_tui.cli", "runs", "datasette", db, "--port",
                                      str(self.port), *extra], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, cwd=cwd,
                                     env={**os.environ, "COLUMNS": "80", "PYTHONPATH": str(ROOT), **(env or {})})

    def __enter__(self) -> "_Served":
        deadline = time.monotonic() + 90
        while True:
            try:
                self.get("/-/versions.json")
                return self
            except OSError:
                assert self.proc.poll() is None, self.proc.stdout.read().decode() if self.proc.stdout else ""
                assert time.monotonic() < deadline, "datasette did not start within 90 s"
                time.sleep(0.3)

    def get(self, path: str, host: str | None = None) -> tuple[int, bytes]:
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}")
        if host is not None:
            req.add_header("Host", host)
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    def __exit__(self, *exc) -> None:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def test_a_foreign_host_header_is_refused_and_the_db_is_immutable(run_db, tmp_path: Path) -> None:
    pytest.importorskip("datasette")

    db, run_id = run_db
    with _Served(str(db), tmp_path, "--dir", str(tmp_path)) as s:
        for host in (f"127.0.0.1:{s.port}", f"localhost:{s.port}", "localhost"):
            status, body = s.get("/runs/runs.json?_shape=objects", host)
            assert status == 200 and json.loads(body)["rows"][0]["run_id"] == run_id, host
        for host in (f"attacker.example:{s.port}", "attacker.example", f"127.0.0.1.attacker.example:{s.port}",
                     f"[::1]:{s.port}", "192.168.1.5"):
            status, body = s.get("/runs/profile.json?_shape=objects", host)   # DNS rebinding: refused
            assert status == 403 and run_id.encode() not in body, host
        dbs = json.loads(s.get("/-/databases.json")[1])
        assert [(d["name"], d["is_mutable"]) for d in dbs if d["name"] == "runs"] == [("runs", False)]


def test_a_db_named_like_an_option_loads_no_plugin(run_db, tmp_path: Path) -> None:
    """A run DB literally named `--plugins-dir=plug` beside a `plug/` folder of Python: served as a
    database, the folder never loaded as Datasette plugins."""
    pytest.importorskip("datasette")
    import shutil

    db, run_id = run_db
    (tmp_path / "plug").mkdir()
    marker = tmp_path / "plugin-ran"
    (tmp_path / "plug" / "evil.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\n", encoding="utf-8")
    shutil.copy(db, tmp_path / "--plugins-dir=plug")
    with _Served("./--plugins-dir=plug", tmp_path, "--dir", str(tmp_path / "meta")) as s:
        dbs = json.loads(s.get("/-/databases.json")[1])
        plugins = json.loads(s.get("/-/plugins.json")[1])
    assert not marker.exists()
    assert "evil" not in {p["name"] for p in plugins}
    assert [d["is_mutable"] for d in dbs if d["name"] == "--plugins-dir=plug"] == [False]
    assert any(d["path"] == str((tmp_path / "--plugins-dir=plug").resolve()) for d in dbs)


# -- issue 37: configuration in Argus's own folder, post text beside each post id ---------------

def test_files_go_to_argus_folder_and_the_top_posts_show_their_text(run_db, tmp_path: Path) -> None:
    pytest.importorskip("datasette")
    import shutil
    import sqlite3

    src, run_id = run_db
    person = tmp_path / "person"           # the person's folder: nothing may be added to it
    person.mkdir()
    db = person / "runs.db"
    shutil.copy(src, db)
    before = sorted(p.name for p in person.iterdir())
    ours = lambda: sorted(q.name for q in person.iterdir() if not q.name.startswith("runs.db-"))  # noqa: E731
    # (SQLite's own -wal / -shm side files of a WAL database are not Argus's files)
    cfg = tmp_path / "cfg"
    env = {"XDG_CONFIG_HOME": str(cfg)}
    p = subprocess.run([sys.executable, "-m", "argus_tui.cli", "runs", "datasette", str(db), "--no-serve"],
                       capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT), **env},
                       stdin=subprocess.DEVNULL, cwd=person)
    assert p.returncode == 0, p.stderr
    with _Served(str(db), person, env=env) as s:
        status, body = s.get(f"/runs/posts_that_reveal_most.json?_shape=objects&run_id={run_id}")
        meta = json.loads(s.get("/-/metadata.json")[1])
    assert ours() == before          # no metadata.yml / datasette.yml beside the person's DB
    (home,) = (cfg / "argus" / "datasette").iterdir()
    assert home.name.startswith("runs-") and home.stat().st_mode & 0o777 == 0o700
    assert {f.name: f.stat().st_mode & 0o777 for f in home.iterdir()} == {"metadata.yml": 0o600,
                                                                          "datasette.yml": 0o600}
    assert str(home / "metadata.yml") in p.stdout.replace("\n", "")
    assert meta["title"] == "Argus runs: runs.db"                        # served from that folder
    rows = json.loads(body)["rows"]
    assert status == 200 and rows and list(rows[0])[:3] == ["run_id", "post_id", "text"]
    captions = {pid: json.loads(d).get("caption") for pid, d in
                sqlite3.connect(db).execute("SELECT post_id, data FROM posts WHERE run_id = ?", [run_id])}
    for r in rows:
        if r["post_id"] in captions and captions[r["post_id"]]:
            assert captions[r["post_id"]] in r["text"], r
    assert sum(1 for r in rows if r["post_id"] in captions and captions[r["post_id"]]) >= 2
