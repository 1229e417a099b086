"""Commands: `argus investigate`, `argus bench run`, `argus demo` (the engine, headless)."""
from __future__ import annotations

import json
import sqlite3
import tempfile
import time
from pathlib import Path

import typer
from core.textsafe import escape, json_escape
from rich.table import Table
from rich.text import Text

from argus_tui.cli_base import (OPTIONAL, app, argus_command, bench_app, console, err_console, fail,
                               require_models, show_progress)
from core.engine.events import ErrorEvent
from core.errors import InputError
from db.store import write_private


def check_user_dir(user_dir: Path) -> None:
    """A user folder must exist and be a folder (a file given instead says so)."""
    if user_dir.is_file():
        fail(f"{user_dir}: is a file; expected a sopri/1 user folder (profile.json, posts.jsonl, images/)")
    if not user_dir.is_dir():
        fail(f"{user_dir}: user folder not found")


def _remove_db(db_path: Path) -> None:
    for p in (db_path, Path(f"{db_path}-wal"), Path(f"{db_path}-shm"), Path(f"{db_path}-journal")):
        p.unlink(missing_ok=True)


class _InvestigateProgress:
    """One transient status line on stderr: step, route, budget (only on a terminal, not with --quiet)."""

    def __init__(self, enabled: bool):
        from rich.live import Live

        self.live = Live(console=err_console, transient=True, auto_refresh=False,
                         redirect_stdout=console.is_terminal) if enabled else None
        self.t0 = time.perf_counter()

    def __enter__(self) -> "_InvestigateProgress":
        if self.live:
            self.live.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        if self.live:
            self.live.__exit__(*exc)

    def update(self, text: str) -> None:
        if self.live:
            from rich.text import Text

            self.live.update(Text(f"{text} ({time.perf_counter() - self.t0:.0f}s)"), refresh=True)

    def route(self, inv, prop) -> None:
        b = inv.budget
        what = prop.family + (f" {prop.tool}" if prop.tool and prop.tool != prop.family else "")
        self.update(f"step {inv.ctx.step}: route {prop.route_id} {what} (cost {prop.cost:g}); "
                    f"budget {b.spent:g}/{b.total:g} spent")


def _default_db(user_dir: Path) -> Path:
    return Path.cwd() / "runs.db"


#: evidence ids shown per value in the profile table; more are counted ("+N more") and listed by
#: `runs show` (the command is printed below the table)
EVIDENCE_SHOWN = 6

#: every metric the profile names, explained once below it
LEGEND = ("conf: confidence 0-1; sens: sensitivity 1 (low) to 5 (high); evidence: evidence node ids; "
          "units: route budget (each OCR, zoom or lookup costs some)")


def _evidence_cell(ids: list[str]) -> str:
    shown = ", ".join(ids[:EVIDENCE_SHOWN])
    return shown + (f" +{len(ids) - EVIDENCE_SHOWN} more" if len(ids) > EVIDENCE_SHOWN else "")


def _walk(chain: dict, seen: dict[str, dict]) -> list[str]:
    """Ids of the evidence under a hypothesis chain, depth first, each once (also kept in `seen`)."""
    out: list[str] = []
    for sub in chain.get("support", []):
        nid = str(sub.get("node_id"))
        if nid not in out:
            out.append(nid)
        seen.setdefault(nid, sub)
        out += [x for x in _walk(sub, seen) if x not in out]
    return out


def _clip(text: str, width: int) -> str:
    """One line of at most `width` cells; a cut is shown with an ellipsis."""
    from rich.cells import cell_len, set_cell_size

    text = " / ".join(x.strip() for x in text.splitlines() if x.strip())
    return text if cell_len(text) <= width else set_cell_size(text, width - 1).rstrip() + "…"


