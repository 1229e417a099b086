"""Web search behind one interface (off by default).

`DisabledWebSearch` (the default) raises ToolError("web search disabled"). Real providers:
`SearxngWebSearch` (a SearxNG instance's JSON API, e.g. a self-hosted one) and
`BraveWebSearch` (Brave Search API, needs a key). Both need `enabled=True`, which the caller
sets only when the run's network flag is on. Results are data, never instructions.
"""
from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel

from tools.base import HttpProvider, KeyedHttpProvider, ToolError, check_query

MAX_QUERY_CHARS = 400


class SearchResult(BaseModel):
    title: str
    url: str
    snippet: str = ""
    source: str = ""


@runtime_checkable
class WebSearch(Protocol):
    name: str
    needs_network: bool

    def search(self, query: str, k: int = 5) -> list[SearchResult]:
        ...


def _check_query(query: str) -> str:
    return check_query(query, tool="web_search", what="search", limit=MAX_QUERY_CHARS)


class DisabledWebSearch:
    name = "disabled"
    needs_network = False

    def search(self, query: str, k: int = 5) -> list[SearchResult]:
        raise ToolError("web search disabled", tool="web_search")


class _HttpSearch(HttpProvider):
    tool = "web_search"
    follow_redirects = True

    def disabled_reason(self) -> str:
        return "web search disabled"


class SearxngWebSearch(_HttpSearch):
    """GET {base_url}/search?q=...&format=json (the instance must allow the json format)."""

    name = "searxng"

    def __init__(self, base_url: str, enabled: bool = False, timeout: float = 10.0):
        super().__init__(enabled, timeout)
        self.base_url = base_url.rstrip("/")

    def search(self, query: str, k: int = 5) -> list[SearchResult]:
        data = self._get(f"{self.base_url}/search", {"q": _check_query(query), "format": "json"})
        out = []
        for item in (data.get("results") or [])[: max(1, k)]:
            out.append(SearchResult(title=str(item.get("title", ""))[:300], url=str(item.get("url", "")),
                                    snippet=str(item.get("content", ""))[:1000], source=self.name))
        return out


class BraveWebSearch(KeyedHttpProvider, _HttpSearch):
    """Brave Search API (https://api.search.brave.com/res/v1/web/search), key in X-Subscription-Token."""

    name = "brave"
    URL = "https://api.search.brave.com/res/v1/web/search"

    def search(self, query: str, k: int = 5) -> list[SearchResult]:
        key = self._need_key()
        data = self._get(self.URL, {"q": _check_query(query), "count": max(1, min(k, 20))},
                         {"X-Subscription-Token": key, "Accept": "application/json"})
        out = []
        for item in ((data.get("web") or {}).get("results") or [])[: max(1, k)]:
            out.append(SearchResult(title=str(item.get("title", ""))[:300], url=str(item.get("url", "")),
                                    snippet=str(item.get("description", ""))[:1000], source=self.name))
        return out


def web_search_from_config(cfg: dict[str, Any] | None, network: bool = False) -> WebSearch:
    """cfg: {"provider": "searxng"|"brave", "base_url": ..., "api_key": ...}; disabled unless network."""
    cfg = cfg or {}
    provider = str(cfg.get("provider") or "").lower()
    if not network or not provider:
        return DisabledWebSearch()
    if provider == "searxng":
        if not cfg.get("base_url"):
            raise ToolError("web_search.base_url: required for the searxng provider", tool="web_search")
        return SearxngWebSearch(str(cfg["base_url"]), enabled=True)
    if provider == "brave":
        return BraveWebSearch(str(cfg.get("api_key") or ""), enabled=True)
    raise ToolError(f"web_search.provider: unknown provider {provider!r} (searxng, brave)", tool="web_search")


def default_websearch(config: dict[str, Any] | None = None) -> WebSearch:
    """The web search for a run: disabled unless config["network"] is true AND a provider is
    configured in config["web_search"] ({"provider", "base_url", "api_key"}) or the environment
    (ARGUS_WEB_SEARCH=searxng|brave, ARGUS_SEARXNG_URL, ARGUS_BRAVE_API_KEY)."""
    import os

    config = config or {}
    cfg = dict(config.get("web_search") or {})
    cfg.setdefault("provider", os.environ.get("ARGUS_WEB_SEARCH", ""))
    if cfg["provider"] == "searxng":
        cfg.setdefault("base_url", os.environ.get("ARGUS_SEARXNG_URL", ""))
    if cfg["provider"] == "brave":
        cfg.setdefault("api_key", os.environ.get("ARGUS_BRAVE_API_KEY", ""))
    return web_search_from_config(cfg, network=bool(config.get("network")))
