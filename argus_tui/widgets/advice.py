"""The Advice pane: which edits to this account remove the most exposure (from the run's own
profile and support chains), a preview of an edited image, and a key to apply the plan to a
copy and re-investigate it. The advisor and the re-investigation run in thread workers; the
pane only renders their results."""
from __future__ import annotations

import tempfile
import time
from pathlib import Path

from core.textsafe import printable
from argus_tui.widgets.cells import SafeText as Text  # the output boundary (core/textsafe.py)
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from argus_tui.widgets.image_view import HalfBlockImage

PREVIEW_KINDS = ("blur_region", "crop_image", "strip_exif")


class AdviceReady(Message):
    def __init__(self, plan, error: str | None = None) -> None:
        super().__init__()
        self.plan = plan
        self.error = error


class VerifyDone(Message):
    def __init__(self, verification, error: str | None = None) -> None:
        super().__init__()
        self.verification = verification
        self.error = error


def edited_preview(user_dir: Path, edit, out_dir: Path) -> Path | None:
    """The image as it would look after `edit` (written under out_dir; the original is untouched)."""
    from core.advise.apply import edit_image

    if not edit.image:
        return None
    src = Path(user_dir) / edit.image
    if not src.is_file():
        return None
    dst = Path(out_dir) / f"preview_{abs(hash(edit.key))}{src.suffix or '.png'}"
    edit_image(src, dst, [edit])
    return dst


