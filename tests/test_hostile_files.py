"""Files under hostile input, second round (issue 26): the one input guard also for posts.jsonl
and profile.json (no symlink escape, an unreadable file a clean error), image names matched
Unicode-normalised on both sides, outputs never written through a pre-placed link, folders
Argus creates 0700 whatever the umask."""
from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from faults import make_base  # noqa: E402

from core.errors import InputError
from core.loader import load_user
from db.store import UnsafeOutputError, open_append_private, private_dir, write_private
from tools.userfiles import user_file

ROOT = Path(__file__).resolve().parents[1]


def test_posts_jsonl_symlinked_outside_the_folder_is_refused(tmp_path):
    udir = make_base(tmp_path / "b")
    outside = tmp_path / "secret.jsonl"
    outside.write_text(json.dumps({"post_id": "x1", "caption": "SECRET outside text"}) + "\n", encoding="utf-8")
    (udir / "posts.jsonl").unlink()
    os.symlink(outside, udir / "posts.jsonl")
    with pytest.raises(InputError) as e:
        load_user(udir)
    assert "posts.jsonl" in e.value.file and "outside" in e.value.reason


def test_profile_json_symlinked_outside_is_refused_and_the_posts_load(tmp_path):
    udir = make_base(tmp_path / "b")
    outside = tmp_path / "other.json"
    outside.write_text(json.dumps({"user_id": "victim", "nickname": "SECRET"}), encoding="utf-8")
    (udir / "profile.json").unlink()
    os.symlink(outside, udir / "profile.json")
    errors: list[InputError] = []
    user = load_user(udir, errors=errors)
    assert user.profile.nickname != "SECRET" and user.profile.user_id == udir.name
    assert any(e.file.endswith("profile.json") and "outside" in e.reason for e in errors)
    assert user.posts


def _run_unprivileged(code: str) -> subprocess.CompletedProcess:
    """Python code run without the right to read through file modes (root reads chmod 000
    files: capsh drops that capability)."""
    cmd = [sys.executable, "-c", code]
    if os.getuid() == 0:
        import shlex
        import shutil

        if not shutil.which("capsh"):
            pytest.skip("running as root without capsh: chmod 000 cannot be enforced")
        cmd = ["capsh", "--drop=cap_dac_override,cap_dac_read_search", "--", "-c", shlex.join(cmd)]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})


@pytest.mark.parametrize("name", ["posts.jsonl", "profile.json"])
def test_unreadable_user_file_is_one_clean_error(tmp_path, name):
    udir = make_base(tmp_path / "b")
    os.chmod(udir / name, 0)
    code = ("from core.loader import load_user\nfrom core.errors import InputError\nerrs = []\n"
            f"try:\n    u = load_user({str(udir)!r}, errors=errs)\nexcept InputError as e:\n    errs.append(e)\n"
            "for e in errs:\n    print('CLEAN', e.message)\n")
    r = _run_unprivileged(code)
    assert "Traceback" not in r.stderr, r.stderr
    assert any(ln.startswith("CLEAN") and name in ln and "permission" in ln.lower() for ln in r.stdout.splitlines()), r.stdout


@pytest.mark.parametrize("disk_form,ref_form", [("NFD", "NFC"), ("NFC", "NFD")])
def test_image_name_matched_normalised_on_both_sides(tmp_path, disk_form, ref_form):
    udir = tmp_path / "u"
    (udir / "images").mkdir(parents=True)
    name = "café_été.jpg"
    (udir / "images" / unicodedata.normalize(disk_form, name)).write_bytes(b"\xff\xd8data")
    ref = "images/" + unicodedata.normalize(ref_form, name)
    assert user_file(udir, ref).name == unicodedata.normalize(disk_form, name)


def test_write_private_replaces_a_preplaced_link_and_leaves_its_target(tmp_path):
    target = tmp_path / "victim.txt"
    target.write_text("keep me", encoding="utf-8")
    out = tmp_path / "out" / "predictions"
    out.mkdir(parents=True)
    os.symlink(target, out / "u1.json")
    write_private(out / "u1.json", '{"user_id": "u1"}')
    assert target.read_text(encoding="utf-8") == "keep me"
    assert not (out / "u1.json").is_symlink() and stat.S_IMODE((out / "u1.json").stat().st_mode) == 0o600
    assert [p.name for p in out.iterdir()] == ["u1.json"]           # no temp file left


def test_append_refuses_a_preplaced_link(tmp_path):
    target = tmp_path / "victim.txt"
    target.write_text("keep me", encoding="utf-8")
    os.symlink(target, tmp_path / "results.jsonl")
    with pytest.raises(UnsafeOutputError, match="symbolic link"):
        open_append_private(tmp_path / "results.jsonl")
    assert target.read_text(encoding="utf-8") == "keep me"


def test_folders_created_private_under_umask_000(tmp_path):
    old = os.umask(0)
    try:
        d = private_dir(tmp_path / "a" / "b")
        write_private(tmp_path / "c" / "d" / "f.json", "{}")
    finally:
        os.umask(old)
    for p in (tmp_path / "a", d, tmp_path / "c", tmp_path / "c" / "d"):
        assert stat.S_IMODE(p.stat().st_mode) == 0o700, p


def test_predictions_folder_that_is_a_link_is_refused(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "out").mkdir()
    os.symlink(elsewhere, tmp_path / "out" / "predictions")
    with pytest.raises(UnsafeOutputError):
        write_private(tmp_path / "out" / "predictions" / "u.json", "{}")
    assert not list(elsewhere.iterdir())


def test_comment_floods_are_capped_and_reported(tmp_path):
    """200 comments of 20,000 characters (inside the per-field and per-post caps) took minutes to
    perceive: a post reads at most MAX_COMMENT_CHARS of comments, the rest reported."""
    from core.loader import MAX_COMMENT_CHARS

    udir = tmp_path / "u"
    udir.mkdir()
    post = {"post_id": "p1", "caption": "hi", "comments": [{"author": f"c{i}", "text": "x" * 20_000} for i in range(200)]}
    (udir / "posts.jsonl").write_text(json.dumps(post) + "\n", encoding="utf-8")
    errors: list[InputError] = []
    user = load_user(udir, errors=errors)
    kept = user.posts[0].comments
    assert sum(len(c.text) for c in kept) <= MAX_COMMENT_CHARS + 20_000 and len(kept) < 200
    assert any(e.field and e.field.startswith("comments.") and "not read" in e.reason for e in errors)
