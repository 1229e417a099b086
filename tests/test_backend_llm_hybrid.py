"""The hybrid backend against the real llama.cpp server (SmolLM2-135M-Instruct, text-only), every
loop role on the model and no `vision` setting: the capability probe finds the model text-only
once and no image is sent afterwards; the profile keeps every value the offline backend finds
for the same user; an always-failing role (the hypothesizer, cut to 16 tokens) falls back after the configured count with one
event; a replay with no server reproduces the run exactly."""
from __future__ import annotations

import json

import pytest
from llm_server import MODEL_ALIAS, llm_server, needs_llm  # noqa: F401  (fixture)
from test_backend_e2e import _small_user, bench  # noqa: F401  (fixture)

pytestmark = [needs_llm, pytest.mark.llm, pytest.mark.slow]

ROLES = ("perceiver", "hypothesizer", "router", "verifier", "deep_visual")
BUDGET = 4


def _toml(path, base_url: str, roles=ROLES, **backend) -> None:
    extra = "".join(f"{k} = {v}\n" for k, v in backend.items())
    body = "".join(f'[roles.{r}]\nmodel = "{MODEL_ALIAS}"\nmax_tokens = 160\n' for r in roles)
    path.write_text(f'[backend]\nbase_url = "{base_url}"\nparse_retries = 1\nmax_retries = 1\ntimeout = 900\n'
                    f'{extra}{body}')


def _values(prof) -> dict[str, str]:
    return {a.attribute: a.value for a in prof.attributes}


@pytest.fixture(scope="module")
def runs(llm_server, bench, tmp_path_factory):  # noqa: F811
    from core.backends import capabilities
    from core.backends.openai_backend import backend_options
    from core.engine.loop import Investigation

    # earlier tests in this process probed the same server: start from an empty process cache,
    # so this run's DB records its own probe
    capabilities._PROCESS_CACHE.clear()
    tmp = tmp_path_factory.mktemp("hybrid")
    user = _small_user(bench, tmp / "user", posts=3)
    off = Investigation.start(tmp / "offline.db", user, budget=BUDGET, backend="offline")
    off_prof = off.run()
    cfg = tmp / "argus.toml"
    _toml(cfg, llm_server.base_url)
    inv = Investigation.start(tmp / "runs.db", user, budget=BUDGET, backend="openai",
                              config=backend_options(config=cfg))
    prof = inv.run()
    return {"tmp": tmp, "user": user, "cfg": cfg, "off": off, "off_prof": off_prof, "inv": inv, "prof": prof}


def test_vision_is_probed_once_and_no_image_is_sent_afterwards(runs):
    from core.backends.openai_backend import backend_options
    from core.engine.loop import Investigation

    db, run_id = runs["inv"].db, runs["inv"].run_id
    probes = [json.loads(r) for (r,) in db.execute(
        "SELECT request FROM model_calls WHERE run_id=? AND role='probe'", [run_id]).fetchall()]
    vision = [p for p in probes if p.get("probe") == "vision"]
    assert len(vision) == 1
    caps = db.execute("SELECT reachable, json_mode, vision, context_length FROM model_capabilities WHERE model=?",
                      [MODEL_ALIAS]).fetchone()
    assert caps[0] == 1 and caps[1] == "json_object_schema" and caps[2] == 0      # text-only, found by the probe
    assert caps[3] == 4096                                                          # tests start it with n_ctx 4096
    reqs = [r for (r,) in db.execute("SELECT request FROM model_calls WHERE run_id=? AND role != 'probe'",
                                     [run_id]).fetchall()]
    assert reqs and not any("image_url" in r for r in reqs)
    errors = [e for (e,) in db.execute("SELECT error FROM model_calls WHERE run_id=? AND role != 'probe'"
                                       " AND error IS NOT NULL", [run_id]).fetchall()]
    assert not any("concatenate" in e for e in errors)
    # a second run in the same DB (a new process: no in-memory capabilities) reads them from the DB
    from core.backends import capabilities

    capabilities._PROCESS_CACHE.clear()
    again = Investigation.start(db, runs["user"], budget=1, backend="openai", config=backend_options(config=runs["cfg"]))
    again.run()
    assert db.execute("SELECT COUNT(*) FROM model_calls WHERE run_id=? AND role='probe'",
                      [again.run_id]).fetchone()[0] == 0
    src = {json.loads(d)["source"] for (d,) in db.execute(
        "SELECT data FROM events WHERE run_id=? AND kind='capabilities'", [again.run_id]).fetchall()}
    assert src == {"run DB"}


