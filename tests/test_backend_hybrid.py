"""Hybrid backend, capability probe and role fallback against a scripted OpenAI-compatible HTTP
server that behaves like llama-cpp-python serving a text-only model: json_schema and image
parts answer HTTP 500 (the real server's "can only concatenate str (not "list") to str"), a
prompt over the window answers 400 naming the window. Its "model" answers adversarially
(wrong but quoted cues, ungrounded hypotheses, rejections) so the tests show the offline
findings survive a bad model. The real llama.cpp server is used in test_backend_llm_hybrid.py.
"""
from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from engine_user import render_text_image
from typer.testing import CliRunner

from argus_tui.cli import app
from core.backends.capabilities import capabilities_for, window_from_error
from core.backends.config import ROLES, load_config, missing_settings
from db.model_calls import ModelCalls
from db.store import open_db

WINDOW = 3000          # tokens the fake server accepts (~4 chars per token)


class FakeLlama:
    """Records every request; `mode` per role: 'adversarial' (default) or 'broken' (invalid JSON)."""

    def __init__(self):
        self.requests: list[dict] = []
        self.broken: set[str] = set()
        self.lock = threading.Lock()

    @staticmethod
    def role_of(body: dict) -> str:
        m = re.search(r"\[prompt (\w+)\.v\d+\]", json.dumps(body["messages"][0]["content"]))
        return m.group(1) if m else "probe"

    def reply(self, body: dict) -> tuple[int, str]:
        fmt = (body.get("response_format") or {}).get("type")
        if fmt == "json_schema":
            return 500, "Internal Server Error"
        if any(isinstance(m.get("content"), list) for m in body["messages"]):
            return 500, 'can only concatenate str (not "list") to str'
        size = sum(len(m["content"]) for m in body["messages"]) // 4
        if size > WINDOW:
            return 400, f"Requested tokens ({size}) exceed context window of {WINDOW}"
        role = self.role_of(body)
        if role in self.broken or (role == "perceiver_batch" and "perceiver" in self.broken):
            return 200, "I am not sure, sorry"
        user = body["messages"][-1]["content"]
        if role == "perceiver_batch":
            posts = re.findall(r"post (\w+) - content only.*?\n(?:caption|title): (\S+ \S+)", user)
            return 200, json.dumps({"cues": [{"attribute": "home_location", "value": "Paris", "post": p,
                                              "quote": q, "confidence": 0.99} for p, q in posts[:3]]})
        if role == "hypothesizer":
            ids = re.findall(r"^\[(e\d+)\]", user, re.M)
            return 200, json.dumps({"hypotheses": [{"attribute": "home_location", "value": "Atlantis",
                                                    "confidence": 0.95, "evidence": ids[:1]}]})
        if role == "verifier":
            m = re.search(r"^\[(e\d+)\] \S+ \S+: (\S+ \S+)", user, re.M)
            quotes = [{"node_id": m.group(1), "quote": m.group(2)}] if m else []
            return 200, json.dumps({"verdict": "reject", "confidence": 0.9, "quotes": quotes, "reason": "no"})
        if role == "router":
            return 200, json.dumps({"family": "stop"})
        return 200, '{"ok": true}'


