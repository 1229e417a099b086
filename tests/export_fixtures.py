"""Small synthetic platform exports, written from the documented layouts (docs/importers.md,
"Platform exports"); no real person's data. Each builder writes an unpacked export folder and
returns it; `zip_dir` / `tar_dir` pack it as the platform's download does."""
from __future__ import annotations

import hashlib
import io
import json
import tarfile
import zipfile
from pathlib import Path

from PIL import Image


def jpeg(color=(200, 120, 40), size=(64, 48), exif_gps: tuple[float, float] | None = None) -> bytes:
    img = Image.new("RGB", size, color)
    out = io.BytesIO()
    kw = {}
    if exif_gps:
        ex = Image.Exif()
        lat, lon = exif_gps
        ex[0x8825] = {1: "N", 2: (float(int(lat)), float(int(lat % 1 * 60)), 0.0), 3: "E",
                      4: (float(int(lon)), float(int(lon % 1 * 60)), 0.0)}
        kw["exif"] = ex.tobytes()
    img.save(out, "JPEG", **kw)
    return out.getvalue()


def png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (32, 32), (10, 200, 90)).save(out, "PNG")
    return out.getvalue()


def webp() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (32, 32), (90, 20, 200)).save(out, "WEBP")
    return out.getvalue()


def mp4(frames: int = 3, rate: int = 10) -> bytes | None:
    """A tiny MPEG-4 video made with PyAV, or None when PyAV is not installed."""
    try:
        import av
    except ImportError:
        return None
    buf = io.BytesIO()
    with av.open(buf, "w", format="mp4") as c:
        s = c.add_stream("mpeg4", rate=rate)
        s.width, s.height, s.pix_fmt = 64, 48, "yuv420p"
        for i in range(frames):
            f = av.VideoFrame.from_image(Image.new("RGB", (64, 48), (20 * i, 100, 200)))
            for p in s.encode(f):
                c.mux(p)
        for p in s.encode():
            c.mux(p)
    return buf.getvalue()


def heic() -> bytes | None:
    try:
        import pillow_heif
    except ImportError:
        return None
    pillow_heif.register_heif_opener()
    out = io.BytesIO()
    try:
        Image.new("RGB", (32, 32), (240, 200, 10)).save(out, "HEIF")
    except Exception:
        return None
    return out.getvalue()


def _w(root: Path, rel: str, data: bytes | str) -> None:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)


def meta_json(obj) -> str:
    """JSON as Meta writes it: every non-ASCII character as its UTF-8 bytes, one \\u00XX each."""
    return _meta_escape(json.dumps(obj, ensure_ascii=False))


def _meta_escape(s: str) -> str:
    out = []
    for ch in s:
        if ord(ch) < 0x80:
            out.append(ch)
        else:
            out.extend(f"\\u00{b:02x}" for b in ch.encode("utf-8"))
    return "".join(out)


# ---- Instagram ----

def instagram(root: Path, *, layout: str = "current", top: str = "instagram-person_2026", threads: bool = False) -> Path:
    """layout: "current" (2024: your_instagram_activity/content/), "2025" (your_instagram_activity/media/),
    "old" (content/ at the top)."""
    base = root / top
    act = "your_instagram_activity/" if layout in ("current", "2025") else ""
    content = "media" if layout == "2025" else "content"
    posts = [
        {"media": [{"uri": "media/posts/202603/single.jpg", "creation_timestamp": 1773500000,
                    "title": "Morning coffee at my favourite café ☕ — can’t start without it #coffee",
                    "media_metadata": {"photo_metadata": {"exif_data": [{"latitude": 48.8566, "longitude": 2.3522}]}}}]},
        {"title": "Carousel from the weekend hike", "creation_timestamp": 1773600000,
         "media": [{"uri": "media/posts/202603/a.webp", "creation_timestamp": 1773600000, "title": ""},
                   {"uri": "media/posts/202603/b.heic", "creation_timestamp": 1773600000, "title": ""},
                   {"uri": "media/posts/202603/c.mp4", "creation_timestamp": 1773600000, "title": ""}]},
    ]
    _w(base, f"{act}{content}/posts_1.json", meta_json(posts))
    _w(base, f"{act}{content}/stories.json", meta_json({"ig_stories": [
        {"uri": "media/stories/202603/s1.jpg", "creation_timestamp": 1773700000, "title": "Late night at the studio"}]}))
    _w(base, f"{act}{content}/reels.json", meta_json({"ig_reels_media": [
        {"media": [{"uri": "media/reels/202603/r1.mp4", "creation_timestamp": 1773800000, "title": "Reel of my dog"}]}]}))
    _w(base, f"{act}comments/post_comments_1.json", meta_json([
        {"string_map_data": {"Comment": {"value": "Congrats on the new job!"}, "Media Owner": {"value": "friend_a"},
                             "Time": {"timestamp": 1773900000}}}]))
    _w(base, f"{act}messages/inbox/friend_a_1/message_1.json", meta_json({"messages": [{"content": "private"}]}))
    _w(base, f"{act}{content}/archived_posts.json", meta_json({"ig_archived_post_media": [
        {"media": [{"uri": "media/archived/x.jpg", "title": "hidden from the profile"}]}]}))
    if threads:
        threads_export(base)
    pi = ("personal_information/personal_information/personal_information.json" if layout != "old"
          else "personal_information/personal_information.json")
    _w(base, pi, meta_json({"profile_user": [{"string_map_data": {"Username": {"value": "person_ig"},
                                                                   "Name": {"value": "Zoë Example"},
                                                                   "Bio": {"value": "Designer · coffee"}}}]}))
    _w(base, "media/posts/202603/single.jpg", jpeg())
    _w(base, "media/posts/202603/a.webp", webp())
    h = heic()
    if h:
        _w(base, "media/posts/202603/b.heic", h)
    v = mp4()
    if v:
        _w(base, "media/posts/202603/c.mp4", v)
        _w(base, "media/reels/202603/r1.mp4", v)
    _w(base, "media/stories/202603/s1.jpg", jpeg((10, 10, 10)))
    return root


