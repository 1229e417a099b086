"""Baselines with a model backend: every system calls its configured role on the real
llama.cpp server (SmolLM2-135M), the calls are recorded in the run DB (role, tokens), and the
comparison's cost columns count them. A system whose role has no model runs its offline
rules and says so in the run."""
from __future__ import annotations

import json
import shutil
import sqlite3

import pytest
from llm_server import MODEL_ALIAS, llm_server, needs_llm  # noqa: F401  (fixture)

from batch_fixtures import gen_bench  # noqa: F401  (fixture)
from core.batch import run_batch
from core.reports.compare import run_cost

pytestmark = [needs_llm, pytest.mark.llm, pytest.mark.slow]

ROLE_OF = {"textllm": "perceiver", "postvlm": "perceiver", "selfdisc": "perceiver", "holmes": "hypothesizer",
           "singleagent": "hypothesizer"}


def _toml(path, base_url, roles):
    body = "".join(f'[roles.{r}]\nmodel = "{MODEL_ALIAS}"\nmax_tokens = 96\nvision = false\n' for r in roles)
    path.write_text(f'[backend]\nbase_url = "{base_url}"\napi_key = "sk-local-test-key"\nparse_retries = 0\n'
                    f'max_retries = 1\n{body}')


def _small_bench(src, dst, posts=1):
    """One generated user cut to its first posts (each post may cost a model call)."""
    uid = json.loads((src / "manifest.json").read_text())["users"][0]
    shutil.copytree(src / "users" / uid, dst / "users" / uid)
    p = dst / "users" / uid / "posts.jsonl"
    p.write_text("\n".join(p.read_text().splitlines()[:posts]) + "\n")
    (dst / "manifest.json").write_text(json.dumps({"format": "sopri/1", "users": [uid]}))
    return dst


def test_every_baseline_calls_its_model_role(llm_server, gen_bench, tmp_path):
    from core.backends.openai_backend import backend_options

    bench = _small_bench(gen_bench, tmp_path / "bench")
    cfg = tmp_path / "argus.toml"
    _toml(cfg, llm_server.base_url, ("perceiver", "hypothesizer"))
    for name, role in ROLE_OF.items():
        out = tmp_path / name
        s = run_batch(bench, out, system=name, backend="openai", config=backend_options(config=cfg))
        assert not s.failed, (name, s.failed)
        con = sqlite3.connect(out / "runs.db")
        roles = {r for (r,) in con.execute("SELECT role FROM model_calls")}
        tokens, = con.execute("SELECT COALESCE(SUM(COALESCE(prompt_tokens,0)+COALESCE(completion_tokens,0)),0)"
                              " FROM model_calls").fetchone()
        backend, = con.execute("SELECT backend FROM runs").fetchone()
        config, = con.execute("SELECT config FROM runs").fetchone()
        con.close()
        assert role in roles, (name, roles)
        assert backend == "openai" and "sk-local-test-key" not in config
        cost = run_cost(out, [p.stem for p in (out / "predictions").glob("*.json")])
        assert cost.runs == 1 and cost.model_calls >= 1 and cost.tokens == tokens, name   # a timed-out call has no tokens


def test_role_without_a_model_falls_back_to_rules_and_says_so(llm_server, gen_bench, tmp_path):
    from core.backends.openai_backend import backend_options

    bench = _small_bench(gen_bench, tmp_path / "bench")
    cfg = tmp_path / "argus.toml"
    _toml(cfg, llm_server.base_url, ("verifier",))           # no perceiver model
    out = tmp_path / "out"
    s = run_batch(bench, out, system="textllm", backend="openai", config=backend_options(config=cfg))
    assert not s.failed
    con = sqlite3.connect(out / "runs.db")
    assert con.execute("SELECT COUNT(*) FROM model_calls").fetchone()[0] == 0
    notes = [json.loads(d) for (d,) in con.execute("SELECT data FROM events WHERE kind='note'")]
    con.close()
    assert notes and "offline rules used" in json.dumps(notes)
