"""A post image shown large with the OCR boxes read so far drawn on it, and a region the
researcher moves and resizes from the keyboard to propose a zoom route on it.

The boxes are drawn on a copy (Pillow); the file is never changed. Kitty/Sixel graphics
when the terminal has them (textual-image), half-blocks otherwise."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw
from argus_tui.widgets.cells import SafeText as Text  # the output boundary (core/textsafe.py)
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from argus_tui.widgets.image_view import HalfBlockImage, graphics_widget

OCR_COLOUR = (230, 40, 40)
PICK_COLOUR = (255, 200, 0)


def ocr_boxes(snap, file: str) -> list[tuple[list[float], str, float | None]]:
    """(x0,y0,x1,y1), text, score of every OCR line read from `file` so far."""
    out = []
    for ev in snap.timeline if snap else []:
        if ev.source != "tool":
            continue
        call = ev.tool_call()
        if str(call.inputs.get("file") or call.inputs.get("image") or "").removeprefix("./") != file:
            continue
        for ln in call.ocr_lines():
            box = ln.box
            if isinstance(box, list) and box and isinstance(box[0], list):
                xs, ys = [p[0] for p in box], [p[1] for p in box]
                out.append(([min(xs), min(ys), max(xs), max(ys)], ln.text, ln.score))
            elif isinstance(box, list) and len(box) == 4:
                out.append(([float(v) for v in box], ln.text, ln.score))
    return out


def annotated(path: Path, boxes: list[list[float]], pick: list[int] | None) -> Image.Image:
    """A copy of the image with the OCR boxes (red) and the picked region (yellow)."""
    with Image.open(path) as src:
        im = src.convert("RGB")
    d = ImageDraw.Draw(im)
    w = max(2, min(im.size) // 150)
    for b in boxes:
        d.rectangle(b, outline=OCR_COLOUR, width=w)
    if pick:
        d.rectangle(pick, outline=PICK_COLOUR, width=w + 1)
    return im


class ImageViewerScreen(ModalScreen[dict | None]):
    """Dismisses with {"file", "image_id", "box": [x0,y0,x1,y1], "zoom"} when the researcher
    proposes a zoom route on the picked region (enter), else None."""

    DEFAULT_CSS = """
    ImageViewerScreen { align: center middle; }
    ImageViewerScreen > Vertical { width: 100%; height: 100%; background: $surface; }
    ImageViewerScreen #viewer-image { height: 1fr; }
    ImageViewerScreen #viewer-info { height: auto; max-height: 8; padding: 0 1; background: $boost; }
    """
    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("left", "move(-1,0)", "←", show=False), Binding("right", "move(1,0)", "→", show=False),
        Binding("up", "move(0,-1)", "↑", show=False), Binding("down", "move(0,1)", "↓", show=False),
        Binding("shift+left", "size(-1,0)", "narrower", show=False),
        Binding("shift+right", "size(1,0)", "wider", show=False),
        Binding("shift+up", "size(0,-1)", "shorter", show=False),
        Binding("shift+down", "size(0,1)", "taller", show=False),
        Binding("n", "next_box", "Snap to next OCR box"),
        Binding("enter", "propose", "Zoom route on region"),
        Binding("q", "app.quit", "Quit"),
    ]
    STEPS = 20          # a move or resize is 1/20 of the image side

    def __init__(self, path: Path, file: str, image_id: str | None, boxes: list[tuple[list[float], str, Any]],
                 can_propose: bool = True) -> None:
        super().__init__()
        self.path, self.file, self.image_id = path, file, image_id
        self.boxes = boxes
        self.can_propose = can_propose
        with Image.open(path) as im:
            self.size_px = im.size
        w, h = self.size_px
        self.pick = [w // 4, h // 4, 3 * w // 4, 3 * h // 4]
        self._box_i = -1

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("", id="viewer-image")
            yield Static("", id="viewer-info")

    def on_mount(self) -> None:
        self._draw()

    def _draw(self) -> None:
        im = annotated(self.path, [b for b, _, _ in self.boxes], self.pick)
        holder = self.query_one("#viewer-image", Static)
        height = max(4, (self.size.height or 30) - 9)
        widget = graphics_widget(self.path, image=im, height=height)
        if widget is not None:
            holder.remove_children()
            holder.mount(widget)
        else:
            holder.update(HalfBlockImage(im, max_height=height))
        x0, y0, x1, y1 = self.pick
        info = [Text.assemble((self.file, "bold"), f"  {self.size_px[0]}x{self.size_px[1]} px  ",
                              ("region ", "bold yellow"), f"{x0},{y0}-{x1},{y1}  ",
                              ("OCR boxes ", "bold red"), str(len(self.boxes)))]
        for b, text, score in self.boxes[:4]:
            sc = f"{score:.2f}" if isinstance(score, (int, float)) else "-"
            info.append(Text(f"  {sc}  {text}  ({b[0]:.0f},{b[1]:.0f}-{b[2]:.0f},{b[3]:.0f})"))
        keys = "arrows move · shift+arrows resize · n next OCR box · "
        keys += "enter: propose a zoom route on the region · " if self.can_propose else ""
        info.append(Text(keys + "escape closes", style="dim"))
        self.query_one("#viewer-info", Static).update(Text("\n").join(info))

    def action_move(self, dx: int, dy: int) -> None:
        w, h = self.size_px
        sx, sy = max(1, w // self.STEPS), max(1, h // self.STEPS)
        x0, y0, x1, y1 = self.pick
        dx = max(-x0, min(w - x1, dx * sx))
        dy = max(-y0, min(h - y1, dy * sy))
        self.pick = [x0 + dx, y0 + dy, x1 + dx, y1 + dy]
        self._draw()

    def action_size(self, dx: int, dy: int) -> None:
        w, h = self.size_px
        sx, sy = max(1, w // self.STEPS), max(1, h // self.STEPS)
        x0, y0, x1, y1 = self.pick
        x1 = max(x0 + sx, min(w, x1 + dx * sx))
        y1 = max(y0 + sy, min(h, y1 + dy * sy))
        self.pick = [x0, y0, x1, y1]
        self._draw()

    def action_next_box(self) -> None:
        if not self.boxes:
            self.notify("no OCR boxes on this image yet", severity="warning")
            return
        self._box_i = (self._box_i + 1) % len(self.boxes)
        b = self.boxes[self._box_i][0]
        self.pick = [int(b[0]), int(b[1]), int(b[2] + 0.999), int(b[3] + 0.999)]
        self._draw()

    def action_propose(self) -> None:
        if not self.can_propose:
            self.notify("read-only: routes are proposed in a live run", severity="warning")
            return
        self.dismiss({"file": self.file, "image_id": self.image_id, "box": list(self.pick), "zoom": "auto"})

    def action_close(self) -> None:
        self.dismiss(None)