def threads_export(base: Path) -> Path:
    """your_instagram_activity/threads/threads_and_replies.json (text_post_app_text_posts): a text
    post, a reply, a post with a photo (media under media/, as Meta writes it)."""
    items = [
        {"title": "Moving to Lisbon next month, any tips for the Alfama?", "creation_timestamp": 1774000000,
         "media": [{"uri": "", "creation_timestamp": 1774000000, "title": "",
                    "text_app_post": {"is_reply": False}}]},
        {"title": "Thanks! I will try the tram 28", "creation_timestamp": 1774100000,
         "media": [{"uri": "", "creation_timestamp": 1774100000, "title": "", "text_app_post": {"is_reply": True}}]},
        {"title": "My new desk at the studio", "creation_timestamp": 1774200000,
         "media": [{"uri": "media/18069745118572866.jpg", "creation_timestamp": 1774200000, "title": ""}]},
    ]
    _w(base, "your_instagram_activity/threads/threads_and_replies.json",
       meta_json({"text_post_app_text_posts": items}))
    _w(base, "media/18069745118572866.jpg", jpeg((70, 140, 70)))
    return base


def threads_only(root: Path) -> Path:
    """A Threads download: the same Meta format with the Threads file and its media only."""
    base = root / "instagram-person-threads"
    threads_export(base)
    _w(base, "personal_information/personal_information/personal_information.json",
       meta_json({"profile_user": [{"string_map_data": {"Username": {"value": "person_th"}}}]}))
    return root


def instagram_folder(root: Path) -> Path:
    """The folder layout other export tools read: posts.json / reels.json at the top, media under
    media/posts/YYYYMM/; the reel repeats the first post (same media file and caption)."""
    base = root / "ig-folder"
    post = {"media": [{"uri": "media/posts/202401/17890000000000001.jpg", "creation_timestamp": 1704100000,
                       "title": "Sunday market in Ghent #ghent"}]}
    other = {"title": "Two from the trip", "creation_timestamp": 1704200000,
             "media": [{"uri": "media/posts/202401/17890000000000002.jpg", "creation_timestamp": 1704200000, "title": ""},
                       {"uri": "media/posts/202401/17890000000000003.jpg", "creation_timestamp": 1704200000, "title": ""}]}
    _w(base, "posts.json", meta_json([post, other]))
    _w(base, "reels.json", meta_json({"ig_reels_media": [dict(post)]}))
    for i, c in ((1, (10, 20, 30)), (2, (40, 50, 60)), (3, (70, 80, 90))):
        _w(base, f"media/posts/202401/1789000000000000{i}.jpg", jpeg(c))
    return base


# ---- Facebook ----

