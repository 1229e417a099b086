"""Safe image loading and cheap per-image signals.

Images in a benchmark are untrusted input: a missing, truncated, huge or
decompression-bomb file raises ToolError naming the file, never crashes the run.
"""
from __future__ import annotations

import hashlib
import os
import stat
import warnings
from pathlib import Path
from typing import Any, Callable, Sequence

from PIL import Image, ImageFilter, ImageOps, ImageStat, UnidentifiedImageError

from tools.base import ToolError

MAX_PIXELS = 40_000_000
MAX_BYTES = 50 * 1024 * 1024

# Edge-density threshold for "text-bearing". Tuned for recall on 182 generated benchmark
# images labelled by the OCR detector: 0.004 keeps every real text image (46) and flags 15
# of 136 text-free photos; 0.02 missed 30 text images. Busy real photos exceed it anyway:
# the signal only decides which images are worth an OCR pass.
TEXT_EDGE_DENSITY = 0.004

# The skim's working copy (load_skim_copy): images up to SKIM_MAX_SIDE px are read as they
# are; larger ones at 1/k (long side // SKIM_SIDE, k >= 2), where the text tiles use tiles of
# the same share of the picture and a stronger edge threshold (no bicubic smoothing of noise:
# calibrated on the generated benches so tile counts keep their 3/10/40 levels; see
# dense_edge_tiles).
SKIM_SIDE = 540
SKIM_MAX_SIDE = 800

Box = Sequence[float]  # (x0, y0, x1, y1) in pixels, or a 4-point polygon [[x, y], ...]


def sha256_file(path: str | Path, chunk: int = 1 << 20, max_bytes: int = MAX_BYTES) -> str:
    """Content hash of a regular file (a FIFO, device or over-size file is refused, never read:
    /dev/zero or a FIFO named like an image would block or never end)."""
    h = hashlib.sha256()
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        raise ToolError(f"{path}: cannot read file ({e.strerror or e})", tool="sha256", file=str(path)) from e
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise ToolError(f"{path}: not a regular file", tool="sha256", file=str(path))
        total = 0
        while block := os.read(fd, chunk):
            total += len(block)
            if total > max_bytes:
                raise ToolError(f"{path}: file over the {max_bytes}-byte limit", tool="sha256", file=str(path))
            h.update(block)
    except OSError as e:
        raise ToolError(f"{path}: cannot read file ({e.strerror or e})", tool="sha256", file=str(path)) from e
    finally:
        os.close(fd)
    return h.hexdigest()


def load_image(path: str | Path, max_pixels: int = MAX_PIXELS, max_bytes: int = MAX_BYTES) -> Image.Image:
    """Open, verify and fully decode an image as RGB (EXIF orientation applied).

    Raises ToolError naming the file when it is missing, too big (bytes or pixels),
    a decompression bomb, not an image, or truncated/corrupt.
    """
    return _decode(path, max_pixels, max_bytes)[0]


def load_skim_copy(path: str | Path) -> tuple[Image.Image, tuple[int, int]]:
    """(grey working copy, the image's full (width, height)) for the skim's signals: the same
    guards and whole-file decode as load_image (truncation is still caught), but an image over
    800 px is decoded at 1/k of its size (k = long side // 540, at least 2): a JPEG by the
    decoder's DCT scaling, straight to grey (the luma channel, no colour conversion), others
    by Image.reduce. About 4x cheaper than a full decode plus a bicubic resize."""
    return _decode(path, MAX_PIXELS, MAX_BYTES, skim=True)  # type: ignore[return-value]


