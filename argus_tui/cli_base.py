"""The Typer apps every command module registers into, the consoles and the shared error exit.

Output contract (docs/cli.md, "Output"): a pipe or file gets whole lines — no hard wrapping, a
table as a tab-separated header line and one tab-separated line per row; a terminal gets Rich
tables that fit its width (cells wrapped at word boundaries, optional columns left out with a
note), else stacked rows (one `column: value` line per cell), so ids, numbers and words are never
cut. Prose (`say`) is wrapped at word boundaries to the terminal, or to COLUMNS (default 80) in a
pipe; a word, id or path longer than the width stays whole."""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Any, NoReturn

import typer
from rich.console import Console, Group
from rich.segment import Segment
from core.textsafe import escape, printable
from rich.table import Table
from rich.text import Text

app = typer.Typer(
    name="argus",
    help="Argus: measure how much an account's public posts reveal about the person behind it.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    rich_markup_mode=None,
)
bench_app = typer.Typer(help="Benchmarks in the sopri/1 format: generate, validate, run, stats.", no_args_is_help=True,
                        rich_markup_mode=None)
runs_app = typer.Typer(help="Saved runs in a runs.db.", no_args_is_help=True, rich_markup_mode=None)
app.add_typer(bench_app, name="bench")
app.add_typer(runs_app, name="runs")

#: below this many columns `fits` (bench validate's table or one problem per line) says no
NARROW = 100
#: a table's attribute naming the headers that may be left out when the table does not fit
OPTIONAL = "optional_columns"


def _plain(cell: Any) -> str:
    """A table cell as one line of plain text (markup removed, line breaks flattened)."""
    if isinstance(cell, Text):
        s = cell.plain
    elif isinstance(cell, str):
        s = Text.from_markup(cell).plain
    else:
        c = Console(width=4000, soft_wrap=True, color_system=None)
        with c.capture() as cap:
            c.print(cell)
        s = cap.get()
    return " ".join(s.replace("\t", " ").split("\n")).strip()


def table_rows(table: Table) -> tuple[list[str], list[list[str]]]:
    """(headers, rows) of a Rich table as plain strings."""
    headers = [_plain(c.header) for c in table.columns]
    cols = [[_plain(x) for x in c._cells] for c in table.columns]
    return headers, [list(r) for r in zip(*cols)] if cols else []


class CliConsole(Console):
    """A Console whose tables follow the output contract above (see the module docstring)."""

    def print(self, *objects: Any, **kw: Any) -> None:  # type: ignore[override]
        if len(objects) == 1:
            obj = objects[0]
            if isinstance(obj, Group):
                for r in obj.renderables:
                    self.print(r, **kw)
                return
            if isinstance(obj, Table) and self._reflow(obj):
                return
        if not self.is_terminal:
            kw.setdefault("soft_wrap", True)
        super().print(*objects, **kw)

    def _render_buffer(self, buffer) -> str:  # type: ignore[no-untyped-def]
        """The output boundary for everything Rich prints (core/textsafe.py): the text of every
        segment (not Rich's own control segments) shown with visible escapes, line breaks kept
        as laid out. Call sites escape too (one line per value); this catches what they miss."""
        return super()._render_buffer(
            seg if seg.control or not seg.text else Segment(printable(seg.text, lines=True), seg.style)
            for seg in buffer)

    def fits(self, table: Table) -> bool:
        """A terminal of at least NARROW columns that shows `table` unwrapped."""
        if not self.is_terminal or self.width < NARROW:
            return False
        return table.__rich_measure__(self, self.options.update(width=10**6)).maximum <= self.width

    def _reflow(self, table: Table) -> bool:
        """Print `table` as plain, narrowed or stacked lines when needed; False: print it as is."""
        headers, rows = table_rows(table)
        title = _plain(table.title) if table.title else ""
        line = lambda s: super(CliConsole, self).print(s, markup=False, highlight=False, emoji=False,  # noqa: E731
                                                        soft_wrap=True)
        if not self.is_terminal:  # written as is: Rich would expand the tabs into spaces
            out = [f"# {printable(title)}"] if title else []
            out += ["\t".join(map(printable, headers))] if table.show_header else []
            out += ["\t".join(map(printable, r)) for r in rows]
            with self._lock:
                self.file.write("".join(x + "\n" for x in out))
                self.file.flush()
            return True
        unwrapped = lambda t: t.__rich_measure__(self, self.options.update(width=10**6)).maximum <= self.width  # noqa: E731
        if unwrapped(table):
            return False
        # fewer columns before wrapped cells: an optional column's content is printed elsewhere too
        optional = [h for h in getattr(table, OPTIONAL, ()) if h in headers]
        tries = [(optional, unwrapped), (optional, None), ([], None)] if optional else [([], None)]
        for drop, fits in tries:
            narrowed = _without(table, drop) if drop else table
            if fits(narrowed) if fits else self._wraps_whole(narrowed, headers, rows, drop):
                super().print(narrowed)
                if drop:
                    super().print(Text(f"({', '.join(drop)} left out at this width: a wider terminal or a pipe "
                                       f"shows {'them' if len(drop) > 1 else 'it'})", style="dim"))
                return True
        if title:
            super().print(Text(title, style="bold"))
        for r in rows:
            if not table.show_header:
                self.say("  ".join(c for c in r if c), markup=False)
                continue
            super().print(Text(r[0], style="bold"), soft_wrap=True)
            for h, v in zip(headers[1:], r[1:]):
                if v:
                    self.say(f"{h}: {v}", indent="  ", markup=False)
        return True

    def _wraps_whole(self, table: Table, headers: list[str], rows: list[list[str]], drop: list[str]) -> bool:
        """`table` drawn at this width with every word of every cell whole on one line."""
        if table.__rich_measure__(self, self.options).minimum > self.width:
            return False
        c = Console(width=self.width, color_system=None, soft_wrap=False, force_terminal=False)
        with c.capture() as cap:
            c.print(table)
        drawn = cap.get()
        keep = [i for i, h in enumerate(headers) if h not in drop]
        return all(w in drawn for r in rows for i in keep for w in r[i].split())

    def say(self, text: str | Text, *, indent: str = "", markup: bool = True) -> None:
        """A paragraph wrapped at word boundaries to the width (a terminal's, else COLUMNS or 80),
        continuation lines indented two more; a word longer than the width stays whole."""
        t = text if isinstance(text, Text) else (Text.from_markup(text) if markup else Text(text))
        width = self.width if self.is_terminal else shutil.get_terminal_size((80, 24)).columns
        from rich._wrap import divide_line  # Rich's word wrap, here without folding long words

        i = 0
        for para in t.split(allow_blank=True):
            for ln in para.divide(divide_line(str(para), max(20, width - len(indent) - 2), fold=False)):
                ln.rstrip()
                super().print(Text(indent + ("  " if i else "")) + ln, soft_wrap=True, highlight=False)
                i += 1