def facebook(root: Path, *, layout: str = "current") -> Path:
    """layout: "current" (2024-2025: your_facebook_activity/), "2023" (your_activity_across_facebook/),
    "old" (posts/ at the top)."""
    base = root / "facebook-person"
    if layout == "2023":
        facebook(root / "tmp23")
        import shutil

        src = root / "tmp23" / "facebook-person"
        for f in sorted(src.rglob("*")):
            if f.is_file():
                rel = f.relative_to(src).as_posix().replace("your_facebook_activity/", "your_activity_across_facebook/")
                data = f.read_bytes()
                if f.suffix == ".json":
                    data = data.replace(b"your_facebook_activity/", b"your_activity_across_facebook/")
                _w(base, rel, data)
        shutil.rmtree(root / "tmp23")
        return root
    pdir = "your_facebook_activity/posts" if layout == "current" else "posts"
    name = "your_posts__check_ins__photos_and_videos_1.json" if layout == "current" else "your_posts_1.json"
    posts = [
        {"timestamp": 1773500000, "title": "Person Example updated her status.",
         "data": [{"post": "Finally moved into our new flat — so happy!"}]},
        {"timestamp": 1773600000, "title": "Person Example checked in to Café Lumière.",
         "data": [{"post": "Brunch with the team"}],
         "attachments": [{"data": [{"place": {"name": "Café Lumière", "coordinate": {"latitude": 45.764, "longitude": 4.8357},
                                              "address": "1 Rue Example, Lyon"}}]}]},
        {"timestamp": 1773700000, "title": "Person Example shared a link.",
         "attachments": [{"data": [{"external_context": {"url": "https://example.org/article"}}]}],
         "data": [{"post": "Worth reading"}]},
        {"timestamp": 1773800000, "title": "Person Example added a new photo.",
         "attachments": [{"data": [{"media": {"uri": "your_facebook_activity/posts/media/album_1/p1.jpg",
                                              "creation_timestamp": 1773800000, "description": "Graduation day!",
                                              "media_metadata": {"photo_metadata": {"exif_data": [
                                                  {"latitude": 45.76, "longitude": 4.84}]}}}}]}]},
    ]
    _w(base, f"{pdir}/{name}", meta_json(posts))
    cdir = "your_facebook_activity/comments_and_reactions" if layout == "current" else "comments"
    _w(base, f"{cdir}/comments.json", meta_json({"comments_v2": [
        {"timestamp": 1773900000, "title": "Person Example commented on Friend's post.",
         "data": [{"comment": {"timestamp": 1773900000, "comment": "See you at the reunion in Lyon!",
                               "author": "Person Example"}}]}]}))
    _w(base, "personal_information/profile_information/profile_information.json",
       meta_json({"profile_v2": {"name": {"full_name": "Person Example"}, "username": "person.example"}}))
    _w(base, f"{pdir}/album/0.json", meta_json({"name": "Summer in Lyon", "photos": [
        {"uri": f"{pdir}/media/album_1/p1.jpg", "creation_timestamp": 1773800000, "title": "the post's photo again"},
        {"uri": f"{pdir}/media/album_1/p2.jpg", "creation_timestamp": 1773850000, "description": "Our street in spring"}]}))
    _w(base, f"{pdir}/media/album_1/p2.jpg", jpeg((200, 180, 20)))
    _w(base, "your_facebook_activity/posts/media/album_1/p1.jpg" if layout == "current" else "posts/media/album_1/p1.jpg",
       jpeg((30, 90, 160)))
    if layout != "current":
        posts[3]["attachments"][0]["data"][0]["media"]["uri"] = "posts/media/album_1/p1.jpg"
        _w(base, f"{pdir}/{name}", meta_json(posts))
    return root


# ---- X ----

LONG_POST = ("Long thread on why I left my job at the hospital after eleven years as a night-shift nurse: "
             "the rota, the pay, the staffing. " + "It was not one thing but all of them together. " * 4
             + "Now I teach first aid in Leeds and sleep at night.")


