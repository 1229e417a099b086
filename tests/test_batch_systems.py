"""Every baseline and every ablation runs on a generated benchmark, each recorded in its run DB
the way the paper describes the system (what it may read, which tools it calls)."""
from __future__ import annotations

import json
import sqlite3
import subprocess

import pytest

from batch_fixtures import ARGUS, argus_out, gen_bench  # noqa: F401  (fixtures)
from core.baselines import SYSTEMS, run_baseline
from core.models import Predictions
from db.store import open_db
from engine_user import make_user

BASELINES = list(SYSTEMS)


def _bench_run(bench, out, *args):
    r = subprocess.run([ARGUS, "bench", "run", str(bench), "--out", str(out), *args], capture_output=True,
                       text=True, timeout=900)
    assert r.returncode == 0, r.stdout + r.stderr
    return r


@pytest.fixture(scope="module")
def baseline_outs(gen_bench, argus_out, tmp_path_factory):
    """Each baseline over the generated benchmark (OCR served from Argus's cache)."""
    outs = {}
    root = tmp_path_factory.mktemp("baselines")
    for name in BASELINES:
        out = root / name
        r = _bench_run(gen_bench, out, "--system", name, "--cache-from", str(argus_out / "runs.db"))
        assert "2/2 users done" in r.stdout, r.stdout
        outs[name] = out
    return outs


def _rows(db_path, sql, args=()):
    con = sqlite3.connect(db_path)
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


@pytest.mark.parametrize("name", BASELINES)
def test_every_baseline_runs_and_records_its_run(baseline_outs, gen_bench, name):
    out = baseline_outs[name]
    users = json.loads((gen_bench / "manifest.json").read_text())["users"]
    for uid in users:
        pred = Predictions.model_validate_json((out / "predictions" / f"{uid}.json").read_text())
        assert pred.user_id == uid and pred.system == f"{name}-offline"
    runs = _rows(out / "runs.db", "SELECT system, status, user_id FROM runs")
    assert sorted(r[2] for r in runs) == sorted(users)
    assert {(r[0], r[1]) for r in runs} == {(name, "finished")}
    # every projected value is backed by evidence that cites a post of that user
    for run_id, evidence in _rows(out / "runs.db", "SELECT run_id, evidence FROM profile"):
        ev = json.loads(evidence)
        assert ev, f"{name}: a value without evidence"
        cites = _rows(out / "runs.db", "SELECT COUNT(*) FROM edges WHERE run_id=? AND kind='cite' AND src IN (%s)"
                      % ",".join("?" * len(ev)), [run_id, *ev])[0][0]
        assert cites >= 1


def test_baselines_read_what_their_paper_description_allows(baseline_outs):
    def tools(name):
        return {t for (t,) in _rows(baseline_outs[name] / "runs.db", "SELECT DISTINCT tool FROM tool_calls")}

    def modalities(name):
        return {m for (m,) in _rows(baseline_outs[name] / "runs.db",
                                    "SELECT DISTINCT modality FROM nodes WHERE kind='evidence'")}

    # text-only systems: no tool calls, no image evidence
    assert tools("textllm") == set() and modalities("textllm") == {"text"}
    assert tools("selfdisc") == set() and "image" not in modalities("selfdisc")
    # the VLM-like systems look at pixels (image signals, OCR) but not at file metadata
    for name in ("postvlm", "holmes"):
        assert "image_signals" in tools(name) and "exif" not in tools(name), name
    # the single agent has Argus's tools (EXIF included)
    assert {"image_signals", "exif"} <= tools("singleagent")
    # no baseline routes or verifies: nothing in the budget ledger, no verifier events
    for name in BASELINES:
        assert _rows(baseline_outs[name] / "runs.db", "SELECT COUNT(*) FROM budget_ledger")[0][0] == 0
        assert _rows(baseline_outs[name] / "runs.db", "SELECT COUNT(*) FROM events WHERE kind='verified'")[0][0] == 0


def test_baseline_rules_on_a_hand_made_user(tmp_path):
    """A friend's comment ("Happy 30th birthday!") is not the user's own disclosure; the caption
    "I live in Nanshan District" is. Hostile text never becomes a value."""
    bench = tmp_path / "bench"
    udir = make_user(bench, "u_t", malformed_line=False)
    db = open_db(tmp_path / "runs.db")
    preds = {name: run_baseline(name, udir, "offline", db)[1] for name in ("textllm", "selfdisc")}
    for name, pred in preds.items():
        values = {a.attribute: a.value for a in pred.attributes}
        assert "Paris" not in json.dumps(values), name           # injected "for the report" claim
        assert values.get("age") != "70", name
    sd = {a.attribute: a for a in preds["selfdisc"].attributes}
    # selfdisc keeps only own text: no evidence node from a comment by someone else
    fields = [json.loads(d).get("field", "") for (d,) in db.execute(
        "SELECT data FROM nodes WHERE kind='evidence' AND run_id LIKE 'u_t-selfdisc-%'").fetchall()]
    assert fields and not any(f.startswith("comments[") for f in fields)
    assert "home_location" in sd and "Nanshan" in sd["home_location"].value


ABLATIONS = ("perceiver", "hypothesizer", "investigator", "verifier", "cpeg")


def test_every_ablation_runs(gen_bench, argus_out, tmp_path):
    """Argus with one part removed, one user each: the flag is recorded and the run finishes;
    without the investigator no route is taken, without the perceiver no image is read."""
    from core.batch import run_batch
    from core.engine.batch import ablation_config

    for part in ABLATIONS:
        out = tmp_path / part
        if part == "cpeg":      # through the CLI once; in-process for the rest (same code path below it)
            _bench_run(gen_bench, out, "--ablate", part, "--limit", "1", "--cache-from", str(argus_out / "runs.db"))
        else:
            s = run_batch(gen_bench, out, config=ablation_config([part]), limit=1, cache_from=argus_out / "runs.db")
            assert not s.failed, s.failed
        (cfg, status), = _rows(out / "runs.db", "SELECT config, status FROM runs")
        assert json.loads(cfg)[part] is False and status == "finished"
        assert json.loads((out / "batch.json").read_text())["key"].endswith(f"/-{part}")
        if part == "investigator":
            assert _rows(out / "runs.db", "SELECT COUNT(*) FROM routes")[0][0] == 0
        if part == "perceiver":
            assert _rows(out / "runs.db", "SELECT COUNT(*) FROM tool_calls WHERE tool IN ('ocr','exif')")[0][0] == 0


def test_bad_system_and_ablation_with_a_baseline_exit_2(gen_bench, tmp_path):
    r = subprocess.run([ARGUS, "bench", "run", str(gen_bench), "--out", str(tmp_path / "o"), "--system", "gpt9"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "--system" in r.stderr and "textllm" in r.stderr
    r = subprocess.run([ARGUS, "bench", "run", str(gen_bench), "--out", str(tmp_path / "o"), "--system", "textllm",
                        "--ablate", "cpeg"], capture_output=True, text=True)
    assert r.returncode == 2 and "--ablate" in r.stderr
