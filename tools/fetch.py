"""Page fetch (off by default).

Refuses non-http(s) schemes and any host that resolves to a loopback, private, link-local,
multicast, reserved or otherwise non-global address (checked after DNS resolution, and again
on every redirect hop). The connection goes to the checked IP itself (Host header and TLS SNI
keep the name), so a second DNS answer cannot swap in an internal address. Bodies are capped
in size and reduced to plain text; page text is data for the investigator, never instructions.
"""
from __future__ import annotations

import ipaddress
import re
import socket
import time
from html.parser import HTMLParser
from typing import Callable
from urllib.parse import urljoin, urlsplit, urlunsplit

from pydantic import BaseModel

from tools.base import ToolError

MAX_BYTES = 2 * 1024 * 1024
MAX_TEXT_CHARS = 50_000
MAX_REDIRECTS = 5
USER_AGENT = "Argus/0.1 (privacy-leakage research; +offline-by-default)"

Resolver = Callable[[str, int], list[str]]


class FetchResult(BaseModel):
    url: str
    final_url: str
    status: int
    content_type: str
    title: str = ""
    text: str = ""
    bytes: int = 0
    truncated: bool = False


def _system_resolve(host: str, port: int) -> list[str]:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as e:
        raise ToolError(f"url: cannot resolve host {host!r} ({e})", tool="page_fetch") from e
    return sorted({str(i[4][0]) for i in infos})


