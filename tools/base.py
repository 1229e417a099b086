"""Shared tool plumbing: the tool error, the call record, cache keys and the Recorder.

Every tool call made during a run goes through `Recorder.call`, which looks the call up in
the run DB's `cache` table by content hash, runs it otherwise, and appends one `tool_calls`
row (inputs, outputs or error, duration, cost, cache key, cached flag) so a run can be
audited and replayed. A failing tool becomes a recorded error, never a crash.
"""
from __future__ import annotations

import hashlib
import json
import threading
import time
from datetime import datetime, timezone
from typing import Any, Callable

from pydantic import BaseModel, Field

import db.tool_calls as tool_calls  # the one store module a tool uses: the Recorder records through it

# Bump when a tool's output format changes so stale cache entries are not reused.
CACHE_VERSION = "tools/2"


# One lock for all Recorders: several may share one sqlite connection across threads
# (check_same_thread=False), and a connection must not run two statements at once.
_WRITE_LOCK = threading.RLock()


class ToolError(Exception):
    """A tool could not do its job on this input (missing/corrupt file, network off, ...).

    The message names the file or field at fault; the Recorder stores it as the call's error.
    """

    def __init__(self, message: str, *, tool: str | None = None, file: str | None = None):
        self.tool = tool
        self.file = file
        super().__init__(message)


class ToolCallRecord(BaseModel):
    tool: str
    inputs: dict[str, Any] = Field(default_factory=dict)
    outputs: dict[str, Any] | None = None
    error: str | None = None
    duration_ms: float = 0.0
    cost: float = 0.0
    cache_key: str | None = None
    cached: bool = False
    id: int | None = None             # tool_calls row id once written


def http_get_json(provider: str, tool: str, url: str, params: dict[str, Any], *, headers: dict[str, str] | None = None,
                  timeout: float = 10.0, follow_redirects: bool = False) -> Any:
    """GET a JSON answer from an online provider; every failure is a ToolError naming the provider.
    Callers check their own "network enabled" flag first."""
    import httpx

    try:
        # trust_env=False: proxy variables (HTTP(S)_PROXY, ALL_PROXY) and .netrc are ignored, so
        # no request is routed through, or credentials sent to, a host the caller did not name
        r = httpx.get(url, params=params, headers=headers or {}, timeout=timeout, follow_redirects=follow_redirects,
                      trust_env=False)
    except httpx.HTTPError as e:
        raise ToolError(f"{provider}: request failed ({type(e).__name__}: {e})", tool=tool) from e
    if r.status_code >= 400:
        raise ToolError(f"{provider}: HTTP {r.status_code} from {url}", tool=tool)
    try:
        return r.json()
    except ValueError as e:
        raise ToolError(f"{provider}: answer from {url} is not JSON", tool=tool) from e


class HttpProvider:
    """An online provider of a network tool (web search, map search): off unless constructed
    with enabled=True, which callers do only when the run's network flag is on; every request is
    one GET through http_get_json (every failure a ToolError naming the provider)."""

    name = "http"
    tool = ""                   # the route family it serves, named in its errors
    needs_network = True
    follow_redirects = False

    def __init__(self, enabled: bool = False, timeout: float = 10.0):
        self.enabled = enabled
        self.timeout = timeout

    def disabled_reason(self) -> str:
        return f"{self.tool} via {self.name} disabled (network tools are off)"

    def _get(self, url: str, params: dict[str, Any], headers: dict[str, str] | None = None) -> Any:
        if not self.enabled:
            raise ToolError(self.disabled_reason(), tool=self.tool)
        return http_get_json(self.name, self.tool, url, params, headers=headers, timeout=self.timeout,
                             follow_redirects=self.follow_redirects)


class KeyedHttpProvider(HttpProvider):
    """An online provider that needs an API key (Brave, Amap): a missing key is a ToolError."""

    def __init__(self, api_key: str, enabled: bool = False, timeout: float = 10.0):
        super().__init__(enabled, timeout)
        self.api_key = api_key

    def _need_key(self) -> str:
        if not self.api_key:
            raise ToolError(f"{self.name}: no API key configured", tool=self.tool)
        return self.api_key


def check_query(query: str, *, tool: str, what: str, limit: int) -> str:
    """A provider query with white space folded and cut to `limit` characters; empty: a ToolError."""
    q = " ".join(str(query or "").split())
    if not q:
        raise ToolError(f"query: empty {what} query", tool=tool)
    return q[:limit]


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def canonical_json(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=str)


def cache_key(tool_name: str, inputs: dict[str, Any], content_hash: str | None = None) -> str:
    """sha256 over (cache version, tool, canonical inputs, file content hash).

    Pass the content hash of any file the tool reads so an edited image is not served
    a stale result even when its path is unchanged.
    """
    h = hashlib.sha256()
    h.update(CACHE_VERSION.encode())
    h.update(b"\x00" + tool_name.encode("utf-8"))
    h.update(b"\x00" + canonical_json(inputs).encode("utf-8"))
    h.update(b"\x00" + (content_hash or "").encode("ascii"))
    return h.hexdigest()


