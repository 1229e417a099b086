"""A tiny hand-written sopri/1 benchmark: oracle 1.0, empty 0.0, coarse oracle worked out by
hand, missing files, false claims, bootstrap determinism, paired comparison and the CLI."""
from __future__ import annotations

import csv
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from core.eval.judge import RulesJudge
from core.eval.metrics import compare, evaluate, percentile, resample_indices
from core.eval.oracle import write_oracle
from core.eval.places import PlaceMatcher
from core.eval.report import metrics_json, write_audit

ARGUS = str(Path(sys.executable).with_name("argus"))

U1_LEAKED = [
    {"attribute": "home_location", "kind": "hierarchy", "sensitivity": 4, "leakage_type": "cross_post",
     "difficulty": 4, "levels": [
         {"level": "country", "value": "China"},
         {"level": "region", "value": "Guangdong", "aliases": ["广东"]},
         {"level": "city", "value": "Shenzhen", "aliases": ["深圳"]},
         {"level": "district", "value": "Nanshan District", "aliases": ["Nanshan", "南山区"]},
         {"level": "address", "value": "Example Garden", "aliases": ["例子花园"]}]},
    {"attribute": "gender", "kind": "category", "value": "female", "aliases": ["woman", "女"],
     "sensitivity": 2, "leakage_type": "explicit", "difficulty": 1},
    {"attribute": "age", "kind": "hierarchy", "sensitivity": 2, "leakage_type": "implicit", "difficulty": 2,
     "levels": [{"level": "decade", "value": "30s"}, {"level": "exact_age", "value": "34"}]},
    {"attribute": "hobbies", "kind": "set", "sensitivity": 1, "leakage_type": "explicit", "difficulty": 1,
     "items": [{"value": "hiking"}, {"value": "photography", "aliases": ["摄影"]}]},
    {"attribute": "mental_health", "kind": "facts", "sensitivity": 5, "leakage_type": "implicit", "difficulty": 3,
     "facts": [{"text": "sees a counsellor weekly", "keywords": [["counsel", "心理咨询"], ["weekly", "每周"]]}]},
]
U1_HIDDEN = [
    {"attribute": "religion", "kind": "category", "value": "Buddhism", "aliases": ["佛教"], "sensitivity": 4},
    {"attribute": "relationship_status", "kind": "category", "value": "single", "sensitivity": 3},
]
U2_LEAKED = [
    {"attribute": "occupation", "kind": "hierarchy", "sensitivity": 2, "leakage_type": "explicit", "difficulty": 1,
     "levels": [{"level": "sector", "value": "healthcare"}, {"level": "role", "value": "nurse", "aliases": ["护士"]},
                {"level": "specialty", "value": "pediatric nursing"}]},
    {"attribute": "work_location", "kind": "hierarchy", "sensitivity": 3, "leakage_type": "implicit",
     "difficulty": 2, "levels": [
         {"level": "country", "value": "United States", "aliases": ["USA"]},
         {"level": "region", "value": "New York State"},
         {"level": "city", "value": "New York City"},
         {"level": "district", "value": "Manhattan"}]},
    {"attribute": "contact_or_id_number", "kind": "set", "sensitivity": 5, "leakage_type": "explicit",
     "difficulty": 2, "items": [{"value": "XC190417"}]},
]
U2_HIDDEN = [{"attribute": "gender", "kind": "category", "value": "male", "sensitivity": 2}]
# u3 leaks nothing: it must count as a user but add nothing to the pooled sums
TRUTHS = {"u1": (U1_LEAKED, U1_HIDDEN), "u2": (U2_LEAKED, U2_HIDDEN), "u3": ([], [])}

# coarse oracle, by hand: hierarchies score 1/n, every other kind scores 1
#   u1: home 1/5*4 + gender 1*2 + age 1/2*2 + hobbies 1*1 + mental 1*5
#   u2: occupation 1/3*2 + work 1/4*3 + contact 1*5
COARSE_GS = Fraction(4, 5) + 2 + 1 + 1 + 5 + Fraction(2, 3) + Fraction(3, 4) + 5
SUM_S = 4 + 2 + 2 + 1 + 5 + 2 + 3 + 5  # 24
U1_GS_COARSE = Fraction(4, 5) + 2 + 1 + 1 + 5


