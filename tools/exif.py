"""EXIF reading (time, device, GPS) and stripping, with Pillow only."""
from __future__ import annotations

import math
import struct
from pathlib import Path
from typing import Any

from PIL import Image, UnidentifiedImageError
from PIL.ExifTags import GPS, IFD, Base
from core.nodes.evidence import ExifInfo  # noqa: F401 (the exif output, stored in evidence data)
from tools.base import ToolError
from tools.images import MAX_BYTES, MAX_PIXELS




def _text(v: Any, limit: int = 200) -> str | None:
    if v is None:
        return None
    if isinstance(v, bytes):
        v = v.decode("utf-8", errors="replace")
    s = str(v).replace("\x00", "").strip()
    return s[:limit] or None


def _exif_datetime(v: Any) -> str | None:
    """EXIF writes "YYYY:MM:DD HH:MM:SS"; return "YYYY-MM-DD HH:MM:SS" or None if malformed."""
    s = _text(v, 40)
    if not s or len(s) < 19:
        return None
    date, _, time = s[:19].partition(" ")
    parts = date.split(":")
    if len(parts) != 3 or not all(p.isdigit() for p in parts) or not time:
        return None
    if parts[0] == "0000":
        return None
    return f"{parts[0]}-{parts[1]}-{parts[2]} {time}"


def _rational(x: Any) -> float:
    if isinstance(x, tuple) and len(x) == 2:
        return float(x[0]) / float(x[1])
    return float(x)


def _dms(value: Any, ref: Any, neg_refs: tuple[str, ...]) -> float | None:
    try:
        if isinstance(value, (int, float)):
            deg = float(value)
        else:
            d, m, s = (list(value) + [0, 0, 0])[:3]
            deg = _rational(d) + _rational(m) / 60.0 + _rational(s) / 3600.0
    except (TypeError, ValueError, ZeroDivisionError):
        return None
    if not math.isfinite(deg):
        return None
    r = _text(ref, 4)
    if r and r.upper()[:1] in neg_refs:
        deg = -deg
    return deg


# what Pillow raises reading a corrupt sub-IFD: a bad offset (seek: OSError/ValueError), a
# truncated or mistyped value (struct.error, SyntaxError, ValueError)
_IFD_ERRORS = (OSError, ValueError, SyntaxError, struct.error)


def read_exif(path: str | Path) -> ExifInfo:
    """EXIF time, device and GPS of an image; an image without EXIF gives an empty ExifInfo.

    Raises ToolError naming the file when it is missing, too big or not an image.
    """
    p = Path(path)
    name = str(p)
    try:
        size = p.stat().st_size
    except OSError as e:
        raise ToolError(f"{name}: image file not found", tool="exif", file=name) from e
    if size > MAX_BYTES:
        raise ToolError(f"{name}: image is {size} bytes, over the {MAX_BYTES}-byte limit", tool="exif", file=name)
    try:
        with Image.open(p) as im:
            if im.width * im.height > MAX_PIXELS:
                raise ToolError(f"{name}: {im.width}x{im.height} pixels is over the pixel limit", tool="exif", file=name)
            exif = im.getexif()
    except ToolError:
        raise
    except UnidentifiedImageError as e:
        raise ToolError(f"{name}: not a recognised image format", tool="exif", file=name) from e
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError) as e:
        raise ToolError(f"{name}: cannot read EXIF ({type(e).__name__}: {e})", tool="exif", file=name) from e
    info = ExifInfo(has_exif=len(exif) > 0)
    if not exif:
        return info
    try:
        sub = exif.get_ifd(IFD.Exif)
    except _IFD_ERRORS:  # a corrupt sub-IFD only loses the sub-IFD fields
        sub = {}
    info.datetime_original = _exif_datetime(
        sub.get(Base.DateTimeOriginal) or sub.get(Base.DateTimeDigitized) or exif.get(Base.DateTime)
    )
    info.offset = _text(sub.get(Base.OffsetTimeOriginal) or sub.get(Base.OffsetTime), 10)
    info.make = _text(exif.get(Base.Make))
    info.model = _text(exif.get(Base.Model))
    info.software = _text(exif.get(Base.Software))
    try:
        gps = exif.get_ifd(IFD.GPSInfo)
    except _IFD_ERRORS:
        gps = {}
    if gps and GPS.GPSLatitude in gps and GPS.GPSLongitude in gps:
        lat = _dms(gps.get(GPS.GPSLatitude), gps.get(GPS.GPSLatitudeRef), ("S",))
        lon = _dms(gps.get(GPS.GPSLongitude), gps.get(GPS.GPSLongitudeRef), ("W",))
        if lat is not None and lon is not None and -90 <= lat <= 90 and -180 <= lon <= 180:
            info.gps_lat, info.gps_lon = round(lat, 6), round(lon, 6)
    return info


def strip_exif(src: str | Path, dst: str | Path) -> Path:
    """Write a copy of the image without any metadata (EXIF, GPS, XMP, ICC comments).

    Orientation is baked into the pixels first so the copy still looks right.
    """
    from tools.images import load_image

    img = load_image(src)  # already exif-transposed RGB, metadata dropped by the decode
    dst = Path(dst)
    fmt = (Image.registered_extensions().get(dst.suffix.lower()) or "PNG")
    clean = Image.new(img.mode, img.size)
    clean.paste(img)
    save_kwargs: dict[str, Any] = {"quality": 95} if fmt == "JPEG" else {}
    try:
        clean.save(dst, format=fmt, **save_kwargs)
    except (OSError, ValueError, KeyError) as e:
        raise ToolError(f"{dst}: cannot write stripped image ({e})", tool="strip_exif", file=str(dst)) from e
    return dst


__all__ = ["ExifInfo", "read_exif", "strip_exif"]