def x(root: Path, *, layout: str = "tweets", wrapped: bool = True, parts: bool = False, notes: bool = False) -> Path:
    base = root / "twitter-2026-03-01"
    media_dir = "data/tweets_media" if layout == "tweets" else "data/tweet_media"
    tweets = [
        {"id_str": "1001", "created_at": "Sat Mar 14 08:45:00 +0000 2026",
         "full_text": "Commute again, line 2 is packed https://t.co/abc1 #monday",
         "entities": {"urls": [{"url": "https://t.co/abc1", "expanded_url": "https://example.org/metro-delays"}],
                      "hashtags": [{"text": "monday"}]}},
        {"id_str": "1002", "created_at": "Sun Mar 15 10:00:00 +0000 2026", "full_text": "@friend_b yes, see you there",
         "in_reply_to_status_id_str": "999", "in_reply_to_screen_name": "friend_b", "entities": {}},
        {"id_str": "1003", "created_at": "Mon Mar 16 19:30:00 +0000 2026",
         "full_text": "View from the office https://t.co/pic1",
         "entities": {"media": [{"url": "https://t.co/pic1", "id_str": "5"}]},
         "extended_entities": {"media": [{"url": "https://t.co/pic1", "type": "photo"}]},
         "coordinates": {"type": "Point", "coordinates": [2.2945, 48.8584]}},
        {"id_str": "1004", "created_at": "Tue Mar 17 07:00:00 +0000 2026", "full_text": "RT @news: big storm tonight",
         "entities": {}},
    ]
    if notes:                               # a long post: tweets.js cuts it, note-tweet.js has it whole
        tweets.append({"id_str": "1005", "created_at": "Wed Mar 18 21:10:05 +0000 2026",
                       "full_text": LONG_POST[:272] + "… https://t.co/long1",
                       "entities": {"urls": [{"url": "https://t.co/long1",
                                              "expanded_url": "https://twitter.com/i/web/status/1005"}]}})
        _w(base, "data/note-tweet.js", "window.YTD.note_tweet.part0 = " + json.dumps([
            {"noteTweet": {"noteTweetId": "77001", "createdAt": "2026-03-18T21:10:05.000Z", "updatedAt": "2026-03-18T21:10:05.000Z",
                           "lifecycle": {"value": "initial"},
                           "core": {"text": LONG_POST, "urls": [], "mentions": [], "hashtags": [], "cashtags": [], "styletags": []}}},
            {"noteTweet": {"noteTweetId": "77002", "createdAt": "2026-03-01T10:00:00.000Z",
                           "core": {"text": "A long post whose tweet was deleted. " * 10, "urls": []}}}], indent=1))
    items = [{"tweet": t} if wrapped else t for t in tweets]
    if layout == "tweets":
        if parts:
            _w(base, "data/tweets.js", "window.YTD.tweets.part0 = " + json.dumps(items[:2], indent=1))
            _w(base, "data/tweets-part1.js", "window.YTD.tweets.part1 = " + json.dumps(items[2:], indent=1))
        else:
            _w(base, "data/tweets.js", "window.YTD.tweets.part0 = " + json.dumps(items, indent=1))
    else:
        _w(base, "data/tweet.js", "window.YTD.tweet.part0 = " + json.dumps(items, indent=1))
    _w(base, "data/account.js", "window.YTD.account.part0 = " + json.dumps(
        [{"account": {"username": "person_x", "accountDisplayName": "Person X", "createdAt": "2012-01-01T00:00:00.000Z"}}]))
    _w(base, "data/profile.js", "window.YTD.profile.part0 = " + json.dumps(
        [{"profile": {"description": {"bio": "Engineer. Views my own.", "location": "Paris"}}}]))
    _w(base, "data/direct-messages.js", "window.YTD.direct_messages.part0 = []")
    _w(base, f"{media_dir}/1003-Abc123.jpg", jpeg((120, 120, 120)))
    _w(base, "data/profile_media/12345-avatar.jpg", jpeg((250, 250, 250)))
    _w(base, "data/manifest.js", "window.__THAR_CONFIG = {}")
    return root


# ---- the platform's own inferences (documented structures; see docs/importers.md) ----

def x_inferences(base: Path) -> None:
    _w(base, "data/personalization.js", "window.YTD.personalization.part0 = " + json.dumps([{"p13nData": {
        "demographics": {"languages": [{"language": "English", "isDisabled": False}],
                         "genderInfo": {"gender": "female"}},
        "interests": {"interests": [{"name": "Nursing", "isDisabled": False}, {"name": "Cats", "isDisabled": True},
                                    {"name": "Public transit", "isDisabled": False}],
                      "partnerInterests": [], "audienceAndAdvertisers": {"numAudiences": "0", "advertisers": [],
                                                                         "lookalikeAdvertisers": []}, "shows": []},
        "locationHistory": [], "inferredAgeInfo": {"age": ["25-34"], "birthDate": ""}}}], indent=1))
    _w(base, "data/ageinfo.js", "window.YTD.ageinfo.part0 = " + json.dumps(
        [{"ageMeta": {"ageInfo": {"age": ["25-34"], "birthDate": ""}}}]))


def meta_inferences(base: Path, platform: str = "instagram") -> None:
    if platform == "instagram":
        _w(base, "ads_information/instagram_ads_and_businesses/ads_interests.json", meta_json({"inferred_data_ig_interest": [
            {"string_map_data": {"Interest": {"value": "Coffee"}}}, {"string_map_data": {"Interest": {"value": "Hiking"}}}]}))
        _w(base, "preferences/your_topics/recommended_topics.json", meta_json({"topics_your_topics": [
            {"string_map_data": {"Name": {"value": "Cafés"}}}]}))
        _w(base, "personal_information/information_about_you/account_based_in.json", meta_json(
            {"inferred_data_primary_location": [{"string_map_data": {"City Name": {"value": "Paris, Île-de-France"}}}]}))
    else:
        _w(base, "preferences/your_topics/your_topics.json", meta_json({"inferred_topics_v2": ["Brunch", "Lyon"]}))
        _w(base, "logged_information/location/primary_location.json", meta_json(
            {"primary_location_v2": {"city_region_pairs": [["Lyon", "Auvergne-Rhône-Alpes"]], "zipcode": ["69001"]}}))


# ---- Reddit ----

REDDIT_POSTS = "id,permalink,date,ip,subreddit,gildings,title,url,body\n"
REDDIT_COMMENTS = "id,permalink,date,ip,subreddit,gildings,link,parent,body,media\n"


