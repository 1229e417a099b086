"""Apply a plan of edits to a COPY of a sopri/1 user folder (the original is never touched).

Only the public view is copied (profile.json, posts.jsonl, images); evaluation data is not
the advisor's business.
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from PIL import Image, ImageFilter

from core.advise.edits import Edit
from core.errors import InputError
from core.loader import load_user
from core.models import Post

PROFILE_POST = "@profile"   # the account profile (core.engine.perceiver.PROFILE_POST)
ALL_POSTS = "*"             # an account-wide edit (hide the IP region everywhere)


def _blur_box(img: Image.Image, box: list[float]) -> Image.Image:
    x0, y0, x1, y1 = (int(round(v)) for v in box)
    x0, y0 = max(0, x0 - 4), max(0, y0 - 4)
    x1, y1 = min(img.width, x1 + 4), min(img.height, y1 + 4)
    if x1 <= x0 or y1 <= y0:
        return img
    region = img.crop((x0, y0, x1, y1))
    # Pixelate then blur: strong enough that OCR no longer reads the text.
    small = region.resize((max(1, (x1 - x0) // 12), max(1, (y1 - y0) // 12)), Image.Resampling.BILINEAR)
    region = small.resize(region.size, Image.Resampling.NEAREST).filter(ImageFilter.GaussianBlur(6))
    img.paste(region, (x0, y0))
    return img


def _crop_out(img: Image.Image, box: list[float]) -> Image.Image:
    """Keep the largest band of the image that does not contain the box."""
    x0, y0, x1, y1 = (int(round(v)) for v in box)
    candidates = [
        (0, 0, img.width, max(0, y0)), (0, min(img.height, y1), img.width, img.height),
        (0, 0, max(0, x0), img.height), (min(img.width, x1), 0, img.width, img.height),
    ]
    best = max(candidates, key=lambda b: (b[2] - b[0]) * (b[3] - b[1]))
    if (best[2] - best[0]) * (best[3] - best[1]) <= 0:
        return Image.new(img.mode, (1, 1))
    return img.crop(best)


def _save_without_exif(img: Image.Image, dst: Path, fmt: str | None) -> None:
    fmt = fmt or ("PNG" if dst.suffix.lower() == ".png" else "JPEG")
    if fmt == "JPEG" and img.mode not in ("RGB", "L"):
        img = img.convert("RGB")
    params = {"quality": 92} if fmt == "JPEG" else {}
    img.save(dst, format=fmt, **params)  # no exif= argument: metadata is dropped


def edit_image(src: Path, dst: Path, edits: list[Edit]) -> None:
    """Blur/crop/strip as listed; any edit of an image also drops its EXIF (re-encoding)."""
    with Image.open(src) as im:
        fmt = im.format
        img = im.copy()
    for e in edits:
        if e.kind == "blur_region" and e.box:
            img = _blur_box(img, e.box)
    for e in edits:
        if e.kind == "crop_image" and e.box:
            img = _crop_out(img, e.box)
    _save_without_exif(img, dst, fmt)


def _cut(text: str | None, phrase: str) -> str | None:
    if text is None or phrase not in text:
        return text
    out = re.sub(r"\s{2,}", " ", text.replace(phrase, " ")).strip()
    return re.sub(r"\s+([,.;:!?，。；：！？、])", r"\1", out)  # no space left before punctuation


def apply_plan(user_dir: Path, edits: list[Edit], out_dir: Path) -> Path:
    """Write the edited copy of the account to out_dir and return it."""
    user_dir, out_dir = Path(user_dir).resolve(), Path(out_dir).resolve()
    if out_dir == user_dir or user_dir in out_dir.parents:
        raise InputError(out_dir, "the edited copy must not be written inside the original account")
    user = load_user(user_dir)
    if out_dir.exists():
        shutil.rmtree(out_dir)
    out_dir.mkdir(parents=True)

    by_post: dict[str, list[Edit]] = {}
    for e in edits:
        by_post.setdefault(e.post_id, []).append(e)

    profile = user.profile.model_dump(exclude_none=True)
    if any(e.kind == "hide_ip_region" and e.post_id in (ALL_POSTS, PROFILE_POST, "*profile*") for e in edits):
        profile.pop("ip_region", None)
    for e in by_post.get(PROFILE_POST, []):
        if e.kind == "cut_phrase" and e.phrase:
            for key in ("bio", "nickname"):
                if isinstance(profile.get(key), str):
                    profile[key] = _cut(profile[key], e.phrase)
    account_wide = [e for e in edits if e.kind == "hide_ip_region" and e.post_id == ALL_POSTS]
    (out_dir / "profile.json").write_text(json.dumps(profile, ensure_ascii=False, indent=1), encoding="utf-8")
    if user.profile.avatar and (avatar := _guarded(user_dir, user.profile.avatar)) is not None:
        _copy(avatar, out_dir / avatar.relative_to(user_dir))

    lines: list[str] = []
    for post in user.posts:
        pe = by_post.get(post.post_id, []) + account_wide
        if any(e.kind == "delete_post" for e in pe):
            continue
        lines.append(json.dumps(_edit_post(post, pe, user_dir, out_dir).model_dump(exclude_none=True), ensure_ascii=False))
    (out_dir / "posts.jsonl").write_text("\n".join(lines) + ("\n" if lines else ""), encoding="utf-8")
    return out_dir


def _edit_post(post: Post, edits: list[Edit], user_dir: Path, out_dir: Path) -> Post:
    post = post.model_copy(deep=True)
    for e in edits:
        if e.kind == "cut_phrase" and e.phrase:
            post.title = _cut(post.title, e.phrase)
            post.caption = _cut(post.caption, e.phrase)
            post.location_tag = _cut(post.location_tag, e.phrase) or None
            for ref in post.images or []:
                if ref is not None and ref.alt:
                    ref.alt = _cut(ref.alt, e.phrase) or None
            if post.tags:
                post.tags = [t for t in post.tags if t and e.phrase not in t]
            for c in post.comments or []:
                c.text = _cut(c.text, e.phrase)
        elif e.kind == "hide_ip_region":
            post.ip_region = None
    removed = {e.image for e in edits if e.kind == "remove_image"}
    kept = []
    for ref in post.images or []:
        if ref.file in removed:
            continue
        kept.append(ref)
        src = _guarded(user_dir, ref.file)
        if src is None:
            continue
        dst = out_dir / src.relative_to(user_dir)   # never outside out_dir, whatever ref.file says
        img_edits = [e for e in edits if e.image == ref.file and e.kind in ("blur_region", "crop_image", "strip_exif")]
        dst.parent.mkdir(parents=True, exist_ok=True)
        if img_edits:
            try:
                edit_image(src, dst, img_edits)
            except OSError as err:
                raise InputError(src, f"cannot edit image: {err}", field=f"{post.post_id}.images") from err
        else:
            _copy(src, dst)
    if post.images is not None:
        post.images = kept
    return post


def _guarded(user_dir: Path, rel: str) -> Path | None:
    """The user file through the engine's own guard (tools/userfiles.py); None when refused."""
    from tools.userfiles import UserFileError, user_file

    try:
        return user_file(user_dir, rel)
    except UserFileError:
        return None


def _copy(src: Path, dst: Path) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(src, dst)
