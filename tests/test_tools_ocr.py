"""Real RapidOCR (shipped PP-OCR ONNX models) on images rendered here with Pillow.

Kept small: each OCR call costs ~0.2-1 s on two shared cores.
"""
from __future__ import annotations

import threading
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

from tools.ocr import OcrEngine, PaddleOcrEngine, RapidOcrEngine, default_ocr, detect_text_regions, lines_text

pytestmark = pytest.mark.slow

DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
WQY = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"


def _font(path: str, size: int):
    try:
        return ImageFont.truetype(path, size)
    except OSError:
        pytest.skip(f"font {path} not installed (make fonts)")


def _squash(s: str) -> str:
    return "".join(s.split()).lower()


@pytest.fixture(scope="module")
def ocr() -> OcrEngine:
    eng = default_ocr()
    assert isinstance(eng, RapidOcrEngine)
    eng.warm_up()
    return eng


@pytest.fixture(scope="module")
def receipt(tmp_path_factory) -> Path:
    """A photo-like scene with a receipt: one Chinese line, one English line, and a small
    12-px order number in the corner that is hard to read at native size."""
    im = Image.new("RGB", (720, 480), (120, 140, 110))
    d = ImageDraw.Draw(im)
    d.rectangle([40, 40, 560, 300], fill="white")
    d.text((60, 60), "深圳市南山区科技园", font=_font(WQY, 30), fill="black")
    d.text((60, 130), "TOTAL 128.50 CNY", font=_font(DEJAVU, 26), fill="black")
    d.text((420, 270), "No. XC190417", font=_font(DEJAVU, 11), fill=(60, 60, 60))
    p = tmp_path_factory.mktemp("ocr") / "receipt.jpg"
    im.save(p, quality=92)
    return p



def test_warm_up_loads_every_model(ocr: OcrEngine) -> None:
    # a benchmark warms the engine up so no user's run pays a model load (RapidOCR loads the
    # classifier and recogniser lazily, at the first text it finds)
    eng = ocr._engine
    assert all(getattr(eng, m, None) is not None for m in ("text_det", "text_cls", "text_rec"))


def test_reads_chinese_and_english_lines(ocr, receipt) -> None:
    lines = ocr.read(receipt)
    text = _squash(lines_text(lines))
    assert "深圳市南山区科技园" in text
    assert "total128.50cny" in text
    for ln in lines:
        assert 0.0 <= ln.score <= 1.0 and len(ln.box) == 4
    zh = next(ln for ln in lines if "深圳" in ln.text)
    xs = [p[0] for p in zh.box]
    ys = [p[1] for p in zh.box]
    assert 40 <= min(xs) and max(xs) <= 600 and 45 <= min(ys) and max(ys) <= 110   # where it was drawn


def test_crop_and_zoom_reads_small_text_with_boxes_in_original_coordinates(ocr, receipt) -> None:
    lines = ocr.read(receipt, box=[400, 255, 560, 295], zoom="auto")
    assert "xc190417" in _squash(lines_text(lines))
    for ln in lines:                                     # mapped back into the crop's area of the photo
        for x, y in ln.box:
            assert 380 <= x <= 580 and 240 <= y <= 310
    # a polygon box and an explicit zoom factor give the same text
    poly = [[400, 255], [560, 255], [560, 295], [400, 295]]
    assert "xc190417" in _squash(lines_text(ocr.read(receipt, box=poly, zoom=3)))


def test_detector_finds_text_regions_and_none_on_blank(receipt) -> None:
    from tools.images import image_signals

    sig = image_signals(receipt, detector=detect_text_regions)
    assert sig["text_method"] == "ocr_det" and sig["text_bearing"] is True
    assert len(sig["text_regions"]) >= 2
    assert detect_text_regions(Image.new("RGB", (300, 200), "white")) == []


def test_engine_is_a_singleton_and_thread_safe(ocr) -> None:
    assert RapidOcrEngine.get() is ocr and default_ocr() is ocr
    im = Image.new("RGB", (360, 80), "white")
    ImageDraw.Draw(im).text((10, 20), "Chegongmiao 8:05", font=_font(DEJAVU, 28), fill="black")
    results: list[str] = []

    def work() -> None:
        results.append(_squash(lines_text(ocr.read(im))))

    threads = [threading.Thread(target=work) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 2 and results[0] == results[1] and "chegongmiao" in results[0]


def test_bad_inputs_raise_tool_errors(ocr, tmp_path: Path) -> None:
    from tools.base import ToolError

    with pytest.raises(ToolError, match="missing.png"):
        ocr.read(tmp_path / "missing.png")
    with pytest.raises(ToolError, match="zoom"):
        ocr.read(Image.new("RGB", (10, 10)), zoom=100)
    with pytest.raises(ToolError, match="box"):
        ocr.read(Image.new("RGB", (10, 10)), box=[50, 50, 60, 60])


@pytest.mark.skipif(not PaddleOcrEngine.available(), reason="paddleocr not installed")
def test_paddleocr_engine_reads_the_same_receipt(receipt) -> None:
    lines = PaddleOcrEngine().read(receipt)
    assert "total128.50cny" in _squash(lines_text(lines))


def test_zoom_recovers_tiny_text_the_full_pass_misses(ocr) -> None:
    """9-px text on a 1080-px photo: too small for the full-image pass (the detector sees the
    image at 960 px), legible after crop + adaptive zoom. This is what zoom_ocr routes are for."""
    im = Image.new("RGB", (1080, 1080), (90, 110, 100))
    d = ImageDraw.Draw(im)
    d.rectangle([700, 900, 900, 940], fill="white")
    d.text((710, 912), "No. XC190417", font=_font(DEJAVU, 9), fill=(40, 40, 40))
    assert "xc190417" not in _squash(lines_text(ocr.read(im)))
    assert "xc190417" in _squash(lines_text(ocr.read(im, box=[700, 900, 900, 940], zoom="auto")))
