"""Instagram "Download your information" (JSON): posts, stories, reels, the account's own
comments, the profile. See docs/importers.md ("Instagram")."""
from __future__ import annotations

from typing import Any

from core.bench.importers.exports.common import Account, fix_all, iso_from_epoch, load_json, valid_geo, with_gps
from core.bench.importers.exports import threads_posts as threads
from core.bench.importers.exports.meta_layouts import INSTAGRAM, Layout, choose, members
from core.bench.importers.exports.source import ExportSource

PLATFORM = "instagram"
PROFILE = ("personal_information/personal_information/personal_information.json",
           "personal_information/personal_information.json", "account_information/personal_information.json")
NOT_PUBLIC = {"archived_posts.json": "archived posts", "recently_deleted_content.json": "recently deleted posts"}
MESSAGES = ("your_instagram_activity/messages/inbox/*/message_*.json", "messages/inbox/*/message_*.json")


def _layout(src: ExportSource) -> Layout | None:
    lay = choose(src, INSTAGRAM)
    if lay is not None and lay.top_only and not any(_ig_shaped(src, m) for m in members(src, lay.posts + lay.reels, top_only=True)):
        return None                      # a posts.json of some other tool
    return lay


def _ig_shaped(src: ExportSource, name: str) -> bool:
    """An Instagram media list: records with `media` or `creation_timestamp` (read only when small)."""
    if src.sizes.get(name, 0) > 64 * 1024 * 1024:
        return False
    try:
        data = load_json(src, name)
    except Exception:  # any unreadable file is simply not this layout
        return False
    items = data if isinstance(data, list) else next((v for v in data.values() if isinstance(v, list)), []) \
        if isinstance(data, dict) else []
    first = next((x for x in items if isinstance(x, dict)), None)
    return first is not None and ("media" in first or "creation_timestamp" in first)


def detect(src: ExportSource) -> int:
    lay = _layout(src)
    return (3 * bool(lay and not lay.top_only or src.glob("your_instagram_activity/*/*"))
            + 2 * bool(lay and lay.top_only)
            + 2 * bool(src.find("content/posts_1.json") and not src.glob("your_facebook_activity/*/*"))
            + bool(src.glob("personal_information/personal_information.json"))
            + bool(src.glob("media/posts/*/*")) + bool(_html(src)))


def _html(src: ExportSource) -> list[str]:
    return (src.glob("your_instagram_activity/media/posts_*.html") + src.glob("your_instagram_activity/content/posts_*.html")
            + src.glob("content/posts_*.html"))


def _geo(media: dict[str, Any]) -> dict[str, float] | None:
    md = media.get("media_metadata") or {}
    for key in ("photo_metadata", "video_metadata"):
        for ex in (md.get(key) or {}).get("exif_data") or []:
            if isinstance(ex, dict):
                g = valid_geo(ex.get("latitude"), ex.get("longitude"))
                if g:
                    return g
    return None


def _key(obj: dict[str, Any], media: list[dict[str, Any]]) -> tuple:
    """What makes two records the same post: their media files, else their time and caption."""
    uris = sorted(str(m.get("uri")) for m in media if m.get("uri"))
    if uris:
        return ("media", *uris)
    first = media[0] if media else {}
    return ("text", obj.get("creation_timestamp") or first.get("creation_timestamp"), obj.get("title") or first.get("title"))


def _add_items(acc: Account, name: str, items: list[Any], kind: str, prefix: str, one: str,
               seen: dict[tuple, str]) -> None:
    for obj in items:
        with acc.item(kind, name):
            if not isinstance(obj, dict):
                acc.summary.skip(kind, f"not a JSON object in {name}")
                continue
            media = [m for m in obj.get("media") or ([obj] if obj.get("uri") else []) if isinstance(m, dict)]
            first = media[0] if media else {}
            key = _key(obj, media)
            if key in seen:                  # a reel that repeats a post (the folder layout lists both)
                acc.summary.skip(kind, f"the same as {seen[key]} already imported (same media)")
                continue
            seen[key] = f"a {one}" if one != kind else f"an earlier {one}"
            caption = obj.get("title") or first.get("title") or ""     # one photo: the caption is media[0].title
            ts = obj.get("creation_timestamp") or first.get("creation_timestamp")
            geo = next((g for g in (_geo(m) for m in media) if g), None)
            pid = acc.new_id(prefix)
            post = {"post_id": pid, "timestamp": iso_from_epoch(ts), "caption": caption,
                    "tags": _hashtags(caption), "geo": geo, "kind": one}
            acc.add_post(kind, post)
            for m in media:
                uri = str(m.get("uri") or "")
                if not uri or uri.startswith("http"):
                    acc.summary.skip("media files", "only a web address, no file in the export")
                    continue
                acc.add_media(pid, acc.src.resolve(uri), uri=uri)
            if geo:
                acc.summary.add("geotags (EXIF latitude/longitude)")
                for m in acc.media.get(pid, []):
                    with_gps(m, geo, acc.summary)


