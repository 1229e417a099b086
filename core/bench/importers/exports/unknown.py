"""What an export that no importer recognises holds: its JSON / JS files whose records look like
posts (a text field and a time field), so the person is told "layout not recognised" and what was
found, never a silent zero."""
from __future__ import annotations

import json

from core.bench.importers.exports.source import ExportSource

TEXT_KEYS = ("text", "full_text", "title", "caption", "content", "post", "body", "message", "description")
TIME_KEYS = ("timestamp", "created_at", "createdAt", "creation_timestamp", "date", "published", "time", "taken_at")
MAX_FILES = 200
MAX_BYTES = 32 * 1024 * 1024


def _records(doc: object) -> list[dict]:
    if isinstance(doc, list):
        return [x for x in doc if isinstance(x, dict)]
    if isinstance(doc, dict):
        for v in doc.values():
            if isinstance(v, list) and any(isinstance(x, dict) for x in v):
                return [x for x in v if isinstance(x, dict)]
    return []


def post_like(src: ExportSource) -> list[str]:
    """One line per file with post-like records: 'path: N records (fields text, created_at)'."""
    out: list[str] = []
    names = [n for n in src.names if n.lower().endswith((".json", ".js")) and src.sizes[n] <= MAX_BYTES][:MAX_FILES]
    for n in names:
        try:
            text = src.read(n, limit=MAX_BYTES).decode("utf-8-sig")
            if n.endswith(".js") and "=" in text[:200]:
                text = text[text.index("=") + 1:].strip().rstrip(";")
            doc = json.loads(text)
        except (ValueError, UnicodeDecodeError):
            continue
        recs = _records(doc)
        rec = [r.get("tweet") if isinstance(r.get("tweet"), dict) else r for r in recs]
        keys = set().union(*(r.keys() for r in rec[:20])) if rec else set()
        tk = [k for k in TEXT_KEYS if k in keys]
        ck = [k for k in TIME_KEYS if k in keys]
        if tk and ck:
            out.append(f"{n}: {len(rec)} records (fields {', '.join(tk[:2] + ck[:1])})")
    return out
