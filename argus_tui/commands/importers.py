"""Commands: `argus import FORMAT SRC OUT_DIR` (prism | synthpai)."""
from __future__ import annotations

from pathlib import Path

import typer
from core.textsafe import escape
from rich.table import Table

from argus_tui.cli_base import app, console, fail
from core.bench.importers import importers
from core.bench.validate import has_errors, validate_bench
from core.errors import InputError


@app.command("import")
def import_cmd(
    fmt: str = typer.Argument(..., metavar="FORMAT", help="prism | synthpai"),
    src: Path = typer.Argument(..., help="prism: folder with posts.json + target.json; synthpai: profile JSONL file"),
    out_dir: Path = typer.Argument(..., help="the sopri/1 folder to write"),
    overwrite: bool = typer.Option(False, "--overwrite", help="replace an existing sopri/1 folder at OUT_DIR"),
    show_skipped: int = typer.Option(20, "--show-skipped", help="list at most this many skipped records/labels"),
    posts_only: bool = typer.Option(False, "--posts-only",
                                    help="prism: import the posts only, not the account's topic lists"),
) -> None:
    """Convert another data set's layout into sopri/1, then validate the result."""
    table = importers()
    if fmt not in table:
        fail(f"FORMAT: unknown format {fmt!r} (one of: {', '.join(sorted(table))})")
    if posts_only and fmt != "prism":
        fail(f"--posts-only: only for prism (a {fmt} import has no topic lists)")
    extra = {"topics": not posts_only} if fmt == "prism" else {}
    try:
        report = table[fmt](src, out_dir, overwrite=overwrite, **extra)
    except InputError as e:
        fail(e.message)
    for line in report.skipped[:show_skipped]:
        console.print(f"[yellow]skipped[/] {escape(line)}", highlight=False, soft_wrap=True)
    if len(report.skipped) > show_skipped:
        console.print(f"... {len(report.skipped) - show_skipped} more skipped (--show-skipped N)")
    t = Table(title=escape(f"{fmt} -> {out_dir}"), header_style="bold")
    t.add_column("attribute")
    t.add_column("users with a leaked label", justify="right")
    for name, n in sorted(report.by_attribute.items()):
        t.add_row(name, str(n))
    console.print(t)
    console.print(f"{report.users} users, {report.posts} posts, {report.leaked} leaked and "
                  f"{report.hidden} hidden attributes, {len(report.skipped)} skipped", highlight=False)
    problems = validate_bench(out_dir)
    if has_errors(problems):
        first = next(p for p in problems if p.severity == "error")
        fail(f"the converted benchmark does not validate: {first} (run `argus bench validate {out_dir}`)")
    console.print(f"[green]valid[/] sopri/1 benchmark at {escape(str(out_dir))}", highlight=False)