def print_profile(inv, *, chains: bool = True, db_path: Path | None = None) -> None:
    """The profile table (every evidence id, or the first few and "+N more" with the command that
    lists all), a legend of its metrics and, with `chains`, why each value holds: its hypothesis
    and the evidence it cites, then each cited evidence once, quoted on one line."""
    import shutil

    from core.engine.projection import for_people
    from core.schema import load_schema

    pred = inv.profile()
    schema = load_schema()
    t = Table(title=escape(f"privacy profile of {pred.user_id} (run {inv.run_id})"), header_style="bold",
              show_lines=False)
    t.add_column("attribute", style="cyan", no_wrap=True)
    t.add_column("value")
    t.add_column("conf", justify="right")
    t.add_column("sens", justify="right")
    t.add_column("evidence", style="dim")
    if chains:  # the "why" lines below list every id: a narrow terminal may leave the column out
        setattr(t, OPTIONAL, ("evidence",))
    for a in pred.attributes:
        spec = schema.get(a.attribute)
        t.add_row(a.attribute, escape(for_people(a.attribute, a.value)), f"{a.confidence or 0:.2f}", str(spec.default_sensitivity if spec else ""),
                  escape(_evidence_cell(a.evidence)))
    if chains and not console.is_terminal:  # the demo is read, in a pipe too: one wrapped paragraph per value
        console.say(f"[bold]privacy profile of {escape(pred.user_id)}[/] (run {escape(inv.run_id)}):")
        for a in pred.attributes:
            spec = schema.get(a.attribute)
            console.say(f"[cyan]{escape(a.attribute)}[/] = {escape(for_people(a.attribute, a.value))} (conf {a.confidence or 0:.2f}, "
                        f"sens {spec.default_sensitivity if spec else '-'})")
    else:
        console.print(t)
    show_all = f"{argus_command()} runs show --db {db_path or 'RUNS.db'} {inv.run_id}"
    cut = sum(len(a.evidence) > EVIDENCE_SHOWN for a in pred.attributes)
    if cut and not chains:
        console.say(f"{cut} value(s) rest on more than {EVIDENCE_SHOWN} evidence nodes; all of them:", markup=False)
        console.print(Text(f"  {show_all}"), soft_wrap=True)  # a command stays on one line, runnable as printed
    console.say(LEGEND, markup=False)
    if chains:
        seen: dict[str, dict] = {}
        console.say("[bold]why[/] (each value ⇐ its hypothesis ⇐ the evidence it cites):")
        for a in pred.attributes:
            for ch in inv.chain(a.attribute):
                ids = _walk(ch, seen)
                console.say(f"[cyan]{escape(a.attribute)}[/] ⇐ {escape(str(ch.get('node_id')))}: "
                            f"{escape(str(ch.get('content') or ''))} ⇐ [bold]{escape(', '.join(ids))}[/]")
        width = console.width if console.is_terminal else shutil.get_terminal_size((80, 24)).columns
        console.say("[bold]evidence[/] (each once, on one line; the whole texts:")
        console.print(Text(f"  {show_all})"), soft_wrap=True)
        for nid, node in seen.items():
            head = f"{nid} {node.get('carrier') or node.get('kind') or ''}"
            if node.get("post_id"):
                head += f" ({node['post_id']})"
            subs = [str(x.get("node_id")) for x in node.get("support", [])]
            if subs:
                head += f" ⇐ {', '.join(subs)}"
            content = str(node.get("content") or "")
            line = _clip(f"{head}: {content}", max(40, width)) if content else head
            console.print(Text(line), soft_wrap=True)
    b = inv.budget
    console.print(f"route budget: spent {b.spent:g} of {b.total:g} units")


def _parse_sets(items: list[str]) -> dict:
    from core.engine.context import parse_set

    try:
        return parse_set(items)      # validated by the typed engine config: an unknown key is named
    except InputError as e:
        fail(e.message)


def _unfinished_run(db_path: Path, user_dir: Path, backend: str, cfg: dict) -> str | None:
    from core.engine.batch import run_key
    from db.store import open_db

    db = open_db(db_path)
    try:
        rows = db.execute("SELECT run_id, system, backend, config FROM runs WHERE user_dir=? AND status='running'"
                          " ORDER BY created_at DESC", [str(user_dir.resolve())]).fetchall()
    finally:
        db.conn.close()
    want = run_key("argus", backend, cfg)
    for run_id, system, be, c in rows:
        if run_key(system, be, json.loads(c or "{}")) == want:
            return run_id
    return None


