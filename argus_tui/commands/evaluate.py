"""Commands: `argus eval BENCH_DIR PRED_DIR` (PES scoring) and `argus bench oracle` (oracle predictions)."""
from __future__ import annotations

from pathlib import Path

import typer
from core.textsafe import escape

from argus_tui.cli_base import app, bench_app, console, err_console, fail, not_a_file
from core.errors import InputError


@app.command("eval")
def eval_cmd(
    bench_dir: Path = typer.Argument(..., help="a sopri/1 benchmark folder (with truth files)"),
    pred_dir: Path = typer.Argument(..., help="folder of <user_id>.json predictions (or a `bench run` OUT_DIR)"),
    json_out: Path | None = typer.Option(None, "--json", help="write the metrics JSON here"),
    judge: str = typer.Option("rules", "--judge", help="judge that turns a prediction into a score g"),
    compare_dir: Path | None = typer.Option(None, "--compare", help="second predictions folder: paired ΔPES"),
    audit: Path | None = typer.Option(None, "--audit", help="per-attribute scores (.csv, else JSON Lines)"),
    seed: int = typer.Option(0, "--seed", help="bootstrap seed"),
    resamples: int = typer.Option(1000, "--resamples", help="bootstrap resamples of users"),
    users: int = typer.Option(50, "--users", help="show at most this many per-user rows (0: all)"),
) -> None:
    """Score predictions by docs/benchmark-format.md ("Scoring"): PES, Binary, Gran, breakdowns, CI.

    Predictions written by `bench run` for another benchmark (OUT_DIR/batch.json) are refused."""
    if judge != "rules":
        import core.eval.llm_judge  # noqa: F401  (registers --judge llm; backends engineer; slow openai import)
    from core.eval.judge import get_judge, judge_names
    from core.eval.metrics import compare, evaluate
    from core.eval.report import comparison_json, metrics_json, render, render_comparison, write_audit, write_json

    if resamples < 1:
        fail(f"--resamples: must be at least 1, got {resamples}")
    not_a_file(bench_dir, "a sopri/1 benchmark folder (manifest.json, users/)")
    for d in (pred_dir, compare_dir):
        if d is not None:
            not_a_file(d, "a folder of <user_id>.json predictions or a `bench run` OUT_DIR")
    try:
        j = get_judge(judge)
    except KeyError:
        fail(f"--judge: unknown judge '{judge}' (available: {', '.join(judge_names())})")
    except InputError as e:  # e.g. --judge llm without a judge model configured
        fail(e.message)
    from core.eval.inputs import check_batch_bench

    try:
        for d in (pred_dir, compare_dir):
            if d is not None:
                check_batch_bench(bench_dir, d)
        if compare_dir is not None:
            c = compare(bench_dir, pred_dir, compare_dir, j, seed=seed, resamples=resamples)
            ev, doc = c.base, comparison_json(c)
        else:
            c = None
            ev = evaluate(bench_dir, pred_dir, j, seed=seed, resamples=resamples)
            doc = metrics_json(ev)
    except InputError as e:
        fail(e.message)
    if judge != "rules" and c is None:
        # agreement of this judge with the rules judge on the same records (backends engineer)
        from core.eval.llm_judge import judge_agreement

        rules_ev = evaluate(bench_dir, pred_dir, get_judge("rules"), seed=seed, resamples=1)
        agr = judge_agreement((a.g, b.g) for a, b in zip(ev.leaked, rules_ev.leaked))
        doc["judge_agreement"] = {"vs": "rules", **agr.as_dict()}
    for e in (ev, c.other if c else None):
        if e is not None and e.users and len(e.missing) * 2 > len(e.users):
            err_console.print(f"[bold red]warning:[/] {len(e.missing)} of {len(e.users)} users have no predictions "
                              f"file in {escape(e.pred_dir)} (each scores 0): is this the predictions folder "
                              f"of this benchmark?", highlight=False)
    render(ev, console, user_limit=users or None)
    if "judge_agreement" in doc:
        a = doc["judge_agreement"]
        kappa = "n/a" if a["kappa"] is None else f"{a['kappa']:.2f}"
        console.print(f"judge agreement {judge} vs rules on {a['n']} scores: exact {a['exact']:.2f}, "
                      f"binary {a['binary']:.2f}, mean |Δg| {a['mean_abs_diff']:.2f}, kappa {kappa}", highlight=False)
    if c is not None:
        render_comparison(c, console)
    for label, e in (("", ev), ("compare: ", c.other if c else None)):
        if e is not None and e.missing:
            console.print(f"[yellow]{label}{len(e.missing)} user(s) without a predictions file in "
                          f"{escape(e.pred_dir)} (scored 0):[/] {escape(', '.join(e.missing))}", highlight=False)
    if json_out is not None:
        write_json(doc, json_out)
        console.print(f"metrics written to {escape(str(json_out))}", highlight=False)
    if audit is not None:
        write_audit(ev, audit)
        console.print(f"per-attribute scores written to {escape(str(audit))}", highlight=False)


@bench_app.command("oracle")
def oracle_cmd(
    bench_dir: Path = typer.Argument(..., help="a sopri/1 benchmark folder (with truth files)"),
    out_dir: Path = typer.Argument(..., help="folder to write <user_id>.json predictions into"),
    mode: str = typer.Option("full", "--mode", help="full (PES 1.0), coarse (first hierarchy level only), empty"),
) -> None:
    """Write oracle predictions from the truth files (a check of the scorer and of a benchmark)."""
    from core.eval.oracle import write_oracle

    if mode not in ("full", "coarse", "empty"):
        fail(f"--mode: must be full, coarse or empty, got '{mode}'")
    try:
        n = write_oracle(bench_dir, out_dir, mode)  # type: ignore[arg-type]
    except InputError as e:
        fail(e.message)
    console.print(f"wrote {n} {mode} oracle prediction file(s) to {escape(str(out_dir))}", highlight=False)
