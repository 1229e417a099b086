"""Applying a plan: edits remove exactly what they claim and never touch the original."""
import hashlib
import json
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

from core.advise.apply import apply_plan
from core.advise.edits import Edit
from core.errors import InputError
from core.loader import load_user

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def _ocr_text(path: Path) -> str:
    res = _ocr_text.engine(str(path))  # type: ignore[attr-defined]
    return " ".join(res.txts or ())


@pytest.fixture(scope="module", autouse=True)
def _engine():
    from rapidocr import RapidOCR

    _ocr_text.engine = RapidOCR()  # type: ignore[attr-defined]


def _make_user(root: Path) -> Path:
    u = root / "u1"
    (u / "images").mkdir(parents=True)
    img = Image.new("RGB", (480, 200), (235, 230, 220))
    d = ImageDraw.Draw(img)
    d.text((20, 30), "PARCEL TO: Maple Court 12B", fill="black", font=ImageFont.truetype(FONT, 26))
    d.text((20, 120), "Have a nice day", fill="black", font=ImageFont.truetype(FONT, 26))
    exif = Image.Exif()
    exif[0x0132] = "2026:03:14 08:45:00"
    exif[0x010F] = "PhoneMaker"
    img.save(u / "images/p1_1.jpg", quality=95, exif=exif)
    (u / "profile.json").write_text(json.dumps({"user_id": "u1", "ip_region": "Guangdong"}))
    posts = [
        {"post_id": "p1", "caption": "new shoes arrived! live near Keyuan station lol", "ip_region": "Guangdong",
         "images": [{"file": "images/p1_1.jpg"}]},
        {"post_id": "p2", "caption": "gym again"},
    ]
    (u / "posts.jsonl").write_text("\n".join(json.dumps(p) for p in posts) + "\n")
    return u


def _digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_blur_strip_cut_delete_and_original_untouched(tmp_path):
    user = _make_user(tmp_path)
    before = _digest(user)
    assert "Maple Court" in _ocr_text(user / "images/p1_1.jpg")
    plan = [
        Edit(kind="blur_region", post_id="p1", image="images/p1_1.jpg", box=[15, 25, 420, 65]),
        Edit(kind="cut_phrase", post_id="p1", phrase="live near Keyuan station"),
        Edit(kind="hide_ip_region", post_id="p1"),
        Edit(kind="delete_post", post_id="p2"),
    ]
    out = apply_plan(user, plan, tmp_path / "edited")
    assert _digest(user) == before
    edited = load_user(out)
    assert [p.post_id for p in edited.posts] == ["p1"]
    assert "Keyuan" not in edited.posts[0].caption and "new shoes" in edited.posts[0].caption
    assert edited.posts[0].ip_region is None
    text = _ocr_text(out / "images/p1_1.jpg")
    assert "Maple" not in text and "Court" not in text
    assert "nice day" in text  # the rest of the image is still readable
    with Image.open(out / "images/p1_1.jpg") as im:
        assert len(im.getexif()) == 0


def test_strip_exif_only_and_remove_image(tmp_path):
    user = _make_user(tmp_path)
    out = apply_plan(user, [Edit(kind="strip_exif", post_id="p1", image="images/p1_1.jpg")], tmp_path / "a")
    with Image.open(user / "images/p1_1.jpg") as im:
        assert im.getexif().get(0x010F) == "PhoneMaker"
    with Image.open(out / "images/p1_1.jpg") as im:
        assert len(im.getexif()) == 0
    out2 = apply_plan(user, [Edit(kind="remove_image", post_id="p1", image="images/p1_1.jpg")], tmp_path / "b")
    assert load_user(out2).posts[0].images == []
    assert not (out2 / "images/p1_1.jpg").exists()


def test_refuses_to_write_inside_original(tmp_path):
    user = _make_user(tmp_path)
    with pytest.raises(InputError):
        apply_plan(user, [], user / "edited")


def test_account_wide_ip_hiding_and_profile_bio_cut(tmp_path):
    user = _make_user(tmp_path)
    prof = json.loads((user / "profile.json").read_text())
    prof["bio"] = "nurse at Ruijin Hospital | cat person"
    (user / "profile.json").write_text(json.dumps(prof))
    out = apply_plan(user, [Edit(kind="hide_ip_region", post_id="*"),
                            Edit(kind="cut_phrase", post_id="@profile", phrase="nurse at Ruijin Hospital")],
                     tmp_path / "c")
    edited = load_user(out)
    assert edited.profile.ip_region is None and all(p.ip_region is None for p in edited.posts)
    assert edited.profile.bio == "| cat person"
    assert load_user(user).profile.ip_region == "Guangdong"