def _completion(content: str, prompt_tokens: int) -> dict:
    return {"id": "c", "object": "chat.completion", "created": 0, "model": "fake",
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": 9, "total_tokens": prompt_tokens + 9}}


@pytest.fixture
def fake():
    state = FakeLlama()

    class H(BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def _send(self, status: int, doc: dict) -> None:
            data = json.dumps(doc).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            self._send(200, {"object": "list", "data": [{"id": "fake", "object": "model", "owned_by": "me"}]})

        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            with state.lock:
                state.requests.append(body)
            status, payload = state.reply(body)
            if status == 200:
                self._send(200, _completion(payload, sum(len(str(m["content"])) for m in body["messages"]) // 4))
            else:
                self._send(status, {"error": {"message": payload, "code": status}})

    srv = ThreadingHTTPServer(("127.0.0.1", 0), H)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    state.base_url = f"http://127.0.0.1:{srv.server_address[1]}/v1"
    yield state
    srv.shutdown()


def _write_config(path: Path, base_url: str, roles=("perceiver", "hypothesizer", "router", "verifier", "deep_visual"),
                  **backend) -> Path:
    extra = "".join(f"{k} = {v}\n" for k, v in backend.items())
    body = f'[backend]\nbase_url = "{base_url}"\nmax_retries = 0\nparse_retries = 0\nbackoff_base = 0.01\n{extra}'
    body += "".join(f'[roles.{r}]\nmodel = "fake"\nmax_tokens = 200\n' for r in roles)
    path.write_text(body)
    return path


def _user(root: Path) -> Path:
    """Four posts: a stated home, a job, a birthday and a photographed notice (OCR)."""
    u = root / "users" / "u1"
    (u / "images").mkdir(parents=True)
    (u / "profile.json").write_text(json.dumps({"user_id": "u1", "platform": "rednote", "language": "en"}))
    render_text_image(u / "images" / "notice.png", ["PROPERTY FEE NOTICE", "Nanshan District, Shenzhen"],
                      size=(700, 300))
    posts = [
        {"post_id": "p1", "timestamp": "2025-03-08T20:30:00+08:00",
         "caption": "Back home after a long week. I live in Nanshan District, Shenzhen and love it."},
        {"post_id": "p2", "timestamp": "2025-03-10T08:00:00+08:00",
         "caption": "Another night shift as a nurse at the hospital, coffee first."},
        {"post_id": "p3", "timestamp": "2025-04-12T19:00:00+08:00",
         "caption": "Turning 30 today! Cake with my husband, best birthday ever."},
        {"post_id": "p4", "timestamp": "2025-06-01T10:00:00+08:00",
         "caption": "Got this notice from the property office today.", "images": [{"file": "images/notice.png"}]},
    ]
    (u / "posts.jsonl").write_text("\n".join(json.dumps(p) for p in posts) + "\n")
    return u


def _events(db, run_id: str, kind: str) -> list[dict]:
    return [json.loads(d) for (d,) in db.execute("SELECT data FROM events WHERE run_id=? AND kind=? ORDER BY id",
                                                  [run_id, kind]).fetchall()]


# ---- capabilities ----


def test_probe_finds_a_text_only_llama_like_server_once_and_caches_it_in_the_run_db(fake, tmp_path):
    cfg = load_config(_write_config(tmp_path / "a.toml", fake.base_url), env={})
    db = open_db(tmp_path / "runs.db")
    caps, where = capabilities_for(cfg, "perceiver", calls=ModelCalls(db, "r"))
    assert where == "probe" and caps.reachable and caps.usable
    assert caps.json_mode == "json_object_schema"          # json_schema answered 500
    assert caps.vision is False                            # the image part answered 500
    assert caps.context_length == WINDOW                   # from the over-long prompt's rejection
    probes = len(fake.requests)
    assert probes == 4        # json_schema, json_object+schema, vision, context
    again, where2 = capabilities_for(cfg, "perceiver", calls=ModelCalls(db, "r"))
    assert where2 == "run DB" and again.vision is False and len(fake.requests) == probes
    row = db.execute("SELECT reachable, json_mode, vision, context_length FROM model_capabilities").fetchone()
    assert row == (1, "json_object_schema", 0, WINDOW)


def test_probe_of_a_dead_endpoint_is_unusable_and_names_why(tmp_path):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cfg = load_config(_write_config(tmp_path / "a.toml", f"http://127.0.0.1:{port}/v1", roles=("verifier",)), env={})
    caps, _ = capabilities_for(cfg, "verifier")
    assert not caps.usable and caps.problem().startswith("not reachable")


def test_window_is_read_from_the_errors_servers_give():
    assert window_from_error("Requested tokens (9000) exceed context window of 4096") == 4096
    assert window_from_error("This model's maximum context length is 8192 tokens. However, ...") == 8192
    assert window_from_error('{"code":400,"type":"exceed_context_size_error","n_prompt_tokens":9000,"n_ctx":2048}') == 2048
    assert window_from_error("bad request") is None


def test_config_check_prints_the_table_and_fails_for_an_unusable_role(fake, tmp_path):
    good = _write_config(tmp_path / "good.toml", fake.base_url, roles=("perceiver", "verifier"))
    r = CliRunner().invoke(app, ["config", "check", "--config", str(good)], env={"ARGUS_CONFIG": ""})
    assert r.exit_code == 0, r.output
    assert "perceiver" in r.output and "json_object_schema" in r.output and str(WINDOW) in r.output
    assert "text-only" in r.output
    bad = tmp_path / "bad.toml"
    bad.write_text(good.read_text() + '[roles.judge]\nmodel = "fake"\nbase_url = "http://127.0.0.1:9/v1"\n')
    r = CliRunner().invoke(app, ["config", "check", "--config", str(bad)], env={"ARGUS_CONFIG": ""})
    assert r.exit_code == 1, r.output
    assert "judge" in r.output and "not reachable" in r.output


def test_missing_settings_names_what_openai_needs():
    none = load_config(env={}, cwd="/nonexistent")
    miss = missing_settings(none)
    assert len(miss) == 1 and "ARGUS_<ROLE>_MODEL" in miss[0]
    no_url = load_config(env={"ARGUS_VERIFIER_MODEL": "m"}, cwd="/nonexistent")
    assert any("OPENAI_BASE_URL" in m and "verifier" in m for m in missing_settings(no_url))
    ok = load_config(env={"ARGUS_VERIFIER_MODEL": "m", "OPENAI_BASE_URL": "http://x/v1"}, cwd="/nonexistent")
    assert missing_settings(ok) == []
    assert set(ROLES) >= {"verifier"}


# ---- the hybrid run ----


@pytest.fixture
def offline_and_model(fake, tmp_path):
    from core.backends.openai_backend import backend_options
    from core.engine.loop import Investigation

    user = _user(tmp_path)
    db_path = tmp_path / "runs.db"      # one DB: the model run reuses the offline run's OCR from the cache
    off = Investigation.start(db_path, user, backend="offline")
    off_prof = off.run()
    cfg = _write_config(tmp_path / "argus.toml", fake.base_url)
    inv = Investigation.start(db_path, user, backend="openai", config=backend_options(config=cfg))
    prof = inv.run()
    return off, off_prof, inv, prof


def test_bad_model_never_takes_offline_findings_down(offline_and_model, fake):
    off, off_prof, inv, prof = offline_and_model
    offline_values = {a.attribute: a.value for a in off_prof.attributes}
    model_values = {a.attribute: a.value for a in prof.attributes}
    assert offline_values, "the offline rules must find something in this user"
    for attr, val in offline_values.items():
        assert model_values.get(attr) == val, (attr, val, model_values.get(attr))
    # the model's wrong claims were made and grounded-or-removed with a reason, never projected
    hyps = {(r[0], r[1]): (r[2], r[3]) for r in inv.db.execute(
        "SELECT n.attribute, n.value, n.status, h.reason FROM nodes n JOIN hypothesis_history h"
        " ON h.run_id=n.run_id AND h.node_id=n.node_id WHERE n.run_id=? AND n.kind='hypothesis'"
        " ORDER BY h.id", [inv.run_id]).fetchall()}
    assert hyps[("home_location", "Atlantis")][0] == "removed"
    assert "not grounded" in hyps[("home_location", "Atlantis")][1]
    assert hyps[("home_location", "Paris")][0] == "removed"
    assert "offline value" in hyps[("home_location", "Paris")][1]
    # the model verifier's rejections did not remove offline values (no grounded contradiction)
    reasons = [r for (r,) in inv.db.execute("SELECT reason FROM hypothesis_history WHERE run_id=?", [inv.run_id])]
    assert any("without a grounded contradiction" in r for r in reasons)


def test_text_only_model_gets_text_ocr_and_skim_never_an_image(offline_and_model, fake):
    off, _, inv, _ = offline_and_model
    vision_probes = [r for r in fake.requests if any(isinstance(m.get("content"), list) for m in r["messages"])]
    assert len(vision_probes) == 1                     # the probe, once; no image afterwards
    per = [r for r in fake.requests if FakeLlama.role_of(r) == "perceiver_batch"]
    assert per and len(per) < 4                        # 4 posts, batched
    text = "\n".join(r["messages"][-1]["content"] for r in per)
    assert "NANSHAN DISTRICT" in text.upper() and "image images/notice.png" in text   # OCR lines + skim
    caps = _events(inv.db, inv.run_id, "capabilities")
    assert {c["role"] for c in caps} >= {"perceiver", "hypothesizer", "verifier"}
    assert all(c["vision"] is False for c in caps if c["role"] == "perceiver")
    # every call fits the window (the fake server rejects over-long prompts with 400)
    calls = inv.db.execute("SELECT error FROM model_calls WHERE run_id=? AND role != 'probe'", [inv.run_id]).fetchall()
    assert calls and not [e for (e,) in calls if e]


def test_a_role_that_always_fails_falls_back_after_the_configured_count(fake, tmp_path, capfd):
    from core.backends.openai_backend import backend_options
    from core.engine.loop import Investigation

    fake.broken.add("hypothesizer")
    user = _user(tmp_path)
    cfg = _write_config(tmp_path / "argus.toml", fake.base_url, roles=("hypothesizer",), fallback_after=2)
    inv = Investigation.start(tmp_path / "runs.db", user, backend="openai", config=backend_options(config=cfg))
    prof = inv.run()
    calls = inv.db.execute("SELECT COUNT(*) FROM model_calls WHERE run_id=? AND role='hypothesizer'",
                           [inv.run_id]).fetchone()[0]
    assert calls == 2                                 # parse_retries = 0: one request per call
    fb = _events(inv.db, inv.run_id, "role_fallback")
    assert len(fb) == 1 and fb[0]["role"] == "hypothesizer" and fb[0]["failures"] == 2
    errs = [e for e in _events(inv.db, inv.run_id, "error") if e.get("where") == "model:hypothesizer"]
    assert len(errs) == 2                             # not the same error for every refresh
    err = capfd.readouterr().err
    assert err.count("falls back to the offline rules") == 1
    # the offline hypothesizer took over: the profile is the offline one
    off = Investigation.start(tmp_path / "off.db", user, backend="offline").run()
    assert {a.attribute: a.value for a in prof.attributes} == {a.attribute: a.value for a in off.attributes}


def test_prompts_are_cut_to_the_window_by_whole_evidence_lines():
    from core.backends.capabilities import Capabilities, content_budget, estimate_tokens
    from core.backends.roles import evidence_block

    items = [{"id": f"e{i}", "post_id": f"p{i}", "carrier": "caption", "text": f"line {i} " + "word " * 20}
             for i in range(100)]
    small = Capabilities(model="m", reachable=True, json_mode="json_object", context_length=1024)
    big = Capabilities(model="m", reachable=True, json_mode="json_object", context_length=32768)
    sample = "\n".join(i["text"] for i in items)
    b_small, b_big = (content_budget(c, 200, "fixed part " * 50, sample) for c in (small, big))
    assert 300 <= b_small < b_big
    block = evidence_block(items, limit=200, total_limit=b_small)
    rows = [r for r in block.splitlines() if r.startswith("[e")]
    assert 0 < len(rows) < 100 and rows[0].startswith("[e0]")      # nearest first, whole lines only
    assert all(r.endswith("word") for r in rows)
    assert estimate_tokens(block) + estimate_tokens("fixed part " * 50) + 200 <= 1024
    # CJK text costs more tokens per character: fewer characters fit
    zh = "我住在深圳南山区" * 50
    assert content_budget(small, 200, "", zh) < content_budget(small, 200, "", "I live in Nanshan " * 50)