def reddit(root: Path, *, posts: int = 2) -> Path:
    base = root / "export_person_20260301"
    rows = [f"p{i},https://www.reddit.com/r/running/comments/p{i}/x/,2026-03-{i % 27 + 1:02d} 08:00:00 UTC,"
            f"192.0.2.{i % 250},running,0,\"Long run number {i}, felt great\","
            f"https://www.reddit.com/r/running/comments/p{i}/x/,\"As a 34 year old nurse I finally ran 20k, {i}\"\n"
            for i in range(1, posts + 1)]
    _w(base, "posts.csv", REDDIT_POSTS + "".join(rows))
    _w(base, "comments.csv", REDDIT_COMMENTS +
       "c1,https://www.reddit.com/r/boston/comments/t1/x/c1/,2026-03-02 12:00:00 UTC,192.0.2.9,boston,0,"
       "https://www.reddit.com/r/boston/comments/t1/x/,t1_abc,\"My wife and I live near the Red Line, it's fine\",\n"
       "c2,https://www.reddit.com/r/boston/comments/t1/x/c2/,2026-03-03 12:00:00 UTC,,boston,0,"
       "https://www.reddit.com/r/boston/comments/t1/x/,t1_def,[deleted],\n")
    _w(base, "birthdate.csv", "birthdate,verified_birthdate\n1991-06-02,\n")
    _w(base, "account_gender.csv", "account_gender\nmale\n")
    _w(base, "statistics.csv", "statistic,value\naccount name,person_reddit\n")
    _w(base, "messages.csv", "id,message\n1,private\n")
    return root


# ---- Mastodon ----

PUBLIC = "https://www.w3.org/ns/activitystreams#Public"


def mastodon_dir(root: Path) -> Path:
    base = root / "mastodon-archive"
    me = "https://social.example/users/person"
    items = [
        {"type": "Create", "published": "2026-03-14T08:00:00Z", "object": {
            "id": f"{me}/statuses/1", "type": "Note", "published": "2026-03-14T08:00:00Z", "to": [PUBLIC],
            "cc": [f"{me}/followers"], "content": "<p>Walking the dog along the canal &amp; thinking.</p><p>#dogs</p>",
            "tag": [{"type": "Hashtag", "name": "#dogs"}],
            "attachment": [{"type": "Document", "mediaType": "image/jpeg",
                            "url": "/media_attachments/files/110/000/001/original/a1.jpg",
                            "name": "A brown dog sitting by a canal lock"}]}},
        {"type": "Create", "published": "2026-03-15T09:00:00Z", "object": {
            "id": f"{me}/statuses/2", "type": "Note", "to": [f"{me}/followers"], "cc": [],
            "published": "2026-03-15T09:00:00Z", "content": "<p>followers only: my address is ...</p>"}},
        {"type": "Create", "published": "2026-03-16T09:00:00Z", "object": {
            "id": f"{me}/statuses/3", "type": "Note", "to": ["https://social.example/users/friend"], "cc": [],
            "published": "2026-03-16T09:00:00Z", "content": "<p>a direct message</p>"}},
        {"type": "Create", "published": "2026-03-17T09:00:00Z", "object": {
            "id": f"{me}/statuses/4", "type": "Note", "to": [PUBLIC], "cc": [],
            "inReplyTo": "https://other.example/users/x/statuses/9",
            "published": "2026-03-17T09:00:00Z", "content": "<p>Agreed!<br>Same in Utrecht.</p>"}},
        {"type": "Announce", "published": "2026-03-18T09:00:00Z", "to": [PUBLIC],
         "object": "https://other.example/users/x/statuses/10"},
    ]
    _w(base, "outbox.json", json.dumps({"@context": "https://www.w3.org/ns/activitystreams", "type": "OrderedCollection",
                                        "totalItems": len(items), "orderedItems": items}))
    _w(base, "actor.json", json.dumps({"type": "Person", "preferredUsername": "person", "name": "Person M",
                                       "summary": "<p>Cyclist, Utrecht</p>", "attachment": [
                                           {"type": "PropertyValue", "name": "Pronouns", "value": "she/her"}]}))
    _w(base, "media_attachments/files/110/000/001/original/a1.jpg", jpeg((60, 40, 20)))
    return base


def mastodon(root: Path) -> Path:
    base = mastodon_dir(root / "unpacked")
    return tar_dir(base, root / "archive-20260320-abc.tar.gz")


# ---- Bluesky (a minimal atproto repo in a CARv1 file) ----

class Link(bytes):
    """A CID link (DAG-CBOR tag 42) for the tiny encoder below."""


class RawCBOR(bytes):
    """Bytes put in the encoding as they are (a value the encoder could not build, e.g. deep nesting)."""


def _head(major: int, n: int) -> bytes:
    if n < 24:
        return bytes([major << 5 | n])
    for add, size in ((24, 1), (25, 2), (26, 4), (27, 8)):
        if n < 1 << (8 * size):
            return bytes([major << 5 | add]) + n.to_bytes(size, "big")
    raise ValueError(n)


