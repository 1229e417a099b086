"""Time the platform-export importers and `argus audit` on synthetic exports (no real person's
data). Not a test: machine load changes the numbers.

    .venv/bin/python benchmarks/import_speed.py [--posts 5000] [--images 100]
    .venv/bin/python benchmarks/import_speed.py --audit [--audit-posts 200] [--audit-images 50]

Prints, per platform, the import time per 1,000 posts (zip as downloaded, N posts of which
--images carry a photo), and with --audit the wall time of `argus audit` (import, offline
investigation, advice, report) on an Instagram export of 200 posts with 50 photos, per stage.
"""
from __future__ import annotations

import argparse
import io
import json
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image, ImageDraw

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import export_fixtures as fx  # noqa: E402

CAPTIONS = [
    "Morning run along the river, {i} km today", "Lunch at the office canteen again",
    "Weekend trip to the coast with friends", "New recipe: lentil soup #cooking",
    "Stuck on the train, signal failure near the depot", "Finally finished the book club novel",
    "Gym session before work, legs day", "Coffee at the corner place, best flat white in town",
    "Visiting my parents this weekend", "Late night coding session #dev",
]


def photo(i: int, rng: random.Random) -> bytes:
    img = Image.new("RGB", (640, 480), (rng.randrange(256), rng.randrange(256), rng.randrange(256)))
    d = ImageDraw.Draw(img)
    d.rectangle((40, 40, 600, 140), fill="white")
    d.text((60, 70), f"Platform {i % 7 + 1}  Route {i % 40}", fill="black")
    out = io.BytesIO()
    img.save(out, "JPEG", quality=85)
    return out.getvalue()


def caption(i: int) -> str:
    return CAPTIONS[i % len(CAPTIONS)].format(i=i % 21 + 3) + f" ({i})"


def instagram(root: Path, n: int, images: int, rng: random.Random) -> Path:
    base = root / "instagram-bench"
    posts = []
    for i in range(n):
        m = {"uri": f"media/posts/2026/p{i}.jpg", "creation_timestamp": 1760000000 + i * 3600, "title": caption(i)}
        posts.append({"media": [m]} if i < images else {"media": [{**m, "uri": ""}], "title": caption(i)})
        if i < images:
            fx._w(base, m["uri"], photo(i, rng))
    fx._w(base, "your_instagram_activity/content/posts_1.json", fx.meta_json(posts))
    fx._w(base, "personal_information/personal_information/personal_information.json", fx.meta_json(
        {"profile_user": [{"string_map_data": {"Username": {"value": "bench_ig"}}}]}))
    return fx.zip_dir(base, root / "instagram.zip")


def facebook(root: Path, n: int, images: int, rng: random.Random) -> Path:
    base = root / "facebook-bench"
    posts = []
    for i in range(n):
        p = {"timestamp": 1760000000 + i * 3600, "data": [{"post": caption(i)}]}
        if i < images:
            uri = f"your_facebook_activity/posts/media/a/p{i}.jpg"
            p["attachments"] = [{"data": [{"media": {"uri": uri}}]}]
            fx._w(base, uri, photo(i, rng))
        posts.append(p)
    fx._w(base, "your_facebook_activity/posts/your_posts__check_ins__photos_and_videos_1.json", fx.meta_json(posts))
    return fx.zip_dir(base, root / "facebook.zip")


def x(root: Path, n: int, images: int, rng: random.Random) -> Path:
    base = root / "twitter-bench"
    items = [{"tweet": {"id_str": str(10_000 + i), "full_text": caption(i) + " https://t.co/x" + str(i),
                        "created_at": "Sat Mar 14 08:45:00 +0000 2026",
                        "entities": {"urls": [{"url": f"https://t.co/x{i}", "expanded_url": f"https://example.org/{i}"}]}}}
             for i in range(n)]
    fx._w(base, "data/tweets.js", "window.YTD.tweets.part0 = " + json.dumps(items))
    for i in range(images):
        fx._w(base, f"data/tweets_media/{10_000 + i}-m.jpg", photo(i, rng))
    return fx.zip_dir(base, root / "x.zip")


