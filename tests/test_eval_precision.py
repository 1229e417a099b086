"""Precision of checkable claims (docs/scoring.md, "Precision"): right / wrong value on a leaked
attribute / contradicting the hidden profile, worked out by hand on the tiny bench of
test_eval_bench, in the metrics, the `--json` document, the terminal tables and `bench compare`."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.eval.judge import RulesJudge
from core.eval.metrics import evaluate
from core.eval.oracle import write_oracle
from core.eval.places import PlaceMatcher
from core.eval.report import metrics_json
from core.reports.compare import compare_runs, markdown_table
from test_eval_bench import make_bench, write_preds

ROOT = Path(__file__).resolve().parents[1]
ARGUS = str(Path(sys.executable).parent / "argus")


@pytest.fixture
def bench(tmp_path) -> Path:
    return make_bench(tmp_path)


@pytest.fixture(scope="module")
def judge() -> RulesJudge:
    return RulesJudge(places=PlaceMatcher(None))


def mixed_predictions(d: Path) -> Path:
    """By hand: right 4, wrong value 3, contradicting 2 -> precision 4/9."""
    write_preds(d, "u1", [
        {"attribute": "gender", "value": "woman"},                # leaked, right
        {"attribute": "age", "value": "52"},                      # leaked, wrong value (not 30s, not 34)
        {"attribute": "home_location", "value": "Guangdong"},     # leaked, right at region depth: g > 0
        {"attribute": "hobbies", "value": "chess"},               # leaked, wrong value
        {"attribute": "religion", "value": "Christianity"},       # hidden, contradicting
        {"attribute": "relationship_status", "value": "single"},  # hidden, right
        {"attribute": "political_views", "value": "liberal"},     # neither: unverifiable, not checkable
        {"attribute": "mental_health", "value": ""},              # empty value: no claim, not checkable
    ])
    write_preds(d, "u2", [
        {"attribute": "gender", "value": "female"},               # hidden male: contradicting
        {"attribute": "job", "value": "nurse"},                   # leaked occupation, right (role)
        {"attribute": "work_location", "value": "Paris"},         # leaked, wrong value
    ])
    write_preds(d, "u3", [])
    return d


def test_precision_counts_by_hand(bench, tmp_path, judge):
    ev = evaluate(bench, mixed_predictions(tmp_path / "p"), judge, resamples=20)
    p = ev.precision
    assert (p.right, p.wrong_value, p.contradicting, p.checkable) == (4, 3, 2, 9)
    assert p.precision == pytest.approx(4 / 9)
    by = ev.precision_by_attribute
    # gender: right for u1 (leaked), contradicting for u2 (hidden)
    assert (by["gender"].right, by["gender"].contradicting, by["gender"].precision) == (1, 1, 0.5)
    assert by["age"].precision == 0.0 and by["home_location"].precision == 1.0
    assert "political_views" not in by and "mental_health" not in by
    assert sum(x.checkable for x in by.values()) == p.checkable


def test_precision_of_oracles(bench, tmp_path, judge):
    write_oracle(bench, tmp_path / "full", "full")
    write_oracle(bench, tmp_path / "empty", "empty")
    full = evaluate(bench, tmp_path / "full", judge, resamples=10).precision
    empty = evaluate(bench, tmp_path / "empty", judge, resamples=10).precision
    assert full.precision == 1.0 and full.checkable == 8 and full.wrong_value == 0
    assert empty.checkable == 0 and empty.precision is None


def test_precision_in_metrics_json(bench, tmp_path, judge):
    doc = metrics_json(evaluate(bench, mixed_predictions(tmp_path / "p"), judge, resamples=20))
    assert doc["precision"] == pytest.approx(round(4 / 9, 4))
    assert doc["checkable_claims"] == {"precision": round(4 / 9, 4), "checkable": 9, "right": 4,
                                       "wrong_value": 3, "contradicting": 2}
    assert doc["precision_by_attribute"]["hobbies"]["wrong_value"] == 1
    u1, u2, u3 = doc["per_user"]
    assert u1["checkable_claims"]["checkable"] == 6 and u1["precision"] == pytest.approx(round(3 / 6, 4))
    assert u2["precision"] == pytest.approx(round(1 / 3, 4)) and u3["precision"] is None


def _argus(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "80", "PYTHONPATH": str(ROOT)}
    return subprocess.run([ARGUS, *args], capture_output=True, text=True, timeout=300, env=env, stdin=subprocess.DEVNULL)


def test_cli_eval_prints_and_writes_precision(bench, tmp_path):
    preds = mixed_predictions(tmp_path / "p")
    write_oracle(bench, tmp_path / "full", "full")
    m = tmp_path / "m.json"
    r = _argus("eval", str(bench), str(preds), "--json", str(m), "--resamples", "20", "--compare", str(tmp_path / "full"))
    assert r.returncode == 0, r.stderr
    out = " ".join(r.stdout.split())
    assert "precision (right / checkable) 0.444" in out
    assert "9: 4 / 3 / 2" in out                       # checkable: right / wrong value / contradicting
    assert "Precision by attribute" in out
    doc = json.loads(m.read_text())
    assert doc["precision"] == pytest.approx(0.4444) and doc["compare"]["precision"] == 1.0


def test_bench_compare_has_precision_beside_pes(bench, tmp_path):
    preds = mixed_predictions(tmp_path / "p")
    write_oracle(bench, tmp_path / "full", "full")
    t = compare_runs([preds, tmp_path / "full"], bench_dir=bench, resamples=20)
    mixed, full = t.rows
    assert mixed.precision == pytest.approx(4 / 9) and (mixed.wrong_value, mixed.contradicting, mixed.checkable) == (3, 2, 9)
    assert full.precision == 1.0
    md = markdown_table(t)
    assert "| precision |" in md.splitlines()[0] and "| 0.444 | 3 / 2 / 9 |" in md
    from core.reports.html import render_html

    html = render_html(t, {})
    assert "<th>precision</th>" in html and "<td class=\"n\">0.444</td>" in html
