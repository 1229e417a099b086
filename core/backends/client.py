"""The async OpenAI-compatible client behind every model role.

- one background event loop per process runs all requests, so synchronous engine code and
  several worker threads share one connection pool and one concurrency limit per base URL;
- 429 / 5xx / connection errors and timeouts are retried with exponential backoff
  (Retry-After honoured); other HTTP errors fail the call at once;
- `response_format="auto"` starts with OpenAI's `json_schema`, and on a server that rejects it
  (llama.cpp answers HTTP 500) falls back to `{"type": "json_object", "schema": ...}` and then
  to plain `json_object`; the mode that worked is remembered per base URL;
- each HTTP attempt is recorded as one `model_calls` row (tokens, latency, cost, parse error)
  and each successful response is stored in the content-addressed `cache` table, keyed by the
  request minus transport details, so a replay needs no server and gets identical replies.
"""
from __future__ import annotations

import asyncio
import base64
import hashlib
import io
import json
import random
import threading
import time
from concurrent.futures import Future
from pathlib import Path
from typing import Any, Coroutine, Generic, TypeVar

import openai
import sqlite_utils
from pydantic import BaseModel, Field

from core.backends.config import BackendConfig, ResolvedRole
from core.backends.structured import ParseFailure, parse_reply, response_format, schema_of
from db import model_calls
from db.model_calls import ModelCalls, cached_output, store_output
from db.store import dumps, open_db

T = TypeVar("T", bound=BaseModel)
FORMAT_CHAIN = ("json_schema", "json_object_schema", "json_object")


# ---- one event loop for all model traffic ----

class _LoopThread:
    _lock = threading.Lock()
    _instance: "_LoopThread | None" = None

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="argus-model-loop", daemon=True)
        self.thread.start()

    @classmethod
    def get(cls) -> "_LoopThread":
        with cls._lock:
            if cls._instance is None:
                cls._instance = cls()
            return cls._instance

    def submit(self, coro: Coroutine[Any, Any, Any]) -> Future:
        return asyncio.run_coroutine_threadsafe(coro, self.loop)


_SEMAPHORES: dict[tuple[str, int], asyncio.Semaphore] = {}
_FORMAT_MODE: dict[str, str] = {}        # base_url -> JSON mode that the server accepted
_CLIENTS: dict[tuple[str, str, float], openai.AsyncOpenAI] = {}


def remember_format(base_url: str | None, mode: str) -> None:
    """The JSON mode a server accepted (from the capability probe), so calls start with it."""
    _FORMAT_MODE[base_url or "https://api.openai.com/v1"] = mode


def _semaphore(base_url: str, limit: int) -> asyncio.Semaphore:
    key = (base_url, limit)
    sem = _SEMAPHORES.get(key)
    if sem is None:
        sem = _SEMAPHORES[key] = asyncio.Semaphore(limit)
    return sem


def _openai_client(base_url: str | None, api_key: str | None, timeout: float) -> openai.AsyncOpenAI:
    key = (base_url or "", api_key or "", timeout)
    cl = _CLIENTS.get(key)
    if cl is None:
        # retries are ours (with accounting), not the SDK's
        cl = _CLIENTS[key] = openai.AsyncOpenAI(base_url=base_url, api_key=api_key or "sk-no-key",
                                                timeout=timeout, max_retries=0)
    return cl


# ---- records ----

class CallRecord(BaseModel):
    role: str
    model: str | None
    base_url: str | None
    request: dict[str, Any]
    response: str | None = None          # the reply text
    parsed: dict[str, Any] | None = None
    error: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    duration_ms: float | None = None
    cost: float = 0.0
    cache_key: str | None = None
    cached: bool = False


class StructuredResult(BaseModel, Generic[T]):
    ok: bool
    value: T | None = None
    error: str | None = None
    calls: list[CallRecord] = Field(default_factory=list)

    @property
    def tokens(self) -> int:
        return sum((c.prompt_tokens or 0) + (c.completion_tokens or 0) for c in self.calls)


# where calls are recorded (the run DB's model_calls and cache, at one run and step): the loop
# hands a backend one; `CallContext()` records nothing (scripts, a judge without a run)
CallContext = ModelCalls


# ---- images ----

def image_data_url(path: str | Path, max_side: int) -> tuple[str, str]:
    """(data URL of the image downscaled to max_side, sha256 of the original bytes)."""
    from PIL import Image, ImageOps

    raw = Path(path).read_bytes()
    digest = hashlib.sha256(raw).hexdigest()
    with Image.open(io.BytesIO(raw)) as im:
        im = ImageOps.exif_transpose(im)
        im = im.convert("RGB")
        im.thumbnail((max_side, max_side))
        buf = io.BytesIO()
        im.save(buf, format="JPEG", quality=85)
    return "data:image/jpeg;base64," + base64.b64encode(buf.getvalue()).decode("ascii"), digest


