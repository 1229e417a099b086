"""End to end: investigate a generated user with `--backend openai` against the real llama.cpp
server (SmolLM2-135M, every loop role on the model), then replay the run from its DB with the
`replay` backend (no server) and compare profile, graph and model calls exactly."""
from __future__ import annotations

import json
import shutil

import pytest
from llm_server import MODEL_ALIAS, llm_server, needs_llm  # noqa: F401  (fixture)
from typer.testing import CliRunner

from argus_tui.cli import app
from db.store import open_db

pytestmark = [needs_llm, pytest.mark.llm, pytest.mark.slow]

BUDGET = 8  # a few routes: enough to exercise router/verifier calls, short enough for CI
LOOP_ROLES = ("perceiver", "hypothesizer", "router", "verifier")


def _toml(path, base_url: str) -> None:
    roles = "".join(f'[roles.{r}]\nmodel = "{MODEL_ALIAS}"\nmax_tokens = 160\nvision = false\n' for r in LOOP_ROLES)
    path.write_text(f'[backend]\nbase_url = "{base_url}"\napi_key = "sk-local-test-key"\nparse_retries = 1\n'
                    f'max_retries = 2\ntimeout = 300\n{roles}[prices."{MODEL_ALIAS}"]\ninput = 0.5\noutput = 1.5\n')


def _rows(db, sql, args):
    cur = db.execute(sql, args)
    cols = [c[0] for c in cur.description]
    return [dict(zip(cols, r)) for r in cur.fetchall()]


@pytest.fixture(scope="module")
def bench(tmp_path_factory):
    """A generated benchmark (`argus bench generate`); the engine's demo account until the generator lands."""
    out = tmp_path_factory.mktemp("bench") / "g"
    r = CliRunner().invoke(app, ["bench", "generate", str(out), "--users", "2", "--seed", "3"])
    if "No such command 'generate'" in r.output:
        from core.engine.demo import write_demo_account

        write_demo_account(out)
        return out
    assert r.exit_code == 0, r.output
    return out


def _small_user(bench, dest, posts: int = 4):
    """The first generated user, cut to its first posts (each post costs one perceiver call)."""
    src = sorted(p for p in (bench / "users").iterdir() if p.is_dir())[0]
    shutil.copytree(src, dest)
    (dest / "truth.json").unlink(missing_ok=True)     # the engine never needs it
    lines = (src / "posts.jsonl").read_text(encoding="utf-8").splitlines()
    (dest / "posts.jsonl").write_text("\n".join(lines[:posts]) + "\n", encoding="utf-8")
    return dest