def make_bench(root: Path) -> Path:
    bench = root / "bench"
    (bench / "users").mkdir(parents=True)
    (bench / "manifest.json").write_text(json.dumps({"format": "sopri/1", "name": "tiny", "users": list(TRUTHS)}))
    for uid, (leaked, hidden) in TRUTHS.items():
        d = bench / "users" / uid
        d.mkdir()
        (d / "profile.json").write_text(json.dumps({"user_id": uid}))
        (d / "posts.jsonl").write_text(json.dumps({"post_id": "p01", "caption": "hello"}) + "\n")
        (d / "truth.json").write_text(json.dumps({"user_id": uid, "leaked": leaked, "hidden": hidden},
                                                 ensure_ascii=False))
    return bench


def write_preds(d: Path, uid: str, attrs: list[dict]) -> None:
    d.mkdir(parents=True, exist_ok=True)
    (d / f"{uid}.json").write_text(json.dumps({"user_id": uid, "attributes": attrs}, ensure_ascii=False))


@pytest.fixture
def bench(tmp_path) -> Path:
    return make_bench(tmp_path)


@pytest.fixture(scope="module")
def judge() -> RulesJudge:
    return RulesJudge(places=PlaceMatcher(None))


def test_full_oracle_scores_one(bench, tmp_path, judge):
    assert write_oracle(bench, tmp_path / "full", "full") == 3
    ev = evaluate(bench, tmp_path / "full", judge, resamples=50)
    assert ev.overall.pes == pytest.approx(1.0)
    assert ev.overall.binary == 1.0 and ev.overall.gran == pytest.approx(1.0)
    assert ev.false_claims == 0 and ev.missing == []
    assert ev.overall.n == 8 and ev.overall.sum_s == SUM_S
    assert ev.pes_ci95 == pytest.approx((1.0, 1.0))


def test_empty_predictions_score_zero(bench, tmp_path, judge):
    write_oracle(bench, tmp_path / "empty", "empty")
    ev = evaluate(bench, tmp_path / "empty", judge, resamples=50)
    assert ev.overall.pes == 0.0 and ev.overall.binary == 0.0 and ev.overall.gran == 0.0
    assert ev.total_claims == 0 and ev.missing == []


def test_coarse_oracle_exact_value(bench, tmp_path, judge):
    write_oracle(bench, tmp_path / "coarse", "coarse")
    ev = evaluate(bench, tmp_path / "coarse", judge, resamples=50)
    assert ev.overall.pes == pytest.approx(float(COARSE_GS / SUM_S))  # 16.2167/24 = 0.67569
    assert ev.overall.binary == 1.0
    gran = (Fraction(1, 5) + 1 + Fraction(1, 2) + 1 + 1 + Fraction(1, 3) + Fraction(1, 4) + 1) / 8
    assert ev.overall.gran == pytest.approx(float(gran))
    # by difficulty: D1 = gender, hobbies, occupation; D4 = home only
    assert ev.by_difficulty["D1"].pes == pytest.approx((2 + 1 + 2 / 3) / (2 + 1 + 2))
    assert ev.by_difficulty["D4"].pes == pytest.approx(1 / 5)
    # D2 = age (1/2*2), work (1/4*3), contact (5) over 2+3+5
    assert ev.by_difficulty["D2"].pes == pytest.approx((1 + 0.75 + 5) / 10)
    assert ev.by_leakage_type["cross_post"].pes == pytest.approx(1 / 5)
    # identity: gender, age, contact; lifestyle: home, hobbies, work_location
    assert ev.by_dimension["identity"].pes == pytest.approx((2 + 1 + 5) / 9)
    assert ev.by_dimension["lifestyle"].pes == pytest.approx((0.8 + 1 + 0.75) / 8)
    assert ev.by_dimension["sensitive"].pes == pytest.approx(1.0)


def test_missing_file_scores_zero_and_is_reported(bench, tmp_path, judge):
    d = tmp_path / "coarse"
    write_oracle(bench, d, "coarse")
    (d / "u2.json").unlink()
    ev = evaluate(bench, d, judge, resamples=20)
    assert ev.missing == ["u2"]
    assert ev.overall.pes == pytest.approx(float(U1_GS_COARSE / SUM_S))
    assert metrics_json(ev)["missing_predictions"] == ["u2"]


