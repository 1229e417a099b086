"""Export layouts in use (issue 35): Instagram 2025 (your_instagram_activity/media/), the folder
layout with posts.json / reels.json at the top (a reel repeating a post imported once), Threads,
Facebook 2023 and a Facebook posts file found by its content, X long posts from note-tweet.js, a
Bluesky account named by its handle; each recognised by the files present and named in the summary."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from core.bench.importers.exports import import_export
from core.bench.validate import has_errors, validate_bench
from core.errors import InputError

sys.path.insert(0, str(Path(__file__).parent))
import export_fixtures as fx  # noqa: E402


def _posts(out: Path) -> list[dict]:
    (udir,) = (out / "users").iterdir()
    return [json.loads(line) for line in (udir / "posts.jsonl").read_text().splitlines()]


def _ok(out: Path) -> None:
    problems = validate_bench(out)
    assert not has_errors(problems), [str(p) for p in problems]


def test_instagram_2025_layout_media_folder(tmp_path: Path) -> None:
    src = fx.zip_dir(fx.instagram(tmp_path / "e", layout="2025"), tmp_path / "ig.zip")
    r = import_export("auto", src, tmp_path / "out")
    assert r.platform == "instagram"
    kinds = sorted(p["kind"] for p in _posts(tmp_path / "out"))
    assert kinds == ["comment", "post", "post", "reel", "story"]
    assert r.summary.layout.startswith("Instagram 2025")
    lines = r.summary.lines()
    assert "layout: " + r.summary.layout in lines
    assert any(line.endswith("your_instagram_activity/media/posts_1.json") and line.startswith("file read:")
               for line in lines)
    _ok(tmp_path / "out")


def test_instagram_folder_layout_reel_repeating_a_post_imported_once(tmp_path: Path) -> None:
    src = fx.instagram_folder(tmp_path / "e")
    r = import_export("auto", src, tmp_path / "out")
    posts = _posts(tmp_path / "out")
    assert r.platform == "instagram" and r.summary.layout.startswith("Instagram folder")
    assert [p["kind"] for p in posts] == ["post", "post"]            # the reel is the first post again
    assert sum(1 for p in posts if p.get("caption") == "Sunday market in Ghent #ghent") == 1
    assert r.summary.skipped[("reels", "the same as a post already imported (same media)")] == 1
    assert r.images == 3
    _ok(tmp_path / "out")


def test_a_posts_json_of_another_tool_is_not_taken_for_instagram(tmp_path: Path) -> None:
    (tmp_path / "e").mkdir()
    (tmp_path / "e" / "posts.json").write_text(json.dumps({"u1": [{"text": "hello", "created_at": "2024-01-01"}]}))
    with pytest.raises(InputError, match="layout not recognised.*posts.json: 1 records"):
        import_export("auto", tmp_path / "e", tmp_path / "out")


def test_threads_beside_instagram_posts(tmp_path: Path) -> None:
    src = fx.zip_dir(fx.instagram(tmp_path / "e", layout="2025", threads=True), tmp_path / "ig.zip")
    r = import_export("auto", src, tmp_path / "out")
    posts = _posts(tmp_path / "out")
    th = [p for p in posts if p.get("app") == "threads"]
    assert [p["kind"] for p in th] == ["thread", "reply", "thread"]
    assert th[0]["caption"] == "Moving to Lisbon next month, any tips for the Alfama?"
    assert len(th[2]["images"]) == 1                                  # its media, resolved under media/
    assert "Threads" in r.summary.layout and r.summary.read["Threads posts"] == 2
    assert r.platform == "instagram"


def test_threads_only_export(tmp_path: Path) -> None:
    src = fx.zip_dir(fx.threads_only(tmp_path / "e"), tmp_path / "th.zip")
    r = import_export("auto", src, tmp_path / "out")
    assert r.platform == "threads" and r.summary.layout.startswith("Threads")
    assert r.posts == 3
    assert json.loads((Path(r.user_dir) / "profile.json").read_text())["platform"] == "threads"
    r2 = import_export("threads", src, tmp_path / "out2")
    assert r2.posts == 3


def test_facebook_2023_layout(tmp_path: Path) -> None:
    src = fx.zip_dir(fx.facebook(tmp_path / "e", layout="2023"), tmp_path / "fb.zip")
    r = import_export("auto", src, tmp_path / "out")
    assert r.platform == "facebook" and r.summary.layout.startswith("Facebook 2023")
    posts = _posts(tmp_path / "out")
    assert {p.get("kind", "post") for p in posts} >= {"comment", "photo"}
    assert any(p.get("caption") == "Graduation day!" and p.get("images") for p in posts)
    _ok(tmp_path / "out")


def test_facebook_posts_file_moved_is_found_by_its_content(tmp_path: Path) -> None:
    base = fx.facebook(tmp_path / "e") / "facebook-person"
    old = base / "your_facebook_activity/posts/your_posts__check_ins__photos_and_videos_1.json"
    new = base / "your_facebook_activity/media/posts_1.json"
    new.parent.mkdir(parents=True, exist_ok=True)
    old.rename(new)
    r = import_export("auto", tmp_path / "e", tmp_path / "out")
    assert r.platform == "facebook" and "found by content" in r.summary.layout
    assert any(p.get("caption") == "Finally moved into our new flat — so happy!" for p in _posts(tmp_path / "out"))


def test_x_long_post_whole_text_from_note_tweet(tmp_path: Path) -> None:
    src = fx.zip_dir(fx.x(tmp_path / "e", notes=True), tmp_path / "x.zip")
    r = import_export("auto", src, tmp_path / "out")
    long = next(p for p in _posts(tmp_path / "out") if p.get("source_id") == "1005")
    assert long["caption"] == fx.LONG_POST                       # whole, not cut at 272 characters
    assert "teach first aid in Leeds" in long["caption"]
    assert r.summary.read["long posts: whole text from note-tweet.js"] == 1
    assert sum(n for (k, _), n in r.summary.skipped.items() if k == "long-post texts (note-tweet.js)") == 1
    assert "note-tweet.js" in r.summary.layout
    short = next(p for p in _posts(tmp_path / "out") if p.get("source_id") == "1001")
    assert short["caption"].startswith("Commute again")              # other tweets untouched


def test_bluesky_named_by_handle_not_did(tmp_path: Path) -> None:
    car, _ = fx.bluesky(tmp_path / "a", name="alice.example.com.20260320101500.car")
    r = import_export("auto", car, tmp_path / "out")
    assert Path(r.user_dir).name == "alice.example.com"
    car2, _ = fx.bluesky(tmp_path / "b", did="did:web:bob.example.org")
    r2 = import_export("auto", car2, tmp_path / "out2")
    assert Path(r2.user_dir).name == "bob.example.org"
    car3, _ = fx.bluesky(tmp_path / "c")                              # repo.car, did:plc: the display name
    r3 = import_export("auto", car3, tmp_path / "out3")
    assert Path(r3.user_dir).name == "Person_B"
    assert "testperson" not in Path(r3.user_dir).name
    assert any("no handle" in n for n in r3.summary.notes)


def test_x_long_post_is_not_given_a_note_that_does_not_start_with_its_words(tmp_path: Path) -> None:
    base = fx.x(tmp_path / "e", notes=True) / "twitter-2026-03-01"
    js = (base / "data/tweets.js").read_text()
    (base / "data/tweets.js").write_text(js.replace(fx.LONG_POST[:40], "Something else entirely, said the same second"))
    import_export("x", tmp_path / "e", tmp_path / "out")
    long = next(p for p in _posts(tmp_path / "out") if p.get("source_id") == "1005")
    assert "teach first aid" not in long["caption"]                  # precision: no foreign text attached


def test_x_note_named_by_the_tweet_itself(tmp_path: Path) -> None:
    base = fx.x(tmp_path / "e", notes=True) / "twitter-2026-03-01"
    js = (base / "data/tweets.js").read_text()
    # the same long post, dated a minute later than its note, but naming it
    js = js.replace('"created_at": "Wed Mar 18 21:10:05 +0000 2026"',
                    '"created_at": "Wed Mar 18 21:11:05 +0000 2026", "note_tweet": {"note_tweet_id": "77001"}')
    (base / "data/tweets.js").write_text(js)
    import_export("x", tmp_path / "e", tmp_path / "out")
    long = next(p for p in _posts(tmp_path / "out") if p.get("source_id") == "1005")
    assert long["caption"] == fx.LONG_POST
