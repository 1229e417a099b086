"""Safe image loading, crops, zoom and cheap signals (no OCR here)."""
from __future__ import annotations

import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

from tools.base import ToolError
from tools.images import adaptive_zoom, crop, image_signals, load_image, normalize_box, sha256_file

DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.truetype(DEJAVU, size)
    except OSError:
        return ImageFont.load_default(size)


def _png_header_only(path: Path, w: int, h: int) -> None:
    """A tiny PNG file that claims w x h pixels (a decompression bomb's header)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    idat = zlib.compress(b"\x00" * 16)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b""))


def test_load_good_image_is_rgb_and_flattens_alpha(tmp_path: Path) -> None:
    p = tmp_path / "a.png"
    im = Image.new("RGBA", (40, 30), (255, 0, 0, 0))   # fully transparent red
    im.save(p)
    out = load_image(p)
    assert out.mode == "RGB" and out.size == (40, 30)
    assert out.getpixel((5, 5)) == (255, 255, 255)      # transparent -> white background


@pytest.mark.parametrize("kind", ["missing", "empty", "text", "truncated", "directory"])
def test_bad_files_raise_tool_error_naming_the_file(tmp_path: Path, kind: str) -> None:
    p = tmp_path / f"bad_{kind}.jpg"
    if kind == "empty":
        p.write_bytes(b"")
    elif kind == "text":
        p.write_text("this is not an image")
    elif kind == "truncated":
        Image.new("RGB", (200, 200), "blue").save(tmp_path / "full.jpg", quality=95)
        p.write_bytes((tmp_path / "full.jpg").read_bytes()[:400])
    elif kind == "directory":
        p.mkdir()
    with pytest.raises(ToolError) as ei:
        load_image(p)
    assert p.name in str(ei.value)


def test_pixel_limit_and_bomb_header_refused_before_decoding(tmp_path: Path) -> None:
    p = tmp_path / "bomb.png"
    _png_header_only(p, 50_000, 50_000)          # 2.5 gigapixels claimed, ~100 bytes on disk
    assert p.stat().st_size < 1000
    with pytest.raises(ToolError) as ei:
        load_image(p)
    assert "bomb.png" in str(ei.value)
    small = tmp_path / "small.png"
    Image.new("RGB", (100, 100)).save(small)
    with pytest.raises(ToolError, match="pixel limit"):
        load_image(small, max_pixels=5_000)
    with pytest.raises(ToolError, match="byte limit"):
        load_image(small, max_bytes=10)


def test_crop_accepts_rectangles_and_polygons_and_clamps(tmp_path: Path) -> None:
    im = Image.new("RGB", (100, 50))
    assert crop(im, [10, 5, 30, 25]).size == (20, 20)
    assert crop(im, [[10, 5], [30, 5], [30, 25], [10, 25]]).size == (20, 20)
    assert crop(im, [90, 40, 500, 500]).size == (10, 10)            # clamped to the image
    assert normalize_box([-5, -5, 10, 10], 100, 50) == (0, 0, 10, 10)
    with pytest.raises(ToolError, match="box"):
        crop(im, [200, 200, 300, 300])
    with pytest.raises(ToolError, match="box"):
        crop(im, ["a", "b"])


def test_adaptive_zoom_upscales_small_text_only() -> None:
    strip = Image.new("RGB", (120, 12))                # one line of ~12 px text
    z, s = adaptive_zoom(strip, target_text_px=32)
    assert s == pytest.approx(32 / 12, rel=0.01) and z.height == round(12 * s)
    big = Image.new("RGB", (800, 60))
    assert adaptive_zoom(big, target_text_px=32)[1] == 1.0            # already large: untouched
    tiny = Image.new("RGB", (20, 2))
    assert adaptive_zoom(tiny, target_text_px=32)[1] == 4.0            # capped at max_scale
    wide = Image.new("RGB", (2000, 10))
    z, s = adaptive_zoom(wide, target_text_px=32)
    assert max(z.size) <= 2400                                          # capped at max_side


def test_signals_tell_text_and_screenshots_from_plain_photos(tmp_path: Path) -> None:
    shot = Image.new("RGB", (540, 1170), (250, 250, 250))              # phone screenshot: flat UI + text
    d = ImageDraw.Draw(shot)
    for i in range(20):
        d.text((30, 60 + i * 50), f"Message {i}: see you at the station at 8", font=_font(22), fill=(20, 20, 20))
    sp = tmp_path / "shot.png"
    shot.save(sp)
    # smooth "photo": gradients, no sharp text edges
    photo = Image.linear_gradient("L").resize((800, 600)).convert("RGB")
    pp = tmp_path / "photo.jpg"
    photo.save(pp, quality=90)
    s1, s2 = image_signals(sp), image_signals(pp)
    assert s1["screenshot_like"] is True and s1["text_bearing"] is True and s1["text_method"] == "edge_density"
    assert s2["screenshot_like"] is False and s2["text_bearing"] is False
    assert (s1["width"], s1["height"]) == (540, 1170)
    assert 0.0 <= s2["mean_brightness"] <= 1.0
    with pytest.raises(ToolError):
        image_signals(tmp_path / "nope.png")


def test_edge_strength_is_pillows_find_edges_and_tiles_find_small_text(tmp_path: Path) -> None:
    import numpy as np
    from PIL import ImageFilter

    from tools.images import _edge_strength, dense_edge_tiles

    rng = np.random.default_rng(0)
    noise = Image.fromarray(rng.integers(0, 256, (97, 131), dtype=np.uint8), "L")
    photo = Image.new("L", (640, 480), 120)
    ImageDraw.Draw(photo).text((40, 300), "EXIT 3  Wangfujing St", font=_font(18), fill=250)
    for g in (noise, photo):
        ref = np.asarray(g.filter(ImageFilter.FIND_EDGES), dtype=np.int16)[1:-1, 1:-1]
        v = _edge_strength(g)
        assert v.shape == ref.shape
        assert np.array_equal(np.clip(v, 0, 255), ref)
    boxes = dense_edge_tiles(photo)
    assert len(boxes) >= 3 and all(280 <= (b[1] + b[3]) / 2 <= 330 for b in boxes)   # on the text line only
    assert dense_edge_tiles(Image.new("L", (2, 2))) == [] and _edge_strength(Image.new("L", (2, 9))).size == 0
    jpg = tmp_path / "sign.jpg"
    photo.convert("RGB").save(jpg, quality=92)
    sig = image_signals(jpg, tiles=True)
    assert sig["format"] == "JPEG" and sig["text_method"] == "edge_density+edge_tiles"
    assert sig["text_tiles"] == len(sig["text_tile_boxes"]) >= 3 and sig["text_bearing"] is True


def test_skim_copy_is_reduced_oriented_and_still_guarded(tmp_path: Path) -> None:
    from tools.images import load_skim_copy

    big = Image.new("RGB", (1600, 1000), (90, 110, 100))
    d = ImageDraw.Draw(big)
    d.text((100, 700), "Platform 4  Shenzhen North  G1234", font=_font(30), fill=(250, 250, 250))
    ex = Image.Exif()
    ex[274] = 6                                                       # stored sideways: shown 1000 x 1600
    jpg = tmp_path / "big.jpg"
    big.save(jpg, quality=92, exif=ex)
    work, full = load_skim_copy(jpg)
    assert full == (1000, 1600) and work.mode == "L" and work.size == (500, 800) and work.format == "JPEG"
    sig = image_signals(jpg, tiles=True)
    assert (sig["width"], sig["height"]) == (1000, 1600) and sig["text_tiles"] >= 3
    # the text ran along y = 700..740 of the stored picture: after the turn it is a column near x = 260..300
    assert all(200 <= (b[0] + b[2]) / 2 <= 360 and b[3] <= 1600 for b in sig["text_tile_boxes"])
    png = tmp_path / "shot.png"
    Image.new("RGBA", (720, 1280), (255, 255, 255, 0)).save(png)
    work, full = load_skim_copy(png)
    assert full == (720, 1280) and work.size == (360, 640) and work.getpixel((5, 5)) == 255   # alpha on white
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(jpg.read_bytes()[:4000])
    with pytest.raises(ToolError, match="cut.jpg"):
        load_skim_copy(cut)


def test_sha256_file_tracks_content(tmp_path: Path) -> None:
    p = tmp_path / "x.bin"
    p.write_bytes(b"abc")
    assert sha256_file(p) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    p.write_bytes(b"abd")
    assert sha256_file(p) != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    with pytest.raises(ToolError, match="x2.bin"):
        sha256_file(tmp_path / "x2.bin")