def cbor(v) -> bytes:
    """Deterministic DAG-CBOR (map keys sorted by length then bytes; links as tag 42)."""
    if v is None:
        return b"\xf6"
    if v is True or v is False:
        return b"\xf5" if v else b"\xf4"
    if isinstance(v, RawCBOR):
        return bytes(v)
    if isinstance(v, Link):
        return b"\xd8\x2a" + _head(2, len(v) + 1) + b"\x00" + bytes(v)
    if isinstance(v, int):
        return _head(0, v) if v >= 0 else _head(1, -1 - v)
    if isinstance(v, float):
        import struct

        return b"\xfb" + struct.pack(">d", v)
    if isinstance(v, bytes):
        return _head(2, len(v)) + v
    if isinstance(v, str):
        b = v.encode("utf-8")
        return _head(3, len(b)) + b
    if isinstance(v, list):
        return _head(4, len(v)) + b"".join(cbor(x) for x in v)
    if isinstance(v, dict):
        items = sorted(((k.encode(), val) for k, val in v.items()), key=lambda kv: (len(kv[0]), kv[0]))
        return _head(5, len(items)) + b"".join(cbor(k.decode()) + cbor(val) for k, val in items)
    raise TypeError(type(v))


def cid_of(block: bytes, codec: int = 0x71) -> Link:
    return Link(bytes([1, codec, 0x12, 0x20]) + hashlib.sha256(block).digest())


def _varint(n: int) -> bytes:
    out = b""
    while True:
        b, n = n & 0x7F, n >> 7
        if n:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])


def car(records: dict[str, dict], did: str = "did:plc:testperson0000") -> tuple[bytes, dict[str, bytes]]:
    """A CARv1 with a commit, a one-node MST and the records; returns (bytes, key -> record block)."""
    blocks: list[tuple[Link, bytes]] = []
    entries, prev = [], b""
    rec_blocks = {}
    for key in sorted(records):
        b = cbor(records[key])
        c = cid_of(b)
        blocks.append((c, b))
        rec_blocks[key] = b
        k = key.encode()
        p = 0
        while p < min(len(k), len(prev)) and k[p] == prev[p]:
            p += 1
        entries.append({"p": p, "k": k[p:], "v": c, "t": None})
        prev = k
    mst = cbor({"l": None, "e": entries})
    mst_cid = cid_of(mst)
    commit = cbor({"did": did, "version": 3, "data": mst_cid, "rev": "3kabc", "prev": None, "sig": b"\x00" * 8})
    commit_cid = cid_of(commit)
    header = cbor({"version": 1, "roots": [commit_cid]})
    out = _varint(len(header)) + header
    for c, b in [(commit_cid, commit), (mst_cid, mst), *blocks]:
        out += _varint(len(c) + len(b)) + bytes(c) + b
    return out, rec_blocks


def bluesky_records(image_blob: Link | None = None) -> dict[str, dict]:
    img = image_blob or cid_of(b"no such blob", 0x55)
    return {
        "app.bsky.actor.profile/self": {"$type": "app.bsky.actor.profile", "displayName": "Person B",
                                        "description": "Birder in Leeds"},
        "app.bsky.feed.post/3kaaa": {"$type": "app.bsky.feed.post", "text": "First heron of spring at the river!",
                                     "createdAt": "2026-03-14T08:00:00.000Z", "langs": ["en"],
                                     "facets": [{"index": {"byteStart": 0, "byteEnd": 5},
                                                 "features": [{"$type": "app.bsky.richtext.facet#tag", "tag": "birding"}]}],
                                     "embed": {"$type": "app.bsky.embed.images", "images": [
                                         {"alt": "A grey heron standing in shallow water",
                                          "image": {"$type": "blob", "ref": img, "mimeType": "image/jpeg", "size": 100}}]}},
        "app.bsky.feed.post/3kaab": {"$type": "app.bsky.feed.post", "text": "Same here, see you at the hide",
                                     "createdAt": "2026-03-15T08:00:00.000Z",
                                     "reply": {"root": {"uri": "at://did:plc:other/app.bsky.feed.post/1", "cid": "x"},
                                               "parent": {"uri": "at://did:plc:other/app.bsky.feed.post/1", "cid": "x"}}},
        "app.bsky.feed.post/3kaac": {"$type": "app.bsky.feed.post", "text": "Good read on wetlands",
                                     "createdAt": "2026-03-16T08:00:00.000Z",
                                     "embed": {"$type": "app.bsky.embed.external",
                                               "external": {"uri": "https://example.org/wetlands", "title": "Wetlands",
                                                            "description": ""}}},
        "app.bsky.feed.repost/3kaad": {"$type": "app.bsky.feed.repost", "createdAt": "2026-03-17T08:00:00.000Z",
                                       "subject": {"uri": "at://did:plc:other/app.bsky.feed.post/2", "cid": "y"}},
        "app.bsky.feed.like/3kaae": {"$type": "app.bsky.feed.like", "createdAt": "2026-03-17T09:00:00.000Z",
                                     "subject": {"uri": "at://did:plc:other/app.bsky.feed.post/3", "cid": "z"}},
    }


