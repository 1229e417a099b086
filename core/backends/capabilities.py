"""What a role's endpoint and model can do, probed once and kept in the run DB.

For each (base URL, model) the probe asks, in order:
- reachable: `GET /models` (a connection error ends the probe: the role is unusable);
- JSON: a tiny structured request per response-format mode (json_schema, then llama.cpp's
  json_object + schema, then plain json_object) until the server accepts one;
- vision (only for roles that send images, and only when the config does not say): the same
  tiny request with a 16x16 PNG attached; any error means text-only (llama-cpp-python's
  server answers a text-only model's image with HTTP 500 "can only concatenate str ...");
- context length: the config's `context_length`, else the model list's metadata
  (`max_model_len` vLLM, `context_length`, `meta.n_ctx(_train)` llama.cpp), else, for a
  local endpoint only (never billed), an over-long prompt whose rejection names the window
  ("exceed context window of 4096", "maximum context length is 8192 tokens", `"n_ctx": 4096`)
  or whose truncated `usage.prompt_tokens` shows it (Ollama); else DEFAULT_CONTEXT.

Results go to the `model_capabilities` table of the run DB (and an in-process cache); a
later run in the same DB, and a replay of it, read them instead of probing again. Every
probe request is recorded as a `model_calls` row with role `probe`.
"""
from __future__ import annotations

import base64
import io
import ipaddress
import json
import re
import time
from typing import Any
from urllib.parse import urlparse

import openai
import sqlite_utils
from pydantic import BaseModel, Field

from core.backends.client import FORMAT_CHAIN, CallRecord, _LoopThread, _openai_client, remember_format
from core.backends.config import BackendConfig, ResolvedRole
from core.backends.structured import response_format
from db.model_calls import ModelCalls
from db.model_calls import capability_row as recorded_row
from db.store import dumps, now

IMAGE_ROLES = frozenset({"perceiver", "deep_visual"})
DEFAULT_CONTEXT = 8192
_WINDOW_PATTERNS = (
    re.compile(r"context window of (\d+)", re.I),
    re.compile(r"maximum context length is (\d+)", re.I),
    re.compile(r'"?n_ctx"?\s*[:=]\s*(\d+)', re.I),
    re.compile(r"context (?:size|length)[^0-9]{0,20}(\d{3,7})", re.I),
)
_LONG_PROMPT_WORDS = 60000          # ~60k tokens: beyond the window of any small local model


class ProbeReply(BaseModel):
    ok: bool = True
    colour: str = Field(default="", max_length=40)


class Capabilities(BaseModel):
    base_url: str = ""
    model: str
    reachable: bool
    json_mode: str | None = None        # None: no JSON mode works (unusable)
    vision: bool | None = None          # None: not probed (role sends no images)
    context_length: int | None = None
    detail: dict[str, Any] = Field(default_factory=dict)

    @property
    def usable(self) -> bool:
        return self.reachable and self.json_mode is not None

    def problem(self) -> str | None:
        if not self.reachable:
            return f"not reachable: {self.detail.get('reachable', '')}".strip()
        if self.json_mode is None:
            return "no JSON response format accepted"
        return None


def is_local(base_url: str | None) -> bool:
    host = (urlparse(base_url or "").hostname or "").lower()
    if not host:
        return False
    if host in ("localhost",) or host.endswith(".local"):
        return True
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    return ip.is_loopback or ip.is_private


