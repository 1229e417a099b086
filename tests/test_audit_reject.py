"""`argus audit SRC --reject FINDING` ("mark as wrong"), on real audits of a Reddit export whose
posts say "My wife and I ...": the finding leaves the profile, the advice and the report's
findings, the rejection is a row of the run DB, the report lists it, and a rerun of the audit
(--overwrite) rejects it again in its new run."""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import export_fixtures as fx  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _cli(tmp: Path, *args: str) -> subprocess.CompletedProcess:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "COLUMNS": "80", "PYTHONPATH": str(ROOT),
           "HOME": str(tmp)}
    return subprocess.run([sys.executable, "-m", "argus_tui.cli", "audit", *args], capture_output=True, text=True,
                          cwd=tmp, env=env, stdin=subprocess.DEVNULL, timeout=600)


def _profile(out: Path) -> dict[str, str]:
    (f,) = (out / "predictions").glob("*.json")
    return {a["attribute"]: a["value"] for a in json.loads(f.read_text())["attributes"]}


@pytest.fixture()
def audited(tmp_path: Path) -> tuple[Path, Path]:
    src = fx.zip_dir(fx.reddit(tmp_path / "e"), tmp_path / "r.zip")
    out = tmp_path / "a"
    p = _cli(tmp_path, str(src), "--out", str(out), "-q")
    assert p.returncode == 0, p.stderr
    assert _profile(out)["relationship_status"] == "married"      # the finding the test marks wrong
    return src, out


def test_reject_removes_the_finding_records_it_and_survives_a_rerun(tmp_path: Path, audited) -> None:
    src, out = audited
    p = _cli(tmp_path, str(src), "--out", str(out), "--reject", "relationship_status", "-q")
    assert p.returncode == 0, p.stderr
    assert "marked as wrong: relationship_status (1 reading removed)" in p.stdout
    prof = _profile(out)
    assert "relationship_status" not in prof and prof["occupation"]          # only that finding went
    audit = json.loads((out / "audit.json").read_text())
    assert "relationship_status" not in {a["attribute"] for a in audit["attributes"]}
    advice = json.loads((out / "advice.json").read_text())["plan"]
    assert "relationship_status" not in {a["attribute"] for a in advice["attributes"]}
    con = sqlite3.connect(out / "runs.db")
    assert con.execute("SELECT attribute, value, by FROM rejections").fetchall() == [
        ("relationship_status", "", "person:you")]
    # the same run, its hypothesis removed by the person (the console's reject), not a new run
    (run_id,) = con.execute("SELECT run_id FROM runs").fetchone()
    assert run_id == audit["run_id"]
    (data,) = con.execute("SELECT data FROM nodes WHERE run_id=? AND kind='hypothesis' AND attribute="
                          "'relationship_status' AND status='removed'", [run_id]).fetchone()
    assert json.loads(data)["rejected_by"] == "person:you"
    html = (out / "report.html").read_text()
    assert "What you marked as wrong" in html and "relationship_status" in html
    assert "married" not in html.split("What you marked as wrong")[0]       # no longer among the findings
    # a rerun of the audit replaces the folder and its run, and rejects the finding again
    again = _cli(tmp_path, str(src), "--out", str(out), "--overwrite", "-q")
    assert again.returncode == 0, again.stderr
    con = sqlite3.connect(out / "runs.db")
    assert con.execute("SELECT run_id FROM runs").fetchone()[0] != run_id
    assert "relationship_status" not in _profile(out)
    assert con.execute("SELECT attribute FROM rejections").fetchall() == [("relationship_status",)]
    assert "What you marked as wrong" in (out / "report.html").read_text()


def test_reject_one_value_and_refuse_an_unknown_attribute(tmp_path: Path, audited) -> None:
    src, out = audited
    p = _cli(tmp_path, str(src), "--out", str(out), "--reject", "hobbies:Running", "-q")
    assert p.returncode == 0, p.stderr
    assert "hobbies" not in _profile(out) and "daily_routine" in _profile(out)
    bad = _cli(tmp_path, str(src), "--out", str(out), "--reject", "relationship:single", "-q")
    assert bad.returncode == 2 and "--reject" in bad.stderr and "unknown attribute 'relationship'" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1
    assert "hobbies" not in _profile(out)                      # nothing lost