def reddit(root: Path, n: int, images: int, rng: random.Random) -> Path:
    base = root / "reddit-bench"
    half = n // 2
    fx._w(base, "posts.csv", fx.REDDIT_POSTS + "".join(
        f"p{i},https://r/{i},2026-03-01 08:00:00 UTC,,sub{i % 9},0,\"{caption(i)}\",,\"{caption(i + 1)}\"\n"
        for i in range(half)))
    fx._w(base, "comments.csv", fx.REDDIT_COMMENTS + "".join(
        f"c{i},https://r/c{i},2026-03-01 08:00:00 UTC,,sub{i % 9},0,https://r/t,t1_x,\"{caption(i)}\",\n"
        for i in range(n - half)))
    return fx.zip_dir(base, root / "reddit.zip")


def mastodon(root: Path, n: int, images: int, rng: random.Random) -> Path:
    base = root / "mastodon-bench"
    items = []
    for i in range(n):
        obj = {"id": f"https://s/{i}", "type": "Note", "to": [fx.PUBLIC], "published": "2026-03-14T08:00:00Z",
               "content": f"<p>{caption(i)}</p>"}
        if i < images:
            obj["attachment"] = [{"url": f"/media_attachments/files/{i}/original/p.jpg", "name": "a photo"}]
            fx._w(base, f"media_attachments/files/{i}/original/p.jpg", photo(i, rng))
        items.append({"type": "Create", "object": obj})
    fx._w(base, "outbox.json", json.dumps({"orderedItems": items}))
    return fx.tar_dir(base, root / "archive-bench.tar.gz")


def bluesky(root: Path, n: int, images: int, rng: random.Random) -> Path:
    recs = {f"app.bsky.feed.post/3k{i:08d}": {"$type": "app.bsky.feed.post", "text": caption(i),
                                              "createdAt": "2026-03-14T08:00:00.000Z"} for i in range(n)}
    data, _ = fx.car(recs)
    root.mkdir(parents=True, exist_ok=True)
    p = root / "repo.car"
    p.write_bytes(data)
    return p


BUILDERS = {"instagram": instagram, "facebook": facebook, "x": x, "reddit": reddit, "mastodon": mastodon,
            "bluesky": bluesky}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--posts", type=int, default=5000)
    ap.add_argument("--images", type=int, default=100)
    ap.add_argument("--audit", action="store_true", help="time `argus audit` instead")
    ap.add_argument("--audit-posts", type=int, default=200)
    ap.add_argument("--audit-images", type=int, default=50)
    args = ap.parse_args()
    from core.bench.importers.exports import import_export
    import db.store  # noqa: F401  (module import once, outside the timings)

    tmp = Path(tempfile.mkdtemp(prefix="argus-importspeed-"))
    rng = random.Random(0)
    try:
        if args.audit:
            from core.audit import run_audit

            src = instagram(tmp / "src", args.audit_posts, args.audit_images, rng)
            t0 = time.perf_counter()
            res = run_audit(src, tmp / "audit")
            wall = time.perf_counter() - t0
            stages = ", ".join(f"{k} {v:.1f}s" for k, v in res.seconds.items())
            print(f"argus audit, Instagram export of {res.posts} posts with {res.images} images: {wall:.1f}s wall "
                  f"({stages}); {len(res.attributes)} attributes, {len(res.advice_steps)} edits advised")
            return
        print(f"import time per 1,000 posts ({args.posts} posts, {args.images} with a photo, as downloaded)")
        print("platform\tposts\tseconds\ts per 1,000 posts")
        for name, build in BUILDERS.items():
            src = build(tmp / name, args.posts, args.images, rng)
            t0 = time.perf_counter()
            r = import_export(name, src, tmp / f"out-{name}")
            dt = time.perf_counter() - t0
            print(f"{name}\t{r.posts}\t{dt:.2f}\t{dt / r.posts * 1000:.3f}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
