"""A generated corpus of broken user folders, one fault each, for the fault-injection suite
(tests/test_faults.py) and the probe script (benchmarks/fault_probe.py).

Each fault copies a small clean user (a few posts of tests/engine_user.py, two photos, no
text image so OCR is not needed) and breaks exactly one thing. `expect` is a word that the
recorded error (file, field and reason joined) must contain; None means the input is valid
and must load without any error (e.g. escape characters, which are kept as data).
"""
from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from PIL import Image

from engine_user import POSTS, photo_like

BASE_POSTS = [p for p in POSTS if p["post_id"] in ("p01", "p02", "p03", "p04", "p05")]
SURVIVOR = ("p03", "Nanshan District")     # a post the faults never touch, and a word of its caption
HUGE = "9" * 5000


@dataclass
class Fault:
    name: str
    mutate: Callable[[Path], None]
    file: str                  # the file the error must name
    expect: str | None         # a word the error must contain; None: valid input, no error at all


def make_base(root: Path, user_id: str = "u_fault") -> Path:
    udir = Path(root) / "users" / user_id
    (udir / "images").mkdir(parents=True, exist_ok=True)
    (udir / "profile.json").write_text(json.dumps({"user_id": user_id, "nickname": "night_owl_nurse",
                                                   "bio": "ICU nurse. Coffee first.", "ip_region": "Guangdong"}),
                                       encoding="utf-8")
    photo_like(udir / "images" / "p03_1.jpg", 1)
    photo_like(udir / "images" / "p05_1.jpg", 2)
    _write_posts(udir, BASE_POSTS)
    (Path(root) / "manifest.json").write_text(json.dumps({"format": "sopri/1", "users": [user_id]}), encoding="utf-8")
    return udir


def _write_posts(udir: Path, posts: list[dict], encoding: str = "utf-8") -> None:
    text = "\n".join(json.dumps(p, ensure_ascii=False) for p in posts) + "\n"
    (udir / "posts.jsonl").write_bytes(text.encode(encoding))


def _lines(udir: Path) -> list[str]:
    return (udir / "posts.jsonl").read_text(encoding="utf-8").splitlines()


def _add_line(line: str) -> Callable[[Path], None]:
    def m(udir: Path) -> None:
        _set_lines(udir, _lines(udir) + [line])
    return m


