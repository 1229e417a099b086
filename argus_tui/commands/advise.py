"""Commands: `argus advise USER_DIR` (rank edits that reduce exposure, optionally apply them to
a copy and re-investigate) and `argus runs export RUNS.db RUN_ID [--redact]`."""
from __future__ import annotations

from pathlib import Path

import typer
from core.textsafe import escape, json_text
from rich.table import Table

from argus_tui.cli_base import app, console, fail, runs_app
from core.errors import InputError
from db.store import write_private


def plan_table(plan) -> Table:
    t = Table(title=escape(f"edits for {plan.user_id} (run {plan.run_id}): exposure {plan.exposure_before:g}"
                           f" -> {plan.exposure_after:g} predicted ({plan.predicted_reduction:.0%} less)"),
              header_style="bold")
    t.add_column("#", justify="right")
    t.add_column("edit", overflow="fold")
    t.add_column("exposure after", justify="right")
    t.add_column("attributes removed", overflow="fold", style="cyan")
    for i, s in enumerate(plan.steps, 1):
        t.add_row(str(i), escape(s.description), f"{s.exposure_after:g}", escape(", ".join(s.removed) or "-"))
    return t


def exposure_table(plan) -> Table:
    t = Table(title="exposure per attribute (this run)", header_style="bold")
    for c in ("attribute", "sens", "gran", "weight", "predicted after", "evidence (post: carrier)"):
        t.add_column(c, overflow="fold")
    for a in plan.attributes:
        where = ", ".join(f"{e['post_id']}: {e['carrier']}" for e in a.evidence[:4])
        t.add_row(a.attribute, str(a.sensitivity), f"{a.granularity:.2f}", f"{a.weight:g}",
                  f"{plan.predicted_remaining.get(a.attribute, 0.0):g}", escape(where))
    return t


def verification_table(v) -> Table:
    t = Table(title=escape(f"re-investigation of the edited copy (run {v.run_id}): exposure {v.exposure_before:g}"
                           f" -> {v.observed_after:g} observed ({v.observed_reduction:.0%} less; predicted "
                           f"{v.predicted_reduction:.0%})"), header_style="bold")
    for c in ("attribute", "before", "predicted", "observed", "still inferable from", "agrees"):
        t.add_column(c, overflow="fold")
    for a in v.attributes:
        src = "; ".join(f"{e['post_id']} {e['carrier']}: {e['quote'][:40]}" for e in a.still_from[:3])
        t.add_row(a.attribute, f"{a.before:g}", f"{a.predicted_after:g}", f"{a.observed_after:g}",
                  escape(src.replace("\n", " ")), "yes" if a.agrees else "[red]no[/]")
    return t


@app.command("advise")
def advise_cmd(
    user_dir: Path = typer.Argument(..., metavar="USER_DIR", help="a sopri/1 user folder"),
    db_path: Path = typer.Option(None, "--db", metavar="RUNS.db",
                                 help="run database to read the run from and keep new runs in (default: a temporary one, removed at the end)"),
    target: float | None = typer.Option(None, "--target",
                                        help="exposure reduction to reach (0-1); default 0.5 after every"
                                             " sensitivity-5 leak (IDs, numbers, health) is covered"),
    max_edits: int = typer.Option(5, "--max-edits", help="at most this many edits"),
    out: Path = typer.Option(None, "--out", metavar="PLAN.json", help="write the plan (and verification) as JSON"),
    apply_to: Path = typer.Option(None, "--apply", metavar="OUT_DIR",
                                  help="apply the plan to a copy in OUT_DIR and re-investigate it"),
    run_id: str = typer.Option(None, "--run", help="advise on this run (default: the newest finished one)"),
) -> None:
    """Which edits (delete, blur, crop, strip EXIF, cut a phrase, hide the IP region) remove the most exposure.

    Without --db the account is investigated in a temporary run DB that is removed at the end:
    nothing is written where you did not ask (--apply OUT_DIR and --out F are written)."""
    import tempfile

    from argus_tui.commands.engine import check_user_dir

    check_user_dir(user_dir)
    if db_path is None:
        with tempfile.TemporaryDirectory(prefix="argus-advise-") as tmp:
            _advise(user_dir, Path(tmp) / "runs.db", target, max_edits, out, apply_to, run_id)
        console.say("(investigated in a temporary run DB, now removed; --db RUNS.db keeps the runs)", markup=False)
    else:
        _advise(user_dir, db_path, target, max_edits, out, apply_to, run_id)


def _advise(user_dir: Path, db_path: Path, target: float, max_edits: int, out: Path | None, apply_to: Path | None,
            run_id: str | None) -> None:
    from core.advise.advisor import advise, verify_plan
    from db.store import close_all

    try:
        plan = advise(user_dir, db_path, target=target, max_edits=max_edits, run_id=run_id)
        console.print(exposure_table(plan))
        console.print(plan_table(plan))
        doc = {"plan": plan.model_dump(mode="json")}
        if apply_to is not None:
            v = verify_plan(user_dir, plan, apply_to, db_path)
            console.print(verification_table(v))
            console.print(f"edited copy: {escape(v.edited_dir)}")
            doc["verification"] = v.model_dump(mode="json")
    except InputError as e:
        fail(e.message)
    finally:
        close_all()   # the DB closed (WAL checkpointed) before a temporary folder is removed
    console.say(LEGEND, markup=False)
    if out is not None:
        write_private(out, json_text(doc, indent=1))
        console.print(f"plan written to {escape(str(out))}")


#: every metric the advice tables name, explained once
LEGEND = ("sens: sensitivity 1 (low) to 5 (high); gran: how fine the value is, 0-1; weight: sens x gran; "
          "exposure: the sum of the weights (docs/advise.md)")


@runs_app.command("export")
def export_cmd(
    args: list[str] = typer.Argument(None, metavar="RUNS.db [RUN_ID]",
                                     help="a run database (or --db RUNS.db); run id or a unique prefix (default: the latest run)"),
    db_opt: Path | None = typer.Option(None, "--db", metavar="RUNS.db", help="the run database"),
    redact: bool = typer.Option(False, "--redact", help="mask values and quotes; keep attributes and locations"),
    out: Path = typer.Option(None, "--out", metavar="F.json", help="write to a file instead of stdout"),
) -> None:
    """A run's profile with its evidence locations as JSON (--redact: values masked); RUN_ID
    defaults to the latest run of the DB."""
    from argus_tui.commands.runs import db_and_run, resolve_run
    from core.advise.export import export_run
    from db import queries

    db_path, run_id = db_and_run(args, db_opt)
    try:
        db = queries.open_runs_readonly(db_path)
        run = resolve_run(db, db_path, run_id)
        doc = export_run(db, run["run_id"], redact=redact)
    except InputError as e:
        fail(e.message)
    text = json_text(doc, indent=1)
    if out is None:
        print(text)
    else:
        write_private(out, text + "\n")
        console.print(f"wrote {escape(str(out))}")
