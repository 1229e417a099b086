"""The CLI under hostile input, end to end on a small text-only bench: terminal escapes in a
caption or a file name never reach the terminal raw; files holding inferred data are 0600 and
an existing 0644 run DB is tightened with a note; `bench validate --json` is pure JSON; an
implausible timestamp (2041, 9999-12-31) does not move the age."""
from __future__ import annotations

import json
import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from faults import make_text_bench  # noqa: E402

pytestmark = pytest.mark.slow
ARGUS = str(Path(sys.executable).parent / "argus")
ESC = "\x1b[2J\x1b]0;PWNED\x07"


def _argus(*args: str, ok: bool = True) -> subprocess.CompletedProcess:
    r = subprocess.run([ARGUS, *args], capture_output=True, text=True, timeout=900)
    if ok:
        assert r.returncode == 0, r.stderr
    return r


def _mode(p: Path) -> int:
    return stat.S_IMODE(p.stat().st_mode)


def _truth(udir: Path, uid: str) -> None:
    (udir / "truth.json").write_text(json.dumps({"user_id": uid, "leaked": [
        {"attribute": "gender", "kind": "category", "value": "female", "sensitivity": 2, "difficulty": 1,
         "leakage_type": "explicit", "evidence": [{"post_id": "p04"}]}]}), encoding="utf-8")


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    root = tmp_path_factory.mktemp("hcli")
    bench = make_text_bench(root / "bench", n=2, renamed=None)
    for uid in ("u000", "u001"):
        _truth(bench / "users" / uid, uid)
    out = root / "out"
    r = _argus("bench", "run", str(bench), "--out", str(out))
    return {"root": root, "bench": bench, "out": out, "run": r}


def test_validate_json_is_pure_json_on_a_valid_bench(world):
    r = _argus("bench", "validate", str(world["bench"]), "--json")
    assert isinstance(json.loads(r.stdout), list)          # nothing after the JSON
    assert "valid" in r.stderr


def test_bench_outputs_are_private(world):
    out = world["out"]
    files = [out / "runs.db", out / "results.jsonl", out / "bench_run.json", out / "batch.json",
             *sorted((out / "predictions").glob("*.json"))]
    assert len(files) == 6
    assert {str(f.name): oct(_mode(f)) for f in files} == {str(f.name): oct(0o600) for f in files}


def test_exports_plans_reports_and_profiles_are_private_and_an_open_db_is_tightened(world):
    root, out, bench = world["root"], world["out"], world["bench"]
    con = sqlite3.connect(out / "runs.db")
    run_id = con.execute("SELECT run_id FROM runs WHERE user_id='u000'").fetchone()[0]
    con.close()
    made = []
    for args, f in [(["runs", "export", str(out / "runs.db"), run_id, "--out"], root / "exp.json"),
                    (["runs", "export", str(out / "runs.db"), run_id, "--redact", "--out"], root / "red.json"),
                    (["advise", str(bench / "users" / "u000"), "--db", str(out / "runs.db"), "--out"], root / "plan.json"),
                    (["report", str(out), "--resamples", "10", "--html"], root / "r.html")]:
        _argus(*args, str(f))
        made.append(f)
    assert {f.name: oct(_mode(f)) for f in made} == {f.name: oct(0o600) for f in made}
    # an existing run DB readable by others is tightened on open, with a note
    db = root / "loose.db"
    _argus("investigate", str(bench / "users" / "u001"), "--db", str(db), "-q", "--out", str(root / "p.json"))
    os.chmod(db, 0o644)
    r = _argus("investigate", str(bench / "users" / "u001"), "--db", str(db), "-q", "--new")
    assert _mode(db) == 0o600 and "tightened to 0600" in r.stderr
    assert _mode(root / "p.json") == 0o600


def test_escapes_in_a_caption_and_a_file_name_are_printed_escaped(world, tmp_path):
    bench = world["bench"]
    udir = bench / "users" / "u000"
    with (udir / "posts.jsonl").open("a", encoding="utf-8") as fh:
        fh.write(json.dumps({"post_id": "e1", "caption": f"I live in Nanshan {ESC} now",
                             "images": [{"file": f"images/{ESC}.jpg"}]}) + "\n")
    db = tmp_path / "runs.db"
    r = _argus("investigate", str(udir), "--db", str(db))
    assert "\x1b" not in r.stdout + r.stderr and "\x07" not in r.stdout + r.stderr
    assert "recorded error" in r.stdout and "\\x1b" in r.stdout
    run_id = sqlite3.connect(db).execute("SELECT run_id FROM runs").fetchone()[0]
    shown = _argus("runs", "show", str(db), run_id)
    assert "\x1b" not in shown.stdout and "\x07" not in shown.stdout
    # the data keeps the characters (only printing escapes them)
    caption = sqlite3.connect(db).execute("SELECT data FROM posts WHERE post_id='e1'").fetchone()[0]
    assert ESC in json.loads(caption)["caption"]


def test_an_implausible_timestamp_does_not_move_the_age(world, tmp_path):
    bench = world["bench"]
    src = bench / "users" / "u001"
    import shutil

    udir = tmp_path / "users" / "u001"
    shutil.copytree(src, udir)
    with (udir / "posts.jsonl").open("a", encoding="utf-8") as fh:
        fh.write(json.dumps({"post_id": "t1", "timestamp": "2041-05-01T10:00:00+08:00", "caption": "hello"}) + "\n")
        fh.write(json.dumps({"post_id": "t2", "timestamp": "9999-12-31T23:59:59", "caption": "bye"}) + "\n")
    _argus("investigate", str(udir), "--db", str(tmp_path / "runs.db"), "-q", "--out", str(tmp_path / "p.json"))
    got = {a["attribute"]: a["value"] for a in json.loads((tmp_path / "p.json").read_text())["attributes"]}
    ref = {a["attribute"]: a["value"]
           for a in json.loads((world["out"] / "predictions" / "u001.json").read_text())["attributes"]}
    assert got.get("age") == ref.get("age") and ref.get("age", "").startswith("30")