@app.command("investigate")
def investigate_cmd(
    user_dir: Path = typer.Argument(..., help="one sopri/1 user folder (profile.json, posts.jsonl, images/)"),
    db_path: Path = typer.Option(None, "--db", help="run database (default ./runs.db)"),
    backend: str = typer.Option("offline", "--backend", help="offline (rules, default) or a registered model backend"),
    budget: float = typer.Option(20.0, "--budget", help="route budget in cost units"),
    out: Path | None = typer.Option(None, "--out", help="write the profile (predictions format) here"),
    resume: str | None = typer.Option(None, "--resume", help="continue this run id instead of starting a new one"),
    ablate: list[str] = typer.Option([], "--ablate", help="turn off a stage: perceiver|hypothesizer|investigator|verifier|cpeg"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="no profile table and no progress line"),
    config: Path | None = typer.Option(None, "--config", help="model-backend TOML (default ./argus.toml); see docs/backends.md"),
    replay: Path | None = typer.Option(None, "--replay", help="with --backend replay: the recorded runs.db to replay"),
    model_cache: Path | None = typer.Option(None, "--model-cache", help="extra content-addressed model cache (SQLite)"),
    new: bool = typer.Option(False, "--new", help="always start a new run (default: resume an unfinished run of this user)"),
    set_: list[str] = typer.Option([], "--set", help="engine config KEY=VALUE (JSON value), e.g. ocr_in_perception=false"),
) -> None:
    """One headless investigation of one user; prints the profile and writes it with --out.

    An unfinished run of the same user folder (same backend and stages) in --db is resumed
    from its last committed step unless --new is given."""
    from core.engine.batch import ablation_config
    from core.engine.loop import Investigation

    if budget < 0:
        fail(f"--budget: must be >= 0 (got {budget})")
    check_user_dir(user_dir)
    if out is not None and (out.is_dir() or any(p.exists() and not p.is_dir() for p in out.absolute().parents)):
        fail(f"--out: {out} is a folder or under a file; give the profile's file path (e.g. profile.json)")
    db_path = db_path or _default_db(user_dir)
    db_existed = db_path.exists()
    try:
        cfg = ablation_config(ablate)
        cfg.update(_parse_sets(set_))
        if config or replay or model_cache:  # model-backend options (backends engineer)
            from core.backends.openai_backend import backend_options

            if config and not config.is_file():
                fail(f"{config}: config file not found")
            cfg.update(backend_options(config=config, cache=model_cache, replay=replay))
        require_models(backend, config)
        t0 = time.perf_counter()
        if not resume and not new and db_existed:
            resume = _unfinished_run(db_path, user_dir, backend, cfg)
            if resume:
                console.print(f"resuming unfinished run {escape(resume)} (use --new for a fresh run)")
        with _InvestigateProgress(enabled=show_progress(quiet)) as progress:
            progress.update("reading and perceiving the posts")
            if resume:
                inv = Investigation.resume(db_path, resume)
            else:
                inv = Investigation.start(db_path, user_dir, budget=budget, backend=backend, config=cfg)
            while not inv.finished:
                b = inv.budget
                progress.update(f"step {inv.ctx.step}: choosing the next route; budget {b.spent:g}/{b.total:g} spent")
                prop = inv.next_proposal()
                if prop is None:
                    break
                progress.route(inv, prop)
                inv.run(max_steps=1)
    except (InputError, sqlite3.Error, OSError) as e:
        from db.errors import describe, is_db_fault

        if not isinstance(e, InputError) and not is_db_fault(e):
            raise
        if not db_existed:  # a run that never started leaves no empty DB behind
            _remove_db(db_path)
        fail(e.message if isinstance(e, InputError) else describe(e, db_path).message)
    pred = inv.profile()
    pred.system = "argus-offline" if backend == "offline" else f"argus-{backend}"
    if out:
        write_private(out, json_escape(pred.model_dump_json(indent=1, exclude_none=True)))
    if not quiet:
        print_profile(inv, chains=False, db_path=db_path)
    errs = [e for e in inv.events() if isinstance(e, ErrorEvent)]
    for e in errs[:10]:
        console.print(f"[yellow]recorded error:[/] {escape(str(e.where))}: {escape(e.reason)}")
    console.print(f"run {escape(inv.run_id)} finished in {time.perf_counter() - t0:.1f}s; DB: {escape(str(db_path))}"
                  + (f"; profile: {escape(str(out))}" if out else ""))
    inv.close()