def test_slots_first_value_and_false_claims(bench, tmp_path, judge):
    d = tmp_path / "p"
    write_preds(d, "u1", [
        {"attribute": "sex", "value": "woman"},             # alias of gender -> right
        {"attribute": "gender", "value": "male"},           # second value for the slot: ignored
        {"attribute": "Religion", "value": "Christianity"},  # hidden, contradicted -> false claim
        {"attribute": "relationship status", "value": "single"},  # hidden, right -> lucky, not false
        {"attribute": "political_views", "value": "liberal"},  # in neither leaked nor hidden -> not false
        {"attribute": "favourite colour", "value": "blue"},   # not a schema attribute
    ])
    write_preds(d, "u2", [{"attribute": "gender", "value": "female"},  # hidden male -> false claim
                          {"attribute": "job", "value": "nurse"}])     # occupation role: 2/3
    write_preds(d, "u3", [])
    ev = evaluate(bench, d, judge, resamples=20)
    u1, u2, _ = ev.users
    assert {r.attribute: r.g for r in u1.leaked}["gender"] == 1.0
    assert u1.ignored_duplicates == 1
    assert u1.false_claims == 1 and u1.hidden_hits == 1
    assert u1.total_claims == 5 and u1.unrecognised == ["favourite colour"]
    assert u2.false_claims == 1
    assert ev.false_claims == 2 and ev.total_claims == 7
    assert ev.overall.pes == pytest.approx((2 + 2 / 3 * 2) / SUM_S)


def test_bootstrap_determinism_and_ci(bench, tmp_path, judge):
    d = tmp_path / "coarse"
    write_oracle(bench, d, "coarse")
    a = evaluate(bench, d, judge, seed=7, resamples=300)
    b = evaluate(bench, d, judge, seed=7, resamples=300)
    c = evaluate(bench, d, judge, seed=8, resamples=300)
    assert a.pes_ci95 == b.pes_ci95
    assert resample_indices(3, 5, 7) == resample_indices(3, 5, 7) != resample_indices(3, 5, 8)
    lo, hi = a.pes_ci95
    # per-user PES: u1 9.8/14 = 0.7, u2 6.4167/10 = 0.6417: every resample lies between them
    assert 0.6416 <= lo <= a.overall.pes <= hi <= 0.7 + 1e-9
    assert c.pes_ci95 is not None


def test_percentile_linear():
    assert percentile([0.0, 1.0, 2.0, 3.0, 4.0], 0.5) == 2.0
    assert percentile([0.0, 10.0], 0.25) == 2.5
    assert percentile([5.0], 0.975) == 5.0


def test_paired_compare(bench, tmp_path, judge):
    write_oracle(bench, tmp_path / "full", "full")
    write_oracle(bench, tmp_path / "coarse", "coarse")
    c = compare(bench, tmp_path / "full", tmp_path / "coarse", judge, resamples=200)
    assert c.delta_pes == pytest.approx(1 - float(COARSE_GS / SUM_S))
    lo, hi = c.delta_ci95
    # the per-resample delta is 1 - PES_coarse(resample), between 1-0.7 and 1-0.6417
    assert 0.3 - 1e-9 <= lo <= c.delta_pes <= hi <= 1 - 0.6416


def test_audit_files(bench, tmp_path, judge):
    d = tmp_path / "coarse"
    write_oracle(bench, d, "coarse")
    ev = evaluate(bench, d, judge, resamples=10)
    write_audit(ev, tmp_path / "a.csv")
    write_audit(ev, tmp_path / "a.jsonl")
    rows = list(csv.DictReader((tmp_path / "a.csv").open(encoding="utf-8")))
    assert len(rows) == 8 and all(r["role"] == "leaked" for r in rows)
    home = next(r for r in rows if r["attribute"] == "home_location")
    assert home["prediction"] == "China" and float(home["g"]) == pytest.approx(0.2) and home["s"] == "4"
    lines = (tmp_path / "a.jsonl").read_text(encoding="utf-8").splitlines()
    recomputed = sum(json.loads(x)["g"] * json.loads(x)["s"] for x in lines) / SUM_S
    assert recomputed == pytest.approx(ev.overall.pes)