def test_openai_investigation_is_recorded_and_replays_identically(llm_server, bench, tmp_path):
    from core.backends.openai_backend import backend_options
    from core.engine.loop import Investigation

    user_dir = _small_user(bench, tmp_path / "user")
    cfg = tmp_path / "argus.toml"
    _toml(cfg, llm_server.base_url)

    inv = Investigation.start(tmp_path / "runs.db", user_dir, budget=BUDGET, backend="openai",
                              config=backend_options(config=cfg))
    prof = inv.run()
    db = inv.db
    run = _rows(db, "SELECT * FROM runs WHERE run_id=?", [inv.run_id])[0]
    assert run["status"] == "finished" and run["backend"] == "openai"
    assert "sk-local-test-key" not in run["config"]                 # keys never reach the run DB
    assert prof.user_id == json.loads((user_dir / "profile.json").read_text())["user_id"]
    for a in prof.attributes:
        assert a.attribute and a.value and a.evidence

    calls = _rows(db, "SELECT * FROM model_calls WHERE run_id=? AND role != 'probe' ORDER BY id", [inv.run_id])
    roles = {c["role"] for c in calls}
    assert {"perceiver", "hypothesizer"} <= roles and roles <= set(LOOP_ROLES)
    posts = db.execute("SELECT COUNT(*) FROM posts WHERE run_id=?", [inv.run_id]).fetchone()[0]
    # text-only model: posts are batched (perceiver_batch posts per call), never one image call per post
    assert 1 <= sum(c["role"] == "perceiver" and not c["cached"] for c in calls) <= posts
    live = [c for c in calls if not c["cached"]]
    assert live and all(c["prompt_tokens"] > 0 and c["completion_tokens"] > 0 for c in live
                        if not (c["error"] or "").startswith(("connection", "http")))
    for c in calls:
        # priced by the table; a cache hit (same request again within the run) costs nothing
        price = ((c["prompt_tokens"] or 0) * 0.5 + (c["completion_tokens"] or 0) * 1.5) / 1e6
        assert c["cost"] == pytest.approx(0.0 if c["cached"] else price)
        assert (c["parsed"] is None) == (c["error"] is not None)
    # a failed call (invalid JSON after the retry) is recorded and logged, never fatal
    failed = [c for c in calls if c["error"]]
    if failed:
        errs = _rows(db, "SELECT data FROM events WHERE run_id=? AND kind='error'", [inv.run_id])
        assert any(json.loads(e["data"]).get("where", "").startswith("model:") for e in errs)
    # budget accounting: the ledger adds up to the run's spend, within the budget
    spent = db.execute("SELECT COALESCE(SUM(units),0) FROM budget_ledger WHERE run_id=?", [inv.run_id]).fetchone()[0]
    assert run["spent"] == pytest.approx(spent) and run["spent"] <= BUDGET

    usage = CliRunner().invoke(app, ["config", "usage", str(tmp_path / "runs.db"), "--json"])
    assert usage.exit_code == 0, usage.output
    per_role = json.loads(usage.output)
    per_role = [r for r in per_role if r["role"] != "probe"]     # the capability probe is reported apart
    assert sum(r["calls"] for r in per_role) == len(calls)
    assert sum(r["prompt_tokens"] for r in per_role) == sum(c["prompt_tokens"] or 0 for c in calls)

    # ---- replay from the recorded DB into a fresh DB: no server involved ----
    rep = Investigation.start(tmp_path / "replay.db", user_dir, budget=BUDGET, backend="replay",
                              config=backend_options(replay=tmp_path / "runs.db"))
    prof2 = rep.run()
    assert prof2.model_dump(exclude={"system"}) == prof.model_dump(exclude={"system"})
    rcalls = _rows(rep.db, "SELECT * FROM model_calls WHERE run_id=? ORDER BY id", [rep.run_id])
    assert [(c["role"], c["cache_key"], c["parsed"]) for c in rcalls if not (c["error"] or "").startswith(
        ("connection", "http", "replay"))] == \
        [(c["role"], c["cache_key"], c["parsed"]) for c in calls if not (c["error"] or "").startswith(
            ("connection", "http"))]
    assert all(c["cached"] for c in rcalls if not (c["error"] or "").startswith("replay"))
    assert all(c["base_url"] is None for c in rcalls)                 # nothing was sent anywhere
    node_sql = "SELECT node_id, kind, attribute, value, status, confidence FROM nodes WHERE run_id=? ORDER BY node_id"
    assert _rows(rep.db, node_sql, [rep.run_id]) == _rows(db, node_sql, [inv.run_id])
    assert _rows(rep.db, "SELECT attribute, value, confidence, evidence FROM profile WHERE run_id=? ORDER BY attribute",
                 [rep.run_id]) == _rows(db, "SELECT attribute, value, confidence, evidence FROM profile WHERE run_id=?"
                                        " ORDER BY attribute", [inv.run_id])


def test_replay_without_a_recording_is_a_clear_input_error(tmp_path, bench):
    from core.backends.openai_backend import backend_options
    from core.engine.loop import Investigation
    from core.errors import InputError

    empty = open_db(tmp_path / "empty.db")
    empty.conn.close()
    user_dir = sorted(p for p in (bench / "users").iterdir() if p.is_dir())[0]
    with pytest.raises(InputError) as e:
        Investigation.start(tmp_path / "x.db", user_dir, backend="replay",
                            config=backend_options(replay=tmp_path / "empty.db"))
    assert "empty.db" in e.value.message
    with pytest.raises(InputError):
        Investigation.start(tmp_path / "x.db", user_dir, backend="replay",
                            config=backend_options(replay=tmp_path / "missing.db"))
