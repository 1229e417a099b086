"""Small JPEG thumbnails as data URIs for the audit report (never the originals: the report stays
small and self-contained), as inline SVG so a revealing region is drawn over the picture in the
image's own pixel coordinates, and edit previews (the blur or crop applied to a copy in memory;
the person's file is only read). Pillow does the image work."""
from __future__ import annotations

import base64
import io
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageOps

from core.textsafe import html_text as escape  # the output boundary: html.escape of printable text

THUMB = 320          # longest side of a thumbnail, pixels
QUALITY = 70
BUDGET = 4_000_000   # bytes of thumbnails in one report at most (the report stays under 5 MB)


def _open(path: Path) -> Image.Image | None:
    try:
        im = Image.open(path)
        im.load()
        return ImageOps.exif_transpose(im).convert("RGB")
    except Exception:           # a video, a format Pillow cannot read, a truncated file: no thumbnail
        return None


def _uri(im: Image.Image) -> tuple[str, int, int]:
    """(data URI, width, height) of a THUMB-sized JPEG of `im`."""
    w, h = im.size
    small = im.copy()
    small.thumbnail((THUMB, THUMB))
    buf = io.BytesIO()
    small.save(buf, "JPEG", quality=QUALITY, optimize=True)
    return "data:image/jpeg;base64," + base64.b64encode(buf.getvalue()).decode("ascii"), w, h


def _box(box: list[float] | None, w: int, h: int) -> tuple[int, int, int, int] | None:
    if not box or len(box) != 4:
        return None
    x0, y0, x1, y1 = (int(round(v)) for v in box)
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None


def _svg(uri: str, w: int, h: int, box: tuple[int, int, int, int] | None, label: str, cls: str = "") -> str:
    rect = ""
    if box:
        x0, y0, x1, y1 = box
        pad = max(2, (w + h) // 200)
        geo = (f"x='{max(0, x0 - pad)}' y='{max(0, y0 - pad)}' width='{x1 - x0 + 2 * pad}' "
               f"height='{y1 - y0 + 2 * pad}'")
        sw = max(2, (w + h) // 160)
        # a white halo under the coloured frame: visible on a red sign as on a white page
        rect = (f"<rect class='halo' {geo} stroke-width='{sw * 2}'/>"
                f"<rect class='region' {geo} stroke-width='{sw}'/>")
    return (f"<svg class='thumb {cls}' viewBox='0 0 {w} {h}' role='img' aria-label='{escape(label)}'>"
            f"<title>{escape(label)}</title><image href='{uri}' width='{w}' height='{h}'/>{rect}</svg>")


class Thumbs:
    """Thumbnails of one account's images (user_dir/images/...), each made once."""

    def __init__(self, user_dir: str | Path):
        self.root = Path(user_dir)
        self._cache: dict[tuple, tuple[str, int, int] | None] = {}
        self.spent = 0               # bytes of data URIs made so far

    def _get(self, file: str, edit: str = "", box: tuple | None = None) -> tuple[str, int, int] | None:
        key = (file, edit, box)
        if key not in self._cache:
            path = (self.root / file).resolve()
            im = _open(path) if path.is_relative_to(self.root.resolve()) else None
            if im is not None and box:
                region = im.crop(box)
                if edit == "blur":
                    im.paste(region.filter(ImageFilter.GaussianBlur(max(6, (box[3] - box[1]) // 2))), box[:2])
                elif edit == "crop":
                    ImageDraw.Draw(im).rectangle(box, fill=(255, 255, 255))
            got = _uri(im) if im is not None and self.spent < BUDGET else None
            self.spent += len(got[0]) if got else 0
            self._cache[key] = got
        return self._cache[key]

    def region(self, file: str | None, box: list[float] | None, label: str) -> str:
        """The image with the revealing region drawn on it ('' when it cannot be read)."""
        if not file:
            return ""
        got = self._get(file)
        if got is None:
            return ""
        uri, w, h = got
        return _svg(uri, w, h, _box(box, w, h), label)

    def edited(self, file: str | None, kind: str, box: list[float] | None, label: str) -> str:
        """Preview of an edit on the image: blurred or cropped region, or the image marked for removal."""
        if not file:
            return ""
        plain = self._get(file)
        if plain is None:
            return ""
        _, w, h = plain
        b = _box(box, w, h)
        mode = {"blur_region": "blur", "crop_image": "crop"}.get(kind, "")
        got = self._get(file, mode, b) if mode and b else plain
        if got is None:
            return ""
        uri, w, h = got
        return _svg(uri, w, h, b if mode else None, label, "gone" if kind in ("remove_image", "delete_post") else "")
