"""Instagram "Download your information" (JSON): posts, stories, reels, the account's own
comments, the profile. See docs/importers.md ("Instagram")."""
from __future__ import annotations

from typing import Any

from core.bench.importers.exports.common import Account, fix_all, iso_from_epoch, load_json, valid_geo, with_gps
from core.bench.importers.exports.source import ExportSource

PLATFORM = "instagram"
# current layout first, then the older one (no your_instagram_activity/ level)
POSTS = ("your_instagram_activity/content/posts_*.json", "content/posts_*.json")
STORIES = ("your_instagram_activity/content/stories.json", "content/stories.json")
REELS = ("your_instagram_activity/content/reels.json", "content/reels.json")
COMMENTS = ("your_instagram_activity/comments/post_comments*.json", "comments/post_comments*.json",
            "your_instagram_activity/comments/reels_comments.json", "comments/reels_comments.json")
PROFILE = ("personal_information/personal_information/personal_information.json",
           "personal_information/personal_information.json", "account_information/personal_information.json")
NOT_PUBLIC = {"archived_posts.json": "archived posts", "recently_deleted_content.json": "recently deleted posts"}
MESSAGES = ("your_instagram_activity/messages/inbox/*/message_*.json", "messages/inbox/*/message_*.json")


def _members(src: ExportSource, patterns: tuple[str, ...]) -> list[str]:
    """Members of the first layout that has any (so a folder holding both is not read twice)."""
    for pat in patterns:
        hit = src.glob(pat)
        if hit:
            return hit
    return []


def detect(src: ExportSource) -> int:
    return (3 * bool(src.find("your_instagram_activity/content/posts_1.json") or src.glob("your_instagram_activity/*/*"))
            + 2 * bool(src.find("content/posts_1.json") and not src.glob("your_facebook_activity/*/*"))
            + bool(src.glob("personal_information/personal_information.json"))
            + bool(src.glob("media/posts/*/*")) + bool(_html(src)))


def _html(src: ExportSource) -> list[str]:
    return src.glob("your_instagram_activity/content/posts_*.html") + src.glob("content/posts_*.html")


def _geo(media: dict[str, Any]) -> dict[str, float] | None:
    md = media.get("media_metadata") or {}
    for key in ("photo_metadata", "video_metadata"):
        for ex in (md.get(key) or {}).get("exif_data") or []:
            if isinstance(ex, dict):
                g = valid_geo(ex.get("latitude"), ex.get("longitude"))
                if g:
                    return g
    return None


def _add_items(acc: Account, name: str, items: list[Any], kind: str, prefix: str, one: str) -> None:
    for obj in items:
        with acc.item(kind, name):
            if not isinstance(obj, dict):
                acc.summary.skip(kind, f"not a JSON object in {name}")
                continue
            media = [m for m in obj.get("media") or ([obj] if obj.get("uri") else []) if isinstance(m, dict)]
            first = media[0] if media else {}
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


def read(src: ExportSource, *, include_private: bool = False, **_: Any) -> Account:
    acc = Account(PLATFORM, src)
    files = _members(src, POSTS)
    for name in files:
        data = fix_all(load_json(src, name))
        _add_items(acc, name, data if isinstance(data, list) else data.get("ig_posts") or [], "posts", "ig", "post")
    for name in _members(src, STORIES):
        data = fix_all(load_json(src, name))
        _add_items(acc, name, (data or {}).get("ig_stories") or [] if isinstance(data, dict) else data, "stories", "st", "story")
    for name in _members(src, REELS):
        data = fix_all(load_json(src, name))
        items = (data or {}).get("ig_reels_media") or [] if isinstance(data, dict) else data
        _add_items(acc, name, items, "reels", "rl", "reel")
    for name in _members(src, COMMENTS):
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
        for name in src.find(f"your_instagram_activity/content/{fname}", f"content/{fname}")[:1]:
            data = load_json(src, name)
            n = len(next((v for v in data.values() if isinstance(v, list)), [])) if isinstance(data, dict) else (
                len(data) if isinstance(data, list) else 0)
            acc.summary.skip(what, "not public", n)
    msgs = _members(src, MESSAGES)
    if msgs:
        acc.summary.skip("direct message threads", "not public", len({m.rsplit("/", 1)[0] for m in msgs}))
    for name in _members(src, PROFILE):
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
    if not files and not acc.posts:
        from core.errors import InputError

        if _html(src):
            raise InputError(src.path, "this Instagram export is in HTML format: download it again with "
                                       "Format: JSON (Accounts Center > Your information and permissions > "
                                       "Download your information)")
        raise InputError(src.path, "no Instagram posts file (your_instagram_activity/content/posts_1.json or "
                                   "content/posts_1.json) in the export")
    return acc
