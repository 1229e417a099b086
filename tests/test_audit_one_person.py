"""One person per audit (issue 36): an export holding two accounts' exports is refused naming
both, `--account NAME` reads one of them only; nothing of the other is imported."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from core.bench.importers.exports import import_export
from core.errors import InputError

sys.path.insert(0, str(Path(__file__).parent))
import export_fixtures as fx  # noqa: E402


def _two_instagrams(tmp_path: Path) -> Path:
    root = tmp_path / "e"
    fx.instagram(root, top="instagram-alice_2026")
    fx.instagram(root, top="instagram-bob_2026")
    pi = root / "instagram-bob_2026" / "personal_information/personal_information/personal_information.json"
    pi.write_text(pi.read_text().replace("person_ig", "bob_ig"))
    cap = root / "instagram-bob_2026" / "your_instagram_activity/content/posts_1.json"
    cap.write_text(cap.read_text().replace("Morning coffee", "Bob's evening tea"))
    return root


@pytest.mark.parametrize("packed", [False, True])
def test_an_export_of_two_accounts_is_refused_naming_both(tmp_path: Path, packed: bool) -> None:
    src = _two_instagrams(tmp_path)
    if packed:
        src = fx.zip_dir(src, tmp_path / "both.zip")
    with pytest.raises(InputError) as ei:
        import_export("auto", src, tmp_path / "out")
    msg = ei.value.message
    assert "instagram-alice_2026" in msg and "instagram-bob_2026" in msg and "--account" in msg
    assert str(src) in msg and "\n" not in msg
    assert not (tmp_path / "out").exists()


def test_account_picks_one_and_reads_nothing_of_the_other(tmp_path: Path) -> None:
    src = fx.zip_dir(_two_instagrams(tmp_path), tmp_path / "both.zip")
    r = import_export("auto", src, tmp_path / "out", account="instagram-bob_2026")
    posts = (Path(r.user_dir) / "posts.jsonl").read_text()
    assert Path(r.user_dir).name == "bob_ig" and "Bob's evening tea" in posts and "Morning coffee" not in posts
    with pytest.raises(InputError) as ei:
        import_export("auto", src, tmp_path / "out2", account="carol")
    assert "carol" in ei.value.message and "instagram-alice_2026" in ei.value.message


def test_two_platforms_in_one_folder_are_two_accounts(tmp_path: Path) -> None:
    root = tmp_path / "e"
    fx.x(root)
    fx.reddit(root / "reddit-export")
    with pytest.raises(InputError) as ei:
        import_export("auto", root, tmp_path / "out")
    assert "X (Twitter)" in ei.value.message and "Reddit" in ei.value.message
    r = import_export("auto", root, tmp_path / "out", account="export_person_20260301")
    assert r.platform == "reddit"
    assert json.loads((tmp_path / "out" / "import.json").read_text())["platform"] == "reddit"


def test_one_account_with_two_layouts_is_one(tmp_path: Path) -> None:
    """The current layout's posts file also ends with the older layout's path: still one account."""
    r = import_export("auto", fx.instagram(tmp_path / "e"), tmp_path / "out")
    assert r.posts > 0
