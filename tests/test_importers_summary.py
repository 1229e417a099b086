"""What an import says (issue 35 item 2, issue 37 item 6): the layout, every file read, every file
skipped and why, counts by kind; an unknown layout with post-like files is named as such with what
was found; a file that is no export at all is answered "not a recognised export"."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from core.bench.importers.exports import import_export
from core.errors import InputError

sys.path.insert(0, str(Path(__file__).parent))
import export_fixtures as fx  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def test_summary_names_layout_every_file_read_and_skipped(tmp_path: Path) -> None:
    base = fx.instagram(tmp_path / "e", layout="2025") / "instagram-person_2026"
    (base / "your_instagram_activity/likes").mkdir(parents=True)
    (base / "your_instagram_activity/likes/liked_posts.json").write_text("[]")
    (base / "media/posts/202603/orphan.jpg").write_bytes(fx.jpeg())
    r = import_export("instagram", tmp_path / "e", tmp_path / "out")
    s = r.summary
    assert s.layout.startswith("Instagram 2025")
    read = set(s.files_read)
    every = {p.relative_to(tmp_path / "e").as_posix() for p in (tmp_path / "e").rglob("*") if p.is_file()}
    assert read | set(s.files_skipped) == every and not read & set(s.files_skipped)   # each file, once
    top = "instagram-person_2026/"
    assert top + "your_instagram_activity/media/posts_1.json" in read
    assert top + "media/posts/202603/single.jpg" in read
    assert s.files_skipped[top + "your_instagram_activity/messages/inbox/friend_a_1/message_1.json"] == \
        "not public: private messages"
    assert s.files_skipped[top + "your_instagram_activity/likes/liked_posts.json"].startswith("not the account's own words")
    assert s.files_skipped[top + "media/posts/202603/orphan.jpg"] == "media that no imported post names"
    lines = s.lines()
    assert lines[0] == f"layout: {s.layout}"
    assert "read 2 posts" in lines and "read 1 reels" in lines and "read 1 stories" in lines
    assert any(line.startswith("files skipped (not public: private messages): ") for line in lines)
    doc = json.loads((tmp_path / "out" / "import.json").read_text())
    assert doc["layout"] == s.layout and set(doc["files_read"]) == read
    assert {d["file"] for d in doc["files_skipped"]} == set(s.files_skipped)


def test_unknown_layout_with_post_like_json_is_named_never_a_silent_zero(tmp_path: Path) -> None:
    d = tmp_path / "export"
    (d / "data").mkdir(parents=True)
    (d / "data/my_posts.json").write_text(json.dumps({"items": [
        {"body": "hello from my new flat", "created_at": "2025-05-01T10:00:00Z"},
        {"body": "second", "created_at": "2025-05-02T10:00:00Z"}]}))
    (d / "data/settings.json").write_text(json.dumps({"theme": "dark"}))
    with pytest.raises(InputError) as e:
        import_export("auto", d, tmp_path / "out")
    msg = e.value.message
    assert "layout not recognised" in msg and "data/my_posts.json: 2 records" in msg and "settings" not in msg
    assert not (tmp_path / "out").exists()


def test_a_recognised_platform_with_no_posts_says_what_it_read(tmp_path: Path) -> None:
    base = fx.instagram(tmp_path / "e", layout="2025") / "instagram-person_2026"
    act = base / "your_instagram_activity/media"
    for f in ("posts_1.json", "stories.json", "reels.json"):
        (act / f).write_text("[]")
    for f in (base / "your_instagram_activity/comments").iterdir():
        f.write_text("[]")
    with pytest.raises(InputError) as e:
        import_export("auto", tmp_path / "e", tmp_path / "out")
    assert "no posts found" in e.value.message and "Instagram 2025" in e.value.message
    assert "posts_1.json" in e.value.message


@pytest.mark.parametrize("name", ["README.md", "photo.jpg"])
def test_cli_audit_of_a_file_that_is_no_export(tmp_path: Path, name: str) -> None:
    f = tmp_path / name
    if name == "README.md":
        f.write_text((ROOT / "README.md").read_text())
    else:
        f.write_bytes(fx.jpeg())
    p = subprocess.run([sys.executable, "-m", "argus_tui.cli", "audit", str(f), "--out", str(tmp_path / "a"), "-q"],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    out = p.stdout + p.stderr
    assert p.returncode == 2, out
    assert "not a recognised export" in out and "CAR" not in out
