"""Facebook "Download your information" (JSON): posts with their attachments (media, places,
external links), the account's own comments, the profile. See docs/importers.md ("Facebook")."""
from __future__ import annotations

from typing import Any

from core.bench.importers.exports.common import Account, fix_all, iso_from_epoch, load_json, valid_geo, with_gps
from core.bench.importers.exports.meta_layouts import FACEBOOK, choose, members
from core.bench.importers.exports.source import ExportSource
from core.errors import InputError

PLATFORM = "facebook"
PROFILE = ("personal_information/profile_information/profile_information.json",
           "profile_information/profile_information.json")
ALBUMS = ("your_facebook_activity/posts/album/*.json", "your_activity_across_facebook/posts/album/*.json",
          "posts/album/*.json")
UNCATEGORIZED = ("your_facebook_activity/posts/your_uncategorized_photos.json",
                 "your_activity_across_facebook/posts/your_uncategorized_photos.json",
                 "posts/your_uncategorized_photos.json", "photos_and_videos/your_uncategorized_photos.json")
MESSAGES = ("your_facebook_activity/messages/inbox/*/message_*.json",
            "your_activity_across_facebook/messages/inbox/*/message_*.json", "messages/inbox/*/message_*.json")
ROOTS = ("your_facebook_activity", "your_activity_across_facebook")


def detect(src: ExportSource) -> int:
    return (3 * bool(src.glob("your_facebook_activity/*/*") or src.glob("your_activity_across_facebook/*/*"))
            + 2 * bool(src.glob("posts/your_posts*.json"))
            + bool(src.find("profile_information/profile_information.json")) + bool(_html(src)))


def _sniffed(src: ExportSource) -> list[str]:
    """Posts files of a layout not in the table: JSON under the activity folder whose records have
    a `timestamp` and `data[].post` (what a Facebook post is), so a moved file is still found."""
    out = []
    for n in src.names:
        if n.endswith(".json") and any(f"{r}/" in f"/{n}" for r in ROOTS) and "/messages/" not in n \
                and src.sizes[n] < 64 * 1024 * 1024:
            try:
                data = load_json(src, n)
            except Exception:  # unreadable: not a posts file
                continue
            items = data if isinstance(data, list) else []
            first = next((x for x in items if isinstance(x, dict)), None)
            if first and "timestamp" in first and any(isinstance(d, dict) and "post" in d for d in first.get("data") or []):
                out.append(n)
    return out


def _html(src: ExportSource) -> list[str]:
    return (src.glob("your_facebook_activity/posts/your_posts*.html") + src.glob("your_activity_across_facebook/posts/your_posts*.html")
            + src.glob("posts/your_posts*.html"))