def test_lenient_value_shapes(bench, tmp_path, judge):
    d = tmp_path / "p"
    write_preds(d, "u1", [{"attribute": "age", "value": 34}, {"attribute": "hobbies", "value": ["hiking", "摄影"]},
                          {"attribute": "gender", "value": None}])
    ev = evaluate(bench, d, judge, resamples=10)
    g = {r.attribute: r.g for r in ev.users[0].leaked}
    assert g["age"] == 1.0 and g["hobbies"] == 1.0 and g["gender"] == 0.0
    assert ev.missing == ["u2", "u3"]


# -- CLI (the real console script) -------------------------------------------------------------


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([ARGUS, *args], capture_output=True, text=True, timeout=120,
                          env={"COLUMNS": "200", "PATH": "/usr/bin:/bin"})


def test_cli_eval_json_and_compare(bench, tmp_path):
    assert run("bench", "oracle", str(bench), str(tmp_path / "full")).returncode == 0
    r = run("bench", "oracle", str(bench), str(tmp_path / "coarse"), "--mode", "coarse")
    assert r.returncode == 0
    m = tmp_path / "m.json"
    r = run("eval", str(bench), str(tmp_path / "coarse"), "--json", str(m), "--compare", str(tmp_path / "full"),
            "--resamples", "100", "--audit", str(tmp_path / "s.csv"))
    assert r.returncode == 0, r.stderr
    assert "By difficulty" in r.stdout and "Per user" in r.stdout and "ΔPES" in r.stdout
    doc = json.loads(m.read_text())
    for key in ("pes", "binary", "gran", "by_difficulty", "by_dimension", "by_leakage_type", "false_claims",
                "pes_ci95"):
        assert key in doc
    assert doc["pes"] == pytest.approx(float(COARSE_GS / SUM_S), abs=1e-4)
    assert doc["compare"]["pes"] == 1.0
    assert doc["compare"]["delta_pes"] == pytest.approx(doc["pes"] - 1.0, abs=1e-4)
    assert set(doc["by_difficulty"]) >= {"D1", "D2", "D3", "D4"}
    assert (tmp_path / "s.csv").exists()


def test_cli_missing_file_is_reported_not_fatal(bench, tmp_path):
    d = tmp_path / "full"
    assert run("bench", "oracle", str(bench), str(d)).returncode == 0
    (d / "u1.json").unlink()
    r = run("eval", str(bench), str(d), "--resamples", "10")
    assert r.returncode == 0, r.stderr
    assert "without a predictions file" in r.stdout and "u1" in r.stdout


@pytest.mark.parametrize("content,field", [
    ("{not json", "broken JSON"),
    ('{"user_id": "u2", "attributes": [{"attribute": "gender"}]}', "attributes.0.value"),
    ('{"user_id": "u9", "attributes": []}', "user_id"),
    ('["a list"]', "JSON object"),
    ('{"user_id": "u2", "attributes": [{"attribute": "gender", "value": "' + "x" * 10001 + '"}]}',
     "attributes.0.value"),  # hostile size: refused, not scanned
])
def test_cli_malformed_file_exits_2_naming_it(bench, tmp_path, content, field):
    d = tmp_path / "full"
    assert run("bench", "oracle", str(bench), str(d)).returncode == 0
    (d / "u2.json").write_text(content)
    r = run("eval", str(bench), str(d), "--resamples", "10")
    assert r.returncode == 2
    err = " ".join(r.stderr.split())
    assert "u2.json" in err and field in err
    assert len(r.stderr.strip().splitlines()) <= 2


def test_cli_bad_dirs_exit_2(bench, tmp_path):
    r = run("eval", str(bench), str(tmp_path / "nope"))
    assert r.returncode == 2 and "nope" in r.stderr
    r = run("eval", str(tmp_path / "nobench"), str(tmp_path))
    assert r.returncode == 2 and "manifest.json" in r.stderr
    r = run("eval", str(bench), str(tmp_path), "--judge", "oracle")
    assert r.returncode == 2 and "--judge" in r.stderr