def bluesky(root: Path, *, with_blobs: bool = False, name: str = "repo.car",
            did: str = "did:plc:testperson0000") -> tuple[Path, Path | None]:
    """(the CAR, blobs folder or None); `name`: the file name the CAR is saved under."""
    import libipld

    root.mkdir(parents=True, exist_ok=True)
    blob_dir = None
    link = None
    if with_blobs:
        data = jpeg((90, 90, 60))
        link = cid_of(data, 0x55)
        blob_dir = root / "blobs"
        blob_dir.mkdir()
        (blob_dir / libipld.encode_cid(bytes(link))).write_bytes(data)
    data, _ = car(bluesky_records(link), did=did)
    p = root / name
    p.write_bytes(data)
    return p, blob_dir


# ---- packing ----

def zip_dir(folder: Path, dest: Path) -> Path:
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as z:
        for p in sorted(folder.rglob("*")):
            if p.is_file():
                z.write(p, p.relative_to(folder).as_posix())
    return dest


def tar_dir(folder: Path, dest: Path) -> Path:
    with tarfile.open(dest, "w:gz") as t:
        for p in sorted(folder.rglob("*")):
            if p.is_file():
                t.add(p, p.relative_to(folder).as_posix())
    return dest


# ---- a generated user written out as each platform's export (round trip) ----

def user_content(udir: Path) -> tuple[dict, list[dict]]:
    """(profile, posts) of a sopri/1 user as an export can hold them: per post the text (title and
    caption, one line each, as platforms keep them), the time, the image files."""
    profile = json.loads((udir / "profile.json").read_text(encoding="utf-8"))
    posts = []
    for line in (udir / "posts.jsonl").read_text(encoding="utf-8").splitlines():
        p = json.loads(line)
        raw = "\n".join(x for x in (p.get("title"), p.get("caption")) if x)
        text = "\n".join(s.strip() for s in raw.splitlines() if s.strip())
        posts.append({"id": p["post_id"], "text": text, "ts": p["timestamp"],
                      "images": [udir / i["file"] for i in p.get("images") or []]})
    return profile, posts


def hashtags(text: str) -> list[str]:
    import re

    return sorted(set(re.findall(r"#(\w+)", text)))


def reduced_user(udir: Path, dest: Path, *, images: bool, profile: bool, tags: bool) -> Path:
    """The user folder cut to what an export holds (no comments by others, location tags, IP
    region, language or avatar; images, nickname/bio and hashtags only where the export has them)."""
    prof, posts = user_content(udir)
    out = dest / prof["user_id"]
    (out / "images").mkdir(parents=True)
    keep = {"user_id": prof["user_id"]} | ({k: prof[k] for k in ("nickname", "bio") if prof.get(k)} if profile else {})
    (out / "profile.json").write_text(json.dumps(keep, ensure_ascii=False))
    lines = []
    for p in posts:
        rec = {"post_id": p["id"], "timestamp": p["ts"]}
        if p["text"]:
            rec["caption"] = p["text"]
        if tags and hashtags(p["text"]):
            rec["tags"] = hashtags(p["text"])
        if images and p["images"]:
            rec["images"] = []
            for f in p["images"]:
                (out / "images" / f.name).write_bytes(f.read_bytes())
                rec["images"].append({"file": f"images/{f.name}"})
        lines.append(json.dumps(rec, ensure_ascii=False) + "\n")
    (out / "posts.jsonl").write_text("".join(lines), encoding="utf-8")
    return out


def _epoch(ts: str) -> int:
    from datetime import datetime

    return int(datetime.fromisoformat(ts).timestamp())


