"""Mastodon account archive (archive-*.tar.gz): outbox.json (ActivityStreams Create/Note and
Announce), actor.json as the profile, media_attachments/. Direct messages and followers-only
posts are skipped unless include_private. See docs/importers.md ("Mastodon")."""
from __future__ import annotations

from typing import Any

from core.bench.importers.exports.common import Account, html_to_text, iso_from_text, load_json
from core.bench.importers.exports.source import ExportSource
from core.errors import InputError

PLATFORM = "mastodon"
PUBLIC = {"https://www.w3.org/ns/activitystreams#Public", "as:Public", "Public"}


def detect(src: ExportSource) -> int:
    return 3 * bool(src.find("outbox.json")) + bool(src.find("actor.json")) + bool(src.glob("media_attachments/*/*"))


def _as_list(v: Any) -> list[Any]:
    return v if isinstance(v, list) else ([] if v is None else [v])


def visibility(obj: dict[str, Any]) -> str:
    """public | unlisted | followers | direct, from the addressing (to / cc)."""
    to, cc = set(map(str, _as_list(obj.get("to")))), set(map(str, _as_list(obj.get("cc"))))
    if to & PUBLIC:
        return "public"
    if cc & PUBLIC:
        return "unlisted"
    if any(a.endswith("/followers") for a in to | cc):
        return "followers"
    return "direct"


def read(src: ExportSource, *, include_private: bool = False, **_: Any) -> Account:
    acc = Account(PLATFORM, src)
    outbox = src.find("outbox.json")
    if not outbox:
        raise InputError(src.path, "no Mastodon outbox.json in the export (an archive-*.tar.gz from "
                                   "Preferences > Import and export > Request your archive)")
    data = load_json(src, outbox[0])
    if not isinstance(data, dict):
        raise InputError(src.where(outbox[0]), "expected an ActivityStreams collection (a JSON object)")
    items = data.get("orderedItems") or data.get("items") or []
    if not isinstance(items, list):
        raise InputError(src.where(outbox[0]), "orderedItems is not a list", field="orderedItems")
    for act in items:
        with acc.item("activities", outbox[0]):
            if not isinstance(act, dict):
                acc.summary.skip("activities", "not a JSON object")
                continue
            typ = act.get("type")
            if typ == "Announce":
                target = act.get("object") if isinstance(act.get("object"), str) else (act.get("object") or {}).get("id")
                if visibility(act) not in ("public", "unlisted") and not include_private:
                    acc.summary.skip("boosts", "not public (use --include-private to keep them)")
                    continue
                acc.add_post("boosts (reposts)", {"post_id": acc.new_id("bo"), "kind": "repost", "repost_of": target,
                                                  "timestamp": iso_from_text(act.get("published"))})
                continue
            obj = act.get("object")
            if typ != "Create" or not isinstance(obj, dict) or obj.get("type") not in ("Note", "Question", "Article"):
                acc.summary.skip("activities", f"{typ or 'untyped'} is not a post")
                continue
            vis = visibility(obj)
            if vis in ("followers", "direct") and not include_private:
                acc.summary.skip("direct messages" if vis == "direct" else "followers-only posts",
                                 "not public (use --include-private to keep them)")
                continue
            pid = acc.new_id("md")
            text = html_to_text(obj.get("content"))
            if obj.get("summary"):                                  # a content warning
                text = f"{html_to_text(obj['summary'])}\n{text}"
            tags = [str(t.get("name", "")).lstrip("#") for t in _as_list(obj.get("tag"))
                    if isinstance(t, dict) and t.get("type") == "Hashtag"]
            acc.add_post("replies" if obj.get("inReplyTo") else "posts",
                         {"post_id": pid, "caption": text, "timestamp": iso_from_text(obj.get("published")),
                          "tags": tags, "in_reply_to": obj.get("inReplyTo"), "visibility": vis,
                          "source_id": obj.get("id"), "kind": "reply" if obj.get("inReplyTo") else "post"})
            for att in _as_list(obj.get("attachment")):
                if not isinstance(att, dict):
                    continue
                url = str(att.get("url") or "")
                member = src.resolve(url.split("://", 1)[-1].split("/", 1)[-1] if "://" in url else url) if url else None
                acc.add_media(pid, member, alt=att.get("name") or None, uri=url)
                if att.get("name"):
                    acc.summary.add("alt texts")
    for name in src.find("actor.json")[:1]:
        a = load_json(src, name)
        if isinstance(a, dict):
            acc.profile.update({k: v for k, v in {"user_id": a.get("preferredUsername"), "nickname": a.get("name"),
                                                  "bio": html_to_text(a.get("summary"))}.items() if v})
            fields = [f"{f.get('name')}: {html_to_text(f.get('value'))}" for f in _as_list(a.get("attachment"))
                      if isinstance(f, dict) and f.get("type") == "PropertyValue"]
            if fields:
                acc.profile["bio"] = "\n".join([acc.profile.get("bio") or "", *fields]).strip()
            icon = (a.get("icon") or {}).get("url") if isinstance(a.get("icon"), dict) else None
            if icon and (m := src.resolve(icon)):
                from core.bench.importers.exports.common import load_media

                acc.avatar = load_media(src, m, acc.summary)
    return acc