def _without(table: Table, drop: list[str]) -> Table:
    """A copy of `table` without the columns whose header is in `drop`."""
    import copy

    t = copy.copy(table)
    t.columns = [c for c in table.columns if _plain(c.header) not in drop]
    return t


def _console(stderr: bool = False) -> CliConsole:
    """A terminal gets Rich's layout at its width; a pipe or file gets whole lines: no hard
    wrapping (paths and ids stay on one line, whatever COLUMNS or the temp path length)."""
    stream = sys.stderr if stderr else sys.stdout
    if stream.isatty():
        return CliConsole(stderr=stderr)
    return CliConsole(stderr=stderr, soft_wrap=True, width=4000, force_terminal=False)


console = _console()
err_console = _console(stderr=True)


def fail(message: str, code: int = 2) -> NoReturn:
    """One-line error naming the file and field at fault; exit 2 for bad input or usage."""
    err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)  # plain text: "[field]" is not markup
    raise typer.Exit(code)



def show_progress(quiet: bool = False) -> bool:
    """Progress goes to stderr, only when stderr is a terminal and --quiet was not given."""
    return not quiet and err_console.is_terminal and os.environ.get("TERM") != "dumb"


def argus_command() -> str:
    """How to run `argus` again from here: `argus` when that is on PATH and is this program, else
    the path of this program (e.g. `.venv/bin/argus` after `make demo`)."""
    me = Path(sys.argv[0]).resolve() if sys.argv and sys.argv[0] else None
    if me is None or me.name != "argus":
        return f"{sys.executable} -m argus_tui.cli"
    found = shutil.which("argus")
    if found and Path(found).resolve() == me:
        return "argus"
    try:
        return str(Path(sys.argv[0]).absolute().relative_to(Path.cwd()))
    except ValueError:
        return str(Path(sys.argv[0]).absolute())


class PhaseProgress:
    """`progress(phase, done, total)` callback as a transient bar on stderr, one task per phase;
    does nothing when stderr is not a terminal or with --quiet (see show_progress)."""

    def __init__(self, quiet: bool = False):
        self.prog = None
        self.tasks: dict[str, Any] = {}
        if show_progress(quiet):
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self.prog = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 TimeElapsedColumn(), console=err_console, transient=True,
                                 redirect_stdout=console.is_terminal)

    def __enter__(self) -> "PhaseProgress":
        if self.prog is not None:
            self.prog.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.prog is not None:
            self.prog.__exit__(*exc)

    def __call__(self, phase: str, done: int, total: int) -> None:
        if self.prog is None:
            return
        if phase not in self.tasks:
            self.tasks[phase] = self.prog.add_task(phase, total=total)
        self.prog.update(self.tasks[phase], completed=done, total=total)


def not_a_file(path: Path, expected: str) -> None:
    """Exit 2 when a file is given where a folder is expected, saying so."""
    if path.is_file():
        fail(f"{path}: is a file; expected {expected}")


def require_models(backend: str, config: Path | None) -> None:
    """`--backend openai` needs at least one engine role with a model; else exit 2 naming the setting."""
    if backend != "openai":
        return
    from core.backends.config import ROLES, load_config
    from core.errors import InputError

    try:
        bc = load_config(config)
    except InputError as e:
        fail(e.message)
    if not [r for r in bc.model_roles() if r != "judge"]:
        src = bc.source or "./argus.toml (not present)"
        fail(f"{src} [roles.<role>.model]: --backend openai needs a model for at least one role "
             f"({', '.join(r for r in ROLES if r != 'judge')}): set `model = ...` under [roles.perceiver] etc. "
             f"in the config (--config FILE) or ARGUS_PERCEIVER_MODEL=...; see docs/backends.md")
