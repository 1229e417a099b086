"""`argus bench compare` and `argus report` on real outputs: oracle predictions give known
scores (full = PES 1, empty = PES 0), so ΔPES and its interval are known without running the
code under test; the HTML report is self-contained, escapes hostile text and redacts values."""
from __future__ import annotations

import json
import re
import subprocess

import pytest

from batch_fixtures import ARGUS, argus_out, gen_bench  # noqa: F401  (fixtures)
from core.models import Truth
from core.reports.compare import compare_runs


@pytest.fixture(scope="module")
def oracles(gen_bench, tmp_path_factory):
    root = tmp_path_factory.mktemp("oracles")
    for mode in ("full", "empty"):
        r = subprocess.run([ARGUS, "bench", "oracle", str(gen_bench), str(root / mode), "--mode", mode],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
    return root


def test_compare_oracles_delta_is_exactly_one(gen_bench, oracles):
    t = compare_runs([oracles / "empty", oracles / "full"], bench_dir=gen_bench, reference=0, resamples=200)
    empty, full = t.rows
    assert empty.pes == 0 and full.pes == pytest.approx(1.0)
    assert full.delta_pes == pytest.approx(1.0)
    assert full.delta_ci95 == pytest.approx((1.0, 1.0))          # every resample: 1 - 0
    assert empty.delta_ci95 is None and t.reference == empty.label
    assert full.false_claims == 0 and full.cost.runs == 0         # bare prediction folders: no cost


def test_bench_compare_cli_table_json_and_reference_by_name(gen_bench, argus_out, oracles, tmp_path):
    j, md = tmp_path / "t.json", tmp_path / "t.md"
    r = subprocess.run([ARGUS, "bench", "compare", str(argus_out), str(oracles / "full"), "--bench", str(gen_bench),
                        "--reference", "argus", "--json", str(j), "--md", str(md), "--resamples", "200"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    doc = json.loads(j.read_text())
    arg, full = doc["rows"]
    assert doc["reference"] == "argus/offline" == arg["label"]
    assert 0 < arg["pes"] < 1 and full["delta_pes"] == pytest.approx(1.0 - arg["pes"])
    lo, hi = full["delta_ci95"]
    assert lo <= full["delta_pes"] <= hi
    # cost from the run DB: Argus spends route units and takes time; offline: no model calls
    assert arg["cost"]["runs"] == 2 and arg["cost"]["seconds"] > 0 and arg["cost"]["model_calls"] == 0
    assert "| argus/offline |" in md.read_text()
    bad = subprocess.run([ARGUS, "bench", "compare", str(argus_out), "--reference", "nosuch"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "--reference" in bad.stderr


def _truth_values(bench):
    vals = []
    for udir in (bench / "users").iterdir():
        t = Truth.model_validate_json((udir / "truth.json").read_text())
        vals += [a.display_value() for a in t.leaked]
    return [v for v in vals if len(v) >= 6]


def test_html_report_contents_and_redaction(gen_bench, argus_out, oracles, tmp_path):
    html = tmp_path / "r.html"
    r = subprocess.run([ARGUS, "report", str(argus_out), str(oracles / "empty"), "--html", str(html),
                        "--resamples", "100"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    doc = html.read_text()
    assert "<svg" in doc and "PES by difficulty" in doc and "PES by dimension" in doc and "Cost vs PES" in doc
    assert not re.search(r"<(script|link|img)\b", doc) and "http://" not in doc.replace(
        "http://www.w3.org/2000/svg", "")                        # self-contained: nothing fetched
    users = json.loads((gen_bench / "manifest.json").read_text())["users"]
    assert all(f"<summary>{u} " in doc for u in users)
    # drill-down: an evidence chain from a predicted value down to a post
    assert "via support" in doc and "via cite" in doc and "post:" in doc
    plain_values = [v for v in _truth_values(gen_bench) if v in doc]
    assert plain_values, "truth values are shown when not redacted"
    red = tmp_path / "red.html"
    r = subprocess.run([ARGUS, "report", str(argus_out), "--html", str(red), "--redact", "--resamples", "50"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    rd = red.read_text()
    assert "▇▇▇" in rd and "via cite" in rd                      # masked, evidence structure kept
    leaked = [v for v in plain_values if v in rd]
    assert not leaked, leaked


def test_report_escapes_hostile_text(tmp_path):
    """A caption with markup shows as text in the drill-down; it never becomes HTML."""
    from core.batch import run_batch
    from engine_user import make_user

    bench = tmp_path / "bench"
    udir = make_user(bench, "u_x", malformed_line=False)
    posts = (udir / "posts.jsonl").read_text().splitlines()
    first = json.loads(posts[0])
    first["caption"] = "<script>alert(1)</script><img src=x onerror=alert(2)> I am a nurse in Shenzhen " + first["caption"]
    posts[0] = json.dumps(first)
    (udir / "posts.jsonl").write_text("\n".join(posts) + "\n")
    (udir / "truth.json").write_text(json.dumps({"user_id": "u_x", "leaked": [
        {"attribute": "occupation", "kind": "category", "value": "nurse", "sensitivity": 3, "difficulty": 1,
         "leakage_type": "explicit"}]}))
    out = tmp_path / "out"
    s = run_batch(bench, out, system="textllm")
    assert not s.failed
    html = tmp_path / "x.html"
    r = subprocess.run([ARGUS, "report", str(out), "--html", str(html), "--resamples", "10"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    doc = html.read_text()
    assert "<script>" not in doc and "<img" not in doc and "&lt;script&gt;" in doc
