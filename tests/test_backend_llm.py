"""Every role through the real openai client against a real llama.cpp server (SmolLM2-135M).

Asserts shapes, recorded calls, token accounting and graceful failure, never answer quality.
Skipped only when llama-cpp-python is not installed (CI installs it: `make llm`).
"""
from __future__ import annotations

import json

import pytest
from llm_server import MODEL_ALIAS, llm_server, needs_llm  # noqa: F401  (fixture)

from core.backends.client import CallContext, ModelClient
from core.backends.config import ROLES, Price, load_config
from core.backends.roles import evidence_block, messages_for, post_block, wrap_untrusted
from core.backends.structured import REPLY_MODELS
from core.models import Level, TruthAttribute
from db.store import open_db

pytestmark = [needs_llm, pytest.mark.llm, pytest.mark.slow]


def _config(server, **backend):
    env = {f"ARGUS_{r.upper()}_MODEL": MODEL_ALIAS for r in ROLES}
    env.update(OPENAI_BASE_URL=server.base_url, OPENAI_API_KEY="sk-local")
    cfg = load_config(env=env, cwd="/nonexistent")
    for r in ROLES:
        cfg.roles[r].max_tokens = 200
        cfg.roles[r].vision = False          # SmolLM2 is text-only
    cfg.prices[MODEL_ALIAS] = Price(input=1.0, output=2.0)
    cfg.backend.backoff_base = 0.05
    cfg.backend.timeout = 300          # generous: CI machines can be busy
    for k, v in backend.items():
        setattr(cfg.backend, k, v)
    return cfg


EV = evidence_block([
    {"id": "e1", "post_id": "p01", "carrier": "caption", "text": "Back home in Shenzhen after the trip"},
    {"id": "e2", "post_id": "p02", "carrier": "sign", "text": "Nanshan District Library"},
])
ROLE_INPUTS = {
    "perceiver": dict(post=post_block("p01", [("caption", "Another night shift at Shenzhen People's Hospital")],
                                      {"time": "2026-03-14T08:45:00+08:00"})),
    "hypothesizer": dict(evidence=EV),
    "router": dict(families="ocr, gazetteer, map_search, stop", budget="20", hypothesis="home_location = Shenzhen",
                   evidence=EV),
    "verifier": dict(hypothesis="home_location = Shenzhen", evidence=EV),
    "deep_visual": dict(hypothesis=wrap_untrusted("hypothesis", "school = ?"), caption="caption: graduation day"),
    "judge": dict(attribute="home_location", kind="hierarchy", truth="levels: country: China; city: Shenzhen",
                  prediction="PREDICTED value:\n" + wrap_untrusted("prediction", "Shenzhen, China")),
}


def test_every_role_returns_a_validated_reply_or_a_recorded_failure(llm_server, tmp_path):
    cfg = _config(llm_server)
    db = open_db(tmp_path / "runs.db")
    client = ModelClient(cfg)
    for step, role in enumerate(ROLES):
        res = client.complete(role, messages_for(role, **ROLE_INPUTS[role]), REPLY_MODELS[role],
                              CallContext(db, "run-roles", step))
        assert res.calls, role
        if res.ok:
            assert isinstance(res.value, REPLY_MODELS[role])
        else:
            assert res.error and res.calls[-1].error, role
    db.conn.commit()
    rows = list(db.query("SELECT * FROM model_calls WHERE run_id='run-roles' ORDER BY id"))
    assert {r["role"] for r in rows} == set(ROLES)
    for r in rows:
        # the real server reports usage; accounting and the price table follow it
        assert r["prompt_tokens"] > 0 and r["completion_tokens"] > 0
        assert r["cost"] == pytest.approx((r["prompt_tokens"] * 1.0 + r["completion_tokens"] * 2.0) / 1e6)
        assert r["duration_ms"] > 0 and r["cached"] == 0
        # llama.cpp rejects json_schema; the client settles on json_object + schema
        assert json.loads(r["request"])["response_format_mode"] == "json_object_schema"
        assert (r["parsed"] is None) == (r["error"] is not None)
    ok = [r for r in rows if r["error"] is None]
    assert len(ok) >= len(ROLES) - 1, [r["error"] for r in rows]   # at temperature 0 JSON is valid nearly always
    # every successful reply is in the content-addressed cache
    keys = {r["cache_key"] for r in ok}
    cached = {k for (k,) in db.execute("SELECT key FROM cache WHERE kind='model'").fetchall()}
    assert keys <= cached