def _hashtags(text: str) -> list[str]:
    import re

    return sorted(set(re.findall(r"#(\w+)", text or "")))[:50]


def _smd(obj: dict[str, Any], key: str) -> Any:
    v = ((obj.get("string_map_data") or {}).get(key) or {})
    return v.get("value") if "value" in v else v.get("timestamp")


def _list(data: Any, key: str) -> list[Any]:
    if isinstance(data, list):
        return data
    return (data.get(key) or next((v for v in data.values() if isinstance(v, list)), [])) if isinstance(data, dict) else []


def read(src: ExportSource, *, include_private: bool = False, **_: Any) -> Account:
    acc = Account(PLATFORM, src)
    lay = _layout(src)
    seen: dict[tuple, str] = {}
    files = members(src, lay.posts, top_only=lay.top_only) if lay else []
    for name in files:
        _add_items(acc, name, _list(fix_all(load_json(src, name)), "ig_posts"), "posts", "ig", "post", seen)
    for name in members(src, lay.stories, top_only=lay.top_only) if lay else []:
        _add_items(acc, name, _list(fix_all(load_json(src, name)), "ig_stories"), "stories", "st", "story", seen)
    for name in members(src, lay.reels, top_only=lay.top_only) if lay else []:
        _add_items(acc, name, _list(fix_all(load_json(src, name)), "ig_reels_media"), "reels", "rl", "reel", seen)
    n_threads = threads.read_into(acc, src)
    acc.summary.layout = lay.name if lay else None
    if n_threads and not files and not any(p.get("kind") in ("story", "reel") for p in acc.posts):
        acc.platform = "threads"
        acc.summary.layout = threads.LAYOUT
    elif n_threads and lay:
        acc.summary.layout = f"{lay.name}, with {threads.LAYOUT}"
    comments = members(src, lay.comments if lay else INSTAGRAM[1].comments + INSTAGRAM[2].comments)
    for name in comments:
        data = fix_all(load_json(src, name))
        rows = data if isinstance(data, list) else next((v for v in data.values() if isinstance(v, list)), [])
        for obj in rows:
            with acc.item("comments", name):
                text = _smd(obj, "Comment") if isinstance(obj, dict) else None
                if not text:
                    acc.summary.skip("comments", "no text")
                    continue
                owner = _smd(obj, "Media Owner")
                acc.add_post("comments on posts", {"post_id": acc.new_id("cm"), "caption": text,
                                                   "timestamp": iso_from_epoch(_smd(obj, "Time")),
                                                   "kind": "comment", "reply_to": f"@{owner}" if owner else None})
    for fname, what in NOT_PUBLIC.items():
        for name in src.find(f"your_instagram_activity/media/{fname}", f"your_instagram_activity/content/{fname}",
                             f"content/{fname}")[:1]:
            data = load_json(src, name)
            n = len(next((v for v in data.values() if isinstance(v, list)), [])) if isinstance(data, dict) else (
                len(data) if isinstance(data, list) else 0)
            acc.summary.skip(what, "not public", n)
    msgs = next((m for m in (src.glob(p) for p in MESSAGES) if m), [])
    if msgs:
        acc.summary.skip("direct message threads", "not public", len({m.rsplit("/", 1)[0] for m in msgs}))
    for name in next((m for m in (src.find(p) for p in PROFILE) if m), []):
        data = fix_all(load_json(src, name))
        users = data.get("profile_user") if isinstance(data, dict) else None
        if users and isinstance(users[0], dict):
            u = users[0]
            acc.profile.update({k: v for k, v in {"user_id": _smd(u, "Username"), "nickname": _smd(u, "Name"),
                                                  "bio": _smd(u, "Bio")}.items() if v})
            photo = ((u.get("media_map_data") or {}).get("Profile Photo") or {}).get("uri")
            if photo and (m := acc.src.resolve(photo)):
                from core.bench.importers.exports.common import load_media

                acc.avatar = load_media(src, m, acc.summary)
        break
    if not acc.posts and lay is None:
        from core.errors import InputError

        if _html(src):
            raise InputError(src.path, "this Instagram export is in HTML format: download it again with "
                                       "Format: JSON (Accounts Center > Your information and permissions > "
                                       "Download your information)")
        raise InputError(src.path, "no Instagram posts file in the export (looked for the layouts: "
                                   + "; ".join(lay.name for lay in INSTAGRAM) + f"; and {threads.LAYOUT})")
    return acc
