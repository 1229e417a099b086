"""Platform-export importers on synthetic exports (tests/export_fixtures.py): every layout
variant, `auto` naming the platform, the summary by kind and count, and the result accepted by
the sopri/1 validator."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from core.bench.importers.exports import import_export
from core.bench.validate import has_errors, validate_bench
sys.path.insert(0, str(Path(__file__).parent))
import export_fixtures as fx  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _posts(out: Path) -> list[dict]:
    (udir,) = (out / "users").iterdir()
    return [json.loads(line) for line in (udir / "posts.jsonl").read_text().splitlines()]


def _user(out: Path) -> Path:
    (udir,) = (out / "users").iterdir()
    return udir


def _ok(out: Path) -> None:
    problems = validate_bench(out)
    assert not has_errors(problems), [str(p) for p in problems]


VARIANTS = {
    "instagram-current-zip": ("instagram", lambda t: fx.zip_dir(fx.instagram(t / "e"), t / "ig.zip")),
    "instagram-old-folder": ("instagram", lambda t: fx.instagram(t / "e", layout="old")),
    "facebook-current-zip": ("facebook", lambda t: fx.zip_dir(fx.facebook(t / "e"), t / "fb.zip")),
    "facebook-old-folder": ("facebook", lambda t: fx.facebook(t / "e", layout="old")),
    "x-tweets-wrapped-zip": ("x", lambda t: fx.zip_dir(fx.x(t / "e"), t / "x.zip")),
    "x-tweet-bare-folder": ("x", lambda t: fx.x(t / "e", layout="tweet", wrapped=False)),
    "x-tweets-parts": ("x", lambda t: fx.x(t / "e", parts=True)),
    "reddit-zip": ("reddit", lambda t: fx.zip_dir(fx.reddit(t / "e"), t / "r.zip")),
    "mastodon-tar-gz": ("mastodon", lambda t: fx.mastodon(t / "e")),
    "mastodon-folder": ("mastodon", lambda t: fx.mastodon_dir(t / "e")),
    "bluesky-car": ("bluesky", lambda t: fx.bluesky(t / "e")[0]),
    "bluesky-zip": ("bluesky", lambda t: fx.zip_dir(fx.bluesky(t / "e")[0].parent, t / "bs.zip")),
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_auto_names_the_platform_and_the_result_validates(tmp_path: Path, variant: str) -> None:
    platform, make = VARIANTS[variant]
    src = make(tmp_path)
    r = import_export("auto", src, tmp_path / "out")
    assert r.platform == platform
    assert r.posts == len(_posts(tmp_path / "out")) > 0
    _ok(tmp_path / "out")
    r2 = import_export(platform, src, tmp_path / "out2")          # the named importer reads the same
    assert r2.posts == r.posts and r2.images == r.images


def test_instagram_mojibake_captions_media_and_geotags(tmp_path: Path) -> None:
    src = fx.zip_dir(fx.instagram(tmp_path / "e"), tmp_path / "ig.zip")
    r = import_export("instagram", src, tmp_path / "out")
    posts = {p["post_id"]: p for p in _posts(tmp_path / "out")}
    single = posts["ig00001"]
    # media[0].title is the caption of a single photo; the \u00e2\u0080\u0099 mojibake is repaired
    assert single["caption"] == "Morning coffee at my favourite café ☕ — can’t start without it #coffee"
    assert single["tags"] == ["coffee"] and single["geo"] == {"lat": 48.8566, "lon": 2.3522}
    from tools.exif import read_exif

    ex = read_exif(_user(tmp_path / "out") / single["images"][0]["file"])
    assert ex.gps_lat == pytest.approx(48.8566, abs=1e-3) and ex.gps_lon == pytest.approx(2.3522, abs=1e-3)
    carousel = posts["ig00002"]
    assert carousel["caption"] == "Carousel from the weekend hike"
    lines = r.summary.lines()
    assert {p["kind"] for p in posts.values()} == {"post", "story", "reel", "comment"}
    assert "skipped 1 direct message threads: not public" in lines
    assert "skipped 1 archived posts: not public" in lines
    assert "hidden from the profile" not in json.dumps(list(posts.values()))
    profile = json.loads((_user(tmp_path / "out") / "profile.json").read_text())
    assert profile["user_id"] == "person_ig" and profile["nickname"] == "Zoë Example"
    # webp copied, heic converted (pillow-heif), mp4 -> first frame (PyAV): each counted
    n_imgs = len(carousel["images"])
    expected = 1 + (fx.heic() is not None) + (fx.mp4() is not None)
    assert n_imgs == expected
    if fx.mp4() is not None:
        assert "read 2 videos: frames kept (the first, then one every 5 s, at most 3)" in lines
        assert "read 2 video frames" in lines                # short clips: their first frame


def test_a_long_video_keeps_a_frame_every_few_seconds(tmp_path: Path) -> None:
    video = fx.mp4(frames=14, rate=1)                       # 14 s: frames at 0, 5 and 10 s
    if video is None:
        pytest.skip("PyAV not installed")
    base = fx.mastodon_dir(tmp_path / "e")
    (base / "media_attachments/files/110/000/001/original/a1.jpg").unlink()
    (base / "media_attachments/files/110/000/001/original/a1.mp4").write_bytes(video)
    outbox = json.loads((base / "outbox.json").read_text())
    outbox["orderedItems"][0]["object"]["attachment"][0]["url"] = "/media_attachments/files/110/000/001/original/a1.mp4"
    (base / "outbox.json").write_text(json.dumps(outbox))
    r = import_export("mastodon", base, tmp_path / "out")
    first = _posts(tmp_path / "out")[0]
    assert len(first["images"]) == 3 and "read 3 video frames" in r.summary.lines()
    from PIL import Image

    colours = [Image.open(_user(tmp_path / "out") / i["file"]).convert("RGB").getpixel((5, 5))[0] for i in first["images"]]
    assert colours[0] < colours[1] < colours[2]             # frames from 0, 5 and 10 s, not the first three
    _ok(tmp_path / "out")


def test_video_without_pyav_is_a_count_not_a_failure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if fx.mp4() is None:
        pytest.skip("PyAV not installed: the fixture video cannot be made")
    src = fx.instagram(tmp_path / "e")
    monkeypatch.setitem(sys.modules, "av", None)       # as on a machine without the media extra
    r = import_export("instagram", src, tmp_path / "out")
    assert any(line.startswith("skipped 2 videos: PyAV not installed") for line in r.summary.lines())
    _ok(tmp_path / "out")


def test_facebook_places_links_media_comments(tmp_path: Path) -> None:
    import_export("facebook", fx.facebook(tmp_path / "e"), tmp_path / "out")
    posts = _posts(tmp_path / "out")
    by_text = {p.get("caption"): p for p in posts}
    assert by_text["Brunch with the team"]["location_tag"] == "Café Lumière"
    assert by_text["Brunch with the team"]["geo"] == {"lat": 45.764, "lon": 4.8357}
    assert by_text["Worth reading"]["links"] == ["https://example.org/article"]
    assert by_text["Graduation day!"]["images"][0]["file"].startswith("images/")
    assert by_text["See you at the reunion in Lyon!"]["kind"] == "comment"
    assert by_text["Finally moved into our new flat — so happy!"]["title"] == "Person Example updated her status."
    # album photos become posts, except the one a post already holds
    album = [p for p in posts if p.get("kind") == "photo"]
    assert [(p["title"], p["caption"]) for p in album] == [("Summer in Lyon", "Our street in spring")]
    assert len(album[0]["images"]) == 1


def test_x_prefix_tco_expansion_replies_media_geo(tmp_path: Path) -> None:
    import_export("x", fx.x(tmp_path / "e", parts=True), tmp_path / "out")
    posts = {p["source_id"]: p for p in _posts(tmp_path / "out")}
    assert posts["1001"]["caption"] == "Commute again, line 2 is packed https://example.org/metro-delays #monday"
    assert posts["1001"]["timestamp"] == "2026-03-14T08:45:00+00:00" and posts["1001"]["tags"] == ["monday"]
    assert posts["1002"]["kind"] == "reply" and posts["1002"]["reply_to"] == "@friend_b"
    assert posts["1003"]["caption"] == "View from the office"          # the photo's own t.co link removed
    assert posts["1003"]["geo"] == {"lat": 48.8584, "lon": 2.2945}      # GeoJSON lon, lat order
    assert len(posts["1003"]["images"]) == 1
    rt = posts["1004"]                                   # the retweeted words are @news's, kept as theirs
    assert rt["kind"] == "retweet" and "caption" not in rt
    assert rt["comments"] == [{"author": "@news", "text": "big storm tonight"}]
    profile = json.loads((_user(tmp_path / "out") / "profile.json").read_text())
    assert profile["avatar"] == "images/avatar.jpg" and profile["bio"] == "Engineer. Views my own."
    ordered = [p["timestamp"] for p in _posts(tmp_path / "out")]
    assert ordered == sorted(ordered)                   # posting order, whatever the file order


def test_reddit_declared_values_are_a_truth_file_not_posts(tmp_path: Path) -> None:
    from datetime import date

    r = import_export("reddit", fx.reddit(tmp_path / "e"), tmp_path / "out", today=date(2026, 3, 20))
    posts = _posts(tmp_path / "out")
    text = json.dumps(posts)
    assert "1991-06-02" not in text and "192.0.2." not in text        # birthdate and IPs not in the posts
    assert len(posts) == 3 and posts[0]["title"].startswith("Long run number 1")
    truth = json.loads((_user(tmp_path / "out") / "truth.json").read_text())
    by = {a["attribute"]: a for a in truth["leaked"]}
    assert [lv["value"] for lv in by["age"]["levels"]] == ["30s", "34"]
    assert by["gender"]["value"] == "male"
    assert r.declared == ["age", "gender"]
    assert "skipped 3 IP addresses: not public (the posts' `ip` column)" in r.summary.lines()
    profile = json.loads((_user(tmp_path / "out") / "profile.json").read_text())
    assert "1991" not in json.dumps(profile)


def test_reddit_truth_file_scores_a_run(tmp_path: Path) -> None:
    """The person scores Argus on their own account: eval reads the declared truth file."""
    from core.eval.judge import get_judge
    from core.eval.metrics import evaluate
    from core.models import PredictedAttribute, Predictions

    import_export("reddit", fx.reddit(tmp_path / "e"), tmp_path / "out")
    uid = _user(tmp_path / "out").name
    pred_dir = tmp_path / "pred"
    pred_dir.mkdir()
    pred = Predictions(user_id=uid, attributes=[PredictedAttribute(attribute="gender", value="male")])
    (pred_dir / f"{uid}.json").write_text(pred.model_dump_json())
    ev = evaluate(tmp_path / "out", pred_dir, get_judge("rules"), resamples=10)
    gs = {r.attribute: r.g for r in ev.leaked}
    assert gs == {"gender": 1.0, "age": 0.0}


def test_mastodon_private_posts_skipped_unless_asked(tmp_path: Path) -> None:
    src = fx.mastodon(tmp_path / "e")
    r = import_export("mastodon", src, tmp_path / "out")
    posts = _posts(tmp_path / "out")
    assert [p["kind"] for p in posts] == ["post", "reply", "repost"]
    assert posts[0]["caption"] == "Walking the dog along the canal & thinking.\n#dogs"
    assert posts[0]["images"][0]["alt"] == "A brown dog sitting by a canal lock"
    assert posts[1]["caption"] == "Agreed!\nSame in Utrecht."
    assert "skipped 1 direct messages: not public (use --include-private to keep them)" in r.summary.lines()
    assert "skipped 1 followers-only posts: not public (use --include-private to keep them)" in r.summary.lines()
    assert "address" not in json.dumps(posts)
    r2 = import_export("mastodon", src, tmp_path / "out2", include_private=True)
    assert r2.posts == 5
    profile = json.loads((_user(tmp_path / "out") / "profile.json").read_text())
    assert profile["bio"] == "Cyclist, Utrecht\nPronouns: she/her"


def test_bluesky_car_records_and_blobs(tmp_path: Path) -> None:
    car, _ = fx.bluesky(tmp_path / "a")
    r = import_export("bluesky", car, tmp_path / "out")
    posts = {p["caption"].split("\n")[0]: p for p in _posts(tmp_path / "out") if p.get("caption")}
    first = posts["First heron of spring at the river!"]
    assert first["tags"] == ["birding"] and first["timestamp"] == "2026-03-14T08:00:00+00:00"
    assert "A grey heron standing in shallow water" in first["caption"]     # no image: the alt text is kept
    assert posts["Same here, see you at the hide"]["kind"] == "reply"
    assert posts["Good read on wetlands"]["links"] == ["https://example.org/wetlands"]
    assert any("not in the CAR" in line for line in r.summary.lines())
    assert json.loads((_user(tmp_path / "out") / "profile.json").read_text())["bio"] == "Birder in Leeds"
    car2, blobs = fx.bluesky(tmp_path / "b", with_blobs=True)
    r2 = import_export("bluesky", car2, tmp_path / "out2", blobs=blobs)
    assert r2.images == 1 and not any("not in the CAR" in line for line in r2.summary.lines())
    _ok(tmp_path / "out2")
    r3 = import_export("auto", fx.zip_dir(car2.parent, tmp_path / "bs.zip"), tmp_path / "out3")   # blobs in the zip
    assert r3.platform == "bluesky" and r3.images == 1


def test_cli_import_prints_summary_and_refuses_the_wrong_platform(tmp_path: Path) -> None:
    src = fx.zip_dir(fx.x(tmp_path / "e"), tmp_path / "x.zip")
    run = lambda *a: subprocess.run([sys.executable, "-m", "argus_tui.cli", *a], capture_output=True, text=True,  # noqa: E731
                                    cwd=ROOT, env={"PATH": "/usr/bin:/bin", "COLUMNS": "80", "PYTHONPATH": str(ROOT)},
                                    stdin=subprocess.DEVNULL)
    p = run("import", "auto", str(src), str(tmp_path / "out"))
    assert p.returncode == 0, p.stderr
    assert "X (Twitter) export: 4 posts, 1 images" in p.stdout
    assert "read 2 tweets" in p.stdout and "skipped 1 direct message files: not public" in p.stdout
    q = run("import", "mastodon", str(src), str(tmp_path / "out2"))
    assert q.returncode == 2
    assert "not a Mastodon export" in q.stderr and "looks like a X (Twitter) export" in q.stderr
    assert not (tmp_path / "out2").exists()


def test_tz_writes_local_time(tmp_path: Path) -> None:
    from core.errors import InputError

    src = fx.x(tmp_path / "e")
    r = import_export("x", src, tmp_path / "out", tz="Europe/Paris")
    posts = {p["source_id"]: p for p in _posts(tmp_path / "out")}
    assert posts["1001"]["timestamp"] == "2026-03-14T09:45:00+01:00"      # 08:45 UTC, CET in March
    assert "timestamps converted to Europe/Paris (4 posts)" in r.summary.lines()
    with pytest.raises(InputError, match="unknown time zone"):
        import_export("x", src, tmp_path / "out2", tz="Mars/Olympus")
    assert not (tmp_path / "out2").exists()


def test_posts_in_posting_order_and_capped_at_the_loader_limit(tmp_path: Path, monkeypatch) -> None:
    import core.models

    monkeypatch.setattr(core.models, "MAX_POSTS", 3)
    folder = fx.x(tmp_path / "e")
    js = next(folder.rglob("tweets.js"))
    items = json.loads(js.read_text().split("=", 1)[1])
    js.write_text("window.YTD.tweets.part0 = " + json.dumps(items[::-1]))     # newest first, as X writes it
    r = import_export("x", folder, tmp_path / "out")
    posts = _posts(tmp_path / "out")
    assert [p["source_id"] for p in posts] == ["1002", "1003", "1004"]        # oldest dropped, order kept
    assert "skipped 1 older posts: over the 3-post limit of one account (the newest are kept)" in r.summary.lines()