def _set_lines(udir: Path, lines: list[str]) -> None:
    (udir / "posts.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _add_post(**fields) -> Callable[[Path], None]:
    return _add_line(json.dumps({"post_id": "p99", "caption": "an extra post", **fields}, ensure_ascii=False))


def _raw_post(body: str) -> Callable[[Path], None]:
    """A post line written as raw JSON text (for values json.dumps cannot produce)."""
    return _add_line('{"post_id": "p99", "caption": "an extra post", ' + body + "}")


def _image(name: str, make: Callable[[Path], None]) -> Callable[[Path], None]:
    def m(udir: Path) -> None:
        make(udir / "images" / name)
        _add_post(images=[{"file": f"images/{name}"}])(udir)
    return m


def _profile(**fields) -> Callable[[Path], None]:
    def m(udir: Path) -> None:
        data = json.loads((udir / "profile.json").read_text(encoding="utf-8"))
        data.update(fields)
        (udir / "profile.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return m


def _profile_raw(text: str | bytes) -> Callable[[Path], None]:
    def m(udir: Path) -> None:
        p = udir / "profile.json"
        p.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return m


def _reencode(encoding: str, bom: bytes = b"") -> Callable[[Path], None]:
    def m(udir: Path) -> None:
        posts = BASE_POSTS + [{"post_id": "p99", "caption": "我住在南山区，每天坐地铁上班"}]
        text = "\n".join(json.dumps(p, ensure_ascii=False) for p in posts) + "\n"
        (udir / "posts.jsonl").write_bytes(bom + text.encode(encoding))
    return m


def _sibling_leak(udir: Path) -> None:
    sib = udir.parent / (udir.name + "x")
    sib.mkdir(parents=True, exist_ok=True)
    photo_like(sib / "leak.png", 3)
    _add_post(images=[{"file": f"../{udir.name}x/leak.png"}])(udir)


def _symlink(target: str | Callable[[Path], Path]) -> Callable[[Path], None]:
    def make(p: Path) -> None:
        t = target(p) if callable(target) else Path(target)
        os.symlink(t, p)
    return make


def _outside_file(p: Path) -> Path:
    out = p.parents[3] / "outside.jpg"
    photo_like(out, 4)
    return out


def _loop(p: Path) -> Path:
    os.symlink(p.with_name("loop_b.jpg"), p.with_name("loop_a.jpg"))
    return p.with_name("loop_a.jpg")


def _truncated_jpeg(p: Path) -> None:
    photo_like(p, 5)
    data = p.read_bytes()
    p.write_bytes(data[: len(data) // 2])


def _many_images(udir: Path) -> None:
    photo_like(udir / "images" / "many.jpg", 6)
    _add_post(images=[{"file": "images/many.jpg"}] * 40)(udir)


def _big_png(p: Path) -> None:
    Image.new("1", (8000, 8000), 1).save(p)


def _big_jpeg(p: Path) -> None:
    Image.new("L", (9000, 9000), 128).save(p, quality=20)


def _dup_id(udir: Path) -> None:
    _add_line(json.dumps({"post_id": "p01", "caption": "a second post with the first one's id"}))(udir)


def _bom(udir: Path) -> None:
    p = udir / "posts.jsonl"
    p.write_bytes(b"\xef\xbb\xbf" + p.read_bytes())


def _latin1_line(udir: Path) -> None:
    p = udir / "posts.jsonl"
    p.write_bytes(p.read_bytes() + '{"post_id": "p99", "caption": "café au lait"}\n'.encode("latin-1"))


def _crlf(udir: Path) -> None:
    p = udir / "posts.jsonl"
    p.write_bytes(p.read_bytes().replace(b"\n", b"\r\n"))


def _nested(depth: int) -> Callable[[Path], None]:
    return _raw_post('"extra": ' + "[" * depth + "]" * depth)


FAULTS: list[Fault] = [
    # numbers
    Fault("huge int in an extra field", _raw_post(f'"likes": {HUGE}'), "posts.jsonl", "likes"),
    Fault("huge int as post_id", _add_line(f'{{"post_id": {HUGE}, "caption": "x"}}'), "posts.jsonl", "post_id"),
    Fault("huge int in tags", _raw_post(f'"tags": ["ok", {HUGE}]'), "posts.jsonl", "tags.1"),
    Fault("huge int in a comment", _raw_post(f'"comments": [{{"author": "a", "text": {HUGE}}}]'), "posts.jsonl",
          "comments.0.text"),
    Fault("huge int in profile nickname", _profile_raw(f'{{"user_id": "u_fault", "nickname": {HUGE}}}'),
          "profile.json", "nickname"),
    Fault("huge float in an extra field", _raw_post('"score": 1e999'), "posts.jsonl", None),
    Fault("negative huge int", _raw_post(f'"likes": -{HUGE}'), "posts.jsonl", "likes"),
    # encodings and text
    Fault("latin-1 line", _latin1_line, "posts.jsonl", "UTF-8"),
    Fault("UTF-16 file with BOM", _reencode("utf-16-le", b"\xff\xfe"), "posts.jsonl", "UTF-16"),
    Fault("GB18030 file", _reencode("gb18030"), "posts.jsonl", "GB18030"),
    Fault("UTF-8 BOM", _bom, "posts.jsonl", None),
    Fault("CRLF line ends", _crlf, "posts.jsonl", None),
    Fault("lone surrogate in caption", _raw_post('"title": "bad \\ud800 text"'), "posts.jsonl", None),
    Fault("lone surrogate in nickname", _profile_raw('{"user_id": "u_fault", "nickname": "n\\udfffx"}'),
          "profile.json", None),
    Fault("escape sequences in caption", _add_post(title="\x1b[2J\x1b]0;PWNED\x07 hi"), "posts.jsonl", None),
    Fault("NUL and controls in caption", _add_post(title="a\x00b\x08c\x7f\x9bd"), "posts.jsonl", None),
    Fault("decomposed unicode", _add_post(title="Cafe\u0301 in Nanshan"), "posts.jsonl", None),
    Fault("profile UTF-16", _profile_raw(b"\xff\xfe" + '{"user_id": "u_fault"}'.encode("utf-16-le")),
          "profile.json", "UTF-16"),
    Fault("profile not UTF-8", _profile_raw(b'{"user_id": "u_fault", "bio": "\x80\x81"}'), "profile.json", "UTF-8"),
    # JSON shape
    Fault("broken JSON line", _add_line('{"post_id": "p99", "caption": "unterminated'), "posts.jsonl", "broken JSON"),
    Fault("line is an array", _add_line("[1, 2, 3]"), "posts.jsonl", "JSON object"),
    Fault("line is a number", _add_line("42"), "posts.jsonl", "JSON object"),
    Fault("deeply nested JSON", _nested(100_000), "posts.jsonl", "nested"),
    Fault("nested JSON within limits", _nested(20), "posts.jsonl", None),
    Fault("nested JSON over the depth cap", _nested(300), "posts.jsonl", "nested"),
    Fault("profile broken JSON", _profile_raw('{"user_id": "u_fault",'), "profile.json", "broken JSON"),
    Fault("profile not an object", _profile_raw("[1]"), "profile.json", "JSON object"),
    Fault("profile user_id int", _profile_raw('{"user_id": 5, "bio": "ICU nurse"}'), "profile.json", "user_id"),
    Fault("profile bio a list", _profile(bio=["a", "b"]), "profile.json", "bio"),
    # post ids
    Fault("post_id @profile", _add_line(json.dumps({"post_id": "@profile", "caption": "x"})), "posts.jsonl",
          "reserved"),
    Fault("empty post_id", _add_line(json.dumps({"post_id": "", "caption": "x"})), "posts.jsonl", "empty"),
    Fault("blank post_id", _add_line(json.dumps({"post_id": "   ", "caption": "x"})), "posts.jsonl", "empty"),
    Fault("duplicate post_id", _dup_id, "posts.jsonl", "duplicate"),
    Fault("post_id missing", _add_line(json.dumps({"caption": "x"})), "posts.jsonl", "post_id"),
    Fault("post_id with a slash and an image", _add_line(json.dumps({"post_id": "a/b", "caption": "x",
                                                                     "images": [{"file": "images/p03_1.jpg"}]})),
          "posts.jsonl", None),
    Fault("post_id like a node id", _add_line(json.dumps({"post_id": "post:p01", "caption": "x"})), "posts.jsonl",
          None),
    Fault("post_id a list", _add_line(json.dumps({"post_id": ["p9"], "caption": "x"})), "posts.jsonl", "post_id"),
    # field types (the field is dropped, the post kept)
    Fault("tags not a list", _add_post(tags="notalist"), "posts.jsonl", "tags"),
    Fault("tag item an object", _add_post(tags=["ok", {"x": 1}]), "posts.jsonl", "tags.1"),
    Fault("images not a list", _add_post(images="a.jpg"), "posts.jsonl", "images"),
    Fault("image item null", _add_post(images=[None]), "posts.jsonl", "images.0"),
    Fault("image without file", _add_post(images=[{"alt": "x"}]), "posts.jsonl", "images.0.file"),
    Fault("image alt an int", _add_post(images=[{"file": "images/p03_1.jpg", "alt": 5}]), "posts.jsonl",
          "images.0.alt"),
    Fault("comment a string", _add_post(comments=["hi"]), "posts.jsonl", "comments.0"),
    Fault("caption an object", _add_post(title={"a": 1}), "posts.jsonl", "title"),
    Fault("timestamp an int", _add_post(timestamp=20250101), "posts.jsonl", "timestamp"),
    Fault("ip_region a list", _add_post(ip_region=["Guangdong"]), "posts.jsonl", "ip_region"),
    # timestamps
    Fault("timestamp in 2041", _add_post(timestamp="2041-05-01T10:00:00+08:00"), "posts.jsonl", "plausible"),
    Fault("timestamp 9999-12-31", _add_post(timestamp="9999-12-31T23:59:59"), "posts.jsonl", "plausible"),
    Fault("timestamp 1970", _add_post(timestamp="1970-01-01T00:00:00Z"), "posts.jsonl", "plausible"),
    Fault("timestamp garbage", _add_post(timestamp="yesterday-ish"), "posts.jsonl", None),
    # caps
    Fault("40 images in a post", _many_images, "posts.jsonl", "images"),
    Fault("200 tags", _add_post(tags=[f"t{i}" for i in range(200)]), "posts.jsonl", "tags"),
    Fault("300 comments", _add_post(comments=[{"author": "a", "text": "nice"}] * 300), "posts.jsonl", "comments"),
    Fault("caption of 50k characters", _add_post(caption="na" * 25_000), "posts.jsonl", "caption"),
    # image files
    Fault("empty image name", _add_post(images=[{"file": ""}]), "posts.jsonl", "images.0.file"),
    Fault("image in a sibling folder", _sibling_leak, "posts.jsonl", "outside"),
    Fault("absolute image path", _add_post(images=[{"file": "/etc/hostname"}]), "posts.jsonl", "absolute"),
    Fault("image /dev/zero", _add_post(images=[{"file": "/dev/zero"}]), "posts.jsonl", "absolute"),
    Fault("image ../ to /dev/zero", _add_post(images=[{"file": "../../../../../../../../dev/zero"}]), "posts.jsonl",
          "outside"),
    Fault("symlink to /dev/zero", _image("zero.jpg", _symlink("/dev/zero")), "posts.jsonl", "outside"),
    Fault("FIFO named like an image", _image("fifo.jpg", lambda p: os.mkfifo(p)), "posts.jsonl", "FIFO"),
    Fault("symlink to a file outside", _image("out.jpg", _symlink(_outside_file)), "posts.jsonl", "outside"),
    Fault("symlink loop", _image("loop_b.jpg", _symlink(_loop)), "posts.jsonl", "loop_b.jpg"),
    Fault("folder named like an image", _image("dir.jpg", lambda p: p.mkdir()), "posts.jsonl", "folder"),
    Fault("empty image file", _image("empty.jpg", lambda p: p.write_bytes(b"")), "posts.jsonl", "empty"),
    Fault("text file named .jpg", _image("text.jpg", lambda p: p.write_text("hello")), "posts.jsonl", "image"),
    Fault("truncated JPEG", _image("trunc.jpg", _truncated_jpeg), "posts.jsonl", "trunc.jpg"),
    Fault("8000x8000 PNG", _image("big.png", _big_png), "posts.jsonl", "pixel"),
    Fault("9000x9000 JPEG", _image("big.jpg", _big_jpeg), "posts.jsonl", "pixel"),
    Fault("missing image", _add_post(images=[{"file": "images/nope.jpg"}]), "posts.jsonl", "not found"),
    Fault("image name with escapes", _add_post(images=[{"file": "images/\x1b[31mred.jpg"}]), "posts.jsonl",
          "not found"),
    Fault("image name with NUL", _add_post(images=[{"file": "images/a\x00.jpg"}]), "posts.jsonl", "NUL"),
]


def build(fault: Fault, root: Path) -> Path:
    """A fresh copy of the base user in root with the fault applied; returns the user folder."""
    if root.exists():
        shutil.rmtree(root)
    udir = make_base(root)
    fault.mutate(udir)
    return udir


def make_text_bench(root: Path, n: int = 6, *, renamed: int | None = 2) -> Path:
    """A bench of n text-only users (fast to investigate: no image, no OCR); user number
    `renamed` has a profile user_id that differs from its folder name."""
    root = Path(root)
    users = []
    for i in range(n):
        folder = f"u{i:03d}"
        uid = f"acct-{i}" if i == renamed else folder
        udir = root / "users" / folder
        udir.mkdir(parents=True, exist_ok=True)
        (udir / "profile.json").write_text(json.dumps({"user_id": uid, "nickname": f"n{i}"}), encoding="utf-8")
        posts = [{k: v for k, v in p.items() if k != "images"} for p in BASE_POSTS]
        _write_posts(udir, posts)
        users.append(folder)
    (root / "manifest.json").write_text(json.dumps({"format": "sopri/1", "users": users}), encoding="utf-8")
    return root
