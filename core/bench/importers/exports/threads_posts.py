"""Threads posts and replies (the reading; threads.py is the platform), which Meta's export puts beside the Instagram account's
(`your_instagram_activity/threads/threads_and_replies.json`, key `text_post_app_text_posts`; a
Threads-only download holds the same file). Each record: the post's text in `title` (else
`media[0].title`), `creation_timestamp`, `media[].uri` (empty for a text post),
`media[].text_app_post` (whether it is a reply, where the export says so).
Read by the Instagram importer; an export with Threads posts only is imported as platform
"threads". See docs/importers.md ("Threads")."""
from __future__ import annotations

from typing import Any

from core.bench.importers.exports.common import Account, fix_all, iso_from_epoch, load_json
from core.bench.importers.exports.source import ExportSource

LAYOUT = "Threads (your_instagram_activity/threads/threads_and_replies.json)"
FILES = ("your_instagram_activity/threads/threads_and_replies.json", "threads/threads_and_replies.json",
         "threads_and_replies.json")


def files(src: ExportSource) -> list[str]:
    return next((hit for hit in (src.find(f) for f in FILES) if hit), [])


def _is_reply(obj: dict[str, Any], media: list[dict[str, Any]]) -> bool:
    for m in [obj, *media]:
        tap = m.get("text_app_post")
        if isinstance(tap, dict) and tap.get("is_reply") is True:
            return True
    return False


def read_into(acc: Account, src: ExportSource) -> int:
    """Adds the Threads posts of the export to `acc` (kind `thread`, or `reply`); returns how many."""
    n = 0
    for name in files(src)[:1]:
        data = fix_all(load_json(src, name))
        items = data.get("text_post_app_text_posts") if isinstance(data, dict) else data
        for obj in items if isinstance(items, list) else []:
            with acc.item("Threads posts", name):
                if not isinstance(obj, dict):
                    acc.summary.skip("Threads posts", f"not a JSON object in {name}")
                    continue
                media = [m for m in obj.get("media") or [] if isinstance(m, dict)]
                first = media[0] if media else {}
                text = obj.get("title") or first.get("title") or ""
                uris = [str(m.get("uri") or "") for m in media if m.get("uri")]
                if not text and not uris:
                    acc.summary.skip("Threads posts", "no text and no media")
                    continue
                reply = _is_reply(obj, media)
                pid = acc.new_id("th")
                acc.add_post("Threads replies" if reply else "Threads posts",
                             {"post_id": pid, "caption": text, "kind": "reply" if reply else "thread",
                              "timestamp": iso_from_epoch(obj.get("creation_timestamp") or first.get("creation_timestamp")),
                              "app": "threads"})
                n += 1
                for uri in uris:
                    if uri.startswith("http"):
                        acc.summary.skip("media files", "only a web address, no file in the export")
                        continue
                    acc.add_media(pid, acc.src.resolve(uri), uri=uri)
    return n


