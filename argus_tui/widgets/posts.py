"""Posts pane: the list (timestamp, IP region) and the selected post's detail with its image."""
from __future__ import annotations

from pathlib import Path

from rich.console import Group
from argus_tui.widgets.cells import SafeText as Text  # the output boundary (core/textsafe.py)
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import DataTable, Static

from argus_tui.state import Snapshot
from argus_tui.widgets.cells import FitTable, cells, lines, one_line
from argus_tui.widgets.image_view import HalfBlockImage, graphics_widget, image_error


class PostsPane(Vertical):
    DEFAULT_CSS = """
    PostsPane > DataTable { height: 40%; min-height: 4; }
    PostsPane > VerticalScroll { height: 1fr; }
    PostsPane #post-images { height: auto; }
    """

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.snap: Snapshot | None = None
        self._shown: tuple[str, int] | None = None

    def compose(self) -> ComposeResult:
        table = FitTable(id="posts-table", cursor_type="row", zebra_stripes=True)
        table.set_columns(("#", "post", "timestamp", "IP region"), (2, 4, 10, 6), flex=3)
        yield table
        with VerticalScroll(id="post-detail-scroll"):
            yield Static("", id="post-detail")
            yield Vertical(id="post-images")      # terminal-graphics image widgets, when supported

    def show(self, snap: Snapshot) -> None:
        first = self.snap is None or [p.post_id for p in self.snap.posts] != [p.post_id for p in snap.posts]
        self.snap = snap
        table = self.query_one(DataTable)
        if first:
            table.clear()
            rows = [(str(p.idx + 1), p.post_id, (p.timestamp or "")[:16], p.ip_region or "") for p in snap.posts]
            for p, row in zip(snap.posts, rows):
                table.add_row(*cells(*row), key=p.post_id)
            table.fit(rows)
        self._render_detail()

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._render_detail()

    def selected_post_id(self) -> str | None:
        table = self.query_one(DataTable)
        if self.snap is None or not self.snap.posts or table.row_count == 0:
            return None
        row = min(table.cursor_row, len(self.snap.posts) - 1)
        return self.snap.posts[row].post_id


    def _render_detail(self) -> None:
        detail = self.query_one("#post-detail", Static)
        pid = self.selected_post_id()
        snap = self.snap
        if snap is None or pid is None:
            detail.update("no posts")
            return
        if self._shown == (pid, snap.step):
            return
        self._shown = (pid, snap.step)
        post = next(p for p in snap.posts if p.post_id == pid).data
        rows: list[Text] = [Text.assemble((pid, "bold"), f"  {post.get('timestamp') or ''}  ",
                                          ("IP: ", "bold"), str(post.get("ip_region") or "-"))]

        def field(label: str, value: object, style: str = "bold") -> None:
            rows.append(Text.assemble((label, style), " ", str(value)))

        if post.get("location_tag"):
            field("location tag:", post["location_tag"])
        for key in ("title", "caption"):
            if post.get(key):
                field(f"{key}:", post[key])
        if post.get("tags"):
            field("tags:", " ".join(f"#{t}" for t in post["tags"] if t))
        for c in post.get("comments") or []:
            if isinstance(c, dict) and c.get("text"):
                field("comment", f"{c.get('author') or '?'}: {c['text']}")
        # What perception and tools have read so far: OCR lines, EXIF, other image evidence.
        mine = [n for n in snap.nodes.values() if n.post_id == pid and n.kind == "evidence"]
        images = snap.images.get(pid, [])
        for n in mine:
            if n.data.lines is not None or n.data.ocr_source or n.carrier == "ocr_text":
                src = n.data.route_id or n.data.ocr_source or ""
                where = ", ".join(x for x in (str(src), n.node_id) if x)
                image_id = n.data.image_id or ""
                rows.append(Text.assemble(("OCR", "bold"), f" {image_id}" if image_id else "",
                                          (f" ({where})", "dim"), ": ", one_line(n.content or "")))
        for n in mine:
            if n.carrier == "exif":
                rows.append(Text.assemble(("EXIF", "bold"), (f" ({n.node_id})", "dim"), ": ", n.content))
        for img in images:
            exif = img.meta.get("exif") or {}
            if exif and isinstance(exif, dict) and not any(n.carrier == "exif" for n in mine):
                field(f"EXIF {img.image_id}:", ", ".join(f"{k}={v}" for k, v in list(exif.items())[:12]))
            for t in img.meta.get("ocr") or []:
                field(f"OCR {img.image_id}:", t)
            if img.meta.get("error"):
                field(f"image {img.image_id}:", img.meta["error"], style="bold red")
        for n in mine:
            if n.modality == "image" and not n.data.lines and not n.data.ocr_source:
                rows.append(Text.assemble(("image", "bold"), (f" ({n.node_id})", "dim"), ": ",
                                          one_line(n.content, 200)))
        parts: list = [lines(*rows)]
        graphics: list = []
        base = Path(snap.run.user_dir) if snap.run.user_dir else None
        for ref in (post.get("images") or [])[:4]:
            rel = ref.get("file") if isinstance(ref, dict) else None
            if not rel:
                continue
            if base is None:
                parts.append(Text(f"[{rel}: user folder unknown]", style="italic"))
                continue
            path = (base / rel).resolve()
            inside = path.is_relative_to(base.resolve())
            why = image_error(path) if inside else "path outside the user folder (not opened)"
            if why:
                parts.append(Text(f"[image {rel}: {why}]", style="italic red"))
            else:
                parts.append(Text(rel, style="dim"))
                widget = graphics_widget(path)
                if widget is not None:
                    graphics.append(widget)
                else:
                    parts.append(HalfBlockImage(path, max_height=14))
        detail.update(Group(*parts))
        holder = self.query_one("#post-images", Vertical)
        holder.remove_children()
        if graphics:
            holder.mount_all(graphics)
