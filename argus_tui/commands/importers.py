"""Commands: `argus import FORMAT SRC OUT_DIR`: data sets (prism | synthpai) and the exports a
person downloads from a platform (instagram | facebook | x | reddit | mastodon | bluesky | auto)."""
from __future__ import annotations

from pathlib import Path

import typer
from core.textsafe import escape
from rich.table import Table

from argus_tui.cli_base import app, console, fail
from core.bench.importers import importers
from core.bench.importers.exports import NAMES as EXPORTS
from core.bench.validate import has_errors, validate_bench
from core.errors import InputError


def print_export_summary(r) -> None:
    """What an export import read and skipped, by kind and count (one line each)."""
    for line in r.summary.lines():
        console.print(escape(line), highlight=False, soft_wrap=True)
    if r.declared:
        console.print(f"declared values kept out of the posts, written as the truth file: {', '.join(r.declared)} "
                      f"(score a run with `argus eval {escape(r.out_dir)} PRED_DIR`)", highlight=False, soft_wrap=True)


def run_export_import(fmt: str, src: Path, out_dir: Path, *, overwrite: bool = False, include_private: bool = False,
                      blobs: Path | None = None, tz: str | None = None, account: str | None = None):
    """Import one export, print its summary, validate the result; exit 2 naming the file on bad input."""
    from core.bench.importers.exports import TITLES, import_export

    if blobs is not None and fmt not in ("bluesky", "auto"):
        fail(f"--blobs: only for bluesky (a {fmt} export holds its media)")
    try:
        r = import_export(fmt, src, out_dir, overwrite=overwrite, include_private=include_private, blobs=blobs, tz=tz,
                          account=account)
    except InputError as e:
        fail(e.message)
    console.print(f"{TITLES[r.platform]} export: {r.posts} posts, {r.images} images -> {escape(r.user_dir)} "
                  f"({r.seconds:.2f}s)", highlight=False, soft_wrap=True)
    print_export_summary(r)
    problems = validate_bench(out_dir)
    if has_errors(problems):
        first = next(p for p in problems if p.severity == "error")
        fail(f"the converted export does not validate: {first} (run `argus bench validate {out_dir}`)")
    return r


@app.command("import")
def import_cmd(
    fmt: str = typer.Argument(..., metavar="FORMAT",
                              help="prism | synthpai | instagram | facebook | x | reddit | mastodon | bluesky | auto"),
    src: Path = typer.Argument(..., help="prism: folder with posts.json + target.json; synthpai: profile JSONL file; "
                                         "a platform: the export as downloaded (.zip, .tar.gz, repo.car) or its folder"),
    out_dir: Path = typer.Argument(..., help="the sopri/1 folder to write"),
    overwrite: bool = typer.Option(False, "--overwrite", help="replace an existing sopri/1 folder at OUT_DIR"),
    show_skipped: int = typer.Option(20, "--show-skipped", help="list at most this many skipped records/labels"),
    posts_only: bool = typer.Option(False, "--posts-only",
                                    help="prism: import the posts only, not the account's topic lists"),
    include_private: bool = typer.Option(False, "--include-private",
                                         help="mastodon: keep direct messages and followers-only posts"),
    blobs: Path | None = typer.Option(None, "--blobs", metavar="DIR",
                                      help="bluesky: folder of image blobs fetched separately (files named by CID)"),
    tz: str | None = typer.Option(None, "--tz", metavar="ZONE",
                                  help="platform exports: write timestamps in this IANA time zone (default UTC)"),
    account: str | None = typer.Option(None, "--account", metavar="NAME",
                                       help="platform exports: the account to read when the export holds several "
                                            "(its folder name, as the error lists them)"),
) -> None:
    """Convert another data set's layout, or a platform's data export, into sopri/1, then validate it."""
    if fmt in EXPORTS or fmt == "auto":
        if posts_only:
            fail(f"--posts-only: only for prism (a {fmt} import has no topic lists)")
        r = run_export_import(fmt, src, out_dir, overwrite=overwrite, include_private=include_private, blobs=blobs,
                              tz=tz, account=account)
        console.print(f"[green]valid[/] sopri/1 user at {escape(r.user_dir)}", highlight=False, soft_wrap=True)
        return
    table = importers()
    if fmt not in table:
        fail(f"FORMAT: unknown format {fmt!r} (one of: {', '.join(sorted(table) + list(EXPORTS) + ['auto'])})")
    if include_private or blobs is not None or tz is not None or account is not None:
        fail(f"--include-private / --blobs / --tz / --account: only for platform exports, not {fmt}")
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