def skim_factor(width: int, height: int) -> int:
    """The integer reduction of the skim's working copy (1 for images up to SKIM_MAX_SIDE)."""
    long_ = max(width, height)
    return 1 if long_ <= SKIM_MAX_SIDE else max(2, long_ // SKIM_SIDE)


def _decode(path: str | Path, max_pixels: int, max_bytes: int, *, skim: bool = False) -> tuple[Image.Image, tuple[int, int]]:
    p = Path(path)
    name = str(p)
    try:
        size = p.stat().st_size
    except FileNotFoundError as e:
        raise ToolError(f"{name}: image file not found", tool="load_image", file=name) from e
    except OSError as e:
        raise ToolError(f"{name}: cannot stat image ({e.strerror or e})", tool="load_image", file=name) from e
    if not p.is_file():
        raise ToolError(f"{name}: not a regular file", tool="load_image", file=name)
    if size == 0:
        raise ToolError(f"{name}: image file is empty", tool="load_image", file=name)
    if size > max_bytes:
        raise ToolError(f"{name}: image is {size} bytes, over the {max_bytes}-byte limit", tool="load_image", file=name)
    try:
        with warnings.catch_warnings():
            # Pillow warns (not raises) between MAX_IMAGE_PIXELS and 2x; we treat both as errors.
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(p) as probe:
                w, h = probe.size
                if w <= 0 or h <= 0:
                    raise ToolError(f"{name}: image has no pixels", tool="load_image", file=name)
                if w * h > max_pixels:
                    raise ToolError(
                        f"{name}: {w}x{h} pixels is over the {max_pixels}-pixel limit (decompression-bomb guard)",
                        tool="load_image", file=name,
                    )
                probe.verify()  # structural check (CRC, truncation of headers)
            with Image.open(p) as im:  # verify() invalidates the object: reopen to decode
                fmt = im.format
                k = skim_factor(w, h) if skim else 1
                if k > 1 and fmt == "JPEG":
                    im.draft("L", (w // k, h // k))      # DCT scaling: 1/2, 1/4 or 1/8 at decode
                im.load()             # decoded once; the pixels outlive the file (closed on exit)
                if im.getexif().get(274, 1) in (5, 6, 7, 8):   # EXIF orientation turns it a quarter
                    w, h = h, w
                ImageOps.exif_transpose(im, in_place=True)   # no copy of the pixels unless rotated
                if skim:
                    if im.mode != "L":   # transparency flattened on white first, as for RGB
                        im = (im if im.mode == "RGB" else _to_rgb(im)).convert("L")
                    r = max(1, max(im.size) // max(1, max(w, h) // k))   # what the decoder left to reduce
                    im = im.reduce(r) if r > 1 else im
                elif im.mode != "RGB":
                    im = _to_rgb(im)
                im.format = fmt       # the file's format is a signal (screenshots are PNG)
    except ToolError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as e:
        raise ToolError(f"{name}: decompression bomb refused ({e})", tool="load_image", file=name) from e
    except UnidentifiedImageError as e:
        raise ToolError(f"{name}: not a recognised image format", tool="load_image", file=name) from e
    except (OSError, SyntaxError, ValueError, EOFError, MemoryError) as e:
        raise ToolError(f"{name}: corrupt or truncated image ({type(e).__name__}: {e})", tool="load_image", file=name) from e
    return im, (w, h)


def _to_rgb(im: Image.Image) -> Image.Image:
    """Flatten transparency onto white (screenshots with alpha) and convert palettes/greyscale."""
    if im.mode in ("RGBA", "LA") or (im.mode == "P" and "transparency" in im.info):
        rgba = im.convert("RGBA")
        bg = Image.new("RGB", rgba.size, (255, 255, 255))
        bg.paste(rgba, mask=rgba.getchannel("A"))
        return bg
    if im.mode in ("I;16", "I;16B", "I;16L", "I", "F"):
        return ImageOps.autocontrast(im.convert("L")).convert("RGB")
    return im.convert("RGB")


def as_image(image: str | Path | Image.Image) -> Image.Image:
    if isinstance(image, Image.Image):
        return image if image.mode == "RGB" else _to_rgb(image)
    return load_image(image)


def normalize_box(box: Box, width: int, height: int) -> tuple[int, int, int, int]:
    """Accept (x0, y0, x1, y1) or a polygon; clamp to the image; raise ToolError if empty."""
    pts: list[tuple[float, float]]
    if len(box) == 4 and all(isinstance(v, (int, float)) for v in box):
        x0, y0, x1, y1 = (float(v) for v in box)  # type: ignore[arg-type]
        pts = [(x0, y0), (x1, y1)]
    else:
        try:
            pts = [(float(p[0]), float(p[1])) for p in box]  # type: ignore[index]
        except (TypeError, IndexError, ValueError) as e:
            raise ToolError(f"box: expected [x0, y0, x1, y1] or a list of [x, y] points, got {box!r}", tool="crop") from e
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    x0, x1 = max(0, int(min(xs))), min(width, int(round(max(xs))))
    y0, y1 = max(0, int(min(ys))), min(height, int(round(max(ys))))
    if x1 - x0 < 1 or y1 - y0 < 1:
        raise ToolError(f"box: {list(box)!r} is empty or outside the {width}x{height} image", tool="crop")
    return x0, y0, x1, y1


def crop(img: Image.Image, box: Box, pad: int = 0) -> Image.Image:
    """Crop to a box (rectangle or polygon), with optional padding, clamped to the image."""
    x0, y0, x1, y1 = normalize_box(box, img.width, img.height)
    if pad:
        x0, y0 = max(0, x0 - pad), max(0, y0 - pad)
        x1, y1 = min(img.width, x1 + pad), min(img.height, y1 + pad)
    return img.crop((x0, y0, x1, y1))


def adaptive_zoom(
    img: Image.Image,
    target_text_px: int = 32,
    text_px: float | None = None,
    max_side: int = 2400,
    max_scale: float = 4.0,
) -> tuple[Image.Image, float]:
    """Upscale so text about `text_px` high becomes about `target_text_px` high.

    Without a known text height the crop's own height is used when it is a thin strip
    (a single line), else a fifth of it. Never shrinks; capped by `max_scale` and
    `max_side` (OCR models gain nothing beyond that). Returns (image, scale).
    """
    if text_px is None:
        h = img.height
        text_px = h if h <= 3 * target_text_px or img.width >= 6 * h else h / 5.0
    text_px = max(1.0, float(text_px))
    scale = min(max_scale, target_text_px / text_px, max_side / max(img.width, img.height))
    if scale <= 1.05:
        return img, 1.0
    size = (max(1, round(img.width * scale)), max(1, round(img.height * scale)))
    return img.resize(size, Image.Resampling.LANCZOS), scale


def _edge_strength(gray: Image.Image) -> "np.ndarray":
    """Pillow's FIND_EDGES (8 x centre - the 8 neighbours, clipped to 0..255) of an L image,
    inside its 1-px frame, unclipped as int16: `v > t` equals `FIND_EDGES > t` for 0 <= t < 255.
    Numpy does it ~6x faster than ImageFilter (one pass of shifted sums, no kernel loop)."""
    import numpy as np

    a = np.asarray(gray, dtype=np.int16)
    if a.shape[0] < 3 or a.shape[1] < 3:
        return np.zeros((max(0, a.shape[0] - 2), max(0, a.shape[1] - 2)), dtype=np.int16)
    c = a[1:-1, 1:-1]
    v = 9 * c
    for dy in (0, 1, 2):
        for dx in (0, 1, 2):
            v -= a[dy:dy + c.shape[0], dx:dx + c.shape[1]]
    return v


def _edge_density(gray: Image.Image) -> float:
    """Share of pixels on strong edges in a 384-px thumbnail (text is dense in sharp edges)."""
    g = gray.copy()
    g.thumbnail((384, 384))
    if g.width > 4 and g.height > 4:  # the filter marks the frame itself as an edge: left out
        v = _edge_strength(g)
        return int((v >= 64).sum()) / max(1, v.size)
    hist = g.filter(ImageFilter.FIND_EDGES).histogram()
    return sum(hist[64:]) / max(1, g.width * g.height)


def dense_edge_tiles(work: Image.Image, full_size: tuple[int, int] | None = None, thr: float = 0.12) -> list[list[int]]:
    """Boxes (in full-image pixels) of tiles dense in sharp edges, on the skim's working copy
    `work` of an image of `full_size`: tiles of 16 px per 800 px of the copy's long side whose
    share of strong-edge pixels exceeds 12 %. Glyph strokes are dense; blur, gradients, smooth
    shapes and their outlines are not. Finds small text on photos (signs, badges, cake toppers)
    that a whole-image edge density misses, and tells the router where text is that OCR did
    not read. Strong = FIND_EDGES > 60 on an image read as it is; > 100 on a reduced copy,
    whose pixel noise the old bicubic resize to 800 px used to smooth (measured on 900
    generated images: 3-4 % change tile level, none crosses the 3-tile text-bearing line)."""
    import numpy as np

    g = work if work.mode == "L" else work.convert("L")
    fw, fh = full_size or g.size
    reduced = max(g.size) < max(fw, fh)
    tile = max(4, round(16 * max(g.size) / SKIM_MAX_SIDE)) if reduced else 16
    e = _edge_strength(g) > (100 if reduced else 60)
    h, w = e.shape
    h2, w2 = h - h % tile, w - w % tile
    if h2 == 0 or w2 == 0:
        return []
    t = e[:h2, :w2].reshape(h2 // tile, tile, w2 // tile, tile).mean(axis=(1, 3))
    ys, xs = np.nonzero(t > thr)
    sx, sy = fw / g.width, fh / g.height
    return [[int((x * tile + 1) * sx), int((y * tile + 1) * sy), int(((x + 1) * tile + 1) * sx),
             int(((y + 1) * tile + 1) * sy)] for y, x in zip(ys.tolist()[:600], xs.tolist()[:600])]


def image_signals(path: str | Path | Image.Image, *,
                  detector: Callable[[Image.Image], list[Any]] | None = None, tiles: bool = False) -> dict[str, Any]:
    """Cheap signals for the perceiver, from the skim's grey working copy (load_skim_copy: one
    reduced decode, ~15 ms per 1-Mpx JPEG with the tiles).

    text_bearing: by default from edge density of a thumbnail (`text_method` says
    "edge_density"); with tiles=True also from >= 3 dense-edge text tiles (`text_tiles`,
    `text_tile_boxes`: "edge_density+edge_tiles", the skim's signals); with a `detector` (e.g.
    tools.ocr.detect_text_regions, the RapidOCR text detector) from its regions on the full
    image (`text_method` "ocr_det", ~0.2-1 s, also returns `text_regions`).
    screenshot_like: PNG/alpha-free flat colour areas plus a phone/desktop aspect ratio.
    """
    if isinstance(path, Image.Image):
        fmt = getattr(path, "format", None)
        grey = as_image(path).convert("L")
        full = grey.size
        k = skim_factor(*full)
        work = grey.reduce(k) if k > 1 else grey
    else:
        work, full = load_skim_copy(path)
        fmt = work.format
    w, h = full
    aspect = w / h
    k = max(1, max(work.size) // 256)
    small = work.reduce(k) if k > 1 else work      # 256-511 px: a box filter keeps flat areas flat
    brightness = ImageStat.Stat(small).mean[0] / 255.0
    # flat share: pixels equal to the most common grey level (UI backgrounds are flat)
    hist = small.histogram()
    flat_share = max(hist) / max(1, small.width * small.height)
    phone_or_desktop = (0.40 <= aspect <= 0.62) or (1.55 <= aspect <= 1.80)
    screenshot_like = bool((fmt == "PNG" and flat_share > 0.25) or (flat_share > 0.45 and phone_or_desktop))
    density = _edge_density(work)
    out: dict[str, Any] = {
        "width": w,
        "height": h,
        "aspect": round(aspect, 4),
        "format": fmt,
        "mean_brightness": round(brightness, 4),
        "flat_share": round(flat_share, 4),
        "edge_density": round(density, 4),
        "screenshot_like": screenshot_like,
    }
    if detector is not None:
        regions = detector(path if isinstance(path, Image.Image) else load_image(path))
        out["text_regions"] = regions
        out["text_bearing"] = bool(regions)
        out["text_method"] = "ocr_det"
    else:
        out["text_bearing"] = bool(density >= TEXT_EDGE_DENSITY or screenshot_like)
        out["text_method"] = "edge_density"
    if tiles:
        boxes = dense_edge_tiles(work, full)
        out["text_tiles"] = len(boxes)
        out["text_tile_boxes"] = boxes
        out["text_bearing"] = bool(out["text_bearing"] or len(boxes) >= 3)
        out["text_method"] += "+edge_tiles"
    return out
