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
from typing import Any, Sequence

from PIL import Image, ImageFilter, ImageOps, ImageStat, UnidentifiedImageError

from tools.base import ToolError

MAX_PIXELS = 40_000_000
MAX_BYTES = 50 * 1024 * 1024

# Edge-density threshold for "text-bearing". Tuned for recall on 182 generated benchmark
# images labelled by the OCR detector: 0.004 keeps every real text image (46) and flags 15
# of 136 text-free photos; 0.02 missed 30 text images. Busy real photos exceed it anyway:
# the signal only decides which images are worth an OCR pass.
TEXT_EDGE_DENSITY = 0.004

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
                im.load()
                im = ImageOps.exif_transpose(im) or im
                if im.mode != "RGB":
                    im = _to_rgb(im)
                else:
                    im = im.copy()
    except ToolError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as e:
        raise ToolError(f"{name}: decompression bomb refused ({e})", tool="load_image", file=name) from e
    except UnidentifiedImageError as e:
        raise ToolError(f"{name}: not a recognised image format", tool="load_image", file=name) from e
    except (OSError, SyntaxError, ValueError, EOFError, MemoryError) as e:
        raise ToolError(f"{name}: corrupt or truncated image ({type(e).__name__}: {e})", tool="load_image", file=name) from e
    return im


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


def _edge_density(img: Image.Image) -> float:
    """Share of pixels on strong edges in a 384-px thumbnail (text is dense in sharp edges)."""
    g = img.convert("L")
    g.thumbnail((384, 384))
    edges = g.filter(ImageFilter.FIND_EDGES)
    if edges.width > 4 and edges.height > 4:  # the filter marks the frame itself as an edge
        edges = edges.crop((1, 1, edges.width - 1, edges.height - 1))
    hist = edges.histogram()
    strong = sum(hist[64:])
    return strong / max(1, edges.width * edges.height)


def image_signals(path: str | Path | Image.Image, *, use_detector: bool = False) -> dict[str, Any]:
    """Cheap signals for the perceiver.

    text_bearing: by default from edge density of a thumbnail (`text_method` says
    "edge_density", ~5 ms); with use_detector=True from the RapidOCR text detector
    (`text_method` "ocr_det", ~0.2-1 s, also returns `text_regions`).
    screenshot_like: PNG/alpha-free flat colour areas plus a phone/desktop aspect ratio.
    """
    src = path if isinstance(path, Image.Image) else None
    fmt = None
    if src is None:
        p = Path(path)  # type: ignore[arg-type]
        img = load_image(p)
        try:
            with Image.open(p) as probe:
                fmt = probe.format
        except Exception:  # already decoded fine once; the format is only a hint
            fmt = None
    else:
        img = as_image(src)
        fmt = getattr(src, "format", None)
    w, h = img.size
    aspect = w / h
    gray = img.convert("L")
    small = gray.copy()
    small.thumbnail((256, 256))
    brightness = ImageStat.Stat(small).mean[0] / 255.0
    # flat share: pixels equal to the most common grey level (UI backgrounds are flat)
    hist = small.histogram()
    flat_share = max(hist) / max(1, small.width * small.height)
    phone_or_desktop = (0.40 <= aspect <= 0.62) or (1.55 <= aspect <= 1.80)
    screenshot_like = bool((fmt == "PNG" and flat_share > 0.25) or (flat_share > 0.45 and phone_or_desktop))
    density = _edge_density(img)
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
    if use_detector:
        from tools.ocr import detect_text_regions

        regions = detect_text_regions(img)
        out["text_regions"] = regions
        out["text_bearing"] = bool(regions)
        out["text_method"] = "ocr_det"
    else:
        out["text_bearing"] = bool(density >= TEXT_EDGE_DENSITY or screenshot_like)
        out["text_method"] = "edge_density"
    return out
