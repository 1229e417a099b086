"""Commands: `argus bench validate BENCH_DIR`."""
from __future__ import annotations

from pathlib import Path

import typer
from core.textsafe import escape, json_text
from rich.table import Table

from argus_tui.cli_base import bench_app, console, err_console, not_a_file
from core.bench.validate import Problem, has_errors, validate_bench


def print_problems(problems: list[Problem], *, limit: int | None = None) -> None:
    """Problems, errors first, as a table when it fits the terminal, else one per line:
    `file:line: severity: field: reason` (always so in a pipe); `limit` caps the rows shown."""
    ordered = sorted(problems, key=lambda p: (p.severity != "error", p.file, p.line or 0))
    shown = ordered if limit is None else ordered[:limit]
    table = Table(show_lines=False, header_style="bold")
    for col in ("severity", "file", "line", "field", "reason"):
        table.add_column(col, overflow="fold")
    for p in shown:
        sev = "[red]error[/]" if p.severity == "error" else "[yellow]warning[/]"
        table.add_row(sev, escape(p.file), str(p.line or ""), escape(p.field or ""), escape(p.reason))
    if console.fits(table):
        console.print(table)
    else:
        for p in shown:
            where = p.file + (f":{p.line}" if p.line else "")
            sev = "[red]error[/]" if p.severity == "error" else "[yellow]warning[/]"
            console.print(f"{escape(where)}: {sev}: " + (f"{escape(p.field)}: " if p.field else "") + escape(p.reason),
                          highlight=False)
    if len(shown) < len(ordered):
        console.print(f"... {len(ordered) - len(shown)} more (use --limit 0 to show all)")


@bench_app.command("validate")
def validate_cmd(
    bench_dir: Path = typer.Argument(..., help="a sopri/1 benchmark folder, or one user folder"),
    no_truth: bool = typer.Option(False, "--no-truth", help="check only the adversary's view (profile, posts, images)"),
    limit: int = typer.Option(200, "--limit", help="show at most this many problems (0: all)"),
    warnings_as_errors: bool = typer.Option(False, "--strict", help="exit 2 on warnings too"),
    as_json: bool = typer.Option(False, "--json", help="print the problems as a JSON list"),
) -> None:
    """Check a benchmark against the sopri/1 format; list every problem; exit 2 when any is an error."""
    not_a_file(bench_dir, "a sopri/1 benchmark folder (manifest.json, users/) or one user folder")
    problems = validate_bench(bench_dir, truth=not no_truth)
    errors = sum(p.severity == "error" for p in problems)
    warnings = len(problems) - errors
    if as_json:
        print(json_text([p.model_dump() for p in problems], indent=1))
    elif problems:
        print_problems(problems, limit=limit or None)
    if has_errors(problems) or (warnings_as_errors and warnings):
        err_console.print(f"[bold red]invalid:[/] {escape(str(bench_dir))}: {errors} error(s), {warnings} warning(s)",
                          highlight=False, soft_wrap=True)
        raise typer.Exit(2)
    # with --json stdout is the JSON alone; the verdict goes to stderr
    (err_console if as_json else console).print(f"[green]valid[/] {escape(str(bench_dir))}: 0 errors, "
                                                f"{warnings} warning(s)", highlight=False)
