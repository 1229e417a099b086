"""Hostile and broken exports: a clear error naming the file, and nothing written (neither
OUT_DIR nor anything outside it)."""
from __future__ import annotations

import io
import os
import stat
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from core.bench.importers.exports import import_export
from core.bench.importers.exports.source import Limits
from core.errors import InputError

sys.path.insert(0, str(Path(__file__).parent))
import export_fixtures as fx  # noqa: E402


def _refused(tmp_path: Path, src: Path, platform: str = "auto", **kw) -> str:
    before = set(tmp_path.rglob("*"))
    with pytest.raises(InputError) as ei:
        import_export(platform, src, tmp_path / "out", **kw)
    assert not (tmp_path / "out").exists()
    assert set(tmp_path.rglob("*")) == before            # nothing written anywhere under the test folder
    assert not Path("/tmp/argus-evil.txt").exists()
    return ei.value.message


def _x_zip(tmp_path: Path, extra: list[tuple[zipfile.ZipInfo | str, bytes]]) -> Path:
    folder = fx.x(tmp_path / "e")
    dest = fx.zip_dir(folder, tmp_path / "x.zip")
    with zipfile.ZipFile(dest, "a") as z:
        for info, data in extra:
            z.writestr(info, data)
    return dest


@pytest.mark.parametrize("name", ["../argus-evil.txt", "data/../../argus-evil.txt", "/tmp/argus-evil.txt",
                                  "C:/argus-evil.txt"])
def test_zip_slip_is_refused_naming_the_entry(tmp_path: Path, name: str) -> None:
    src = _x_zip(tmp_path, [(name, b"pwned")])
    msg = _refused(tmp_path, src)
    assert str(src) in msg and repr(name) in msg and ("zip slip" in msg)


def test_symlink_entry_in_zip_is_refused(tmp_path: Path) -> None:
    info = zipfile.ZipInfo("data/tweets_media/1003-link.jpg")
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    src = _x_zip(tmp_path, [(info, b"/etc/passwd")])
    msg = _refused(tmp_path, src)
    assert "symbolic link" in msg and "1003-link.jpg" in msg


def test_symlink_in_folder_is_refused(tmp_path: Path) -> None:
    folder = fx.x(tmp_path / "e")
    os.symlink("/etc/passwd", folder / "twitter-2026-03-01" / "data" / "tweets_media" / "1001-x.jpg")
    msg = _refused(tmp_path, folder)
    assert "symbolic link" in msg and "1001-x.jpg" in msg


def test_symlink_and_hardlink_in_tar_are_refused(tmp_path: Path) -> None:
    base = fx.mastodon_dir(tmp_path / "e")
    for kind in (tarfile.SYMTYPE, tarfile.LNKTYPE):
        dest = tmp_path / f"archive-{kind!r}.tar.gz"
        fx.tar_dir(base, tmp_path / "plain.tar")
        with tarfile.open(dest, "w:gz") as t, tarfile.open(tmp_path / "plain.tar") as src:
            for m in src.getmembers():
                t.addfile(m, src.extractfile(m))
            ti = tarfile.TarInfo("media_attachments/evil.jpg")
            ti.type, ti.linkname = kind, "/etc/passwd"
            t.addfile(ti)
        (tmp_path / "plain.tar").unlink()
        msg = _refused(tmp_path, dest)
        assert "link" in msg and "evil.jpg" in msg
        dest.unlink()


def test_tar_slip_is_refused(tmp_path: Path) -> None:
    dest = tmp_path / "archive-x.tar.gz"
    with tarfile.open(dest, "w:gz") as t:
        for name, data in (("outbox.json", b'{"orderedItems": []}'), ("../argus-evil.txt", b"x")):
            ti = tarfile.TarInfo(name)
            ti.size = len(data)
            t.addfile(ti, io.BytesIO(data))
    msg = _refused(tmp_path, dest)
    assert "zip slip" in msg and "argus-evil.txt" in msg