def _strip_images(messages: list[dict]) -> list[dict]:
    """Messages with data URLs replaced by their hash (what the run DB keeps)."""
    out = []
    for m in messages:
        content = m.get("content")
        if isinstance(content, list):
            parts = []
            for p in content:
                if p.get("type") == "image_url":
                    url = p["image_url"]["url"]
                    parts.append({"type": "image_url", "image_url": {
                        "url": f"sha256:{hashlib.sha256(url.encode()).hexdigest()}", "bytes": len(url)}})
                else:
                    parts.append(p)
            m = {**m, "content": parts}
        out.append(m)
    return out


def cache_key(model: str | None, messages: list[dict], reply_model: type[BaseModel],
              max_tokens: int, temperature: float, seed: int | None) -> str:
    """Content address of a request: independent of base URL, key and JSON mode."""
    body = {"model": model, "messages": _strip_images(messages), "reply": reply_model.__name__,
            "schema": schema_of(reply_model), "max_tokens": max_tokens, "temperature": temperature,
            "seed": seed}
    return hashlib.sha256(dumps(body).encode("utf-8")).hexdigest()



class ModelClient:
    """Structured chat calls for the configured roles, recorded and cached.

    `replay_from`: read-only sources (run DBs / cache files) of recorded responses; with
    `replay_only` a request not found there fails instead of reaching a server.
    """

    def __init__(self, config: BackendConfig, *, replay_from: list[sqlite_utils.Database] | None = None,
                 replay_only: bool = False):
        self.config = config
        self.replay_from = list(replay_from or [])
        self.replay_only = replay_only
        self._extra_cache: sqlite_utils.Database | None = None
        if config.backend.cache and not replay_only:
            self._extra_cache = open_db(config.backend.cache)
        self._lock = threading.Lock()

    # -- cache --
    def _lookup(self, key: str, calls: CallContext) -> dict | None:
        if not self.replay_only:
            for hit in (calls.cached(key), cached_output(self._extra_cache, key) if self._extra_cache else None):
                if hit is not None:
                    return hit
        for db in self.replay_from:
            hit = cached_output(db, key)
            if hit is not None:
                return hit
        return None

    def _store(self, key: str, name: str, output: dict, calls: CallContext) -> None:
        calls.store(key, name, output)
        if self._extra_cache is not None:
            store_output(self._extra_cache, key, name, output, commit=True)

    def record(self, rec: CallRecord, calls: CallContext) -> None:
        calls.record(rec.model_dump())

    # -- public API --
    def complete(self, role: str, messages: list[dict], reply_model: type[T],
                 calls: CallContext | None = None) -> StructuredResult[T]:
        """Synchronous structured call (runs on the shared model loop)."""
        return _LoopThread.get().submit(self.acomplete(role, messages, reply_model, calls)).result()

    async def acomplete(self, role: str, messages: list[dict], reply_model: type[T],
                        calls: CallContext | None = None) -> StructuredResult[T]:
        loop = _LoopThread.get().loop
        if asyncio.get_running_loop() is not loop:
            return await asyncio.wrap_future(_LoopThread.get().submit(
                self.acomplete(role, messages, reply_model, calls)))
        calls = calls or CallContext()
        rc = self.config.role(role)
        result: StructuredResult[T] = StructuredResult(ok=False)
        if not rc.model:
            result.error = f"role {role} has no model configured"
            return result
        msgs = list(messages)
        bs = self.config.backend
        for attempt in range(bs.parse_retries + 1):
            try:
                rec = await self._one_call(rc, msgs, reply_model, calls)
            except Exception as e:  # anything unexpected is a failed call, not a crash of the run
                rec = CallRecord(role=role, model=rc.model, base_url=rc.base_url, request={"model": rc.model},
                                 error=f"error: {type(e).__name__}: {str(e)[:300]}")
            result.calls.append(rec)
            if rec.error is None:
                try:
                    value = parse_reply(rec.response or "", reply_model)
                except ParseFailure as e:
                    rec.error = f"parse: {e}"
                else:
                    rec.parsed = value.model_dump(mode="json")
                    self.record(rec, calls)
                    result.ok, result.value, result.error = True, value, None
                    return result
                self.record(rec, calls)
                result.error = rec.error
                # ask again, showing the model its reply and what was wrong with it
                msgs = msgs + [
                    {"role": "assistant", "content": (rec.response or "")[:2000]},
                    {"role": "user", "content": "That reply was invalid: " + rec.error[:500]
                     + ". Reply again with one JSON object that matches the schema, and nothing else."},
                ]
                continue
            self.record(rec, calls)
            result.error = rec.error
            return result   # transport failure after retries: not worth re-asking
        return result

    async def _one_call(self, rc: ResolvedRole, messages: list[dict], reply_model: type[BaseModel],
                        calls: CallContext) -> CallRecord:
        bs = self.config.backend
        key = cache_key(rc.model, messages, reply_model, rc.max_tokens, rc.temperature, bs.seed)
        base = rc.base_url or "https://api.openai.com/v1"
        rec = CallRecord(role=rc.role, model=rc.model, base_url=rc.base_url, cache_key=key,
                         request={"model": rc.model, "messages": _strip_images(messages),
                                  "max_tokens": rc.max_tokens, "temperature": rc.temperature,
                                  "seed": bs.seed, "reply": reply_model.__name__})
        hit = self._lookup(key, calls)
        if hit is not None:
            rec.cached = True
            rec.response = hit.get("text")
            rec.prompt_tokens = hit.get("prompt_tokens")
            rec.completion_tokens = hit.get("completion_tokens")
            rec.duration_ms = 0.0
            rec.request["response_format_mode"] = hit.get("mode")
            return rec
        if self.replay_only:
            rec.error = "replay: no recorded response for this request"
            return rec

        mode = rc.response_format
        chain = list(FORMAT_CHAIN) if mode == "auto" else [mode]
        if mode == "auto" and base in _FORMAT_MODE:
            chain = list(FORMAT_CHAIN[FORMAT_CHAIN.index(_FORMAT_MODE[base]):])
        client = _openai_client(rc.base_url, rc.api_key, bs.timeout)
        t0 = time.perf_counter()
        async with _semaphore(base, bs.concurrency):
            while True:
                fmt_mode = chain[0]
                req = {"model": rc.model, "messages": messages, "max_tokens": rc.max_tokens,
                       "temperature": rc.temperature,
                       "response_format": response_format(reply_model, fmt_mode)}
                if bs.seed is not None:
                    req["seed"] = bs.seed
                rec.request["response_format_mode"] = fmt_mode
                try:
                    resp = await self._with_retries(client, req, rejectable=len(chain) > 1)
                except _FormatRejected as e:
                    chain.pop(0)
                    rec.request.setdefault("format_rejections", []).append(f"{fmt_mode}: {e}"[:300])
                    continue
                except openai.APIStatusError as e:
                    rec.error = f"http {e.status_code}: {str(e)[:300]}"
                    break
                except (openai.APIConnectionError, openai.APITimeoutError) as e:
                    rec.error = f"connection: {type(e).__name__}: {str(e)[:200]}"
                    break
                if mode == "auto":
                    _FORMAT_MODE[base] = fmt_mode
                choice = resp.choices[0] if resp.choices else None
                rec.response = (choice.message.content if choice else None) or ""
                if resp.usage is not None:
                    rec.prompt_tokens = resp.usage.prompt_tokens
                    rec.completion_tokens = resp.usage.completion_tokens
                rec.cost = self.config.price_of(rc.model, rec.prompt_tokens, rec.completion_tokens)
                if choice is not None and choice.finish_reason == "length":
                    rec.request["finish_reason"] = "length"
                self._store(key, f"{rc.role}:{rc.model}", {
                    "text": rec.response, "prompt_tokens": rec.prompt_tokens,
                    "completion_tokens": rec.completion_tokens, "mode": fmt_mode}, calls)
                break
        rec.duration_ms = (time.perf_counter() - t0) * 1000
        return rec

    async def _with_retries(self, client: openai.AsyncOpenAI, req: dict, *, rejectable: bool):
        bs = self.config.backend
        for attempt in range(bs.max_retries + 1):
            try:
                return await client.chat.completions.create(**req)
            except (openai.BadRequestError, openai.UnprocessableEntityError, openai.InternalServerError) as e:
                # a server that does not know this response_format answers 400/422 (or 500 on llama.cpp)
                if rejectable and attempt == 0 and _mentions_format(e):
                    raise _FormatRejected(str(e)[:200]) from None
                if isinstance(e, openai.InternalServerError) and attempt < bs.max_retries:
                    await asyncio.sleep(_backoff(bs, attempt, e))
                    continue
                raise
            except (openai.RateLimitError, openai.APIConnectionError) as e:
                if attempt >= bs.max_retries:
                    raise
                await asyncio.sleep(_backoff(bs, attempt, e))
            except openai.APIStatusError as e:
                if e.status_code >= 500 and attempt < bs.max_retries:
                    await asyncio.sleep(_backoff(bs, attempt, e))
                    continue
                raise
        raise RuntimeError("unreachable")


class _FormatRejected(Exception):
    pass


def _mentions_format(e: openai.APIStatusError) -> bool:
    if e.status_code in (400, 422):
        text = str(e).lower()
        return "response_format" in text or "json_schema" in text or "schema" in text
    # llama.cpp's server answers an unsupported json_schema with a bare HTTP 500
    return e.status_code == 500


def _backoff(bs, attempt: int, e: Exception) -> float:
    retry_after = None
    resp = getattr(e, "response", None)
    if resp is not None:
        try:
            retry_after = float(resp.headers.get("retry-after", ""))
        except (TypeError, ValueError):
            retry_after = None
    delay = retry_after if retry_after is not None else bs.backoff_base * (2 ** attempt)
    return min(bs.backoff_max, delay) * (1 + 0.1 * random.random())


def usage_summary(db: sqlite_utils.Database, run_id: str | None = None) -> list[dict]:
    """Calls, failures, tokens, latency and cost per run and role from `model_calls`."""
    rows = model_calls.usage_rows(db, run_id)
    keys = ["run_id", "role", "model", "calls", "failed", "cached", "prompt_tokens",
            "completion_tokens", "duration_ms", "cost"]
    return [dict(zip(keys, r)) for r in rows]