@bench_app.command("run")
def bench_run_cmd(
    bench_dir: Path = typer.Argument(..., help="a sopri/1 benchmark folder"),
    out: Path = typer.Option(..., "--out", help="OUT_DIR: predictions/<user_id>.json and runs.db go here"),
    system: str = typer.Option("argus", "--system", help="argus, or a baseline: textllm|postvlm|singleagent|selfdisc|holmes"),
    ablate: list[str] = typer.Option([], "--ablate", help="turn off a stage: perceiver|hypothesizer|investigator|verifier|cpeg"),
    workers: int = typer.Option(1, "--workers", help="users investigated in parallel (processes)"),
    backend: str = typer.Option("offline", "--backend", help="offline (default) or a registered model backend"),
    budget: float = typer.Option(20.0, "--budget", help="route budget per user"),
    executor: str = typer.Option("local", "--executor", help="local (process pool) or ray (RAY_ADDRESS or a local Ray)"),
    cache_from: Path | None = typer.Option(None, "--cache-from", help="seed the run DB with this runs.db's tool cache"),
    config: Path | None = typer.Option(None, "--config", help="model-backend TOML (default ./argus.toml); see docs/backends.md"),
    limit: int | None = typer.Option(None, "--limit", help="only the first N users of the manifest"),
    allow_duplicate_ids: bool = typer.Option(False, "--allow-duplicate-ids",
                                             help="run folders whose profile.json claim one user_id, each under its folder name"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="no progress bar"),
) -> None:
    """Investigate every user of a benchmark; failed users are reported and skipped (exit 1 when any
    failed); re-running resumes."""
    from argus_tui.commands.batch import run_batch_cli  # batch runner, progress bar (batch area)

    if workers < 1:
        fail(f"--workers: must be >= 1 (got {workers})")
    if bench_dir.is_file():
        fail(f"{bench_dir}: is a file; expected a sopri/1 benchmark folder (manifest.json, users/)")
    cfg: dict = {}
    if config:
        if not config.is_file():
            fail(f"{config}: config file not found")
        from core.backends.openai_backend import backend_options

        cfg.update(backend_options(config=config))
    require_models(backend, config)
    try:
        summary = run_batch_cli(bench_dir, out, system=system, ablate=ablate, workers=workers, backend=backend,
                                budget=budget, executor=executor, cache_from=cache_from, config=cfg, limit=limit,
                                quiet=quiet, allow_duplicate_ids=allow_duplicate_ids)
    except InputError as e:
        fail(e.message)
    results = summary.results  # also streamed to OUT_DIR/results.jsonl as users finish
    write_private(out / "bench_run.json", json.dumps([r.model_dump() for r in results], indent=1))
    if summary.failed:
        raise typer.Exit(1)


def _demo_dir() -> Path:
    """One demo folder per user, reused (so `runs list /tmp/argus-demo-*/runs.db` names one DB however
    often the demo ran); private (0700), and refused when it is a link or someone else's."""
    import os
    import pwd

    try:
        who = pwd.getpwuid(os.getuid()).pw_name     # as `whoami` says (README: /tmp/argus-demo-$(whoami))
    except KeyError:
        who = str(os.getuid())
    d = Path(tempfile.gettempdir()) / f"argus-demo-{who}"
    if d.is_symlink() or (d.exists() and (not d.is_dir() or d.stat().st_uid != os.getuid())):
        fail(f"{d}: not a folder of yours; pass --dir DIR for the demo")
    d.mkdir(mode=0o700, exist_ok=True)
    return d


@app.command("demo")
def demo_cmd(
    out_dir: Path | None = typer.Option(None, "--dir", help="where to write the demo account and runs.db "
                                        "(default: TMP/argus-demo-USER, reused: each demo adds a run to its runs.db)"),
) -> None:
    """Make a small synthetic account, investigate it offline, print the profile with evidence chains."""
    from core.engine.demo import write_demo_account
    from core.engine.loop import Investigation

    root = out_dir or _demo_dir()
    udir = write_demo_account(root)
    console.print(f"demo account (9 posts, 4 images, EN + ZH): {escape(str(udir))}", soft_wrap=True)
    t0 = time.perf_counter()
    db_path = root / "runs.db"
    inv = Investigation.start(db_path, udir)
    inv.run()
    print_profile(inv, chains=True, db_path=db_path)
    cmd = escape(argus_command())
    console.print(f"investigated in {time.perf_counter() - t0:.1f}s offline; run {escape(inv.run_id)}")
    console.print(f"run DB: [bold]{escape(str(db_path))}[/]", soft_wrap=True)
    console.print(f"browse: {cmd} tui {escape(str(db_path))}", soft_wrap=True, highlight=False)
    console.print(f"print:  {cmd} runs show --db {escape(str(db_path))} {escape(inv.run_id)}", soft_wrap=True,
                  highlight=False)
    inv.close()
