"""The loop end to end on a hand-built user with real OCR, resume after a kill, hostile
content, broken inputs, the CLI commands and the truth-file rule."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from engine_user import POSTS, make_user  # noqa: E402

from core.engine.approval import AutoApprover, SkipAll  # noqa: E402
from core.engine.loop import Investigation  # noqa: E402
from core.engine.types import Decision  # noqa: E402
from core.models import Predictions  # noqa: E402
from db.store import open_db  # noqa: E402

pytestmark = pytest.mark.slow
ARGUS = str(Path(sys.executable).parent / "argus")

_OPENED: list[str] = []
_WATCH = {"on": False}


def _audit(event: str, args: tuple) -> None:
    if _WATCH["on"] and event == "open" and args and isinstance(args[0], (str, bytes, os.PathLike)):
        _OPENED.append(os.fsdecode(args[0]))


sys.addaudithook(_audit)


def _values(pred: Predictions) -> dict[str, str]:
    return {a.attribute: a.value for a in pred.attributes}


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    root = tmp_path_factory.mktemp("engine")
    udir = make_user(root)
    db_path = root / "runs.db"
    _WATCH["on"] = True
    try:
        inv = Investigation.start(db_path, udir)
        pred = inv.run()
    finally:
        _WATCH["on"] = False
    return {"root": root, "udir": udir, "db": db_path, "inv": inv, "pred": pred, "opened": list(_OPENED)}


def test_end_to_end_profile_with_real_ocr(world):
    v = _values(world["pred"])
    # place aggregation: home in Nanshan, Shenzhen (captions + IP region), the compound from the fee notice OCR
    assert "Shenzhen" in v["home_location"] and "Nanshan" in v["home_location"]
    assert "Example Garden" in v["home_location"]
    # the staff id is only in the badge image: read by OCR during perception
    assert "XC190417" in v.get("contact_or_id_number", "")
    assert "Chengdu" in v.get("travel_history", "") and "Chengdu" not in v["home_location"]
    assert "Keyuan" in v.get("commute", "")
    assert "1995" in v.get("birth_date", "") and "30" in v.get("age", "")
    inv = world["inv"]
    assert inv.finished
    # every projected value keeps a queryable support chain down to a post
    for a in world["pred"].attributes:
        assert a.evidence, a.attribute
        for chain in inv.chain(a.attribute):
            assert chain["kind"] == "hypothesis" and chain.get("support")


def test_routes_are_recorded_and_charged(world, tmp_path):
    """With OCR moved out of perception, the routing table reads the text-bearing images as
    charged routes; the staff id still reaches the profile, through a route."""
    inv = Investigation.start(tmp_path / "runs.db", world["udir"], config={"ocr_in_perception": False})
    pred = inv.run()
    db = inv.db
    rid = inv.run_id
    routes = db.execute("SELECT family, status, decided_by, cost FROM routes WHERE run_id=?", [rid]).fetchall()
    assert routes and {r[0] for r in routes} >= {"ocr"}
    assert all(r[1] in ("done", "failed", "skipped", "edited") for r in routes)
    assert all(r[2] == "policy:auto" for r in routes)
    spent, budget = db.execute("SELECT spent, budget FROM runs WHERE run_id=?", [rid]).fetchone()
    ledger = db.execute("SELECT SUM(units) FROM budget_ledger WHERE run_id=?", [rid]).fetchone()[0]
    assert spent == pytest.approx(ledger) and 0 < spent <= budget
    assert "XC190417" in _values(pred).get("contact_or_id_number", "")
    texts = [r[0] for r in db.execute("SELECT content FROM nodes WHERE run_id=? AND data LIKE '%\"ocr_source\": \"ocr\"%'",
                                      [rid]).fetchall()]
    assert any("XC190417" in t for t in texts)


def test_injections_do_not_change_the_profile(world, tmp_path):
    v = _values(world["pred"])
    assert "70" not in v.get("age", "") and "Paris" not in v.get("home_location", "")
    assert "pilot" not in v.get("occupation", "").lower()
    # the same account without the injection caption (p08) and image post (p09): same profile
    clean_root = tmp_path / "clean"
    udir = make_user(clean_root, malformed_line=False)
    lines = [json.dumps(p) for p in POSTS if p["post_id"] not in ("p08", "p09")]
    (udir / "posts.jsonl").write_text("\n".join(lines) + "\n")
    pred = Investigation.start(clean_root / "runs.db", udir).run()
    assert _values(pred) == v
    db = open_db(world["db"])
    hostile = db.execute("SELECT post_id, carrier FROM nodes WHERE run_id=? AND data LIKE '%\"hostile\"%'",
                         [world["inv"].run_id]).fetchall()
    assert ("p08", "caption") in hostile and any(p == "p09" and c != "caption" for p, c in hostile)


def test_broken_inputs_are_recorded_errors(world):
    errs = [e.data for e in world["inv"].events() if e.kind == "error"]
    text = json.dumps(errs)
    assert "posts.jsonl" in text and '"line": 6' in text           # malformed post line
    assert "p10_corrupt.jpg" in text and "missing.jpg" in text     # corrupt + missing image
    assert "p10_huge.png" in text                                  # over the pixel limit
    assert world["inv"].finished


def test_engine_never_opens_truth_json(world):
    assert world["opened"], "the audit hook saw no file opens"
    assert not [p for p in world["opened"] if p.endswith("truth.json")]


ROUTED = {"ocr_in_perception": False}      # OCR as routed steps: several route steps to kill between


@pytest.fixture(scope="module")
def routed_pred(world, tmp_path_factory):
    return Investigation.start(tmp_path_factory.mktemp("routed") / "runs.db", world["udir"], config=ROUTED).run()


def test_resume_in_process_gives_the_same_profile(world, routed_pred, tmp_path):
    db_path = tmp_path / "runs.db"
    inv = Investigation.start(db_path, world["udir"], config=ROUTED)
    inv.step(AutoApprover())
    inv.step(AutoApprover())            # two route steps committed
    run_id = inv.run_id
    inv.db.conn.close()
    again = Investigation.resume(db_path, run_id)
    assert again.ctx.step == 3 and not again.finished
    pred = again.run()
    assert _values(pred) == _values(routed_pred)


def test_kill_between_steps_and_resume_from_cli(world, routed_pred, tmp_path):
    db_path = tmp_path / "runs.db"
    env = {**os.environ, "ARGUS_ENGINE_EXIT_AFTER_STEP": "2"}
    r = subprocess.run([ARGUS, "investigate", str(world["udir"]), "--db", str(db_path), "-q",
                        "--set", "ocr_in_perception=false"], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 137, r.stderr
    db = open_db(db_path)
    run_id, status, step = db.execute("SELECT run_id, status, step FROM runs").fetchone()
    assert status == "running" and step == 2
    db.conn.close()
    out = tmp_path / "profile.json"
    # the same command again resumes the unfinished run (no --resume needed)
    r = subprocess.run([ARGUS, "investigate", str(world["udir"]), "--db", str(db_path),
                        "--out", str(out), "-q", "--set", "ocr_in_perception=false"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert f"resuming unfinished run {run_id}" in r.stdout.replace("\n", " ")
    db = open_db(db_path)
    assert db.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 1
    pred = Predictions.model_validate_json(out.read_text())
    assert _values(pred) == _values(routed_pred)


def test_console_style_decisions(world, tmp_path):
    """skip / stop decisions from a person are recorded with who decided."""
    inv = Investigation.start(tmp_path / "runs.db", world["udir"], config=ROUTED)
    prop = inv.next_proposal()
    assert prop is not None and prop.route_id
    assert inv.next_proposal().route_id == prop.route_id      # pending until decided
    inv.decide(Decision(action="skip", by="person:alice", reason="not needed"))
    row = inv.db.execute("SELECT status, decided_by FROM routes WHERE run_id=? AND route_id=?",
                         [inv.run_id, prop.route_id]).fetchone()
    assert row == ("skipped", "person:alice")
    inv.run(SkipAll())
    assert inv.finished and inv.budget.spent == 0


def test_cli_investigate_bench_run_and_errors(world, tmp_path):
    bench = tmp_path / "bench"
    make_user(bench, "u_ok")
    bad = bench / "users" / "u_bad"
    bad.mkdir(parents=True)
    (bad / "profile.json").write_text("{ broken")
    (bad / "posts.jsonl").write_text("")
    man = json.loads((bench / "manifest.json").read_text())
    man["users"].append("u_bad")
    (bench / "manifest.json").write_text(json.dumps(man))
    out = tmp_path / "out"
    r = subprocess.run([ARGUS, "bench", "run", str(bench), "--out", str(out)], capture_output=True, text=True,
                       timeout=300)
    # a broken profile.json is a recorded error naming the file; the user is still investigated
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    # each failure on one line with its file (whole path, whatever the temp path length or COLUMNS)
    assert any(ln.strip().startswith("u_bad:") and str(bad / "profile.json") in ln for ln in lines), r.stdout
    # the broken posts.jsonl line of the user that did run is shown, with file and line
    assert any(ln.strip().startswith("u_ok:") and "posts.jsonl:6" in ln for ln in lines), r.stdout
    assert "0/?" not in r.stdout + r.stderr
    pred = Predictions.model_validate_json((out / "predictions" / "u_ok.json").read_text())
    assert pred.user_id == "u_ok" and pred.attributes
    assert (out / "runs.db").exists()
    r2 = subprocess.run([ARGUS, "bench", "run", str(bench), "--out", str(out)], capture_output=True, text=True,
                        timeout=300)
    # rerun: finished users (u_bad too: its broken profile.json is a recorded error, not a failure) skipped
    assert r2.returncode == 0 and "u_ok: skipped" in r2.stdout and "u_bad: skipped" in r2.stdout, r2.stdout
    r2b = subprocess.run([ARGUS, "bench", "run", str(bench), "--out", str(out), "--limit", "1"], capture_output=True,
                         text=True, timeout=300)
    # only u_ok, already finished: no rate made of skipped users
    assert r2b.returncode == 0 and "1/1 users done" in r2b.stdout and "no users run" in r2b.stdout, r2b.stdout
    # a user that fails (listed, folder gone): exit 1, the failure listed on one line with its path
    man["users"].append("u_gone")
    (bench / "manifest.json").write_text(json.dumps(man))
    r2c = subprocess.run([ARGUS, "bench", "run", str(bench), "--out", str(out)], capture_output=True, text=True,
                         timeout=300)
    assert r2c.returncode == 1, r2c.stdout + r2c.stderr
    assert [ln.strip() for ln in r2c.stdout.splitlines()][-1].startswith(f"u_gone: {bench / 'users' / 'u_gone'}:")
    assert "2/3 users done" in r2c.stdout and "2 skipped" in r2c.stdout
    r3 = subprocess.run([ARGUS, "investigate", str(tmp_path / "nope")], capture_output=True, text=True)
    assert r3.returncode == 2 and "nope" in r3.stderr


def test_demo_command(tmp_path):
    r = subprocess.run([ARGUS, "demo", "--dir", str(tmp_path)], capture_output=True, text=True, timeout=300,
                       env={**os.environ, "COLUMNS": "200"})
    assert r.returncode == 0, r.stderr
    assert "home_location" in r.stdout and "Nanshan" in r.stdout
    assert str(tmp_path / "runs.db") in r.stdout.replace("\n", "")
    # the closing line names an `argus` that runs from here (not a bare `argus` that is not on PATH)
    shown = re.search(r"^browse: (\S+) tui ", r.stdout, re.M).group(1)
    assert shutil.which(shown) and Path(shutil.which(shown)).resolve() == Path(ARGUS).resolve(), shown
    db = open_db(tmp_path / "runs.db")
    run_id, status = db.execute("SELECT run_id, status FROM runs").fetchone()
    assert status == "finished"
    # the printed chain is queryable: profile evidence ids are nodes of the run
    ev = json.loads(db.execute("SELECT evidence FROM profile WHERE run_id=? AND attribute='home_location'",
                               [run_id]).fetchone()[0])
    assert ev and all(db.execute("SELECT 1 FROM nodes WHERE run_id=? AND node_id=?", [run_id, e]).fetchone() for e in ev)
