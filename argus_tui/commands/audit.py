"""Command: `argus audit SRC [--out DIR]`: a person's own export -> import -> investigate (offline)
-> advise -> HTML report, with a progress bar per stage (core/audit.py does the work)."""
from __future__ import annotations

from pathlib import Path

import typer
from core.textsafe import escape

from argus_tui.cli_base import PhaseProgress, app, console, fail
from core.errors import InputError


class _StageProgress:
    """A line on stdout as each stage starts (logs and pipes see the stages) and a bar per stage
    on stderr when it is a terminal."""

    def __init__(self, bars: PhaseProgress):
        self.bars = bars
        self.started: set[str] = set()

    def __call__(self, stage: str, done: int, total: int) -> None:
        from core.audit import STAGES

        if stage not in self.started:
            self.started.add(stage)
            console.print(f"[{STAGES.index(stage) + 1}/{len(STAGES)}] {stage}", highlight=False, markup=False)
        self.bars(stage, done, total)


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
    quiet: bool = typer.Option(False, "--quiet", "-q", help="no progress bars"),
) -> None:
    """Audit your own account, offline: import the export, investigate it, advise edits, write an
    HTML report (every file 0600). The report's path is the last line."""
    from core.audit import run_audit

    if budget < 0:
        fail(f"--budget: must be >= 0 (got {budget})")
    stem = src.name.split(".")[0] or "export"
    out = out or Path.cwd() / f"audit-{stem}"
    try:
        with PhaseProgress(quiet) as bars:
            res = run_audit(src, out, platform=platform, budget=budget, include_private=include_private,
                            blobs=blobs, tz=tz, overwrite=overwrite, account=account, progress=_StageProgress(bars))
    except InputError as e:
        fail(e.message)
    p = lambda s: console.print(s, highlight=False, markup=False, soft_wrap=True)  # noqa: E731
    if res.notice:
        p(res.notice)
    if res.resumed:
        p(f"resumed the unfinished audit in {res.out_dir} (its import and run)")
    p(f"imported {res.platform}: {res.posts} posts, {res.images} images -> {res.user_dir}")
    for line in res.import_lines:
        p(f"  {line}")
    p(f"investigated: run {res.run_id}, {len(res.attributes)} attributes inferred")
    for a in res.attributes:
        p(f"  {a['attribute']}: {a['value']} (confidence {a['confidence'] or 0:.2f})")
    p(f"advice: exposure {res.exposure_before:g} -> {res.exposure_after:g} predicted after {len(res.advice_steps)} edits")
    for i, s in enumerate(res.advice_steps, 1):
        p(f"  {i}. {s}")
    if res.score is not None:
        pes = "-" if res.score["pes"] is None else f"{res.score['pes']:.3f}"
        p(f"score against your declared values: PES {pes} over {res.score['n']} values")
    p(f"run DB: {res.db}; advice: {res.advice}")
    console.print(f"report: {escape(res.report)}", highlight=False, soft_wrap=True)