def test_zip_bomb_ratio_is_refused(tmp_path: Path) -> None:
    src = _x_zip(tmp_path, [])
    with zipfile.ZipFile(src, "a", zipfile.ZIP_DEFLATED) as z:
        z.writestr("data/tweets_media/1001-bomb.jpg", b"\0" * (8 * 1024 * 1024))
    msg = _refused(tmp_path, src)
    assert "zip bomb" in msg and "1001-bomb.jpg" in msg and "ratio" in msg


def test_total_size_cap(tmp_path: Path) -> None:
    src = fx.zip_dir(fx.x(tmp_path / "e"), tmp_path / "x.zip")
    msg = _refused(tmp_path, src, limits=Limits(max_total=2000))
    assert str(src) in msg and "over the 2000-byte limit" in msg


def test_lying_zip_header_is_caught_while_reading(tmp_path: Path) -> None:
    """A member that decompresses to more than its header says stops at the declared size."""
    src = fx.zip_dir(fx.x(tmp_path / "e"), tmp_path / "x.zip")
    raw = bytearray(src.read_bytes())
    with zipfile.ZipFile(src) as z:
        info = next(i for i in z.infolist() if i.filename.endswith("data/tweets.js"))
    # shrink the declared size in the central directory entry (uncompressed size at offset 24)
    pos = raw.find(info.filename.encode(), raw.find(b"PK\x01\x02")) - 46
    assert raw[pos:pos + 4] == b"PK\x01\x02"
    raw[pos + 24:pos + 28] = (info.file_size // 2).to_bytes(4, "little")
    src.write_bytes(bytes(raw))
    msg = _refused(tmp_path, src)
    assert f"{src}!{info.filename}" in msg


def test_wrong_platform_names_the_right_one(tmp_path: Path) -> None:
    src = fx.zip_dir(fx.reddit(tmp_path / "e"), tmp_path / "r.zip")
    msg = _refused(tmp_path, src, "instagram")
    assert msg.startswith(str(src)) and "not an Instagram export" in msg and "Reddit" in msg
    junk = tmp_path / "junk.zip"
    with zipfile.ZipFile(junk, "w") as z:
        z.writestr("notes/readme.txt", "hello")
    assert "not a recognised export" in _refused(tmp_path, junk)


def test_truncated_json_names_the_member(tmp_path: Path) -> None:
    folder = fx.instagram(tmp_path / "e")
    f = next(folder.rglob("posts_1.json"))
    f.write_bytes(f.read_bytes()[:-40])
    src = fx.zip_dir(folder, tmp_path / "ig.zip")
    msg = _refused(tmp_path, src)
    assert f"{src}!instagram-person_2026/your_instagram_activity/content/posts_1.json" in msg
    assert "truncated JSON" in msg


def test_truncated_x_js_names_the_file(tmp_path: Path) -> None:
    folder = fx.x(tmp_path / "e")
    f = next(folder.rglob("tweets.js"))
    f.write_text(f.read_text()[:120])
    msg = _refused(tmp_path, folder)
    assert str(f) in msg and "truncated JSON" in msg


def test_truncated_csv_names_file_and_line(tmp_path: Path) -> None:
    folder = fx.reddit(tmp_path / "e")
    f = next(folder.rglob("posts.csv"))
    f.write_bytes(f.read_bytes()[:-30])          # cuts inside the last quoted body
    msg = _refused(tmp_path, folder)
    assert str(f) in msg and ("truncated" in msg or "broken" in msg)


def test_non_utf8_names_the_file(tmp_path: Path) -> None:
    folder = fx.reddit(tmp_path / "e")
    f = next(folder.rglob("comments.csv"))
    f.write_bytes(f.read_bytes().replace(b"Red Line", "Rød Line".encode("latin-1")))
    msg = _refused(tmp_path, folder)
    assert str(f) in msg and "not UTF-8" in msg


def test_car_with_a_broken_block(tmp_path: Path) -> None:
    car, _ = fx.bluesky(tmp_path / "a")
    good = car.read_bytes()
    data = bytearray(good)
    i = data.find(b"First heron")
    data[i] = ord("f")                              # content no longer matches its CID
    car.write_bytes(bytes(data))
    msg = _refused(tmp_path, car)
    assert str(car) in msg and "does not match its hash" in msg
    car.write_bytes(good[: len(good) - 25])  # truncated inside the last block
    msg = _refused(tmp_path, car, "bluesky")
    assert str(car) in msg and "truncated CAR" in msg


def test_car_that_is_not_a_car(tmp_path: Path) -> None:
    p = tmp_path / "repo.car"
    p.write_bytes(b"\x05hello world")
    msg = _refused(tmp_path, p, "bluesky")
    assert str(p) in msg and "CAR" in msg


def test_out_dir_inside_the_export_folder_is_refused(tmp_path: Path) -> None:
    folder = fx.x(tmp_path / "e")
    with pytest.raises(InputError) as ei:
        import_export("x", folder, folder / "out")
    assert "inside the export folder" in ei.value.message and not (folder / "out").exists()


def test_out_dir_symlink_is_refused(tmp_path: Path) -> None:
    folder = fx.x(tmp_path / "e")
    (tmp_path / "elsewhere").mkdir()
    os.symlink(tmp_path / "elsewhere", tmp_path / "link")
    with pytest.raises(InputError) as ei:
        import_export("x", folder, tmp_path / "link")
    assert "symbolic link" in ei.value.message and not any((tmp_path / "elsewhere").iterdir())


@pytest.mark.parametrize("platform, path", [
    ("instagram", "your_instagram_activity/content/posts_1.html"),
    ("facebook", "your_facebook_activity/posts/your_posts__check_ins__photos_and_videos_1.html")])
def test_html_format_export_says_to_request_json(tmp_path: Path, platform: str, path: str) -> None:
    src = tmp_path / "meta.zip"
    with zipfile.ZipFile(src, "w") as z:
        z.writestr(f"export/{path}", "<html><body>posts</body></html>")
    msg = _refused(tmp_path, src)                   # auto names the platform, then explains
    assert "HTML format" in msg and "JSON" in msg and platform.capitalize() in msg


WRONG = [123, "x", [], {}, None, [1, "a"], {"a": 1}, True, -1.5]


def _mutate(v, rng, p: float):
    if isinstance(v, dict):
        return {k: (rng.choice(WRONG) if rng.random() < p else _mutate(x, rng, p)) for k, x in v.items()}
    if isinstance(v, list):
        return [(rng.choice(WRONG) if rng.random() < p else _mutate(x, rng, p)) for x in v]
    return v


@pytest.mark.parametrize("platform", ["instagram", "facebook", "x", "mastodon", "bluesky"])
def test_values_of_the_wrong_type_never_crash(tmp_path: Path, platform: str) -> None:
    """Every JSON value swapped at random for a number, list, object, null...: the import either
    succeeds (bad records skipped with a count) and validates, or is one InputError."""
    import json
    import random

    from core.bench.validate import has_errors, validate_bench

    outcomes = {"ok": 0, "refused": 0}
    for seed in range(12):
        t = tmp_path / str(seed)
        rng = random.Random(seed)
        if platform == "bluesky":
            recs = {k: v for k, v in _mutate(fx.bluesky_records(), rng, 0.25).items() if isinstance(v, dict)}
            t.mkdir()
            src = t / "repo.car"
            src.write_bytes(fx.car(recs)[0])
        else:
            src = {"instagram": fx.instagram, "facebook": fx.facebook, "x": fx.x,
                   "mastodon": fx.mastodon_dir}[platform](t / "e")
            for f in [f for f in src.rglob("*") if f.suffix in (".json", ".js")]:
                head, _, body = f.read_text().rpartition("= ") if f.suffix == ".js" else ("", "", f.read_text())
                try:
                    data = json.loads(body)
                except ValueError:
                    continue
                f.write_text((head + "= " if head else "") + json.dumps(_mutate(data, rng, 0.25)))
        try:
            import_export(platform, src, t / "out")
        except InputError as e:
            assert e.message
            outcomes["refused"] += 1
            continue
        assert not has_errors(validate_bench(t / "out"))
        outcomes["ok"] += 1
    assert outcomes["ok"] > 0          # most mutations lose records, not the whole export
