"""The Host allow-list of `argus runs datasette`, registered as a Datasette plugin (its own
`asgi_wrapper` hook) by the command before it starts Datasette; imported only when Datasette is.

Datasette listens on 127.0.0.1 only, but a web page the person opens could still reach it through
DNS rebinding (a name of the attacker's that resolves to 127.0.0.1): the browser then sends
`Host: attacker.example:8001`. Only `127.0.0.1` and `localhost` (any port) are answered; any other
Host, or none, gets 403 before Datasette sees the request."""
from __future__ import annotations

from typing import Any, Awaitable, Callable

from datasette import hookimpl

ALLOWED_HOSTS = frozenset({"127.0.0.1", "localhost"})

Asgi = Callable[[dict, Callable[[], Awaitable[dict]], Callable[[dict], Awaitable[None]]], Awaitable[None]]


def host_name(header: bytes | None) -> str | None:
    """The host of a Host header without its port (`[::1]:8001` -> `[::1]`), lower case."""
    if not header:
        return None
    host = header.decode("latin-1").strip().lower()
    if host.startswith("["):
        return host.split("]", 1)[0] + "]"
    return host.rsplit(":", 1)[0] if ":" in host else host


def host_guard(app: Asgi) -> Asgi:
    """The ASGI app that answers 403 to a request whose Host is not on ALLOWED_HOSTS."""

    async def guarded(scope: dict, receive: Any, send: Any) -> None:
        if scope.get("type") in ("http", "websocket"):
            host = host_name(dict(scope.get("headers") or []).get(b"host"))
            if host not in ALLOWED_HOSTS:
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 1008})
                    return
                body = b"403: this Datasette answers only Host 127.0.0.1 or localhost\n"
                await send({"type": "http.response.start", "status": 403,
                            "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                        (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})
                return
        await app(scope, receive, send)

    return guarded


@hookimpl
def asgi_wrapper(datasette: Any) -> Callable[[Asgi], Asgi]:
    return host_guard
