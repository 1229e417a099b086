"""Command: `argus audit SRC [--out DIR]`: a person's own export -> import -> investigate (offline)
-> advise -> HTML report, with a progress bar per stage (core/audit.py does the work)."""
from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import typer
from core.textsafe import escape, printable

from argus_tui.cli_base import app, console, err_console, fail, show_progress
from core.errors import InputError


class _StageBars:
    """One bar per stage (import, investigate, advise, report) on stderr when it is a terminal,
    each added once as its stage starts and kept when done; the investigate bar counts route budget
    units spent. A line `[i/4] stage` on stdout as each stage starts, for logs and pipes: not when
    stdout is the terminal the bars are drawn on (the bar's label says it there, and a line written
    beside Rich's live display would garble it)."""

    def __init__(self, quiet: bool):
        self.prog = None
        self.tasks: dict[str, Any] = {}
        if show_progress(quiet):
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self.prog = Progress(TextColumn("{task.description:<17}"), BarColumn(bar_width=28), MofNCompleteColumn(),
                                 TextColumn("{task.fields[unit]}"), TimeElapsedColumn(), console=err_console,
                                 transient=False)

    def __enter__(self) -> "_StageBars":
        if self.prog is not None:
            self.prog.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.prog is not None:
            self.prog.stop()

    def __call__(self, stage: str, done: int, total: int) -> None:
        from core.audit import STAGES

        if stage not in self.tasks:
            if self.prog is not None and "investigate" in self.tasks:
                # the run stopped: its bar shows the units it spent of the budget, and says it is done
                self.prog.update(self.tasks["investigate"], unit="units spent, done")
            label = f"[{STAGES.index(stage) + 1}/{len(STAGES)}] {stage}"
            if self.prog is None or not console.is_terminal:
                console.print(label, highlight=False, markup=False)
            self.tasks[stage] = self.prog.add_task(label, total=total, unit="units spent" if stage == "investigate"
                                                   else "") if self.prog is not None else None
        if self.prog is not None:
            self.prog.update(self.tasks[stage], completed=done, total=total)


@app.command("audit")
def audit_cmd(
    src: Path = typer.Argument(..., help="your export as downloaded (.zip, .tar.gz, repo.car) or its unpacked folder"),
    out: Path | None = typer.Option(None, "--out", metavar="DIR",
                                    help="folder for the account, runs.db, advice and report (default ./audit-<name>)"),
    platform: str = typer.Option("auto", "--platform", help="instagram|facebook|x|reddit|mastodon|bluesky|auto"),
    budget: float = typer.Option(20.0, "--budget", help="route budget in cost units"),
    include_private: bool = typer.Option(False, "--include-private",
                                         help="mastodon: also audit direct messages and followers-only posts"),
    blobs: Path | None = typer.Option(None, "--blobs", metavar="DIR", help="bluesky: image blobs fetched separately"),
    tz: str | None = typer.Option(None, "--tz", metavar="ZONE",
                                  help="your IANA time zone (e.g. Europe/Paris): timestamps in local time (default UTC)"),
    account: str | None = typer.Option(None, "--account", metavar="NAME",
                                       help="the account to audit when the export holds several (its folder name)"),
    overwrite: bool = typer.Option(False, "--overwrite", help="replace an earlier audit in DIR"),
    reject: list[str] = typer.Option([], "--reject", metavar="FINDING",
                                     help="mark a finding as wrong: its key in the report, ATTRIBUTE or ATTRIBUTE:VALUE"
                                          " (repeatable; kept for reruns)"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="no progress bars"),
) -> None:
    """Audit your own account, offline: import the export, investigate it, advise edits, write an
    HTML report (every file 0600). The report's path is the last line. With --reject on a finished
    audit in DIR: the findings are marked wrong in its run, then advice and report are written again."""
    from core.audit import run_audit

    if budget < 0:
        fail(f"--budget: must be >= 0 (got {budget})")
    stem = src.name.split(".")[0] or "export"
    out = out or Path.cwd() / f"audit-{stem}"
    try:
        with _StageBars(quiet) as bars:
            res = run_audit(src, out, platform=platform, budget=budget, include_private=include_private,
                            blobs=blobs, tz=tz, overwrite=overwrite, account=account, reject=reject, progress=bars)
    except InputError as e:
        fail(e.message)
    # every line carries export-derived text (values, advice, media uris): one line each, escaped
    p = lambda s: console.print(printable(s), highlight=False, markup=False, soft_wrap=True)  # noqa: E731
    if res.notice:
        p(res.notice)
    if res.resumed:
        p(f"resumed the unfinished audit in {res.out_dir} (its import and run)")
    p(f"imported {res.platform}: {res.posts} posts, {res.images} images -> {res.user_dir}")
    for line in res.import_lines:
        p(f"  {line}")
    p(f"investigated: run {res.run_id}, {len(res.attributes)} attributes inferred, route budget "
      f"{res.spent:g} of {res.budget:g} units spent")
    for a in res.attributes:
        p(f"  {a['attribute']}: {a['value']} (confidence {a['confidence'] or 0:.2f})")
    for r in res.rejected:
        p(f"  marked as wrong: {r['key']} ({r['removed']} reading{'s' if r['removed'] != 1 else ''} removed)")
    p(f"advice: exposure {res.exposure_before:g} -> {res.exposure_after:g} predicted after {len(res.advice_steps)} edits")
    for i, s in enumerate(res.advice_steps, 1):
        p(f"  {i}. {s}")
    if res.score is not None:
        pes = "-" if res.score["pes"] is None else f"{res.score['pes']:.3f}"
        p(f"score against your declared values: PES {pes} over {res.score['n']} values")
    q = shlex.quote
    p(f"advice for other tools: {res.advice_csv}, {res.advice_json}")
    p(f"open the run: argus tui {q(res.db)} --run {q(res.run_id)}  (or: argus runs datasette {q(res.db)})")
    p(f"check the advice on a copy: argus advise {q(res.user_dir)} --db {q(res.db)} --apply "
      f"{q(str(Path(res.out_dir) / 'edited'))}")
    p(f"mark a finding as wrong: argus audit {q(str(src))} --out {q(res.out_dir)} --reject ATTRIBUTE")
    console.print(f"report: {escape(res.report)}", highlight=False, soft_wrap=True)