def _tiny_png() -> str:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (16, 16), (220, 20, 20)).save(buf, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


_PROBE_SYSTEM = 'Reply with one JSON object only, for example {"ok": true}.'


def _context_from_listing(entry: dict[str, Any]) -> int | None:
    for key in ("max_model_len", "context_length", "context_window", "max_context_length"):
        v = entry.get(key)
        if isinstance(v, int) and v > 0:
            return v
    meta = entry.get("meta") or {}
    for key in ("n_ctx", "n_ctx_train"):
        v = meta.get(key) if isinstance(meta, dict) else None
        if isinstance(v, int) and v > 0:
            return v
    return None


def window_from_error(text: str) -> int | None:
    for rx in _WINDOW_PATTERNS:
        m = rx.search(text or "")
        if m:
            return int(m.group(1))
    return None


class Prober:
    """Runs the probes of one (base URL, model); `records` collects one CallRecord per request."""

    def __init__(self, bc: BackendConfig, rc: ResolvedRole):
        self.bc = bc
        self.rc = rc
        self.records: list[CallRecord] = []
        self.client = _openai_client(rc.base_url, rc.api_key, min(bc.backend.timeout, 120.0))

    async def _chat(self, what: str, req: dict[str, Any]) -> tuple[Any | None, str | None]:
        t0 = time.perf_counter()
        shown = {**req, "messages": [{"role": m["role"], "content": m["content"] if isinstance(m["content"], str)
                                      else "[text + 16x16 PNG]"} for m in req["messages"]]}
        if len(json.dumps(shown)) > 2000:
            shown["messages"] = [{"role": "user", "content": f"[{_LONG_PROMPT_WORDS} filler words]"}]
        rec = CallRecord(role="probe", model=self.rc.model, base_url=self.rc.base_url,
                         request={"probe": what, **shown})
        resp, err = None, None
        try:
            resp = await self.client.chat.completions.create(**req)
        except openai.APIStatusError as e:
            err = f"http {e.status_code}: {str(e)[:300]}"
        except (openai.APIConnectionError, openai.APITimeoutError) as e:
            err = f"connection: {type(e).__name__}: {str(e)[:200]}"
        except Exception as e:  # a probe never crashes a run
            err = f"error: {type(e).__name__}: {str(e)[:200]}"
        rec.duration_ms = (time.perf_counter() - t0) * 1000
        rec.error = err
        if resp is not None:
            choice = resp.choices[0] if resp.choices else None
            rec.response = (choice.message.content if choice else None) or ""
            if resp.usage is not None:
                rec.prompt_tokens = resp.usage.prompt_tokens
                rec.completion_tokens = resp.usage.completion_tokens
            rec.cost = self.bc.price_of(self.rc.model, rec.prompt_tokens, rec.completion_tokens)
        self.records.append(rec)
        return resp, err

    def _req(self, mode: str, content: Any, max_tokens: int = 12) -> dict[str, Any]:
        req = {"model": self.rc.model, "max_tokens": max_tokens, "temperature": 0.0,
               "messages": [{"role": "system", "content": _PROBE_SYSTEM}, {"role": "user", "content": content}],
               "response_format": response_format(ProbeReply, mode)}
        if self.bc.backend.seed is not None:
            req["seed"] = self.bc.backend.seed
        return req

    async def run(self, want_vision: bool) -> Capabilities:
        rc = self.rc
        caps = Capabilities(base_url=rc.base_url or "", model=rc.model or "", reachable=False)
        entry: dict[str, Any] = {}
        try:
            listing = await self.client.models.list()
            for m in listing.data:
                if m.id == rc.model:
                    entry = m.model_dump()
            caps.detail["reachable"] = "GET /models"
        except (openai.APIConnectionError, openai.APITimeoutError) as e:
            caps.detail["reachable"] = f"connection: {type(e).__name__}: {str(e)[:200]}"
            return caps
        except openai.APIStatusError as e:   # some servers have no /models: the chat probe decides
            caps.detail["models_list"] = f"http {e.status_code}"
        except Exception as e:
            caps.detail["models_list"] = f"error: {type(e).__name__}"

        chain = list(FORMAT_CHAIN) if rc.response_format == "auto" else [rc.response_format]
        for mode in chain:
            resp, err = await self._chat(f"json:{mode}", self._req(mode, "ping"))
            if err and err.startswith("connection"):
                caps.detail["reachable"] = err
                return caps
            caps.reachable = True
            if resp is not None:
                caps.json_mode = mode
                break
            caps.detail.setdefault("json_rejected", []).append(f"{mode}: {err}"[:200])
        if caps.json_mode is None:
            return caps

        if rc.vision is not None:
            caps.vision = rc.vision
            caps.detail["vision"] = "config"
        elif want_vision:
            content = [{"type": "text", "text": "What colour is this image? Reply as JSON with a 'colour' key."},
                       {"type": "image_url", "image_url": {"url": _tiny_png()}}]
            resp, err = await self._chat("vision", self._req(caps.json_mode, content, max_tokens=16))
            caps.vision = resp is not None
            caps.detail["vision"] = "probe: accepted an image" if resp is not None else f"probe: {err}"[:300]

        if rc.context_length:
            caps.context_length, caps.detail["context_length"] = rc.context_length, "config"
        elif _context_from_listing(entry):
            caps.context_length, caps.detail["context_length"] = _context_from_listing(entry), "GET /models"
        elif is_local(rc.base_url):
            filler = " ".join(["word"] * _LONG_PROMPT_WORDS)
            resp, err = await self._chat("context", {**self._req("json_object", filler, max_tokens=1)})
            n = window_from_error(err or "")
            if n:
                caps.context_length, caps.detail["context_length"] = n, "over-long prompt rejected"
            elif resp is not None and resp.usage is not None and 0 < resp.usage.prompt_tokens < _LONG_PROMPT_WORDS / 2:
                caps.context_length = resp.usage.prompt_tokens + 1
                caps.detail["context_length"] = "over-long prompt truncated by the server"
        if not caps.context_length:
            caps.context_length = DEFAULT_CONTEXT
            caps.detail.setdefault("context_length", f"unknown: assumed {DEFAULT_CONTEXT} (set context_length)")
        return caps


def probe(bc: BackendConfig, rc: ResolvedRole, want_vision: bool) -> tuple[Capabilities, list[CallRecord]]:
    """Probe one endpoint+model (synchronously, on the shared model loop)."""
    prober = Prober(bc, rc)

    async def go():
        return await prober.run(want_vision)

    loop = _LoopThread.get()
    caps = loop.submit(go()).result()
    if caps.json_mode:
        remember_format(rc.base_url, caps.json_mode)
    return caps, prober.records


# ---- storage ----

def _from_row(row: dict[str, Any]) -> Capabilities:
    return Capabilities(base_url=row["base_url"], model=row["model"], reachable=bool(row["reachable"]),
                        json_mode=row["json_mode"], vision=None if row["vision"] is None else bool(row["vision"]),
                        context_length=row["context_length"], detail=json.loads(row["detail"] or "{}"))


def load_capabilities(db: sqlite_utils.Database, model: str, base_url: str | None, *,
                      any_url: bool = False) -> Capabilities | None:
    """The capabilities last probed for a model in a recorded DB (a replay's source)."""
    row = recorded_row(db, model, base_url, any_url=any_url)
    return _from_row(row) if row is not None else None


def capability_row(caps: Capabilities) -> dict[str, Any]:
    """The `model_capabilities` row of probed capabilities."""
    return {"base_url": caps.base_url, "model": caps.model, "reachable": int(caps.reachable),
            "json_mode": caps.json_mode, "vision": None if caps.vision is None else int(caps.vision),
            "context_length": caps.context_length, "detail": dumps(caps.detail), "probed_at": now()}


_PROCESS_CACHE: dict[tuple[str, str, bool], Capabilities] = {}


def capabilities_for(bc: BackendConfig, role: str, *, calls: ModelCalls | None = None,
                     replay_from: list[sqlite_utils.Database] | None = None,
                     record=None) -> tuple[Capabilities, str]:
    """(capabilities, where they came from: run DB | replay | process | probe) of a role's endpoint.
    `calls`: the run's recorder (db/model_calls.py), where capabilities probed before are read and
    new ones stored.

    `replay_from`: read-only recorded DBs; when given, nothing is probed (a replay has no server):
    a model never probed there gets the config's values (vision off unless configured).
    `record(rec)` receives each probe request's CallRecord.
    """
    rc = bc.role(role)
    want_vision = role in IMAGE_ROLES
    model = rc.model or ""
    if replay_from is not None:
        for src in replay_from:
            caps = load_capabilities(src, model, None, any_url=True)
            if caps is not None:
                return caps, "replay"
        return Capabilities(model=model, reachable=True, json_mode="json_object", vision=bool(rc.vision),
                            context_length=rc.context_length or DEFAULT_CONTEXT,
                            detail={"note": "not in the recording: config values"}), "replay"
    row = calls.capabilities(model, rc.base_url) if calls is not None else None
    if row is not None:
        caps = _from_row(row)
        if caps is not None and (caps.vision is not None or not want_vision or rc.vision is not None):
            if caps.json_mode:
                remember_format(rc.base_url, caps.json_mode)
            return _with_config(caps, rc), "run DB"
    key = (rc.base_url or "", model, want_vision)
    caps = _PROCESS_CACHE.get(key) or _PROCESS_CACHE.get((rc.base_url or "", model, True))
    where = "process"
    if caps is None:
        caps, records = probe(bc, rc, want_vision)
        where = "probe"
        for r in records:
            if record is not None:
                record(r)
        if caps.reachable:     # an unreachable server may come up later: probe again next time
            _PROCESS_CACHE[key] = caps
    if calls is not None and caps.reachable:
        calls.store_capabilities(capability_row(caps))
    return _with_config(caps, rc), where


def _with_config(caps: Capabilities, rc: ResolvedRole) -> Capabilities:
    """Explicit config values win over probed ones."""
    upd: dict[str, Any] = {}
    if rc.vision is not None:
        upd["vision"] = rc.vision
    if rc.context_length:
        upd["context_length"] = rc.context_length
    return caps.model_copy(update=upd) if upd else caps


def estimate_tokens(text: str) -> int:
    """A conservative token count without the model's tokenizer: ~3 ASCII characters per token,
    and 1.5 tokens per other character (CJK and other scripts split finely in small vocabularies)."""
    ascii_n = sum(1 for ch in text if ord(ch) < 128)
    return int(ascii_n / 3 + (len(text) - ascii_n) * 1.5) + 1


def content_budget(caps: Capabilities | None, max_tokens: int, fixed: str, sample: str) -> int:
    """Characters of content (written like `sample`) a prompt may add to its `fixed` part and
    still leave room for the reply in the model's window."""
    window = caps.context_length if caps and caps.context_length else DEFAULT_CONTEXT
    tokens = window - max_tokens - 128 - estimate_tokens(fixed)
    per_char = estimate_tokens(sample) / max(1, len(sample)) if sample else 1 / 3
    return max(300, int(tokens / max(per_char, 1 / 4)))
