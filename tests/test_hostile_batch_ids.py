"""Runs keyed on what the data cannot forge (issue 26): two folders whose profile.json claim
one user_id are refused before any work (naming both folders), or with --allow-duplicate-ids
each keeps its own run and predictions; a re-run writes no second row for a finished user."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from faults import make_text_bench  # noqa: E402

from core.batch import run_batch
from core.errors import InputError

ARGUS = str(Path(sys.executable).parent / "argus")


def _twins(root: Path, claimed: str = "twin") -> Path:
    bench = make_text_bench(root / "bench", n=2, renamed=None)
    for i, uid in enumerate(("u000", "u001")):
        p = bench / "users" / uid / "profile.json"
        p.write_text(json.dumps({"user_id": claimed, "nickname": f"n{i}"}), encoding="utf-8")
    # the second account's posts differ, so a copied profile shows
    posts = bench / "users" / "u001" / "posts.jsonl"
    posts.write_text(json.dumps({"post_id": "q1", "caption": "I am a 52 year old retired teacher from Osaka"}) + "\n",
                     encoding="utf-8")
    return bench


def test_duplicate_account_ids_are_refused_before_any_work(tmp_path):
    bench = _twins(tmp_path)
    out = tmp_path / "out"
    r = subprocess.run([ARGUS, "bench", "run", str(bench), "--out", str(out), "-q"], capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert "users/u000" in r.stderr and "users/u001" in r.stderr and "user_id" in r.stderr
    assert not (out / "predictions").exists() and not (out / "runs.db").exists()


def test_a_profile_claiming_another_folders_name_is_refused(tmp_path):
    bench = make_text_bench(tmp_path / "bench", n=2, renamed=None)
    (bench / "users" / "u001" / "profile.json").write_text(json.dumps({"user_id": "u000"}), encoding="utf-8")
    with pytest.raises(InputError) as e:
        run_batch(bench, tmp_path / "out")
    assert "users/u000" in e.value.message and "users/u001" in e.value.message


def test_allow_duplicate_ids_keeps_both_runs(tmp_path):
    bench = _twins(tmp_path)
    out = tmp_path / "out"
    s = run_batch(bench, out, allow_duplicate_ids=True)
    assert [r.status for r in s.results] == ["finished", "finished"]
    assert len({r.run_id for r in s.results}) == 2
    a = json.loads((out / "predictions" / "u000.json").read_text(encoding="utf-8"))
    b = json.loads((out / "predictions" / "u001.json").read_text(encoding="utf-8"))
    assert a["attributes"] != b["attributes"]
    # a re-run skips each folder's own run and writes no second row for it
    s2 = run_batch(bench, out, allow_duplicate_ids=True)
    assert [r.status for r in s2.results] == ["skipped", "skipped"]
    assert [r.run_id for r in s2.results] == [r.run_id for r in s.results]
    rows = [json.loads(x) for x in (out / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    assert sorted((r["user_id"], r["status"]) for r in rows) == [("u000", "finished"), ("u001", "finished")]
    assert json.loads((out / "predictions" / "u001.json").read_text(encoding="utf-8")) == b
