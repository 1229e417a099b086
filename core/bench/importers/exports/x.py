"""X / Twitter archive: data/tweets.js (older data/tweet.js, split tweets-part<N>.js), media
from tweets_media/ (older tweet_media/), account.js and profile.js. See docs/importers.md ("X")."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from core.bench.importers.exports.common import Account, iso_from_text, load_json, load_media, valid_geo, with_gps
from core.bench.importers.exports.source import ExportSource
from core.errors import InputError

PLATFORM = "x"
TWEET_FILES = ("data/tweets.js", "data/tweets-part*.js", "data/tweet.js", "data/tweet-part*.js")
MEDIA_DIRS = ("data/tweets_media", "data/tweet_media")
CREATED = "%a %b %d %H:%M:%S %z %Y"     # "Wed Oct 10 20:19:24 +0000 2018"


def detect(src: ExportSource) -> int:
    return 3 * bool(_tweet_files(src)) + bool(src.find("data/account.js")) + bool(src.find("data/manifest.js"))


def _tweet_files(src: ExportSource) -> list[str]:
    out: list[str] = []
    for pat in TWEET_FILES:
        out += [m for m in src.glob(pat) if m not in out]
    return out


def _js_list(src: ExportSource, name: str) -> list[Any]:
    data = load_json(src, name, prefix_js=True)
    if not isinstance(data, list):
        raise InputError(src.where(name), f"expected a list after the window.YTD prefix, found {type(data).__name__}")
    return data


def _expand(text: str, entities: dict[str, Any]) -> str:
    for u in entities.get("urls") or []:
        if isinstance(u, dict) and u.get("url") and u.get("expanded_url"):
            text = text.replace(u["url"], u["expanded_url"])
    for m in entities.get("media") or []:        # the photo's own t.co link says nothing
        if isinstance(m, dict) and m.get("url"):
            text = text.replace(m["url"], "").strip()
    return text


def _media_index(src: ExportSource) -> dict[str, list[str]]:
    """tweet id -> its media files (`<tweet_id>-<name>` in tweets_media/ or tweet_media/)."""
    idx: dict[str, list[str]] = {}
    for n in src.names:
        parts = n.split("/")
        if len(parts) >= 3 and "/".join(parts[-3:-1]) in MEDIA_DIRS and "-" in parts[-1]:
            idx.setdefault(parts[-1].split("-", 1)[0], []).append(n)
    return idx


def read(src: ExportSource, *, include_private: bool = False, **_: Any) -> Account:
    acc = Account(PLATFORM, src)
    files = _tweet_files(src)
    if not files:
        raise InputError(src.path, "no X archive tweets file (data/tweets.js, data/tweet.js or "
                                   "data/tweets-part1.js) in the export")
    from core.bench.importers.exports import x_notes

    notes = x_notes.load(src, acc.summary)
    base = files[0].rsplit("/", 1)[-1]
    acc.summary.layout = ({"tweets.js": "X archive (data/tweets.js)", "tweet.js": "Twitter archive before 2022 (data/tweet.js)"}
                          .get(base, f"X archive (data/{base})") + (", split in parts" if len(files) > 1 else "")
                          + (", with long posts (data/note-tweet.js)" if notes.all else ""))
    media = _media_index(src)
    for name in files:
        for item in _js_list(src, name):
            with acc.item("tweets", name):
                t = item.get("tweet", item) if isinstance(item, dict) else None   # wrapped or bare
                if not isinstance(t, dict) or not (t.get("id_str") or t.get("id")):
                    acc.summary.skip("tweets", f"not a tweet object in {name}")
                    continue
                tid = str(t.get("id_str") or t.get("id"))
                ents = t.get("entities") or {}
                text = _expand(str(t.get("full_text") or t.get("text") or ""), ents)
                kind = "retweets" if text.startswith("RT @") else (
                    "replies" if t.get("in_reply_to_status_id_str") else "tweets")
                geo = None
                if isinstance(t.get("coordinates"), dict):        # GeoJSON order: lon, lat
                    c = t["coordinates"].get("coordinates") or []
                    geo = valid_geo(c[1], c[0]) if len(c) == 2 else None
                if geo is None and isinstance(t.get("geo"), dict):
                    c = t["geo"].get("coordinates") or []
                    geo = valid_geo(c[0], c[1]) if len(c) == 2 else None
                place = t.get("place") if isinstance(t.get("place"), dict) else {}
                created = iso_from_text(t.get("created_at"), CREATED)
                if kind != "retweets" and (whole := x_notes.complete(notes, created, text, t)):
                    text = whole
                    acc.summary.add("long posts: whole text from note-tweet.js")
                post = {"post_id": acc.new_id("t", tid), "timestamp": created,
                        "caption": text, "tags": [h.get("text") for h in ents.get("hashtags") or [] if isinstance(h, dict)],
                        "location_tag": place.get("full_name"), "geo": geo, "source_id": tid, "kind": {"retweets": "retweet", "replies": "reply"}.get(kind, "tweet"),
                        "in_reply_to": t.get("in_reply_to_status_id_str"),
                        "reply_to": f"@{t['in_reply_to_screen_name']}" if t.get("in_reply_to_screen_name") else None,
                        "links": [u.get("expanded_url") for u in ents.get("urls") or [] if isinstance(u, dict) and u.get("expanded_url")]}
                if kind == "retweets":              # the retweeted words are the other account's, not the person's
                    m = re.match(r"RT @(\w+):\s*(.*)", text, flags=re.S)
                    if m:
                        post["caption"] = None
                        post["comments"] = [{"author": f"@{m.group(1)}", "text": m.group(2)}]
                        post["repost_of"] = f"@{m.group(1)}"
                acc.add_post(kind, post)
                if geo:
                    acc.summary.add("geotags")
                wanted = (t.get("extended_entities") or ents).get("media") or []
                have = media.get(tid, [])
                for f in have:
                    acc.add_media(post["post_id"], f)
                if len(wanted) > len(have):
                    acc.summary.skip("media files", "named in the tweet but not in tweets_media/", len(wanted) - len(have))
                if geo:
                    for m in acc.media.get(post["post_id"], []):
                        with_gps(m, geo, acc.summary)
    x_notes.unused(notes, acc.summary)
    for name in src.find("data/account.js")[:1]:
        a = next((x.get("account") for x in _js_list(src, name) if isinstance(x, dict) and x.get("account")), {})
        acc.profile.update({k: v for k, v in {"user_id": a.get("username"), "nickname": a.get("accountDisplayName")}.items() if v})
    for name in src.find("data/profile.js")[:1]:
        p = next((x.get("profile") for x in _js_list(src, name) if isinstance(x, dict) and x.get("profile")), {})
        d = p.get("description") or {}
        acc.profile.update({k: v for k, v in {"bio": d.get("bio"), "location": d.get("location"),
                                              "website": d.get("website")}.items() if v})
    avatars = [n for n in src.names if "/profile_media/" in f"/{n}" and Path(n).suffix.lower() in (".jpg", ".jpeg", ".png")]
    if avatars:
        acc.avatar = load_media(src, avatars[0], acc.summary)
    dms = src.glob("data/direct-messages*.js")
    if dms:
        acc.summary.skip("direct message files", "not public", len(dms))
    return acc


