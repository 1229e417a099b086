"""Focus moved by a key takes effect before the next key is read.

`Widget.focus()` only queues the change, behind the keys already typed: after `/` on the
hypothesis store, a fast typist's (or a paste's) `status` still reached the store, so `s`
sorted it and `a` approved the route. `Screen.set_focus` moves the focus at once, so the
text field owns every key typed after the one that focused it."""
from __future__ import annotations

from textual.widget import Widget


def focus_now(widget: Widget) -> None:
    widget.screen.set_focus(widget)
