"""Commands: `argus bench generate OUT_DIR` and `argus bench stats OUT_DIR`."""
from __future__ import annotations

import json
import time
from pathlib import Path

import typer
from rich.table import Table

from argus_tui.cli_base import PhaseProgress, bench_app, console, fail
from core.errors import InputError


@bench_app.command("generate")
def generate_cmd(
    out_dir: Path = typer.Argument(..., help="folder to write the benchmark into (must be empty or a generated benchmark with --force)"),
    users: int = typer.Option(50, "--users", help="number of synthetic users"),
    seed: int = typer.Option(0, "--seed", help="random seed; the same seed gives the same files"),
    workers: int = typer.Option(0, "--workers", help="image-rendering processes (0: one per core, at most 4)"),
    force: bool = typer.Option(False, "--force", help="replace an existing generated benchmark in OUT_DIR"),
    name: str = typer.Option("", "--name", help="benchmark name in manifest.json"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="no progress bar"),
    style: str = typer.Option("a", "--style", help="surface style: a (default) or b, written separately (other phrasings, "
                              "document formats, layouts) to measure transfer"),
) -> None:
    """Write a synthetic sopri/1 benchmark (profiles, posts, rendered images, truth)."""
    from core.bench.generate import generate

    if users < 1:
        fail("--users: must be at least 1")
    t0 = time.perf_counter()
    try:
        with PhaseProgress(quiet) as progress:
            res = generate(out_dir, users=users, seed=seed, workers=workers or None, force=force, name=name or None,
                           progress=progress, style=style)
    except InputError as e:
        fail(e.message)
    dt = time.perf_counter() - t0
    console.print(f"wrote {res.users} users, {res.posts} posts, {res.images} images to {res.out_dir} in {dt:.1f}s")
    if res.problems:
        console.print(f"[yellow]{len(res.problems)} generator self-check problems:[/]")
        for p in res.problems[:20]:
            console.print(f"  {p}", highlight=False)


@bench_app.command("stats")
def stats_cmd(
    bench_dir: Path = typer.Argument(..., help="a sopri/1 benchmark folder"),
    ocr: bool = typer.Option(True, "--ocr/--no-ocr", help="measure how much OCR-carrier key text the OCR engine recovers"),
    ocr_sample: int = typer.Option(120, "--ocr-sample", help="OCR at most this many OCR-carrier images (0: all)"),
    json_out: Path = typer.Option(None, "--json", help="also write the statistics as JSON"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="no progress bar"),
) -> None:
    """Quality report: counts by difficulty, dimension, leakage type, carrier, language; OCR recovery."""
    from core.bench.stats import bench_stats

    if bench_dir.is_file():
        fail(f"{bench_dir}: is a file; expected a sopri/1 benchmark folder (manifest.json, users/)")
    if not (bench_dir / "manifest.json").is_file():
        fail(f"{bench_dir / 'manifest.json'}: file not found (not a sopri/1 benchmark)")
    try:
        with PhaseProgress(quiet) as progress:
            st = bench_stats(bench_dir, ocr=ocr, ocr_sample=ocr_sample or None,
                             progress=lambda phase, done, total: progress(f"OCR {phase}", done, total))
    except InputError as e:
        fail(e.message)
    console.print(f"[bold]{bench_dir}[/]: {st['users']} users, {st['posts']} posts, {st['images']} images, "
                  f"{st['leaked']} leaked attributes, {st['hidden']} hidden; {st['decoys']} decoys, {st['injections']} injections")
    for key, title in (("by_difficulty", "difficulty"), ("by_dimension", "dimension"), ("by_leakage_type", "leakage type"),
                       ("by_carrier", "evidence carrier"), ("by_language", "user language"), ("by_platform", "platform"),
                       ("by_personality", "leakage personality"), ("by_attribute", "attribute")):
        t = Table(title=title, header_style="bold", title_justify="left")
        t.add_column(title)
        t.add_column("count", justify="right")
        for k, v in st[key].items():
            t.add_row(str(k), str(v))
        console.print(t)
    o = st.get("ocr")
    if o:
        console.print(f"OCR recovery ({o['engine']}): {o['recovered']}/{o['checked']} key texts "
                      f"({o['share']:.1%}) from {o['images']} OCR-carrier images")
        for k, v in o["by_carrier"].items():
            console.print(f"  {k}: {v['recovered']}/{v['checked']}")
    if json_out:
        json_out.write_text(json.dumps(st, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
