"""Step 4: images with Pillow. Scenes that carry the planned visual/OCR cues at realistic sizes
(small text 14-28 px on paper, larger on signs), with some rotation, blur, sensor noise and
JPEG artefacts over photo-like backgrounds; screenshots are PNG. EXIF DateTimeOriginal on most
photos and GPS where the plan puts it.

Everything random comes from a per-image random.Random (no numpy, no C rand()), so the same
seed gives byte-identical files for the same Pillow build.
"""
from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from core import fonts
from core.errors import InputError

CJK_FONT = fonts.cjk_font() or Path(fonts.CJK_FONTS[0][0])  # any Debian CJK font (core/fonts.py)
LATIN_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
LATIN_BOLD = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
SERIF_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf")
SERIF_BOLD = Path("/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf")      # style b (images_b)
MONO_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf")
MONO_BOLD = Path("/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf")
FONT_PACKAGES = {CJK_FONT: fonts.CJK_PACKAGE, LATIN_FONT: "fonts-dejavu-core", LATIN_BOLD: "fonts-dejavu-core",
                 SERIF_FONT: "fonts-dejavu-core", SERIF_BOLD: "fonts-dejavu-core", MONO_FONT: "fonts-dejavu-core",
                 MONO_BOLD: "fonts-dejavu-core"}


def check_fonts() -> None:
    """Fail early, naming the OS package to install, when a font the generator needs is absent."""
    for path, pkg in FONT_PACKAGES.items():
        if not path.is_file():
            raise InputError(path, f"font not found; install it with `apt-get install {pkg}` (or `make fonts`)")


@lru_cache(maxsize=256)
def font(size: int, cjk: bool = False, bold: bool = False, serif: bool = False) -> ImageFont.FreeTypeFont:
    if cjk:
        return ImageFont.truetype(str(CJK_FONT), size)
    if serif:
        return ImageFont.truetype(str(SERIF_FONT), size)
    return ImageFont.truetype(str(LATIN_BOLD if bold else LATIN_FONT), size)


def has_cjk(text: str) -> bool:
    return any(ord(c) >= 0x2E80 for c in text)


def tfont(text: str, size: int, bold: bool = False, serif: bool = False) -> ImageFont.FreeTypeFont:
    # DejaVu lacks CJK and some symbols (→, ㎡): WenQuanYi covers both scripts
    return font(size, cjk=has_cjk(text) or "→" in text or "㎡" in text, bold=bold, serif=serif)


def text_w(text: str, f: ImageFont.FreeTypeFont) -> int:
    return int(f.getlength(text))


# ------------------------------------------------------------------ backgrounds and finishing
PALETTES = {
    "food": ((196, 150, 104), (120, 72, 40), (236, 220, 190)), "commute": ((90, 100, 115), (40, 44, 52), (160, 170, 180)),
    "work": ((200, 200, 196), (110, 120, 130), (240, 240, 236)), "family": ((210, 180, 150), (150, 110, 90), (240, 225, 210)),
    "study": ((170, 150, 120), (90, 70, 50), (230, 220, 200)), "shopping": ((220, 200, 210), (150, 120, 140), (245, 235, 240)),
    "health": ((200, 220, 225), (120, 150, 160), (240, 248, 250)), "travel": ((120, 170, 220), (60, 120, 80), (240, 220, 180)),
    "pets": ((180, 160, 140), (100, 90, 80), (230, 220, 210)), "sport": ((90, 140, 90), (60, 60, 70), (200, 210, 200)),
    "home": ((200, 180, 160), (120, 100, 90), (235, 225, 215)), "weekend": ((150, 190, 160), (100, 110, 90), (230, 235, 220)),
}


def _jit(rng: random.Random, c: tuple[int, int, int], d: int = 25) -> tuple[int, int, int]:
    return tuple(max(0, min(255, v + rng.randint(-d, d))) for v in c)  # type: ignore[return-value]


