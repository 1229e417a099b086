"""Commands: `argus bench compare`, `argus bench suite`, `argus report`, and the batch runner
behind `argus bench run` (progress bar with ETA, per-user failures summarised at the end)."""
from __future__ import annotations

import json
from pathlib import Path

import typer
from core.textsafe import escape

from argus_tui.cli_base import app, bench_app, console, err_console, fail, not_a_file, show_progress
from core.errors import InputError
from db.store import write_private

SUITE_ABLATIONS = ("perceiver", "hypothesizer", "investigator", "verifier", "cpeg")


def _progress():
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                               TimeRemainingColumn)

    return Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TextColumn("{task.fields[status]}"), TimeElapsedColumn(), TextColumn("ETA"),
                    TimeRemainingColumn(), console=err_console, transient=True,
                    redirect_stdout=console.is_terminal)  # a piped stdout keeps its per-user lines


def recorded_errors(db_path: Path, run_ids: dict[str, str]) -> list[str]:
    """Input problems recorded in the runs (e.g. a broken posts.jsonl line skipped while loading),
    one line each: `user: file:line [field]: reason`."""
    if not run_ids or not db_path.is_file():
        return []
    from db import queries

    try:
        db = queries.open_runs_readonly(db_path)
    except InputError:
        return []
    marks = ",".join("?" * len(run_ids))
    rows = db.execute(f"SELECT run_id, data FROM events WHERE kind='error' AND run_id IN ({marks}) ORDER BY id",
                      list(run_ids)).fetchall()
    db.conn.close()
    out = []
    for run_id, data in rows:
        d = json.loads(data or "{}")
        where = str(d.get("where") or "") + (f":{d['line']}" if d.get("line") else "")
        fld = f" [{d['field']}]" if d.get("field") else ""
        out.append(f"{run_ids[run_id]}: {where}{fld}: {d.get('reason', '')}")
    return out


def run_batch_cli(bench_dir: Path, out: Path, *, system: str = "argus", ablate: list[str] | None = None,
                  workers: int = 1, backend: str = "offline", budget: float = 20.0, executor: str = "local",
                  cache_from: Path | None = None, config: dict | None = None, limit: int | None = None,
                  per_user_lines: bool = True, quiet: bool = False, allow_duplicate_ids: bool = False):
    """One batch: a progress bar on stderr (a terminal only), a line per user on stdout, then
    every failure and every recorded input problem, each with its file and field."""
    from contextlib import ExitStack

    from core.batch import run_batch
    from core.engine.batch import ablation_config

    if ablate and system != "argus":
        raise InputError("--ablate", "ablations remove a part of Argus; use them with --system argus")
    cfg = {**ablation_config(ablate), **(config or {})}
    label = f"{system}" + (f" -{'-'.join(ablate)}" if ablate else "")
    counts = {"ok": 0, "failed": 0}
    with ExitStack() as stack:
        prog = None
        task = None

        def started(n: int) -> None:  # the bar appears once the users are known (no empty 0/? bar)
            nonlocal prog, task
            if show_progress(quiet) and n:
                prog = stack.enter_context(_progress())
                task = prog.add_task(label, total=n, status="")

        def show(r) -> None:
            out_console = console  # stdout; a live bar on stderr redirects stdout above itself
            if r.status == "failed":
                counts["failed"] += 1
                if per_user_lines:
                    out_console.print(f"[red]failed[/] {escape(r.user_id)}: {escape(r.error or '')}", highlight=False)
            else:
                counts["ok"] += 1
                if per_user_lines:
                    out_console.print(f"{escape(r.user_id)}: {r.status}, {r.attributes} attributes, "
                                      f"{r.seconds:.1f}s", highlight=False)
            if prog is not None:
                prog.update(task, advance=1, status=f"{counts['failed']} failed" if counts["failed"] else "")

        summary = run_batch(bench_dir, out, system=system, backend=backend, config=cfg, budget=budget,
                            workers=workers, executor=executor, on_result=show, on_start=started,
                            cache_from=cache_from, limit=limit, allow_duplicate_ids=allow_duplicate_ids)
    ok = summary.users - len(summary.failed)
    ran = summary.users - summary.skipped  # a resumed batch's rate counts only the users it ran
    rate = f"{60.0 * ran / summary.seconds:.1f} users/min" if ran and summary.seconds else "no users run"
    console.print(f"{label}: {ok}/{summary.users} users done in {summary.seconds:.1f}s "
                  f"({rate}, {summary.skipped} skipped as already finished); "
                  f"predictions: {escape(str(out / 'predictions'))}; DB: {escape(str(out / 'runs.db'))}",
                  highlight=False)
    problems = recorded_errors(out / "runs.db", {r.run_id: r.user_id for r in summary.results
                                                 if r.run_id and r.status != "failed"})
    if problems:
        console.print(f"[yellow]{len(problems)} input problem(s) recorded (the rest of those users was investigated):[/]",
                      highlight=False)
        for line in problems:
            console.print(f"  {escape(line)}", highlight=False)
    if summary.failed:
        console.print(f"[red]{len(summary.failed)} user(s) failed:[/]", highlight=False)
        for r in summary.failed:
            console.print(f"  {escape(r.user_id)}: {escape(r.error or '')}", highlight=False)
    return summary


