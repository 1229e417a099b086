"""EXIF reading (time, device, GPS with hemispheres) and stripping, on files written by Pillow."""
from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image
from PIL.ExifTags import GPS, IFD, Base

from tools.base import ToolError
from tools.exif import read_exif, strip_exif


def _write(path: Path, *, lat: tuple | None = None, lat_ref: str = "N", lon: tuple | None = None,
           lon_ref: str = "E", when: str | None = "2024:03:05 08:12:30") -> None:
    ex = Image.Exif()
    ex[Base.Make] = "Apple"
    ex[Base.Model] = "iPhone 13"
    ex[Base.Software] = "17.2"
    if when:
        ex.get_ifd(IFD.Exif)[Base.DateTimeOriginal] = when
        ex.get_ifd(IFD.Exif)[Base.OffsetTimeOriginal] = "+08:00"
    if lat is not None and lon is not None:
        g = ex.get_ifd(IFD.GPSInfo)
        g[GPS.GPSLatitudeRef], g[GPS.GPSLatitude] = lat_ref, lat
        g[GPS.GPSLongitudeRef], g[GPS.GPSLongitude] = lon_ref, lon
    Image.new("RGB", (64, 48), "gray").save(path, exif=ex)


def test_reads_time_device_and_gps(tmp_path: Path) -> None:
    p = tmp_path / "a.jpg"
    # 22 deg 32' 24" N = 22.54; 113 deg 56' 6" E = 113.935
    _write(p, lat=(22.0, 32.0, 24.0), lon=(113.0, 56.0, 6.0))
    info = read_exif(p)
    assert info.datetime_original == "2024-03-05 08:12:30"
    assert info.offset == "+08:00"
    assert (info.make, info.model, info.software) == ("Apple", "iPhone 13", "17.2")
    assert info.gps_lat == pytest.approx(22.54, abs=1e-4)
    assert info.gps_lon == pytest.approx(113.935, abs=1e-4)
    assert info.has_gps


def test_southern_and_western_hemispheres_are_negative(tmp_path: Path) -> None:
    p = tmp_path / "syd.jpg"
    _write(p, lat=(33.0, 52.0, 8.0), lat_ref="S", lon=(151.0, 12.0, 33.0), lon_ref="E")
    info = read_exif(p)
    assert info.gps_lat == pytest.approx(-(33 + 52 / 60 + 8 / 3600), abs=1e-4)
    assert info.gps_lon > 0
    p2 = tmp_path / "nyc.jpg"
    _write(p2, lat=(40.0, 42.0, 46.0), lon=(74.0, 0.0, 22.0), lon_ref="W")
    assert read_exif(p2).gps_lon == pytest.approx(-(74 + 22 / 3600), abs=1e-4)


def test_no_exif_and_malformed_values(tmp_path: Path) -> None:
    p = tmp_path / "plain.png"
    Image.new("RGB", (10, 10)).save(p)
    info = read_exif(p)
    assert not info.has_exif and info.datetime_original is None and not info.has_gps
    p2 = tmp_path / "zero.jpg"
    _write(p2, when="0000:00:00 00:00:00")
    assert read_exif(p2).datetime_original is None          # camera with an unset clock


def test_corrupt_or_missing_files_raise_tool_errors(tmp_path: Path) -> None:
    with pytest.raises(ToolError, match="missing.jpg"):
        read_exif(tmp_path / "missing.jpg")
    bad = tmp_path / "bad.jpg"
    bad.write_text("not a jpeg")
    with pytest.raises(ToolError, match="bad.jpg"):
        read_exif(bad)


def test_strip_exif_removes_all_metadata_and_keeps_pixels(tmp_path: Path) -> None:
    src, dst = tmp_path / "g.jpg", tmp_path / "clean.jpg"
    _write(src, lat=(22.0, 32.0, 24.0), lon=(113.0, 56.0, 6.0))
    strip_exif(src, dst)
    info = read_exif(dst)
    assert not info.has_exif and not info.has_gps and info.make is None
    with Image.open(dst) as im:
        assert im.size == (64, 48)