def export_user(udir: Path, platform: str, root: Path) -> Path:
    """Write the user as `platform`'s export (the layouts the importers document) under root."""
    from datetime import datetime, timezone
    from html import escape

    prof, posts = user_content(udir)
    uid, nick, bio = prof["user_id"], prof.get("nickname") or "", prof.get("bio") or ""
    base = root / f"{platform}-export"
    if platform in ("instagram", "threads"):
        items = []
        for p in posts:
            ym = datetime.fromisoformat(p["ts"]).strftime("%Y%m")
            media = []
            for f in p["images"]:
                _w(base, f"media/posts/{ym}/{p['id']}_{f.name}", f.read_bytes())
                media.append({"uri": f"media/posts/{ym}/{p['id']}_{f.name}", "creation_timestamp": _epoch(p["ts"]),
                              "title": ""})
            items.append({"title": p["text"], "creation_timestamp": _epoch(p["ts"]), "media": media})
        if platform == "instagram":
            _w(base, "your_instagram_activity/media/posts_1.json", meta_json(items))
        else:
            _w(base, "your_instagram_activity/threads/threads_and_replies.json",
               meta_json({"text_post_app_text_posts": items}))
        _w(base, "personal_information/personal_information/personal_information.json", meta_json({"profile_user": [
            {"string_map_data": {"Username": {"value": uid}, "Name": {"value": nick}, "Bio": {"value": bio}}}]}))
    elif platform == "facebook":
        items = []
        for p in posts:
            att = []
            for f in p["images"]:
                uri = f"your_facebook_activity/posts/media/{p['id']}_{f.name}"
                _w(base, uri, f.read_bytes())
                att.append({"data": [{"media": {"uri": uri, "creation_timestamp": _epoch(p["ts"])}}]})
            items.append({"timestamp": _epoch(p["ts"]), "data": [{"post": p["text"]}] if p["text"] else [],
                          "attachments": att})
        _w(base, "your_facebook_activity/posts/your_posts__check_ins__photos_and_videos_1.json", meta_json(items))
        _w(base, "personal_information/profile_information/profile_information.json", meta_json(
            {"profile_v2": {"name": {"full_name": nick}, "username": uid, "intro_bio": {"value": bio}}}))
    elif platform == "x":
        tweets = []
        for i, p in enumerate(posts, 1):
            tid = str(1000 + i)
            created = datetime.fromisoformat(p["ts"]).astimezone(timezone.utc).strftime("%a %b %d %H:%M:%S +0000 %Y")
            for f in p["images"]:
                _w(base, f"data/tweets_media/{tid}-{f.name}", f.read_bytes())
            tweets.append({"tweet": {"id_str": tid, "created_at": created, "full_text": p["text"],
                                     "entities": {"hashtags": [{"text": t} for t in hashtags(p["text"])]},
                                     "extended_entities": {"media": [{"type": "photo"} for _ in p["images"]]}}})
        _w(base, "data/tweets.js", "window.YTD.tweets.part0 = " + json.dumps(tweets, ensure_ascii=False))
        _w(base, "data/account.js", "window.YTD.account.part0 = " + json.dumps(
            [{"account": {"username": uid, "accountDisplayName": nick}}], ensure_ascii=False))
        _w(base, "data/profile.js", "window.YTD.profile.part0 = " + json.dumps(
            [{"profile": {"description": {"bio": bio}}}], ensure_ascii=False))
    elif platform == "mastodon":
        me = f"https://social.example/users/{uid}"
        items = []
        for i, p in enumerate(posts, 1):
            att = []
            for f in p["images"]:
                url = f"/media_attachments/files/000/000/{i:03d}/original/{f.name}"
                _w(base, url.lstrip("/"), f.read_bytes())
                att.append({"type": "Document", "mediaType": "image/jpeg", "url": url})
            html = "".join(f"<p>{escape(line)}</p>" for line in p["text"].splitlines())
            items.append({"type": "Create", "published": p["ts"], "object": {
                "id": f"{me}/statuses/{i}", "type": "Note", "published": p["ts"], "to": [PUBLIC],
                "cc": [f"{me}/followers"], "content": html, "attachment": att,
                "tag": [{"type": "Hashtag", "name": f"#{t}"} for t in hashtags(p["text"])]}})
        _w(base, "outbox.json", json.dumps({"type": "OrderedCollection", "orderedItems": items}, ensure_ascii=False))
        _w(base, "actor.json", json.dumps({"type": "Person", "preferredUsername": uid, "name": nick,
                                           "summary": f"<p>{escape(bio)}</p>"}, ensure_ascii=False))
    elif platform == "bluesky":
        import libipld

        base.mkdir(parents=True)
        records = {"app.bsky.actor.profile/self": {"$type": "app.bsky.actor.profile", "displayName": nick,
                                                   "description": bio}}
        for i, p in enumerate(posts, 1):
            imgs = []
            for f in p["images"]:
                data = f.read_bytes()
                link = cid_of(data, 0x55)
                (base / libipld.encode_cid(bytes(link))).write_bytes(data)
                imgs.append({"alt": "", "image": {"$type": "blob", "ref": link, "mimeType": "image/jpeg",
                                                  "size": len(data)}})
            rec = {"$type": "app.bsky.feed.post", "text": p["text"], "tags": hashtags(p["text"]),
                   "createdAt": datetime.fromisoformat(p["ts"]).astimezone(timezone.utc).isoformat().replace("+00:00", "Z")}
            if imgs:
                rec["embed"] = {"$type": "app.bsky.embed.images", "images": imgs}
            records[f"app.bsky.feed.post/3k{i:04d}"] = rec
        data, _ = car(records)
        (base / "repo.car").write_bytes(data)
    elif platform == "reddit":
        import csv

        buf = io.StringIO()
        w = csv.writer(buf)
        w.writerow(["id", "permalink", "date", "ip", "subreddit", "gildings", "link", "parent", "body", "media"])
        for p in posts:
            date = datetime.fromisoformat(p["ts"]).astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
            w.writerow([p["id"], "", date, "", "", "0", "", "", p["text"], ""])
        _w(base, "comments.csv", buf.getvalue())
        _w(base, "statistics.csv", f"statistic,value\naccount name,{uid}\n")
    else:
        raise ValueError(platform)
    return base
