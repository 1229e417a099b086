"""The Typer apps every command module registers into, and the shared error exit."""
from __future__ import annotations

import sys
from typing import NoReturn

import typer
from rich.console import Console
from rich.markup import escape

app = typer.Typer(
    name="argus",
    help="Argus: measure how much an account's public posts reveal about the person behind it.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
bench_app = typer.Typer(help="Benchmarks in the sopri/1 format: generate, validate, run, stats.", no_args_is_help=True)
runs_app = typer.Typer(help="Saved runs in a runs.db.", no_args_is_help=True)
app.add_typer(bench_app, name="bench")
app.add_typer(runs_app, name="runs")

def _console(stderr: bool = False) -> Console:
    """A terminal gets Rich's layout at its width; a pipe or file gets whole lines: no hard
    wrapping (paths and ids stay on one line, whatever COLUMNS or the temp path length)."""
    stream = sys.stderr if stderr else sys.stdout
    if stream.isatty():
        return Console(stderr=stderr)
    return Console(stderr=stderr, soft_wrap=True, width=4000)


console = _console()
err_console = _console(stderr=True)


def fail(message: str, code: int = 2) -> NoReturn:
    """One-line error naming the file and field at fault; exit 2 for bad input or usage."""
    err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)  # plain text: "[field]" is not markup
    raise typer.Exit(code)


def stderr_line(message: str) -> None:
    print(message, file=sys.stderr)