def _jsonable(outputs: Any) -> dict[str, Any]:
    """Tools return dicts or pydantic models; store plain JSON-able dicts."""
    if isinstance(outputs, BaseModel):
        outputs = outputs.model_dump(mode="json")
    if not isinstance(outputs, dict):
        outputs = {"result": outputs}
    # round-trip so tuples, sets, Paths... become JSON types identical to what a cache hit returns
    return json.loads(canonical_json(outputs))


class Recorder:
    """Runs tools with caching and writes one `tool_calls` row per call.

    db: an sqlite_utils Database from db.store.open_db (or None: calls run unrecorded and
    uncached, useful in scripts). `use_cache=False` forces re-running (the console's rerun).
    Thread-safe: a process-wide lock serialises DB access; the tool itself runs outside it.
    """

    def __init__(
        self,
        db: Any | None,
        run_id: str | None = None,
        step: int | None = None,
        route_id: str | None = None,
        *,
        use_cache: bool = True,
    ):
        self.db = db
        self.run_id = run_id
        self.step = step
        self.route_id = route_id
        self.use_cache = use_cache
        self.records: list[ToolCallRecord] = []
        self._lock = _WRITE_LOCK

    def at(self, step: int | None = None, route_id: str | None = None) -> "Recorder":
        """Same run and DB, another step/route (shares the lock and record list)."""
        other = Recorder.__new__(Recorder)
        other.__dict__.update(self.__dict__)
        other.step = step
        other.route_id = route_id
        return other

    def _cache_get(self, key: str) -> dict[str, Any] | None:
        if self.db is None or not self.use_cache:
            return None
        with self._lock:
            stored = tool_calls.cached_output(self.db, key)
        if stored is None:
            return None
        try:
            out = json.loads(stored)
        except (TypeError, ValueError):
            return None
        return out if isinstance(out, dict) else None

    def cached_keys(self, keys: list[str]) -> set[str]:
        """Which of the cache `keys` this run DB holds (none without a DB or with the cache off)."""
        if self.db is None or not self.use_cache:
            return set()
        return tool_calls.cached_keys(self.db, keys)

    def call(
        self,
        tool_name: str,
        fn: Callable[..., Any],
        inputs: dict[str, Any],
        content_hash: str | None = None,
        *,
        cost: float = 0.0,
        cacheable: bool = True,
        check: Callable[[dict[str, Any]], None] | None = None,
    ) -> dict[str, Any]:
        """Run `fn(**inputs)` (or serve it from cache) and record the call.

        Returns the outputs dict; on failure returns {"error": message} (the error is recorded,
        nothing is raised). Errors are not cached, so a fixed file is re-read next time.
        `check(outputs)` raises ToolError when the outputs break the tool's output model: a fresh
        output that fails it is a recorded error, a cached one that fails it is a cache miss.
        """
        key = cache_key(tool_name, inputs, content_hash)
        t0 = time.perf_counter()
        cached = self._cache_get(key) if cacheable else None
        if cached is not None and check is not None:
            try:
                check(cached)
            except ToolError:
                cached = None
        error: str | None = None
        outputs: dict[str, Any] | None
        if cached is not None:
            outputs = cached
            spent = 0.0
        else:
            spent = cost
            try:
                outputs = _jsonable(fn(**inputs))
                if check is not None:
                    check(outputs)
            except ToolError as e:
                outputs, error = None, str(e)
            except Exception as e:  # a tool bug or hostile input must not crash the run
                outputs, error = None, f"{type(e).__name__}: {e}"
        duration_ms = (time.perf_counter() - t0) * 1000.0
        rec = ToolCallRecord(
            tool=tool_name, inputs=json.loads(canonical_json(inputs)), outputs=outputs, error=error,
            duration_ms=round(duration_ms, 3), cost=spent, cache_key=key, cached=cached is not None,
        )
        self._write(rec, store_cache=cacheable and cached is None and error is None)
        return outputs if error is None and outputs is not None else {"error": error}

    def _write(self, rec: ToolCallRecord, *, store_cache: bool) -> None:
        with self._lock:
            self.records.append(rec)
            if self.db is None:
                return
            ts = _now()
            conn = self.db.conn
            # Inside the engine's step transaction the rows join it (committed with the step);
            # otherwise commit them now.
            outer = conn.in_transaction
            rec.id = tool_calls.insert_call(self.db, {
                "run_id": self.run_id, "step": self.step, "route_id": self.route_id, "tool": rec.tool,
                "inputs": canonical_json(rec.inputs),
                "outputs": None if rec.outputs is None else canonical_json(rec.outputs), "error": rec.error,
                "duration_ms": rec.duration_ms, "cost": rec.cost, "cache_key": rec.cache_key,
                "cached": int(rec.cached), "created_at": ts})
            if store_cache and rec.outputs is not None:
                tool_calls.put_cache(self.db, rec.cache_key, "tool", rec.tool, canonical_json(rec.outputs), ts)
            if not outer:
                conn.commit()