class AdvicePane(Vertical):
    """Edits ranked by the exposure they remove, with a preview of the selected image edit."""

    DEFAULT_CSS = """
    AdvicePane > #advice-summary { height: auto; max-height: 4; padding: 0 1; }
    AdvicePane > Horizontal { height: 1fr; }
    AdvicePane #advice-table { width: 3fr; height: 1fr; }
    AdvicePane #advice-preview { width: 2fr; height: 1fr; padding: 0 1; }
    AdvicePane > #advice-result { height: auto; max-height: 14; padding: 0 1; }
    """

    def __init__(self, db_path: str | Path, run_id: str, user_dir: str | Path | None = None, *,
                 target: float = 0.5, max_edits: int = 5, **kw) -> None:
        super().__init__(**kw)
        self.db_path = Path(db_path)
        self.run_id = run_id
        self.user_dir = Path(user_dir) if user_dir else None
        self.target = target
        self.max_edits = max_edits
        self.plan = None
        self.verification = None
        self.busy = False
        self._tmp = Path(tempfile.mkdtemp(prefix="argus-advice-"))

    def compose(self) -> ComposeResult:
        yield Static("computing advice…", id="advice-summary")
        with Horizontal():
            table: DataTable = DataTable(id="advice-table", cursor_type="row")
            for label, width in (("#", 2), ("edit", 44), ("exposure after", 8), ("removes", 24)):
                table.add_column(label, width=width)
            yield table
            with VerticalScroll(id="advice-preview"):
                yield Static("", id="advice-preview-body")
        yield Static("", id="advice-result")

    def on_mount(self) -> None:
        self.compute()

    # ---------------- workers ----------------
    @work(thread=True, group="advice", exclusive=True)
    def compute(self) -> None:
        from core.advise.advisor import advise
        from db import queries
        from db.store import open_db

        try:
            if self.user_dir is None:
                run = queries.get_run(open_db(self.db_path, readonly=True), self.run_id)
                self.user_dir = Path(run["user_dir"]) if run and run.get("user_dir") else None
            if self.user_dir is None:
                raise ValueError(f"run {self.run_id} records no user folder")
            plan = advise(self.user_dir, self.db_path, target=self.target, max_edits=self.max_edits,
                          run_id=self.run_id)
            self.post_message(AdviceReady(plan))
        except Exception as e:  # noqa: BLE001 — shown in the pane; the app stays up
            self.post_message(AdviceReady(None, f"{type(e).__name__}: {e}"))

    @work(thread=True, group="advice-verify", exclusive=True)
    def verify(self) -> None:
        from core.advise.advisor import verify_plan

        try:
            out = self.db_path.parent / "advised" / f"{self.plan.user_id}-{time.strftime('%Y%m%d-%H%M%S')}"
            v = verify_plan(self.user_dir, self.plan, out, self.db_path)
            self.post_message(VerifyDone(v))
        except Exception as e:  # noqa: BLE001
            self.post_message(VerifyDone(None, f"{type(e).__name__}: {e}"))

    # ---------------- rendering ----------------
    @on(AdviceReady)
    def _ready(self, message: AdviceReady) -> None:
        summary = self.query_one("#advice-summary", Static)
        if message.error or message.plan is None:
            summary.update(Text(f"no advice: {message.error}", style="red"))
            return
        plan = self.plan = message.plan
        summary.update(Text.assemble(
            ("exposure ", ""), (f"{plan.exposure_before:g}", "bold"), " -> ", (f"{plan.exposure_after:g}", "bold"),
            f" predicted ({plan.predicted_reduction:.0%} less) with {len(plan.steps)} edit(s); "
            f"target {plan.target:.0%}.  v: apply to a copy and re-investigate"))
        table = self.query_one("#advice-table", DataTable)
        table.clear()
        for i, s in enumerate(plan.steps, 1):
            # post content is data: Text cells, never markup
            table.add_row(*(Text(x) for x in (str(i), s.description, f"{s.exposure_after:g}",
                                              ", ".join(s.removed) or "-")), key=str(i))
        if plan.steps:
            table.move_cursor(row=0)
            self.show_preview(0)
        else:
            self.query_one("#advice-preview-body", Static).update("nothing to edit: the run found no exposure")

    @on(DataTable.RowHighlighted, "#advice-table")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.show_preview(event.cursor_row)

    def show_preview(self, row: int) -> None:
        body = self.query_one("#advice-preview-body", Static)
        if self.plan is None or not (0 <= row < len(self.plan.steps)):
            body.update("")
            return
        step = self.plan.steps[row]
        e = step.edit
        head = Text(step.description + "\n", style="bold")
        head.append(f"breaks evidence {', '.join(e.breaks[:8])}\n", style="dim")
        if e.kind in PREVIEW_KINDS and self.user_dir is not None:
            try:
                path = edited_preview(self.user_dir, e, self._tmp)
            except OSError as err:
                body.update(Text.assemble(head, (f"preview unavailable: {err}", "red")))
                return
            if path is not None:
                from rich.console import Group

                body.update(Group(head, HalfBlockImage(path, max_height=14)))
                return
        if e.kind == "cut_phrase":
            head.append("cut: ")
            head.append(e.phrase or "", style="reverse")
        elif e.kind == "delete_post":
            head.append("the whole post goes (text, images, metadata)")
        body.update(head)

    @on(VerifyDone)
    def _verified(self, message: VerifyDone) -> None:
        self.busy = False
        box = self.query_one("#advice-result", Static)
        if message.error or message.verification is None:
            box.update(Text(f"re-investigation failed: {message.error}", style="red"))
            return
        v = self.verification = message.verification
        t = Text.assemble(("re-investigated ", ""), (v.edited_dir, "bold"), f" (run {v.run_id}): exposure ",
                          (f"{v.exposure_before:g} -> {v.observed_after:g}", "bold"),
                          f" observed ({v.observed_reduction:.0%} less, predicted {v.predicted_reduction:.0%})\n")
        for a in v.attributes:
            style = "" if a.agrees else "red"
            src = "; ".join(f"{x['post_id']} {x['carrier']}" for x in a.still_from[:3])
            t.append(f"{a.attribute}: {a.before:g} -> {a.observed_after:g} (predicted {a.predicted_after:g})"
                     + (f"  still from {src}" if src else "") + "\n", style=style)
        box.update(t)

    def start_verify(self) -> bool:
        if self.plan is None or not self.plan.steps or self.busy:
            return False
        self.busy = True
        self.query_one("#advice-result", Static).update("applying the plan to a copy and re-investigating…")
        self.verify()
        return True

    def on_unmount(self) -> None:
        import shutil

        shutil.rmtree(self._tmp, ignore_errors=True)


class AdviceScreen(Screen):
    """Full-screen Advice pane for the current run (opened from the investigation screen)."""

    BINDINGS = [
        Binding("v", "verify", "Apply + re-investigate"),
        Binding("escape", "app.pop_screen", "Back"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, db_path: str | Path, run_id: str, user_dir: str | Path | None = None) -> None:
        super().__init__()
        self.db_path, self.run_id, self.user_dir = db_path, run_id, user_dir

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield AdvicePane(self.db_path, self.run_id, self.user_dir, id="advice")
        yield Footer()

    def on_mount(self) -> None:
        self.title = f"Argus — advice for run {printable(self.run_id)}"

    def action_verify(self) -> None:
        if not self.query_one(AdvicePane).start_verify():
            self.notify("nothing to apply yet (or a re-investigation is running)", severity="warning")