def photo_background(rng: random.Random, w: int, h: int, topic: str = "weekend") -> Image.Image:
    """Smooth blotchy colour field + soft shapes: reads as an out-of-focus photo. Drawn and
    blurred at 1/8 scale, then upscaled (a full-size Gaussian blur costs ~100 ms an image)."""
    pal = PALETTES.get(topic, PALETTES["weekend"])
    sw, sh = max(8, w // 8), max(8, h // 8)
    small = Image.new("RGB", (6, 5))
    small.putdata([_jit(rng, rng.choice(pal), 30) for _ in range(30)])
    img = small.resize((sw, sh), Image.BICUBIC)
    d = ImageDraw.Draw(img)
    for _ in range(rng.randint(4, 9)):
        x, y = rng.randint(-12, sw), rng.randint(-12, sh)
        s = rng.randint(8, max(10, sw // 2))
        col = _jit(rng, rng.choice(pal), 40)
        if rng.random() < 0.5:
            d.ellipse((x, y, x + s, y + int(s * rng.uniform(0.5, 1.2))), fill=col)
        else:
            d.rectangle((x, y, x + s, y + int(s * rng.uniform(0.3, 1.0))), fill=col)
    img = img.filter(ImageFilter.GaussianBlur(rng.uniform(0.8, 1.8)))
    return img.resize((w, h), Image.BILINEAR)


SURFACES = {"wood": ((150, 105, 65), (120, 80, 45)), "table": ((225, 222, 215), (200, 196, 188)),
            "fabric": ((70, 90, 120), (55, 70, 95)), "concrete": ((170, 170, 165), (140, 140, 136)),
            "tiles": ((228, 228, 222), (190, 190, 186)), "brick": ((150, 70, 55), (120, 55, 45))}


def surface(rng: random.Random, w: int, h: int, kind: str | None = None) -> Image.Image:
    """A textured surface (desk, table, tiled wall...) with a lighting falloff, drawn at 1/4 scale."""
    kind = kind or rng.choice(("wood", "table", "fabric", "concrete"))
    a, b = SURFACES[kind]
    a, b = _jit(rng, a, 15), _jit(rng, b, 15)
    sw, sh = max(8, w // 4), max(8, h // 4)
    img = Image.new("RGB", (sw, sh), a)
    d = ImageDraw.Draw(img)
    if kind == "wood":
        y = 0
        while y < sh:
            t = rng.randint(1, 4)
            d.line((0, y, sw, y + rng.randint(-3, 3)), fill=_jit(rng, b, 12), width=t)
            y += rng.randint(3, 9)
    elif kind in ("tiles", "brick"):
        step = rng.randint(18, 30) if kind == "tiles" else 12
        for y in range(0, sh, step):
            d.line((0, y, sw, y), fill=b, width=1)
            off = (y // step % 2) * step // 2 if kind == "brick" else 0
            for x in range(-off, sw, step * (2 if kind == "brick" else 1)):
                d.line((x, y, x, y + step), fill=b, width=1)
    else:
        for _ in range(sw * sh // 40):
            x, y = rng.randrange(sw), rng.randrange(sh)
            d.point((x, y), fill=_jit(rng, b, 10))
    # light from one corner
    shade = Image.linear_gradient("L").resize((sw, sh)).rotate(rng.choice((0, 90, 180, 270)))
    dark = Image.new("RGB", (sw, sh), (0, 0, 0))
    img = Image.composite(img, Image.blend(img, dark, 0.35), shade.point(lambda v: 140 + v * 115 // 255))
    return img.resize((w, h), Image.BILINEAR)


def add_noise(rng: random.Random, img: Image.Image, strength: float) -> Image.Image:
    tile = Image.frombytes("L", (128, 128), rng.randbytes(128 * 128))
    noise = Image.new("L", img.size)
    for x in range(0, img.size[0], 128):
        for y in range(0, img.size[1], 128):
            noise.paste(tile, (x, y))
    noise_rgb = Image.merge("RGB", (noise, noise, noise))
    return Image.blend(img, noise_rgb, strength)


def paste_object(rng: random.Random, bg: Image.Image, obj: Image.Image, max_rot: float = 5.0,
                 where: tuple[float, float] | None = None) -> Image.Image:
    """Rotate an object (paper, card, sign) a little and lay it on the background with a soft shadow."""
    angle = rng.uniform(-max_rot, max_rot)
    if rng.random() < 0.6:  # mild focus blur on the object only (cheaper than blurring the whole frame)
        obj = obj.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 0.6)))
    rgba = obj.convert("RGBA")
    rot = rgba.rotate(angle, resample=Image.BICUBIC, expand=True)
    W, H = bg.size
    if rot.size[0] > W - 20 or rot.size[1] > H - 20:
        s = min((W - 20) / rot.size[0], (H - 20) / rot.size[1])
        rot = rot.resize((int(rot.size[0] * s), int(rot.size[1] * s)), Image.LANCZOS)
    if where is None:
        x = rng.randint(10, max(10, W - rot.size[0] - 10))
        y = rng.randint(10, max(10, H - rot.size[1] - 10))
    else:
        x = int((W - rot.size[0]) * where[0])
        y = int((H - rot.size[1]) * where[1])
    shadow = Image.new("RGBA", rot.size, (0, 0, 0, 0))
    shadow.putalpha(rot.getchannel("A").point(lambda a: int(a * 0.35)))
    shadow = shadow.filter(ImageFilter.GaussianBlur(6))
    out = bg.convert("RGBA")
    out.alpha_composite(shadow, (min(W - shadow.size[0], x + 6), min(H - shadow.size[1], y + 8)))
    out.alpha_composite(rot, (x, y))
    return out.convert("RGB")


def finish(rng: random.Random, img: Image.Image, photo: bool = True) -> Image.Image:
    if photo:
        img = add_noise(rng, img, rng.uniform(0.02, 0.06))
    return img


# ------------------------------------------------------------------ objects
def _lines_paper(rng: random.Random, title: str, rows: list[str], *, width: int, paper=(246, 244, 238), title_size: int = 28,
                 row_size: int = 22, align_center: bool = False, stamp: bool = False) -> Image.Image:
    tf = tfont(title, title_size, bold=True)
    widths = [text_w(title, tf)] + [text_w(r, tfont(r, row_size)) for r in rows]
    width = max(width, max(widths) + 60)
    h = 50 + title_size + 30 + len(rows) * (row_size + 18) + (110 if stamp else 40)
    im = Image.new("RGB", (width, h), _jit(rng, paper, 6))
    d = ImageDraw.Draw(im)
    y = 40
    d.text(((width - widths[0]) // 2, y), title, font=tf, fill=(30, 30, 30))
    y += title_size + 30
    for r, w in zip(rows, widths[1:]):
        x = (width - w) // 2 if align_center else 36
        d.text((x, y), r, font=tfont(r, row_size), fill=(40, 40, 45))
        y += row_size + 18
    if stamp:
        cx, cy = width - 110, h - 80
        d.ellipse((cx - 52, cy - 52, cx + 52, cy + 52), outline=(200, 40, 40), width=4)
        d.regular_polygon((cx, cy, 14), 5, fill=(200, 40, 40))
    return im


def _wrap_rows(rows: list[str], limit: int) -> list[str]:
    """Split long Latin rows at word boundaries so they fit narrow covers."""
    out: list[str] = []
    for r in rows:
        if len(r) <= limit or " " not in r:
            out.append(r)
            continue
        cur = ""
        for word in r.split():
            if cur and len(cur) + 1 + len(word) > limit:
                out.append(cur)
                cur = word
            else:
                cur = f"{cur} {word}".strip()
        out.append(cur)
    return out


def render_document(rng: random.Random, data: dict, topic: str) -> Image.Image:
    paper = data.get("paper", "notice")
    if paper == "passport":
        cover = Image.new("RGB", (460, 620), rng.choice(((120, 20, 30), (20, 40, 90), (30, 60, 40))))
        d = ImageDraw.Draw(cover)
        y = 60
        for r in _wrap_rows(data["rows"], 26):
            f = tfont(r, 22, bold=True)
            d.text(((460 - text_w(r, f)) // 2, y), r, font=f, fill=(222, 190, 110))
            y += 40
        d.ellipse((150, 250, 310, 410), outline=(222, 190, 110), width=4)
        f = font(34, bold=True)
        d.text(((460 - text_w("PASSPORT", f)) // 2, 470), "PASSPORT", font=f, fill=(222, 190, 110))
        bg = photo_background(rng, 1080, 1080, "travel")
        return paste_object(rng, bg, cover, 8)
    if paper == "card":
        card = _lines_paper(rng, data["title"], data["rows"], width=520, paper=(236, 242, 250), title_size=26, row_size=22)
        bg = surface(rng, 1080, 810)
        return paste_object(rng, bg, card, 6)
    stamp = paper == "certificate"
    doc = _lines_paper(rng, data["title"], data["rows"], width=600 if stamp else 540, title_size=30 if stamp else 26,
                       row_size=22 if stamp else 20, align_center=stamp, stamp=stamp,
                       paper=(250, 246, 232) if stamp else (246, 246, 244))
    bg = surface(rng, 960, 1200) if rng.random() < 0.7 else photo_background(rng, 960, 1200, topic)
    return paste_object(rng, bg, doc, 4)


def render_receipt(rng: random.Random, data: dict, topic: str) -> Image.Image:
    rows = data["items"]
    need = max(text_w(n, tfont(n, 20)) + text_w(pr, tfont(pr, 20)) + 110 for n, pr in rows)
    width = max(rng.randint(380, 430), need, text_w(data["shop"], tfont(data["shop"], 26, bold=True)) + 60)
    h = 170 + 36 * len(rows) + 120
    im = Image.new("RGB", (width, h), _jit(rng, (250, 250, 247), 4))
    d = ImageDraw.Draw(im)
    f_shop = tfont(data["shop"], 26, bold=True)
    d.text(((width - text_w(data["shop"], f_shop)) // 2, 30), data["shop"], font=f_shop, fill=(20, 20, 20))
    date_line = f"{rng.randint(2025, 2026)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d} {rng.randint(8, 21):02d}:{rng.randint(0, 59):02d}"
    d.text((30, 80), date_line, font=font(16), fill=(60, 60, 60))
    d.text((30, 104), f"#{rng.randint(1000, 9999)}", font=font(16), fill=(60, 60, 60))
    y = 140
    for name, price in rows:
        fn = tfont(name, 20)
        d.text((30, y), name, font=fn, fill=(25, 25, 25))
        fp = tfont(price, 20)
        d.text((width - 30 - text_w(price, fp), y), price, font=fp, fill=(25, 25, 25))
        y += 36
    d.line((30, y + 4, width - 30, y + 4), fill=(120, 120, 120), width=1)
    y += 18
    ft = tfont(data["total_label"], 22, bold=True)
    d.text((30, y), data["total_label"], font=ft, fill=(10, 10, 10))
    fp = tfont(data["total"], 22, bold=True)
    d.text((width - 30 - text_w(data["total"], fp), y), data["total"], font=fp, fill=(10, 10, 10))
    ff = tfont(data["footer"], 18)
    d.text(((width - text_w(data["footer"], ff)) // 2, y + 50), data["footer"], font=ff, fill=(70, 70, 70))
    bg = surface(rng, 900, 1200, rng.choice(("wood", "table", "fabric")))
    return paste_object(rng, bg, im, 6)


def render_ticket(rng: random.Random, data: dict, topic: str) -> Image.Image:
    rows = data.get("rows", [])
    title = data["title"]
    w = max(560, text_w(title, tfont(title, 26, bold=True)) + 80, *(text_w(r, tfont(r, 24)) + 80 for r in rows))
    h = 110 + 44 * len(rows) + 40
    im = Image.new("RGB", (w, h), (252, 252, 250))
    d = ImageDraw.Draw(im)
    band = rng.choice(((30, 80, 160), (200, 60, 40), (20, 120, 100), (90, 50, 140)))
    d.rectangle((0, 0, w, 70), fill=band)
    d.text((30, 18), title, font=tfont(title, 26, bold=True), fill=(255, 255, 255))
    y = 95
    for r in rows:
        d.text((30, y), r, font=tfont(r, 24), fill=(30, 30, 30))
        y += 44
    for x in range(w - 120, w - 30, 6):  # barcode-ish stripes
        if rng.random() < 0.6:
            d.line((x, 95, x, h - 30), fill=(20, 20, 20), width=rng.choice((1, 2, 3)))
    bg = surface(rng, 1080, 810) if rng.random() < 0.6 else photo_background(rng, 1080, 810, topic)
    return paste_object(rng, bg, im, 7)


def render_badge(rng: random.Random, data: dict, topic: str) -> Image.Image:
    lines = [x for x in (data.get("org"), data.get("title"), data.get("name"), data.get("id")) if x]
    w = max(340, *(text_w(x, tfont(x, 24, bold=True)) + 60 for x in lines))
    h = 480
    im = Image.new("RGB", (w, h), (250, 250, 250))
    d = ImageDraw.Draw(im)
    band = rng.choice(((20, 90, 170), (180, 30, 40), (30, 120, 80), (60, 60, 70)))
    d.rectangle((0, 0, w, 80), fill=band)
    if data.get("org"):
        fo = tfont(data["org"], 24, bold=True)
        d.text(((w - text_w(data["org"], fo)) // 2, 24), data["org"], font=fo, fill=(255, 255, 255))
    d.rounded_rectangle((w // 2 - 70, 100, w // 2 + 70, 270), 8, fill=(200, 210, 220))
    d.ellipse((w // 2 - 35, 125, w // 2 + 35, 195), fill=(150, 160, 175))
    d.ellipse((w // 2 - 60, 200, w // 2 + 60, 300), fill=(150, 160, 175))
    d.rectangle((w // 2 - 70, 270, w // 2 + 70, 300), fill=(250, 250, 250))
    y = 320
    for key, size in (("title", 24), ("name", 24), ("id", 24)):
        v = data.get(key)
        if v:
            f = tfont(v, size, bold=key != "id")
            d.text(((w - text_w(v, f)) // 2, y), v, font=f, fill=(25, 25, 25))
            y += size + 22
    d.rounded_rectangle((w // 2 - 30, -10, w // 2 + 30, 14), 6, fill=(60, 60, 60))
    bg = surface(rng, 900, 1200) if rng.random() < 0.6 else photo_background(rng, 900, 1200, topic)
    return paste_object(rng, bg, im, 8)


SIGN_STYLES = {
    "metro": ((0, 70, 140), (255, 255, 255)), "gate": ((120, 110, 100), (250, 240, 220)), "building": ((190, 192, 195), (30, 30, 35)),
    "door": ((235, 235, 230), (30, 30, 30)), "shop": ((30, 30, 30), (250, 220, 120)), "poster": ((210, 30, 40), (255, 255, 255)),
    "note": ((250, 230, 110), (40, 40, 60)),
}


def render_sign(rng: random.Random, data: dict, topic: str) -> Image.Image:
    style = data.get("style", "door")
    bgcol, fg = SIGN_STYLES[style]
    main, sub = data["main"], data.get("sub") or ""
    msize = {"metro": 46, "gate": 48, "building": 40, "door": 30, "shop": 44, "poster": 48, "note": 26}[style]
    fm = tfont(main, msize, bold=style != "note")
    fs = tfont(sub, max(18, msize // 2)) if sub else None
    w = max(text_w(main, fm), text_w(sub, fs) if fs else 0) + 80
    h = msize + 60 + ((msize // 2 + 16) if sub else 0)
    if style == "note":
        w, h = max(w, 300), max(h, 200)
    im = Image.new("RGB", (w, h), _jit(rng, bgcol, 8))
    d = ImageDraw.Draw(im)
    d.text(((w - text_w(main, fm)) // 2, 28), main, font=fm, fill=fg)
    if fs:
        d.text(((w - text_w(sub, fs)) // 2, 28 + msize + 12), sub, font=fs, fill=fg)
    if style in ("building", "gate"):
        d.rectangle((4, 4, w - 5, h - 5), outline=_jit(rng, fg, 10), width=3)
    scene_topic = {"metro": "commute", "gate": "travel", "building": "work", "door": "work", "shop": "food", "poster": "home", "note": "home"}[style]
    wall = {"metro": "tiles", "gate": "concrete", "building": rng.choice(("concrete", "brick")), "door": rng.choice(("concrete", "tiles")),
            "shop": "brick", "poster": rng.choice(("brick", "concrete")), "note": rng.choice(("wood", "table"))}[style]
    size = (1080, 1080 if style != "metro" else 810)
    bg = surface(rng, *size, wall) if rng.random() < 0.75 else photo_background(rng, *size, topic if topic in PALETTES else scene_topic)
    return paste_object(rng, bg, im, 4 if style != "note" else 9, where=(rng.uniform(0.2, 0.8), rng.uniform(0.15, 0.6)))


def render_parcel(rng: random.Random, data: dict, topic: str) -> Image.Image:
    rows = data["rows"]
    w = max(500, *(text_w(r, tfont(r, 22)) + 60 for r in rows))
    h = 100 + 42 * len(rows) + 110
    im = Image.new("RGB", (w, h), (252, 252, 252))
    d = ImageDraw.Draw(im)
    cn = data.get("carrier_name", "")
    d.rectangle((0, 0, w, 64), fill=(20, 20, 20))
    d.text((24, 16), cn, font=tfont(cn, 26, bold=True), fill=(255, 255, 255))
    y = 84
    for r in rows:
        d.text((24, y), r, font=tfont(r, 22), fill=(15, 15, 15))
        y += 42
    x = 24
    while x < w - 24:  # barcode
        bw = rng.choice((1, 2, 3, 4))
        d.rectangle((x, y + 10, x + bw, y + 70), fill=(0, 0, 0))
        x += bw + rng.choice((2, 3, 4))
    d.text((24, y + 76), data.get("tracking", ""), font=font(16), fill=(30, 30, 30))
    box = surface(rng, 1080, 1080, rng.choice(("wood", "concrete", "table")))
    dd = ImageDraw.Draw(box)
    dd.rectangle((60, 120, 1020, 1000), fill=_jit(rng, (190, 150, 100), 15))   # cardboard
    return paste_object(rng, box, im, 5)


def render_screenshot(rng: random.Random, data: dict, topic: str) -> Image.Image:
    w, h = 720, 1280
    im = Image.new("RGB", (w, h), (246, 246, 248))
    d = ImageDraw.Draw(im)
    d.text((30, 14), f"{rng.randint(7, 23)}:{rng.randint(0, 59):02d}", font=font(22, bold=True), fill=(20, 20, 20))
    d.rectangle((0, 60, w, 150), fill=(255, 255, 255))
    app = data.get("app", "")
    d.text((30, 84), app, font=tfont(app, 34, bold=True), fill=(20, 20, 20))
    y = 190
    for r in data.get("rows", []):
        d.rounded_rectangle((24, y, w - 24, y + 100), 18, fill=(255, 255, 255))
        d.text((50, y + 32), r, font=tfont(r, 28), fill=(30, 30, 30))
        y += 124
    for _ in range(3):
        d.rounded_rectangle((24, y, w - 24, y + 100), 18, fill=(255, 255, 255))
        d.rounded_rectangle((50, y + 40, 50 + rng.randint(150, 500), y + 60), 8, fill=(225, 225, 230))
        y += 124
    return im


def render_map(rng: random.Random, data: dict, topic: str) -> Image.Image:
    w, h = 720, 1280
    im = Image.new("RGB", (w, h), (236, 233, 226))
    d = ImageDraw.Draw(im)
    for _ in range(14):
        if rng.random() < 0.5:
            y = rng.randint(300, h)
            d.line((0, y, w, y + rng.randint(-80, 80)), fill=(255, 255, 255), width=rng.randint(6, 16))
        else:
            x = rng.randint(0, w)
            d.line((x, 300, x + rng.randint(-80, 80), h), fill=(255, 255, 255), width=rng.randint(6, 16))
    for _ in range(4):
        x, y = rng.randint(0, w), rng.randint(320, h)
        d.ellipse((x, y, x + rng.randint(80, 200), y + rng.randint(60, 160)), fill=(200, 225, 190))
    pts = [(rng.randint(100, 620), 1150)]
    for k in range(5):
        pts.append((rng.randint(100, 620), 1150 - (k + 1) * 150))
    d.line(pts, fill=(40, 110, 230), width=10)
    d.rectangle((0, 0, w, 280), fill=(255, 255, 255))
    y = 40
    for i, r in enumerate(data.get("rows", [])):
        d.text((36, y), r, font=tfont(r, 30 if i == 0 else 26, bold=i == 0), fill=(20, 20, 20))
        y += 64
    return im


def render_object(rng: random.Random, data: dict, topic: str) -> Image.Image:
    obj, text = data["obj"], data["text"]
    if obj in ("plate", "car"):
        bg = surface(rng, 1080, 810, "concrete")
        d = ImageDraw.Draw(bg)
        body = rng.choice(((230, 230, 232), (40, 40, 45), (150, 20, 30), (60, 80, 120)))
        d.rounded_rectangle((140, 180, 940, 700), 60, fill=body)
        d.rectangle((200, 250, 880, 420), fill=_jit(rng, (90, 110, 130), 10))   # rear window
        d.rectangle((150, 470, 260, 520), fill=(200, 30, 30))   # tail lights
        d.rectangle((820, 470, 930, 520), fill=(200, 30, 30))
        d.rounded_rectangle((180, 690, 320, 760), 20, fill=(20, 20, 20))   # wheels
        d.rounded_rectangle((760, 690, 900, 760), 20, fill=(20, 20, 20))
        if obj == "plate":
            pw = text_w(text, tfont(text, 40, bold=True)) + 40
            plate_col = (20, 70, 180) if has_cjk(text) else (250, 250, 250)
            fg = (255, 255, 255) if has_cjk(text) else (10, 10, 10)
            d.rectangle((540 - pw // 2, 520, 540 + pw // 2, 590), fill=plate_col, outline=(30, 30, 30), width=3)
            d.text((540 - pw // 2 + 20, 530), text, font=tfont(text, 40, bold=True), fill=fg)
        else:
            fcol = (250, 250, 250) if sum(body) < 300 else (30, 30, 30)
            d.text((540 - text_w(text, font(38, bold=True)) // 2, 440), text, font=font(38, bold=True), fill=fcol)
        return bg
    # book / mug / tote: a cover with a title on a desk
    bg = surface(rng, 1080, 1080, rng.choice(("wood", "table")))
    tf = tfont(text, 28, bold=True, serif=not has_cjk(text))
    w = max(360, text_w(text, tf) + 60)
    cover = Image.new("RGB", (w, 500), rng.choice(((30, 60, 110), (130, 30, 40), (240, 235, 220), (30, 90, 70))))
    d = ImageDraw.Draw(cover)
    fg = (20, 20, 20) if cover.getpixel((0, 0))[0] > 200 else (250, 245, 230)
    d.text(((w - text_w(text, tf)) // 2, 150), text, font=tf, fill=fg)
    d.line((30, 230, w - 30, 230), fill=fg, width=2)
    return paste_object(rng, bg, cover, 10)


def render_cake(rng: random.Random, data: dict, topic: str) -> Image.Image:
    bg = photo_background(rng, 1080, 1080, "family")
    d = ImageDraw.Draw(bg)
    d.ellipse((240, 640, 840, 840), fill=(245, 240, 235))
    d.rectangle((240, 520, 840, 740), fill=(250, 230, 235))
    d.ellipse((240, 420, 840, 620), fill=(255, 240, 245))
    txt = data["text"]
    f = font(110, bold=True)
    d.text((540 - text_w(txt, f) // 2, 250), txt, font=f, fill=(220, 170, 40))
    sub = data.get("sub", "")
    if sub:
        fs = font(34, bold=True)
        d.text((540 - text_w(sub, fs) // 2, 580), sub, font=fs, fill=(200, 60, 90))
    return bg


def render_photo(rng: random.Random, data: dict, topic: str) -> Image.Image:
    """A plain photo without text (food plate, horizon, pet shape...), drawn at 1/4 scale."""
    w, h = rng.choice(((1080, 1080), (1080, 1350), (1080, 810)))
    sw, sh = w // 4, h // 4
    img = photo_background(rng, sw, sh, data.get("topic", topic))
    d = ImageDraw.Draw(img)
    t = data.get("topic", topic)
    if t == "food":  # a plate seen from above
        cx, cy, r = sw // 2 + rng.randint(-25, 25), sh // 2 + rng.randint(-25, 25), rng.randint(50, 80)
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(245, 245, 240))
        d.ellipse((cx - r + 15, cy - r + 15, cx + r - 15, cy + r - 15), fill=_jit(rng, (180, 110, 60), 40))
    elif t in ("travel", "weekend"):  # horizon
        y = rng.randint(sh // 3, sh // 2)
        d.rectangle((0, y, sw, sh), fill=_jit(rng, (90, 120, 80), 30))
    elif t == "pets":
        cx, cy = sw // 2, sh // 2
        d.ellipse((cx - 50, cy - 30, cx + 50, cy + 40), fill=_jit(rng, (200, 150, 90), 40))
        d.ellipse((cx - 28, cy - 65, cx + 28, cy - 15), fill=_jit(rng, (200, 150, 90), 40))
    img = img.filter(ImageFilter.GaussianBlur(rng.uniform(0.4, 1.0)))
    return img.resize((w, h), Image.BICUBIC)


RENDERERS = {"document": render_document, "receipt": render_receipt, "ticket": render_ticket, "badge": render_badge,
             "sign": render_sign, "parcel": render_parcel, "screenshot": render_screenshot, "map": render_map,
             "object": render_object, "cake": render_cake, "photo": render_photo}


def _rational_dms(x: float) -> tuple[float, float, float]:
    x = abs(x)
    deg = int(x)
    mins_f = (x - deg) * 60
    mins = int(mins_f)
    return (float(deg), float(mins), round((mins_f - mins) * 60, 2))


def make_exif(taken_local: str | None, gps: tuple[float, float] | None, rng: random.Random) -> Image.Exif:
    ex = Image.Exif()
    make, model = rng.choice((("Apple", "iPhone 14"), ("Apple", "iPhone 15 Pro"), ("Xiaomi", "Xiaomi 14"), ("HUAWEI", "P60"),
                              ("samsung", "Galaxy S23"), ("Google", "Pixel 8")))
    ex[0x010F] = make
    ex[0x0110] = model
    if taken_local:
        ex.get_ifd(0x8769)[0x9003] = taken_local
    if gps:
        g = ex.get_ifd(0x8825)
        g[1] = "N" if gps[0] >= 0 else "S"
        g[2] = _rational_dms(gps[0])
        g[3] = "E" if gps[1] >= 0 else "W"
        g[4] = _rational_dms(gps[1])
    return ex


def render_to_file(path: Path, kind: str, data: dict, topic: str, seed: int, *, exif_time: str | None = None,
                   gps: tuple[float, float] | None = None) -> None:
    rng = random.Random(seed)
    render = RENDERERS[kind]
    if data.get("layout") == "b":   # style b draws its own layouts (images_b); style a data carries no layout
        from core.bench.generate.images_b import RENDERERS_B

        render = RENDERERS_B.get(kind, render)
    img = render(rng, data, topic)
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix == ".png":
        img.save(path, format="PNG", optimize=False)
        return
    img = finish(rng, img, photo=True)
    ex = make_exif(exif_time, gps, rng) if (exif_time or gps) else None
    kw = {"exif": ex} if ex is not None else {}
    img.save(path, format="JPEG", quality=rng.randint(80, 92), **kw)