def test_truncated_json_is_retried_then_recorded_as_a_failed_call(llm_server, tmp_path):
    cfg = _config(llm_server, parse_retries=1)
    cfg.roles["hypothesizer"].max_tokens = 16      # the reply is cut mid-object: invalid JSON
    db = open_db(tmp_path / "runs.db")
    res = ModelClient(cfg).complete("hypothesizer", messages_for("hypothesizer", evidence=EV),
                                    REPLY_MODELS["hypothesizer"], CallContext(db, "run-bad", 0))
    if res.ok:   # a reply that fits in 16 tokens is valid JSON: fine, but then it must validate
        assert res.value is not None
        return
    assert res.value is None and res.error.startswith("parse:")
    rows = list(db.query("SELECT error, completion_tokens FROM model_calls WHERE run_id='run-bad'"))
    assert len(rows) == 2 and all(r["error"].startswith("parse:") for r in rows)
    assert all(r["completion_tokens"] <= 16 for r in rows)


def test_llm_judge_scores_on_the_spec_grid_with_a_reason(llm_server):
    from core.eval.llm_judge import LLMJudge

    judge = LLMJudge(_config(llm_server))
    truth = TruthAttribute(attribute="home_location", kind="hierarchy", sensitivity=4, levels=[
        Level(level="country", value="China"), Level(level="region", value="Guangdong"),
        Level(level="city", value="Shenzhen")])
    s = judge.score(truth, "Shenzhen, Guangdong, China")
    assert s.g in (0.0, 1 / 3, 2 / 3, 1.0)
    assert s.reason.startswith("llm:") or s.reason.startswith("llm judge failed")
    assert judge.score(truth, None).g == 0.0            # no call for a missing prediction


def _tiny_bench(root):
    """One user, three leaked attributes, written by hand (truth is the evaluator's input)."""
    u = root / "bench" / "users" / "u1"
    u.mkdir(parents=True)
    (root / "bench" / "manifest.json").write_text(json.dumps({"format": "sopri/1", "name": "t", "users": ["u1"]}))
    (u / "profile.json").write_text(json.dumps({"user_id": "u1"}))
    (u / "posts.jsonl").write_text(json.dumps({"post_id": "p1", "caption": "hi"}) + "\n")
    truth = {"user_id": "u1", "hidden": [], "leaked": [
        {"attribute": "home_location", "kind": "hierarchy", "sensitivity": 4, "leakage_type": "explicit",
         "difficulty": 1, "levels": [{"level": "country", "value": "China"},
                                     {"level": "city", "value": "Shenzhen", "aliases": ["深圳"]}]},
        {"attribute": "gender", "kind": "category", "value": "female", "sensitivity": 2,
         "leakage_type": "implicit", "difficulty": 1},
        {"attribute": "occupation", "kind": "hierarchy", "sensitivity": 2, "leakage_type": "explicit",
         "difficulty": 1, "levels": [{"level": "sector", "value": "healthcare"}, {"level": "role", "value": "nurse"}]},
    ]}
    (u / "truth.json").write_text(json.dumps(truth))
    p = root / "pred"
    p.mkdir()
    (p / "u1.json").write_text(json.dumps({"user_id": "u1", "attributes": [
        {"attribute": "home_location", "value": "Shenzhen, China"},
        {"attribute": "gender", "value": "female"}]}))
    return root / "bench", p


def test_cli_eval_judge_llm_records_reasons_and_agreement(llm_server, tmp_path, monkeypatch):
    from argus_tui.cli import app
    from typer.testing import CliRunner

    bench, pred = _tiny_bench(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ARGUS_CONFIG", raising=False)
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.base_url)
    monkeypatch.setenv("ARGUS_JUDGE_MODEL", MODEL_ALIAS)
    out, audit = tmp_path / "m.json", tmp_path / "audit.jsonl"
    r = CliRunner().invoke(app, ["eval", str(bench), str(pred), "--judge", "llm", "--json", str(out),
                                 "--audit", str(audit), "--resamples", "10"])
    assert r.exit_code == 0, r.output
    doc = json.loads(out.read_text())
    assert doc["judge"] == "llm"
    agr = doc["judge_agreement"]
    assert agr["vs"] == "rules" and agr["n"] == 3 and 0 <= agr["exact"] <= 1
    rows = [json.loads(line) for line in audit.read_text().splitlines()]
    by_attr = {r_["attribute"]: r_ for r_ in rows}
    assert by_attr["occupation"]["g"] == 0 and by_attr["occupation"]["reason"] == "not predicted"
    for a in ("home_location", "gender"):
        assert by_attr[a]["reason"].startswith(("llm:", "llm judge failed"))
    assert "judge agreement llm vs rules" in r.output


def test_cli_eval_judge_llm_without_a_model_exits_2(tmp_path, monkeypatch):
    from argus_tui.cli import app
    from typer.testing import CliRunner

    bench, pred = _tiny_bench(tmp_path)
    monkeypatch.chdir(tmp_path)
    for k in ("ARGUS_JUDGE_MODEL", "ARGUS_CONFIG"):
        monkeypatch.delenv(k, raising=False)
    r = CliRunner().invoke(app, ["eval", str(bench), str(pred), "--judge", "llm"])
    assert r.exit_code == 2
