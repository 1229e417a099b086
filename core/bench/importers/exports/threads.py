"""The Threads platform: an export with Threads posts only (read by the Instagram importer, which
also reads Threads posts beside an Instagram account: threads_posts.py). See docs/importers.md
("Threads")."""
from __future__ import annotations

from typing import Any

from core.bench.importers.exports import instagram
from core.bench.importers.exports.common import Account
from core.bench.importers.exports.source import ExportSource
from core.bench.importers.exports.threads_posts import FILES, files
from core.errors import InputError


def detect(src: ExportSource) -> int:
    return 2 * bool(files(src))


def read(src: ExportSource, **kw: Any) -> Account:
    """A Threads download: the Instagram importer reads it (same Meta format) and names it."""
    acc = instagram.read(src, **kw)
    if not any(p.get("app") == "threads" for p in acc.posts):
        raise InputError(src.path, f"no Threads posts in the export (looked for {', '.join(FILES)})")
    return acc
