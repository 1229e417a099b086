"""OCR behind one interface: RapidOCR (default, offline, PP-OCR ONNX models shipped in the
wheel) and PaddleOCR (only when the user has it installed with local models).

`engine.read(image, box=None, zoom=None)` crops to `box`, optionally upscales small text
("auto" = adaptive zoom, or a numeric factor) and returns lines whose boxes are in the
coordinates of the ORIGINAL image, so a crop's result can be drawn on the full picture.

RapidOCR is used with its default model settings: other model choices download at first
use, which fails offline.
"""
from __future__ import annotations

import os
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Literal, Protocol, Sequence, runtime_checkable

import numpy as np
from PIL import Image, ImageOps
from pydantic import BaseModel

from tools.base import ToolError
from tools.images import Box, adaptive_zoom, as_image, normalize_box

Zoom = float | Literal["auto"] | None


class OcrLine(BaseModel):
    text: str
    score: float
    box: list[list[float]]          # 4 points [[x, y], ...] in original-image pixels


@runtime_checkable
class OcrEngine(Protocol):
    name: str

    def read(self, image: Path | str | Image.Image, box: Box | None = None, zoom: Zoom = None) -> list[OcrLine]:
        ...


def _prepare(image: Path | str | Image.Image, box: Box | None, zoom: Zoom) -> tuple[Image.Image, float, float, float]:
    """Load, crop and zoom. Returns (image, x offset, y offset, scale)."""
    img = as_image(image)
    ox = oy = 0.0
    if box is not None:
        x0, y0, x1, y1 = normalize_box(box, img.width, img.height)
        img = img.crop((x0, y0, x1, y1))
        ox, oy = float(x0), float(y0)
    scale = 1.0
    if zoom == "auto":
        img, scale = adaptive_zoom(img)
    elif zoom is not None:
        try:
            z = float(zoom)
        except (TypeError, ValueError) as e:
            raise ToolError(f"zoom: expected a number or 'auto', got {zoom!r}", tool="ocr") from e
        if not (0.1 <= z <= 8.0):
            raise ToolError(f"zoom: {z} is outside 0.1..8", tool="ocr")
        if abs(z - 1.0) > 1e-3:
            w, h = max(1, round(img.width * z)), max(1, round(img.height * z))
            if max(w, h) > 8000:
                raise ToolError(f"zoom: {z} makes a {w}x{h} image (limit 8000 px per side)", tool="ocr")
            img = img.resize((w, h), Image.Resampling.LANCZOS)
            scale = z
    if box is not None:
        # a white margin lets the detector find text that touches the crop's edge
        pad = max(8, img.height // 6)
        img = ImageOps.expand(img, border=pad, fill=(255, 255, 255))
        ox -= pad / scale
        oy -= pad / scale
    return img, ox, oy, scale


# RapidOCR keeps per-call switches as engine state, so every call states all three.
_FULL = {"use_det": True, "use_cls": True, "use_rec": True}
DET_MAX_SIDE = 2000        # RapidOCR's own Global.max_side_len
DET_MIN_SIDE = 736         # what its detector aims the short side at


DET_LONG_SIDE = 960        # PaddleOCR's classic detector input size (the det model's sweet spot)
DET_MIN_SHORT = 540        # but never shrink the short side below this (tall screenshots)


def _det_side(width: int, height: int) -> int:
    """Long-side limit for the detector's resize: 960 px, raised for tall/wide images so the
    short side keeps >= 540 px, capped at 2000. Measured on generated benchmark photos
    (1080 px): 960 finds as many lines as 2000 plus small text the larger input missed."""
    short, long_ = min(width, height), max(width, height)
    return int(min(DET_MAX_SIDE, max(DET_LONG_SIDE, round(long_ * DET_MIN_SHORT / max(1, short)))))


def _detector_scale(img: Image.Image) -> tuple[Image.Image, float]:
    """Upscale small images towards a 736-px short side, at most 2x and 2000 px long side."""
    short, long_ = min(img.size), max(img.size)
    if short >= DET_MIN_SIDE:
        return img, 1.0
    s = min(2.0, DET_MIN_SIDE / short, DET_MAX_SIDE / long_)
    if s <= 1.05:
        return img, 1.0
    return img.resize((round(img.width * s), round(img.height * s)), Image.Resampling.LANCZOS), s


def _unmap(points: Any, ox: float, oy: float, scale: float) -> list[list[float]]:
    return [[round(float(p[0]) / scale + ox, 1), round(float(p[1]) / scale + oy, 1)] for p in points]


class RapidOcrEngine:
    """RapidOCR with default (shipped) models. Create through `default_ocr()` or `RapidOcrEngine.get()`.

    The model loads lazily on first use; calls are serialised by a lock (one ONNX session,
    2 cores: parallel calls would only contend). `threads` caps onnxruntime's intra-op threads
    (env ARGUS_OCR_THREADS; default lets onnxruntime decide).
    """

    name = "rapidocr"
    _instance: "RapidOcrEngine | None" = None
    _instance_lock = threading.Lock()

    def __init__(self, threads: int | None = None, text_score: float = 0.5):
        self.threads = threads if threads is not None else _env_int("ARGUS_OCR_THREADS")
        self.text_score = text_score
        self._engine: Any = None
        self._lock = threading.Lock()

    @classmethod
    def get(cls) -> "RapidOcrEngine":
        with cls._instance_lock:
            if cls._instance is None:
                cls._instance = cls()
            return cls._instance

    def _load(self) -> Any:
        if self._engine is None:
            try:
                from rapidocr import RapidOCR
            except ImportError as e:  # pragma: no cover - a hard dependency
                raise ToolError("rapidocr is not installed (pip install rapidocr onnxruntime)", tool="ocr") from e
            params: dict[str, Any] = {"Global.log_level": "error", "Global.text_score": self.text_score}
            if self.threads:
                params["EngineConfig.onnxruntime.intra_op_num_threads"] = self.threads
            self._engine = RapidOCR(params=params)
        return self._engine

    def warm_up(self) -> float:
        """Load all three models (detector, angle classifier, recogniser) and run one tiny image;
        returns the time taken in ms. A blank image alone loads only the detector (RapidOCR loads
        the others at the first text found), so the classifier and recogniser get a strip too."""
        t0 = time.perf_counter()
        with self._lock:
            eng = self._load()
            blank = np.full((48, 160, 3), 255, dtype=np.uint8)
            eng(blank, **_FULL)
            eng(blank, use_det=False, use_cls=True, use_rec=True)
        return (time.perf_counter() - t0) * 1000.0

    def read(self, image: Path | str | Image.Image, box: Box | None = None, zoom: Zoom = None) -> list[OcrLine]:
        img, ox, oy, scale = _prepare(image, box, zoom)
        if zoom is None:
            img, s = _detector_scale(img)
            scale *= s
        arr = np.asarray(img)[:, :, ::-1]  # RGB -> BGR, what the PP-OCR pipeline expects for ndarrays
        with self._lock:
            eng = self._load()
            try:
                # RapidOCR's detector default scales the SHORT side up to 736 px, which turns a
                # wide strip or a small image into a 3000-5000 px wide input (seconds per call,
                # and words split apart). We use PaddleOCR's classic rule instead (long side
                # 960, see _det_side) and a bounded upscale of small images (_detector_scale).
                # Pre-processing only: same shipped models.
                with _det_limit(eng, "max", _det_side(img.width, img.height)):
                    res = eng(np.ascontiguousarray(arr), **_FULL)
            except Exception as e:
                raise ToolError(f"rapidocr failed on {_label(image)}: {type(e).__name__}: {e}", tool="ocr") from e
        if (res is None or getattr(res, "txts", None) is None or res.boxes is None) and box is not None \
                and img.width >= 2.5 * img.height:
            return self._recognise_strip(img, ox, oy, scale)
        if res is None or getattr(res, "txts", None) is None or res.boxes is None:
            return []
        lines = []
        for text, score, pts in zip(res.txts, res.scores, res.boxes):
            t = str(text).strip()
            if t:
                lines.append(OcrLine(text=t, score=round(float(score), 4), box=_unmap(pts, ox, oy, scale)))
        return lines

    def _recognise_strip(self, img: Image.Image, ox: float, oy: float, scale: float) -> list[OcrLine]:
        """Recognition only, for a one-line crop the detector missed (tight or faint text)."""
        arr = np.ascontiguousarray(np.asarray(img)[:, :, ::-1])
        with self._lock:
            eng = self._load()
            try:
                res = eng(arr, use_det=False, use_cls=False, use_rec=True)
            except Exception as e:
                raise ToolError(f"rapidocr recogniser failed: {type(e).__name__}: {e}", tool="ocr") from e
        txts = getattr(res, "txts", None) or ()
        scores = getattr(res, "scores", None) or ()
        box = [[0.0, 0.0], [img.width, 0.0], [img.width, img.height], [0.0, img.height]]
        out = []
        for text, score in zip(txts, scores):
            if str(text).strip() and float(score) >= self.text_score:
                out.append(OcrLine(text=str(text).strip(), score=round(float(score), 4), box=_unmap(box, ox, oy, scale)))
        return out

    def detect(self, image: Path | str | Image.Image) -> list[list[list[float]]]:
        """Text-region polygons from the detector only (no recognition; about half an OCR call)."""
        img, s = _detector_scale(as_image(image))
        arr = np.ascontiguousarray(np.asarray(img)[:, :, ::-1])
        with self._lock:
            eng = self._load()
            try:
                with _det_limit(eng, "max", _det_side(img.width, img.height)):
                    res = eng(arr, use_det=True, use_cls=False, use_rec=False)
            except Exception as e:
                raise ToolError(f"rapidocr detector failed on {_label(image)}: {type(e).__name__}: {e}", tool="ocr") from e
        boxes = getattr(res, "boxes", None)
        if boxes is None:
            return []
        return [_unmap(b, 0.0, 0.0, s) for b in boxes]


class PaddleOcrEngine:
    """PaddleOCR (2.x `ocr()` or 3.x `predict()` API) for users with PaddleOCR and its models
    installed locally. Model folders come from env ARGUS_PADDLE_DET_DIR / ARGUS_PADDLE_REC_DIR /
    ARGUS_PADDLE_CLS_DIR when set, else PaddleOCR's own defaults (which must already be cached:
    Argus never downloads models).
    """

    name = "paddleocr"

    def __init__(self, lang: str = "ch"):
        self.lang = lang
        self._engine: Any = None
        self._api = 0
        self._lock = threading.Lock()

    @staticmethod
    def available() -> bool:
        import importlib.util

        return importlib.util.find_spec("paddleocr") is not None

    def _load(self) -> Any:
        if self._engine is not None:
            return self._engine
        try:
            import paddleocr
        except ImportError as e:
            raise ToolError("paddleocr is not installed (pip install 'argus-privacy[paddle]')", tool="ocr") from e
        version = getattr(paddleocr, "__version__", "2")
        det, rec, cls = (os.environ.get(f"ARGUS_PADDLE_{k}_DIR") for k in ("DET", "REC", "CLS"))
        try:
            if int(str(version).split(".")[0]) >= 3:
                kw: dict[str, Any] = {
                    "lang": self.lang,
                    "use_doc_orientation_classify": False,
                    "use_doc_unwarping": False,
                    "use_textline_orientation": bool(cls),
                }
                if det:
                    kw["text_detection_model_dir"] = det
                if rec:
                    kw["text_recognition_model_dir"] = rec
                if cls:
                    kw["textline_orientation_model_dir"] = cls
                self._engine, self._api = paddleocr.PaddleOCR(**kw), 3
            else:
                kw = {"lang": self.lang, "use_angle_cls": True, "show_log": False}
                if det:
                    kw["det_model_dir"] = det
                if rec:
                    kw["rec_model_dir"] = rec
                if cls:
                    kw["cls_model_dir"] = cls
                self._engine, self._api = paddleocr.PaddleOCR(**kw), 2
        except Exception as e:
            raise ToolError(f"paddleocr could not load its models: {type(e).__name__}: {e}", tool="ocr") from e
        return self._engine

    def read(self, image: Path | str | Image.Image, box: Box | None = None, zoom: Zoom = None) -> list[OcrLine]:
        img, ox, oy, scale = _prepare(image, box, zoom)
        arr = np.ascontiguousarray(np.asarray(img)[:, :, ::-1])
        lines: list[OcrLine] = []
        with self._lock:
            eng = self._load()
            try:
                if self._api >= 3:
                    for res in eng.predict(arr):
                        data = res.json.get("res", res.json) if hasattr(res, "json") else res
                        for text, score, poly in zip(data["rec_texts"], data["rec_scores"], data["rec_polys"]):
                            if str(text).strip():
                                lines.append(OcrLine(text=str(text).strip(), score=float(score), box=_unmap(poly, ox, oy, scale)))
                else:
                    for page in eng.ocr(arr, cls=True) or []:
                        for pts, (text, score) in page or []:
                            if str(text).strip():
                                lines.append(OcrLine(text=str(text).strip(), score=float(score), box=_unmap(pts, ox, oy, scale)))
            except ToolError:
                raise
            except Exception as e:
                raise ToolError(f"paddleocr failed on {_label(image)}: {type(e).__name__}: {e}", tool="ocr") from e
        return lines


@contextmanager
def _det_limit(eng: Any, limit_type: str, side: int) -> Iterator[None]:
    """Temporarily change RapidOCR's detector resize rule (callers hold the engine lock)."""
    if getattr(eng, "text_det", None) is None and hasattr(eng, "_load_det_model"):
        # a detector that cannot load is the caller's ToolError naming the image, not a silent default
        eng._load_det_model()
    det = getattr(eng, "text_det", None)
    if det is None or not hasattr(det, "limit_type"):
        yield
        return
    old = (det.limit_type, det.limit_side_len)
    det.limit_type, det.limit_side_len = limit_type, side
    try:
        yield
    finally:
        det.limit_type, det.limit_side_len = old


def _label(image: Any) -> str:
    return str(image) if isinstance(image, (str, Path)) else "in-memory image"


def _env_int(name: str) -> int | None:
    v = os.environ.get(name, "").strip()
    return int(v) if v.isdigit() and int(v) > 0 else None


_default: OcrEngine | None = None
_default_lock = threading.Lock()


def default_ocr() -> OcrEngine:
    """The process-wide OCR engine: RapidOCR, or PaddleOCR when ARGUS_OCR_ENGINE=paddleocr."""
    global _default
    with _default_lock:
        if _default is None:
            choice = os.environ.get("ARGUS_OCR_ENGINE", "rapidocr").strip().lower()
            if choice == "paddleocr":
                if not PaddleOcrEngine.available():
                    raise ToolError("ARGUS_OCR_ENGINE=paddleocr but paddleocr is not installed", tool="ocr")
                _default = PaddleOcrEngine()
            else:
                _default = RapidOcrEngine.get()
        return _default


def detect_text_regions(image: Path | str | Image.Image) -> list[list[list[float]]]:
    """Text-region polygons from RapidOCR's detector (used for the text-bearing signal)."""
    return RapidOcrEngine.get().detect(image)


def lines_text(lines: Sequence[OcrLine], min_score: float = 0.0) -> str:
    """Lines joined top-to-bottom, left-to-right, one per line of text."""
    keep = [ln for ln in lines if ln.score >= min_score]
    keep.sort(key=lambda ln: (round(min(p[1] for p in ln.box) / 10), min(p[0] for p in ln.box)))
    return "\n".join(ln.text for ln in keep)
