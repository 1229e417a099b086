"""Images in the terminal: a half-block rendering (▀ with the upper pixel as foreground and
the lower as background), so one cell shows two pixels. Works in any colour terminal; in a
16-colour one Rich maps the colours down. Images are decoded with Pillow and cached."""
from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path

from PIL import Image, UnidentifiedImageError
from rich.color import Color
from rich.console import Console, ConsoleOptions, RenderResult
from rich.segment import Segment
from rich.style import Style
from argus_tui.widgets.cells import SafeText as Text  # the output boundary (core/textsafe.py)

MAX_IMAGE_PIXELS = 50_000_000   # refuse decompression bombs instead of freezing the UI


def _fit_rgb(im: Image.Image, width: int, height: int) -> list[list[tuple[int, int, int]]]:
    if im.width * im.height > MAX_IMAGE_PIXELS:
        raise ValueError(f"image too large ({im.width}x{im.height})")
    im = im.convert("RGB")
    scale = min(width / im.width, (height * 2) / im.height)
    w, h = max(1, int(im.width * scale)), max(2, int(im.height * scale))
    im = im.resize((w, h + h % 2), Image.Resampling.BILINEAR)
    px = im.load()
    return [[px[x, y] for x in range(im.width)] for y in range(im.height)]


@lru_cache(maxsize=64)
def _load_rgb(path: str, mtime: float, width: int, height: int) -> list[list[tuple[int, int, int]]]:
    with Image.open(path) as im:
        return _fit_rgb(im, width, height)


class HalfBlockImage:
    """A Rich renderable of an image file (or an in-memory Pillow image, e.g. one with boxes
    drawn on it) fitted into `max_height` cell rows."""

    def __init__(self, path: str | Path | Image.Image, max_height: int = 16):
        self.image = path if isinstance(path, Image.Image) else None
        self.path = Path(path) if self.image is None else Path("image")   # type: ignore[arg-type]
        self.max_height = max_height

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = max(4, options.max_width)
        try:
            if self.image is not None:
                rows = _fit_rgb(self.image, width, self.max_height)
            else:
                rows = _load_rgb(str(self.path), self.path.stat().st_mtime, width, self.max_height)
        except (OSError, UnidentifiedImageError, ValueError, Image.DecompressionBombError) as e:
            yield Text(f"[image unavailable: {self.path.name}: {type(e).__name__}: {e}]", style="italic red")
            return
        for y in range(0, len(rows) - 1, 2):
            top, bottom = rows[y], rows[y + 1]
            for (r1, g1, b1), (r2, g2, b2) in zip(top, bottom):
                yield Segment("▀", Style(color=Color.from_rgb(r1, g1, b1), bgcolor=Color.from_rgb(r2, g2, b2)))
            yield Segment.line()


def image_error(path: str | Path) -> str | None:
    """Why the image cannot be shown, or None when it opens."""
    p = Path(path)
    if not p.is_file():
        return "file not found"
    try:
        with Image.open(p) as im:
            im.verify()
    except Exception as e:  # noqa: BLE001 — any decoder failure is a user-facing "corrupt image"
        return f"{type(e).__name__}: {e}"
    return None


# ---- terminal graphics (Sixel / Kitty TGP) where the terminal supports it -------------
_GRAPHICS_WIDGET: type | None = None


def detect_terminal_graphics() -> str | None:
    """Ask the terminal whether it speaks Sixel or the Kitty graphics protocol (textual-image).
    Must run before the app starts (it writes a query to the terminal and reads the reply);
    the CLI calls it for real terminals only, so tests and snapshots use half-blocks."""
    global _GRAPHICS_WIDGET
    quiet_library_logs()
    if not (sys.__stdout__ and sys.__stdout__.isatty() and sys.__stdin__ and sys.__stdin__.isatty()):
        return None
    try:
        from textual_image import renderable
        from textual_image.widget import Image as GraphicsImage
    except Exception:  # noqa: BLE001 — not installed or the terminal query failed: half-blocks
        return None
    kind = {renderable.SixelImage: "sixel", renderable.TGPImage: "tgp"}.get(renderable.Image)  # type: ignore[call-overload]
    _GRAPHICS_WIDGET = GraphicsImage if kind else None
    return kind


def quiet_library_logs() -> None:
    """textual-image logs a warning with a traceback when the terminal does not answer its
    cell-size query (it then assumes a cell size, which is fine); before the app starts that
    would land in the scrollback. Its logs and warnings go nowhere instead."""
    import logging
    import warnings

    log = logging.getLogger("textual_image")
    log.addHandler(logging.NullHandler())
    log.propagate = False
    warnings.filterwarnings("ignore", module=r"textual_image(\..*)?")


def graphics_widget(path: Path, image: Image.Image | None = None, height: int = 14) -> object | None:
    """A terminal-graphics image widget for `path` (or an in-memory copy of it), or None
    (use HalfBlockImage)."""
    if _GRAPHICS_WIDGET is None:
        return None
    widget = _GRAPHICS_WIDGET(image if image is not None else str(path))
    widget.styles.height = height
    widget.styles.width = "auto"
    return widget