@bench_app.command("compare")
def compare_cmd(
    out_dirs: list[Path] = typer.Argument(..., help="`bench run` OUT_DIRs (or prediction folders, or a folder of OUT_DIRs)"),
    bench: Path | None = typer.Option(None, "--bench", help="the benchmark (default: read from OUT_DIR/batch.json)"),
    reference: str = typer.Option("0", "--reference", help="reference for ΔPES: an index, a system name or a label"),
    json_out: Path | None = typer.Option(None, "--json", help="write the table as JSON here"),
    md_out: Path | None = typer.Option(None, "--md", help="write the table as Markdown here"),
    seed: int = typer.Option(0, "--seed", help="bootstrap seed"),
    resamples: int = typer.Option(1000, "--resamples", help="paired user resamples"),
) -> None:
    """Table of PES, Binary, Gran, cross-post PES, false claims, cost and paired ΔPES vs a reference."""
    from core.reports.compare import compare_runs, markdown_table, rich_table

    if resamples < 1:
        fail(f"--resamples: must be at least 1, got {resamples}")
    try:
        t = compare_runs(out_dirs, bench_dir=bench, reference=reference, seed=seed, resamples=resamples)
    except InputError as e:
        fail(e.message)
    console.print(rich_table(t))
    if json_out:
        write_private(json_out, t.model_dump_json(indent=1))
        console.print(f"table written to {escape(str(json_out))}", highlight=False)
    if md_out:
        write_private(md_out, markdown_table(t))
        console.print(f"markdown written to {escape(str(md_out))}", highlight=False)


@app.command("report")
def report_cmd(
    out_dirs: list[Path] = typer.Argument(..., help="`bench run` OUT_DIRs (or a folder of them, as `bench suite` makes)"),
    html: Path = typer.Option(..., "--html", help="the HTML file to write (self-contained)"),
    bench: Path | None = typer.Option(None, "--bench", help="the benchmark (default: read from OUT_DIR/batch.json)"),
    reference: str = typer.Option("0", "--reference", help="reference for ΔPES: an index, a system name or a label"),
    redact: bool = typer.Option(False, "--redact", help="mask values (truth, predictions, in evidence); keep evidence"),
    drill: list[str] = typer.Option([], "--drill", help="per-user drill-down only for these systems/labels (default all)"),
    seed: int = typer.Option(0, "--seed", help="bootstrap seed"),
    resamples: int = typer.Option(1000, "--resamples", help="paired user resamples"),
) -> None:
    """Self-contained HTML report: comparison table, charts, per-user drill-down with evidence chains."""
    from core.reports.compare import rich_table
    from core.reports.html import write_report

    try:
        t = write_report(out_dirs, html, bench_dir=bench, reference=reference, redact=redact, seed=seed,
                         resamples=resamples, drill=drill or None)
    except InputError as e:
        fail(e.message)
    console.print(rich_table(t))
    console.print(f"report written to {escape(str(html))}" + (" (redacted)" if redact else ""), highlight=False)


@bench_app.command("suite")
def suite_cmd(
    bench_dir: Path = typer.Argument(..., help="a sopri/1 benchmark folder"),
    out: Path = typer.Option(..., "--out", help="ROOT: one OUT_DIR per system/ablation, table and report"),
    systems: list[str] = typer.Option([], "--system", help="systems to run (default: argus and every baseline)"),
    ablations: bool = typer.Option(True, "--ablations/--no-ablations", help="also run Argus with each part removed"),
    workers: int = typer.Option(1, "--workers", help="users in parallel (processes)"),
    executor: str = typer.Option("local", "--executor", help="local or ray"),
    backend: str = typer.Option("offline", "--backend", help="offline (default) or a registered model backend"),
    budget: float = typer.Option(20.0, "--budget", help="route budget per user (argus)"),
    share_cache: bool = typer.Option(True, "--share-cache/--no-share-cache",
                                     help="seed each run DB with the tool cache of the first one (OCR once)"),
) -> None:
    """The paper's table in one command: every system and ablation, then `compare` and `report`."""
    from core.baselines import system_names
    from core.reports.compare import markdown_table
    from core.reports.html import write_report

    from argus_tui.cli_base import require_models

    not_a_file(bench_dir, "a sopri/1 benchmark folder (manifest.json, users/)")
    require_models(backend, None)
    names = systems or system_names()
    plan: list[tuple[str, str, list[str]]] = [(n, n, []) for n in names]
    if ablations and "argus" in names:
        plan += [(f"argus-no-{p}", "argus", [p]) for p in SUITE_ABLATIONS]
    first_db: Path | None = None
    try:
        for label, system, abl in plan:
            od = out / label
            run_batch_cli(bench_dir, od, system=system, ablate=abl, workers=workers, backend=backend,
                          budget=budget, executor=executor, cache_from=first_db if share_cache else None,
                          per_user_lines=False)
            if first_db is None and (od / "runs.db").is_file():
                first_db = od / "runs.db"
        t = write_report([out / label for label, _, _ in plan], out / "report.html")
    except InputError as e:
        fail(e.message)
    write_private(out / "table.md", markdown_table(t))
    write_private(out / "table.json", t.model_dump_json(indent=1))
    from core.reports.compare import rich_table

    console.print(rich_table(t))
    console.print(f"table: {escape(str(out / 'table.md'))}; report: {escape(str(out / 'report.html'))}",
                  highlight=False)
