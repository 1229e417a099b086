"""Style b renderers: other layouts, fonts, sizes and colour schemes for the same scene kinds
(images.py draws style a). Chosen by `data["layout"] == "b"` in images.render_to_file; the
backgrounds, paper-on-surface placement, noise, EXIF and JPEG finishing are shared.
"""
from __future__ import annotations

import random
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from core.bench.generate.images import (
    CJK_FONT, MONO_BOLD, MONO_FONT, SERIF_BOLD, _jit, _wrap_rows, has_cjk, paste_object, photo_background, render_cake,
    render_object, render_photo, surface, text_w, tfont,
)


@lru_cache(maxsize=128)
def _mono(size: int, cjk: bool, bold: bool = False) -> ImageFont.FreeTypeFont:
    if cjk:   # WenQuanYi Micro Hei Mono is face 1 of that collection; other CJK fonts: their first face
        return ImageFont.truetype(str(CJK_FONT), size, index=1 if CJK_FONT.name == "wqy-microhei.ttc" else 0)
    return ImageFont.truetype(str(MONO_BOLD if bold else MONO_FONT), size)


def mfont(text: str, size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return _mono(size, has_cjk(text) or "→" in text or "·" in text, bold)


def sfont(text: str, size: int) -> ImageFont.FreeTypeFont:
    return tfont(text, size) if has_cjk(text) else ImageFont.truetype(str(SERIF_BOLD), size)


def render_document(rng: random.Random, data: dict, topic: str) -> Image.Image:
    """Left-aligned letterhead paper: a coloured rule, a serif title, bulleted rows; certificates get a double frame."""
    paper = data.get("paper", "notice")
    if paper == "passport":   # a cover is a cover: style a's drawing, other colours via the shared renderer
        from core.bench.generate.images import render_document as render_a

        return render_a(rng, data, topic)
    title, rows = data["title"], _wrap_rows(data["rows"], 34)
    cert = paper == "certificate"
    ts, rs = (34, 19) if cert else (24, 18)
    tf = sfont(title, ts)
    w = max(520, text_w(title, tf) + 90, *(text_w("• " + r, tfont(r, rs)) + 90 for r in rows))
    h = 120 + ts + len(rows) * (rs + 22) + (90 if cert else 50)
    bg_col = _jit(rng, (244, 248, 252) if not cert else (252, 250, 240), 5)
    im = Image.new("RGB", (w, h), bg_col)
    d = ImageDraw.Draw(im)
    accent = rng.choice(((20, 110, 120), (150, 60, 20), (60, 60, 140), (30, 110, 60)))
    if cert:
        d.rectangle((10, 10, w - 11, h - 11), outline=accent, width=5)
        d.rectangle((22, 22, w - 23, h - 23), outline=accent, width=1)
    else:
        d.rectangle((0, 0, w, 14), fill=accent)
    y = 48
    d.text((44, y), title, font=tf, fill=accent)
    y += ts + 28
    for r in rows:
        line = ("• " + r) if not cert else r
        d.text((44, y), line, font=tfont(line, rs), fill=(50, 50, 60))
        y += rs + 22
    if cert:
        d.line((w - 230, h - 60, w - 60, h - 60), fill=(60, 60, 60), width=1)
    bg = photo_background(rng, 1080, 1080, topic) if rng.random() < 0.5 else surface(rng, 1080, 1080, rng.choice(("fabric", "concrete", "wood")))
    return paste_object(rng, bg, im, 7)


def render_receipt(rng: random.Random, data: dict, topic: str) -> Image.Image:
    """Thermal roll: monospace, dotted leaders, header above the shop, faded grey ink."""
    rows = data["items"]
    size = rng.choice((17, 18, 19))
    f = mfont("x", size)
    cols = max(26, max(len(n) + len(p) + 3 for n, p in rows))
    w = max(360, int(f.getlength("0") * (cols + 4)), text_w(data["shop"], mfont(data["shop"], 22, True)) + 50)
    h = 230 + (size + 16) * len(rows) + 110
    im = Image.new("RGB", (w, h), _jit(rng, (238, 238, 234), 4))
    d = ImageDraw.Draw(im)
    ink = _jit(rng, (70, 70, 75), 10)
    hdr = data.get("header", "")
    d.text(((w - text_w(hdr, mfont(hdr, 16))) // 2, 24), hdr, font=mfont(hdr, 16), fill=ink)
    d.text((24, 58), data["shop"], font=mfont(data["shop"], 22, True), fill=ink)
    d.text((24, 96), f"{rng.randint(1, 28):02d}/{rng.randint(1, 12):02d}/{rng.randint(2025, 2026)}  {rng.randint(8, 21):02d}:{rng.randint(0, 59):02d}",
           font=mfont("0", 15), fill=ink)
    d.text((24, 120), "-" * (cols + 2), font=mfont("-", 15), fill=ink)
    y = 150
    for name, price in rows:
        fn = mfont(name, size)
        d.text((24, y), name, font=fn, fill=ink)
        fp = mfont(price, size)
        x_end = w - 24 - text_w(price, fp)
        x = 24 + text_w(name, fn) + 8
        while x < x_end - 10:
            d.text((x, y), ".", font=fp, fill=ink)
            x += 9
        d.text((x_end, y), price, font=fp, fill=ink)
        y += size + 16
    d.text((24, y), "=" * (cols + 2), font=mfont("=", 15), fill=ink)
    y += 26
    fl = mfont(data["total_label"], size + 3, True)
    d.text((24, y), data["total_label"], font=fl, fill=ink)
    ft = mfont(data["total"], size + 3, True)
    d.text((w - 24 - text_w(data["total"], ft), y), data["total"], font=ft, fill=ink)
    foot = data["footer"]
    d.text((24, y + 56), foot, font=mfont(foot, 15), fill=ink)
    bg = surface(rng, 1000, 1200, rng.choice(("tiles", "concrete", "fabric")))
    return paste_object(rng, bg, im, 10)


def render_ticket(rng: random.Random, data: dict, topic: str) -> Image.Image:
    """Portrait ticket with a perforated stub at the bottom and the title in a side band."""
    rows, title = data.get("rows", []), data["title"]
    rf = [tfont(r, 22) for r in rows]
    w = max(420, *(text_w(r, f) + 100 for r, f in zip(rows, rf)), text_w(title, tfont(title, 22, bold=True)) + 100)
    h = 160 + 50 * len(rows) + 150
    col = rng.choice(((250, 196, 60), (120, 200, 220), (240, 150, 160), (190, 220, 150)))
    im = Image.new("RGB", (w, h), (255, 253, 246))
    d = ImageDraw.Draw(im)
    d.rectangle((0, 0, 46, h), fill=col)
    d.text((60, 30), title, font=tfont(title, 22, bold=True), fill=(40, 40, 40))
    y = 90
    for r, f in zip(rows, rf):
        d.text((60, y), r, font=f, fill=(20, 20, 20))
        y += 50
    stub = h - 130
    for x in range(50, w, 14):
        d.ellipse((x, stub - 3, x + 6, stub + 3), fill=(200, 200, 200))
    for x in range(60, w - 40, 5):   # stub barcode
        if rng.random() < 0.55:
            d.line((x, stub + 30, x, h - 30), fill=(30, 30, 30), width=rng.choice((1, 2)))
    bg = photo_background(rng, 1080, 1080, topic) if rng.random() < 0.6 else surface(rng, 1080, 1080, "table")
    return paste_object(rng, bg, im, 9)


def render_badge(rng: random.Random, data: dict, topic: str) -> Image.Image:
    """Landscape card: photo box on the left, a coloured side strip, text on the right."""
    lines = [(data.get(k) or "", s, b) for k, s, b in (("org", 20, True), ("title", 26, True), ("name", 22, False), ("id", 20, False)) if data.get(k)]
    tw = max([text_w(t, tfont(t, s, bold=b)) for t, s, b in lines] or [200])
    w, h = max(620, 260 + tw + 40), 380
    im = Image.new("RGB", (w, h), _jit(rng, (236, 244, 240), 5))
    d = ImageDraw.Draw(im)
    strip = rng.choice(((230, 120, 30), (0, 140, 150), (120, 60, 160), (200, 40, 90)))
    d.rectangle((0, h - 50, w, h), fill=strip)
    d.rectangle((30, 50, 220, 290), fill=(205, 205, 200))
    d.ellipse((85, 80, 165, 160), fill=(160, 160, 155))
    d.ellipse((60, 170, 190, 290), fill=(160, 160, 155))
    d.ellipse((w - 60, 20, w - 36, 44), outline=(120, 120, 120), width=3)   # lanyard hole
    y = 70
    for t, s, b in lines:
        d.text((250, y), t, font=tfont(t, s, bold=b), fill=(30, 30, 35))
        y += s + 26
    bg = surface(rng, 1080, 900, rng.choice(("wood", "fabric", "table")))
    return paste_object(rng, bg, im, 6)


SIGN_STYLES_B = {  # (background, foreground, main size)
    "metro": ((250, 250, 250), (20, 20, 20), 40), "gate": ((60, 64, 70), (235, 235, 235), 44), "building": ((25, 30, 40), (240, 240, 240), 36),
    "door": ((180, 150, 90), (30, 25, 20), 28), "shop": ((240, 236, 220), (150, 30, 40), 40), "poster": ((20, 60, 150), (255, 230, 0), 44),
    "note": ((170, 230, 190), (30, 40, 40), 24),
}


def render_sign(rng: random.Random, data: dict, topic: str) -> Image.Image:
    """Left-aligned signs with a coloured bar (metro), brass door plates, dark glass building signs."""
    style = data.get("style", "door")
    bgcol, fg, ms = SIGN_STYLES_B[style]
    main, sub = data["main"], data.get("sub") or ""
    fm = tfont(main, ms, bold=style not in ("note", "door"))
    fs = tfont(sub, max(16, ms // 2 - 2)) if sub else None
    pad = 110 if style == "metro" else 50
    w = max(text_w(main, fm), text_w(sub, fs) if fs else 0) + pad + 50
    h = ms + 70 + ((ms // 2 + 14) if sub else 0)
    if style == "note":
        w, h = max(w, 320), max(h, 240)
    im = Image.new("RGB", (w, h), _jit(rng, bgcol, 6))
    d = ImageDraw.Draw(im)
    if style == "metro":
        line_col = rng.choice(((220, 40, 40), (0, 150, 70), (250, 170, 0), (120, 50, 170), (0, 120, 210)))
        d.rectangle((0, 0, 70, h), fill=line_col)
    d.text((pad, 30), main, font=fm, fill=fg)
    if fs:
        d.text((pad, 30 + ms + 10), sub, font=fs, fill=fg)
    if style in ("door", "shop"):
        d.rectangle((3, 3, w - 4, h - 4), outline=_jit(rng, fg, 20), width=2)
    wall = {"metro": "concrete", "gate": "brick", "building": "tiles", "door": "wood", "shop": "concrete", "poster": "tiles", "note": "table"}[style]
    size = (1080, 1080)
    bg = surface(rng, *size, wall) if rng.random() < 0.6 else photo_background(rng, *size, topic)
    return paste_object(rng, bg, im, 6 if style != "note" else 12, where=(rng.uniform(0.1, 0.9), rng.uniform(0.3, 0.8)))


def render_parcel(rng: random.Random, data: dict, topic: str) -> Image.Image:
    """Waybill: barcode and route code on top, the address block below in a box, carrier at the foot."""
    rows = data["rows"]
    rs = rng.choice((19, 20, 21))
    w = max(520, *(text_w(r, tfont(r, rs)) + 80 for r in rows))
    h = 200 + (rs + 20) * len(rows) + 110
    im = Image.new("RGB", (w, h), _jit(rng, (255, 250, 225), 5))
    d = ImageDraw.Draw(im)
    x = 30
    while x < w - 200:
        bw = rng.choice((1, 2, 3))
        d.rectangle((x, 24, x + bw, 96), fill=(0, 0, 0))
        x += bw + rng.choice((2, 3))
    route = data.get("route", "")
    d.text((w - 170, 34), route, font=tfont(route, 36, bold=True), fill=(0, 0, 0))
    d.text((30, 104), data.get("tracking", ""), font=_mono(16, False), fill=(40, 40, 40))
    d.rectangle((20, 140, w - 20, 150 + (rs + 20) * len(rows) + 10), outline=(0, 0, 0), width=2)
    y = 160
    for r in rows:
        d.text((36, y), r, font=tfont(r, rs), fill=(10, 10, 10))
        y += rs + 20
    cn = data.get("carrier_name", "")
    band = rng.choice(((200, 20, 30), (240, 200, 0), (0, 90, 170), (40, 40, 40)))
    d.rectangle((0, h - 60, w, h), fill=band)
    d.text((30, h - 48), cn, font=tfont(cn, 24, bold=True), fill=(255, 255, 255) if sum(band) < 450 else (0, 0, 0))
    box = surface(rng, 1080, 1080, rng.choice(("concrete", "tiles")))
    dd = ImageDraw.Draw(box)
    dd.rectangle((40, 60, 1040, 1040), fill=_jit(rng, (175, 135, 90), 12))
    return paste_object(rng, box, im, 8)


def render_screenshot(rng: random.Random, data: dict, topic: str) -> Image.Image:
    """Dark mode: centred title, list rows divided by thin lines, a tab bar at the bottom."""
    w, h = 750, 1334
    im = Image.new("RGB", (w, h), (18, 18, 22))
    d = ImageDraw.Draw(im)
    d.text((w - 120, 16), f"{rng.randint(10, 99)}%", font=tfont("9", 20), fill=(220, 220, 220))
    d.text((30, 16), f"{rng.randint(7, 23)}:{rng.randint(0, 59):02d}", font=tfont("9", 20, bold=True), fill=(220, 220, 220))
    app = data.get("app", "")
    fa = tfont(app, 30, bold=True)
    d.text(((w - text_w(app, fa)) // 2, 80), app, font=fa, fill=(250, 250, 250))
    y = 180
    for r in data.get("rows", []):
        d.text((40, y + 24), r, font=tfont(r, 26), fill=(235, 235, 240))
        d.line((40, y + 86, w - 40, y + 86), fill=(60, 60, 66), width=1)
        y += 90
    for _ in range(4):
        d.rounded_rectangle((40, y + 30, 40 + rng.randint(150, 560), y + 50), 8, fill=(48, 48, 54))
        y += 90
    d.rectangle((0, h - 110, w, h), fill=(30, 30, 36))
    for k in range(4):
        cx = 90 + k * 190
        d.ellipse((cx - 18, h - 80, cx + 18, h - 44), fill=(90, 90, 100))
    return im


def render_map(rng: random.Random, data: dict, topic: str) -> Image.Image:
    """Map on top, the route card at the bottom (style a puts the card on top)."""
    w, h = 750, 1334
    im = Image.new("RGB", (w, h), (230, 236, 228))
    d = ImageDraw.Draw(im)
    for _ in range(16):
        if rng.random() < 0.5:
            y = rng.randint(0, 900)
            d.line((0, y, w, y + rng.randint(-60, 60)), fill=(250, 250, 245), width=rng.randint(8, 18))
        else:
            x = rng.randint(0, w)
            d.line((x, 0, x + rng.randint(-60, 60), 900), fill=(250, 250, 245), width=rng.randint(8, 18))
    pts = [(rng.randint(80, 670), 860 - k * 160) for k in range(6)]
    d.line(pts, fill=(230, 80, 40), width=9)
    d.ellipse((pts[0][0] - 14, pts[0][1] - 14, pts[0][0] + 14, pts[0][1] + 14), fill=(40, 160, 80))
    d.rounded_rectangle((20, 900, w - 20, h - 30), 28, fill=(255, 255, 255))
    y = 940
    for i, r in enumerate(data.get("rows", [])):
        d.text((50, y), r, font=tfont(r, 28 if i == 0 else 24, bold=i == 0), fill=(30, 30, 30))
        y += 70
    return im


RENDERERS_B = {"document": render_document, "receipt": render_receipt, "ticket": render_ticket, "badge": render_badge,
               "sign": render_sign, "parcel": render_parcel, "screenshot": render_screenshot, "map": render_map,
               "object": render_object, "cake": render_cake, "photo": render_photo}