def test_every_role_on_the_model_keeps_every_offline_value(runs):
    off, prof = _values(runs["off_prof"]), _values(runs["prof"])
    assert off, "the offline backend finds something for this user"
    lost = {a: (v, prof.get(a)) for a, v in off.items() if prof.get(a) != v}
    if lost:   # only a recorded grounded contradiction may remove an offline value
        db, run_id = runs["inv"].db, runs["inv"].run_id
        reasons = " ".join(r for (r,) in db.execute("SELECT reason FROM hypothesis_history WHERE run_id=?",
                                                    [run_id]).fetchall())
        assert "grounded contradiction" in reasons, lost
    calls = runs["inv"].db.execute("SELECT role, COUNT(*) FROM model_calls WHERE run_id=? AND role != 'probe'"
                                   " GROUP BY role", [runs["inv"].run_id]).fetchall()
    # the verifier is called only where its verdict could change the outcome (see hybrid.py)
    assert {r for r, _ in calls} >= {"perceiver", "hypothesizer"}


def test_replay_with_no_server_reproduces_the_run(runs):
    from core.backends.openai_backend import backend_options
    from core.engine.loop import Investigation

    tmp, inv = runs["tmp"], runs["inv"]
    rep = Investigation.start(tmp / "replay.db", runs["user"], budget=BUDGET, backend="replay",
                              config=backend_options(replay=tmp / "runs.db"))
    prof = rep.run()
    assert prof.model_dump(exclude={"system"}) == runs["prof"].model_dump(exclude={"system"})
    sql = "SELECT node_id, kind, attribute, value, status, confidence FROM nodes WHERE run_id=? ORDER BY node_id"
    assert rep.db.execute(sql, [rep.run_id]).fetchall() == inv.db.execute(sql, [inv.run_id]).fetchall()
    assert rep.db.execute("SELECT COUNT(*) FROM model_calls WHERE run_id=? AND base_url IS NOT NULL",
                          [rep.run_id]).fetchone()[0] == 0


def test_a_role_that_always_fails_falls_back_after_the_configured_count(llm_server, runs, tmp_path, capfd):
    from core.backends.openai_backend import backend_options
    from core.engine.loop import Investigation

    cfg = tmp_path / "argus.toml"
    _toml(cfg, llm_server.base_url, roles=("hypothesizer",), fallback_after=2)
    # 16 tokens cannot hold a hypotheses object: every reply is cut mid-JSON and fails to parse
    cfg.write_text(cfg.read_text().replace("max_tokens = 160", "max_tokens = 16"))
    inv = Investigation.start(tmp_path / "runs.db", runs["user"], budget=BUDGET, backend="openai",
                              config=backend_options(config=cfg))
    prof = inv.run()
    rows = inv.db.execute("SELECT error FROM model_calls WHERE run_id=? AND role='hypothesizer' ORDER BY id",
                          [inv.run_id]).fetchall()
    assert len(rows) == 2 * 2 and all(e and e.startswith("parse:") for (e,) in rows)   # 2 calls x (1 + 1 retry)
    fb = [json.loads(d) for (d,) in inv.db.execute(
        "SELECT data FROM events WHERE run_id=? AND kind='role_fallback'", [inv.run_id]).fetchall()]
    assert len(fb) == 1 and fb[0]["role"] == "hypothesizer" and fb[0]["failures"] == 2
    assert capfd.readouterr().err.count("falls back to the offline rules") == 1
    assert _values(prof) == _values(runs["off_prof"])       # the offline hypothesizer took over