def address_allowed(ip: str) -> bool:
    """True only for globally routable unicast addresses."""
    try:
        addr = ipaddress.ip_address(ip.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(addr, ipaddress.IPv6Address):
        mapped = addr.ipv4_mapped or addr.sixtofour
        if mapped is not None:
            addr = mapped
        elif addr.teredo is not None:
            return False
    return bool(
        addr.is_global
        and not (addr.is_private or addr.is_loopback or addr.is_link_local or addr.is_multicast
                 or addr.is_reserved or addr.is_unspecified)
    )


def check_url(url: str, resolve: Resolver = _system_resolve,
              allowed: Callable[[str], bool] | None = None) -> tuple[str, str, int, str]:
    """Validate a URL and resolve it to one allowed IP (`allowed`, default address_allowed).
    Returns (scheme, host, port, ip)."""
    allowed = allowed or address_allowed
    if not isinstance(url, str) or len(url) > 4096:
        raise ToolError("url: missing or longer than 4096 characters", tool="page_fetch")
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise ToolError(f"url: scheme {scheme or '(none)'!r} refused (only http and https)", tool="page_fetch")
    host = parts.hostname
    if not host:
        raise ToolError(f"url: no host in {url!r}", tool="page_fetch")
    if parts.username or parts.password:
        raise ToolError("url: credentials in URLs are refused", tool="page_fetch")
    try:
        port = parts.port or (443 if scheme == "https" else 80)
    except ValueError as e:
        raise ToolError(f"url: bad port in {url!r}", tool="page_fetch") from e
    try:
        literal = ipaddress.ip_address(host)
        ips = [str(literal)]
    except ValueError:
        ips = resolve(host, port)
    if not ips:
        raise ToolError(f"url: host {host!r} resolved to no address", tool="page_fetch")
    bad = [ip for ip in ips if not allowed(ip)]
    if bad:
        raise ToolError(
            f"url: host {host!r} resolves to non-public address {bad[0]} (loopback/private/link-local/reserved refused)",
            tool="page_fetch",
        )
    return scheme, host, port, ips[0]


class _TextExtractor(HTMLParser):
    _SKIP = {"script", "style", "noscript", "template", "svg", "head"}
    _BLOCK = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "section", "article", "td", "th"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.title = ""
        self._skip = 0
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "title":
            self._in_title = True
        if tag in self._SKIP:
            self._skip += 1
        elif tag in self._BLOCK:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        if tag in self._SKIP and self._skip:
            self._skip -= 1
        elif tag in self._BLOCK:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data
        if not self._skip:
            self.parts.append(data)


def html_to_text(html: str) -> tuple[str, str]:
    """(title, text) of an HTML document; scripts/styles dropped, whitespace tidied."""
    p = _TextExtractor()
    try:
        p.feed(html)
        p.close()
    except AssertionError:  # html.parser's answer to a malformed marked section ("<![foo[..."): keep what was parsed
        pass
    text = "".join(p.parts)
    text = re.sub(r"[ \t\r\f\v]+", " ", text)
    text = re.sub(r"\n\s*\n+", "\n\n", text).strip()
    return " ".join(p.title.split()), text


def fetch_page(
    url: str,
    allow_network: bool = False,
    *,
    max_bytes: int = MAX_BYTES,
    timeout: float = 10.0,
    resolve: Resolver = _system_resolve,
    allowed: Callable[[str], bool] | None = None,
) -> FetchResult:
    """GET one page and return its text. Raises ToolError when network is off, the URL or its
    address is refused, the page is too big to be a page, not text, the request fails, or the
    whole fetch (every redirect hop and the body) takes longer than `timeout` seconds (a server
    trickling one byte a second cannot hold it). `allowed` narrows the address policy (tests
    pass one that admits their own 127.0.0.1 server; the default admits only global unicast)."""
    if not allow_network:
        raise ToolError("page fetch disabled (network tools are off; enable network to use it)", tool="page_fetch")
    import httpx

    deadline = time.monotonic() + timeout
    current = url
    for _hop in range(MAX_REDIRECTS + 1):
        scheme, host, port, ip = check_url(current, resolve, allowed)
        parts = urlsplit(current)
        ip_host = f"[{ip}]" if ":" in ip else ip
        default_port = 443 if scheme == "https" else 80
        netloc = ip_host if port == default_port else f"{ip_host}:{port}"
        pinned = urlunsplit((scheme, netloc, parts.path or "/", parts.query, ""))
        host_header = host if port == default_port else f"{host}:{port}"
        headers = {"Host": host_header, "User-Agent": USER_AGENT, "Accept": "text/html,text/plain;q=0.9,*/*;q=0.1"}
        ext = {"sni_hostname": host} if scheme == "https" else {}
        left = deadline - time.monotonic()
        if left <= 0:
            raise ToolError(f"url: fetch of {url} took longer than {timeout:g} s", tool="page_fetch")
        try:
            with httpx.Client(timeout=left, follow_redirects=False, trust_env=False) as client:
                req = client.build_request("GET", pinned, headers=headers, extensions=ext)
                resp = client.send(req, stream=True)     # a Response is not a context manager
                try:
                    if resp.is_redirect:
                        loc = resp.headers.get("location")
                        if not loc:
                            raise ToolError(f"url: redirect without location from {current}", tool="page_fetch")
                        if "\\" in loc or any(ord(c) < 33 or ord(c) == 127 for c in loc):
                            # browsers read "\\" as "/", urljoin does not: a disagreement to refuse
                            raise ToolError(f"url: redirect from {current} to a location with a backslash, space "
                                            "or control character refused", tool="page_fetch")
                        current = urljoin(current, loc)
                        continue
                    ctype = resp.headers.get("content-type", "").split(";")[0].strip().lower()
                    body = bytearray()
                    truncated = False
                    for chunk in resp.iter_bytes():
                        body += chunk
                        if len(body) > max_bytes:
                            truncated = True
                            del body[max_bytes:]
                            break
                        if time.monotonic() > deadline:
                            raise ToolError(f"url: fetch of {url} took longer than {timeout:g} s (slow body)",
                                            tool="page_fetch")
                    status = resp.status_code
                    encoding = resp.encoding or "utf-8"
                finally:
                    resp.close()
        except ToolError:
            raise
        except (httpx.HTTPError, httpx.InvalidURL, ValueError, UnicodeError) as e:
            raise ToolError(f"url: request to {current} failed ({type(e).__name__}: {e})", tool="page_fetch") from e
        if status >= 400:
            raise ToolError(f"url: {current} answered HTTP {status}", tool="page_fetch")
        if ctype and not (ctype.startswith("text/") or ctype in ("application/xhtml+xml", "application/json")):
            raise ToolError(f"url: {current} is {ctype}, not a text page", tool="page_fetch")
        try:
            raw = bytes(body).decode(encoding, errors="replace")
        except LookupError:
            raw = bytes(body).decode("utf-8", errors="replace")
        if ctype in ("text/html", "application/xhtml+xml") or (not ctype and "<html" in raw[:2000].lower()):
            title, text = html_to_text(raw)
        else:
            title, text = "", raw
        if len(text) > MAX_TEXT_CHARS:
            text, truncated = text[:MAX_TEXT_CHARS], True
        return FetchResult(url=url, final_url=current, status=status, content_type=ctype or "unknown",
                           title=title[:500], text=text, bytes=len(body), truncated=truncated)
    raise ToolError(f"url: more than {MAX_REDIRECTS} redirects from {url}", tool="page_fetch")