def _first(src: ExportSource, patterns: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    for pat in patterns:
        out += [m for m in src.glob(pat) if m not in out]
    return out


def _text(obj: dict[str, Any]) -> str:
    return "\n".join(str(d["post"]) for d in obj.get("data") or [] if isinstance(d, dict) and d.get("post"))


def _photos(acc: Account, src: ExportSource, used: set[str]) -> None:
    """Album photos and uncategorised uploads not already attached to a post: one post each
    (its description as the caption, its EXIF geotag kept)."""
    for name in _first(src, ALBUMS) + _first(src, UNCATEGORIZED):
        data = fix_all(load_json(src, name))
        album = data.get("name") if isinstance(data, dict) and isinstance(data.get("name"), str) else None
        photos = (data.get("photos") or data.get("other_photos_v2") or []) if isinstance(data, dict) else []
        for ph in photos:
            with acc.item("album photos", name):
                uri = str(ph.get("uri") or "")
                if not uri or uri in used:
                    continue
                used.add(uri)
                geo = None
                for ex in ((ph.get("media_metadata") or {}).get("photo_metadata") or {}).get("exif_data") or []:
                    geo = geo or valid_geo((ex or {}).get("latitude"), (ex or {}).get("longitude"))
                pid = acc.new_id("ph")
                acc.add_post("album photos", {"post_id": pid, "kind": "photo", "title": album, "geo": geo,
                                              "caption": ph.get("description") or ph.get("title"),
                                              "timestamp": iso_from_epoch(ph.get("creation_timestamp"))})
                acc.add_media(pid, src.resolve(uri), uri=uri)
                if geo:
                    for m in acc.media.get(pid, []):
                        with_gps(m, geo, acc.summary)


def read(src: ExportSource, *, include_private: bool = False, **_: Any) -> Account:
    acc = Account(PLATFORM, src)
    used: set[str] = set()                  # media uris already attached to a post
    lay = choose(src, FACEBOOK)
    files = members(src, lay.posts) if lay else []
    if not files and (files := _sniffed(src)):
        acc.summary.notes.append("posts found by their content, in a layout Argus does not know by name: "
                                 + ", ".join(files))
    acc.summary.layout = lay.name if lay else ("Facebook, unknown layout (posts files found by content)" if files else None)
    if not files:
        if _html(src):
            raise InputError(src.path, "this Facebook export is in HTML format: download it again with "
                                       "Format: JSON (Accounts Center > Download your information)")
        raise InputError(src.path, "no Facebook posts file in the export (looked for the layouts: "
                                   + "; ".join(lay.name for lay in FACEBOOK) + ")")
    for name in files:
        data = fix_all(load_json(src, name))
        items = data if isinstance(data, list) else (data.get("status_updates_v2") or [])
        for obj in items:
            with acc.item("posts", name):
                if not isinstance(obj, dict):
                    acc.summary.skip("posts", f"not a JSON object in {name}")
                    continue
                pid = acc.new_id("fb")
                post: dict[str, Any] = {"post_id": pid, "timestamp": iso_from_epoch(obj.get("timestamp")),
                                        "caption": _text(obj), "title": obj.get("title")}
                links, geo, media = [], None, []
                for att in obj.get("attachments") or []:
                    for d in (att or {}).get("data") or []:
                        if not isinstance(d, dict):
                            continue
                        if isinstance(d.get("media"), dict):
                            media.append(d["media"])
                        if isinstance(d.get("place"), dict):
                            pl = d["place"]
                            post["location_tag"] = pl.get("name") or pl.get("address")
                            c = pl.get("coordinate") or {}
                            geo = valid_geo(c.get("latitude"), c.get("longitude")) or geo
                            acc.summary.add("places (check-ins)")
                        if isinstance(d.get("external_context"), dict) and d["external_context"].get("url"):
                            links.append(d["external_context"]["url"])
                            acc.summary.add("external links")
                if not post["caption"]:                 # a photo post: its text is the photo's description
                    post["caption"] = "\n".join(m.get("description") or m.get("title") or "" for m in media).strip()
                post.update({"links": links, "geo": geo})
                acc.add_post("posts", post)
                for m in media:
                    uri = str(m.get("uri") or "")
                    used.add(uri)
                    acc.add_media(pid, acc.src.resolve(uri) if uri else None, uri=uri)
                    g = None
                    for ex in ((m.get("media_metadata") or {}).get("photo_metadata") or {}).get("exif_data") or []:
                        g = g or valid_geo((ex or {}).get("latitude"), (ex or {}).get("longitude"))
                    geo = geo or g
                if geo:
                    acc.summary.add("geotags")
                    for m in acc.media.get(pid, []):
                        with_gps(m, geo, acc.summary)
                    acc.posts[-1]["geo"] = geo
    for name in (members(src, lay.comments) if lay else members(src, tuple(c for x in FACEBOOK for c in x.comments)))[:1]:
        data = fix_all(load_json(src, name))
        rows = data.get("comments_v2") or data.get("comments") or [] if isinstance(data, dict) else data
        for obj in rows:
            with acc.item("comments", name):
                c = next((d["comment"] for d in (obj or {}).get("data") or []
                          if isinstance(d, dict) and isinstance(d.get("comment"), dict)), None)
                if not c or not c.get("comment"):
                    acc.summary.skip("comments", "no text")
                    continue
                acc.add_post("comments", {"post_id": acc.new_id("cm"), "caption": c["comment"], "kind": "comment",
                                          "timestamp": iso_from_epoch(c.get("timestamp") or obj.get("timestamp")),
                                          "title": obj.get("title")})
    _photos(acc, src, used)
    msgs = _first(src, MESSAGES)
    if msgs:
        acc.summary.skip("message threads", "not public", len({m.rsplit("/", 1)[0] for m in msgs}))
    for name in _first(src, PROFILE)[:1]:
        data = fix_all(load_json(src, name))
        p = (data or {}).get("profile_v2") or {} if isinstance(data, dict) else {}
        full = (p.get("name") or {}).get("full_name")
        city = ((p.get("current_city") or {}).get("name"))
        acc.profile.update({k: v for k, v in {"user_id": p.get("username") or full, "nickname": full,
                                              "bio": (p.get("intro_bio") or {}).get("value") if isinstance(p.get("intro_bio"), dict) else None,
                                              "location": city}.items() if v})
        if city:
            acc.summary.add("profile current city")
    return acc
