"""Comparing systems run on one benchmark: PES, Binary, Gran, cross-post PES, precision of the
checkable claims, false claims,
cost per user (route units, model calls, tokens, seconds) and paired ΔPES intervals against
a reference system, all users resampled together (core/eval/metrics).

An input is a `bench run` OUT_DIR (predictions/ + runs.db + batch.json) or a bare folder of
predictions (no cost columns then). A folder holding several OUT_DIRs (each with batch.json)
stands for all of them.
"""
from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from core.errors import InputError
from core.eval.metrics import Evaluation, evaluate, load_truths, paired_delta_ci, resample_indices

CROSS_POST = "cross_post"


class Cost(BaseModel):
    runs: int = 0
    route_units: float | None = None       # per user
    model_calls: float | None = None       # per user
    tokens: float | None = None            # per user (prompt + completion)
    seconds: float | None = None           # per user (run start to finish, wall clock)


class SystemRow(BaseModel):
    label: str
    path: str
    system: str | None = None
    backend: str | None = None
    pes: float | None
    pes_ci95: tuple[float, float] | None
    binary: float | None
    gran: float | None
    cross_post_pes: float | None
    false_claims: int
    claims: int
    precision: float | None = None          # right / checkable claims (core.eval.metrics.precision_of)
    checkable: int = 0
    wrong_value: int = 0
    contradicting: int = 0
    missing: int
    cost: Cost
    delta_pes: float | None = None
    delta_ci95: tuple[float, float] | None = None
    by_difficulty: dict[str, float | None] = {}
    by_dimension: dict[str, float | None] = {}


class ComparisonTable(BaseModel):
    bench_dir: str
    reference: str
    judge: str
    seed: int
    resamples: int
    n_users: int
    rows: list[SystemRow]


def expand_inputs(paths: list[Path]) -> list[Path]:
    """OUT_DIRs as given; a folder that is not itself a run output but holds some is expanded."""
    out: list[Path] = []
    for p in paths:
        p = Path(p)
        if not p.is_dir():
            raise InputError(p, "not a folder (expected a `bench run` OUT_DIR or a predictions folder)")
        if (p / "batch.json").is_file() or (p / "predictions").is_dir():
            out.append(p)
            continue
        subs = sorted(d for d in p.iterdir() if d.is_dir() and (d / "batch.json").is_file())
        if subs:
            out.extend(subs)
        elif any(p.glob("*.json")):
            out.append(p)               # a bare folder of <user_id>.json predictions
        else:
            raise InputError(p, "holds no predictions and no `bench run` outputs")
    return out


def batch_meta(out_dir: Path) -> dict[str, Any]:
    f = Path(out_dir) / "batch.json"
    if not f.is_file():
        return {}
    try:
        doc = json.loads(f.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise InputError(f, f"not readable JSON ({e})") from e
    return doc if isinstance(doc, dict) else {}


def label_of(out_dir: Path) -> str:
    meta = batch_meta(out_dir)
    return str(meta.get("key") or Path(out_dir).name)


def infer_bench(out_dirs: list[Path]) -> Path:
    """The benchmark the runs were made on (batch.json, else the run DB's user folders)."""
    for d in out_dirs:
        b = batch_meta(d).get("bench_dir")
        if b and Path(b).is_dir():
            return Path(b)
    for d in out_dirs:
        db_path = Path(d) / "runs.db"
        if db_path.is_file():
            from db.queries import open_runs_readonly

            db = open_runs_readonly(db_path)
            row = db.execute("SELECT user_dir FROM runs WHERE user_dir IS NOT NULL LIMIT 1").fetchone()
            db.conn.close()
            if row and (Path(row[0]).parent.parent / "manifest.json").is_file():
                return Path(row[0]).parent.parent
    raise InputError("--bench", "cannot tell which benchmark these runs used; pass --bench BENCH_DIR")


def _ts(s: str | None) -> datetime | None:
    try:
        return datetime.fromisoformat(s) if s else None
    except ValueError:
        return None


def latest_runs(out_dir: Path, user_ids: list[str]) -> dict[str, tuple]:
    """user_id -> (run_id, user_id, system, backend, config, spent, created_at, finished_at) of the
    newest finished run of the batch's key (every finished run when there is no batch.json)."""
    db_path = Path(out_dir) / "runs.db"
    if not db_path.is_file():
        return {}
    from core.engine.batch import run_key
    from db.queries import open_runs_readonly

    key = batch_meta(out_dir).get("key")
    db = open_runs_readonly(db_path)
    try:
        rows = db.execute("SELECT run_id, user_id, system, backend, config, spent, created_at, finished_at FROM runs"
                          " WHERE status='finished' ORDER BY created_at").fetchall()
    finally:
        db.conn.close()
    wanted = set(user_ids)
    latest: dict[str, tuple] = {}
    for r in rows:
        if r[1] not in wanted:
            continue
        if key and run_key(r[2], r[3], json.loads(r[4] or "{}")) != key:
            continue
        latest[r[1]] = r
    return latest


def run_cost(out_dir: Path, user_ids: list[str]) -> Cost:
    """Cost per user from OUT_DIR/runs.db (the runs latest_runs picks)."""
    latest = latest_runs(out_dir, user_ids)
    if not latest:
        return Cost()
    from db.queries import open_runs_readonly

    db = open_runs_readonly(Path(out_dir) / "runs.db")
    try:
        ids = [r[0] for r in latest.values()]
        calls = tokens = 0
        for i in range(0, len(ids), 500):
            chunk = ids[i:i + 500]
            q = ",".join("?" * len(chunk))
            c, t = db.execute(
                f"SELECT COUNT(*), COALESCE(SUM(COALESCE(prompt_tokens,0)+COALESCE(completion_tokens,0)),0)"
                f" FROM model_calls WHERE run_id IN ({q})", chunk).fetchone()
            calls, tokens = calls + c, tokens + t
    finally:
        db.conn.close()
    secs = [(_ts(r[7]) - _ts(r[6])).total_seconds() for r in latest.values() if _ts(r[6]) and _ts(r[7])]
    n = len(latest)
    return Cost(runs=n, route_units=round(sum(r[5] or 0 for r in latest.values()) / n, 3),
                model_calls=round(calls / n, 3), tokens=round(tokens / n, 1),
                seconds=round(sum(secs) / len(secs), 3) if secs else None)


def compare_runs(out_dirs: list[Path], *, bench_dir: Path | None = None, reference: str | int = 0,
                 judge_name: str = "rules", seed: int = 0, resamples: int = 1000,
                 keep: dict[str, Evaluation] | None = None) -> ComparisonTable:
    """Evaluate every input on the same users and resamples; ΔPES = PES(row) - PES(reference).
    `keep`, when given, receives each row's Evaluation (the HTML report drills into them)."""
    from core.eval.judge import get_judge

    dirs = expand_inputs(out_dirs)
    if not dirs:
        raise InputError("OUT_DIR", "nothing to compare")
    bench = Path(bench_dir) if bench_dir else infer_bench(dirs)
    try:
        judge = get_judge(judge_name)
    except KeyError:
        raise InputError("--judge", f"unknown judge {judge_name!r}") from None
    truths = load_truths(bench)
    draws = resample_indices(len(truths), resamples, seed) if truths else []
    labels: list[str] = []
    for d in dirs:
        lab = label_of(d)
        labels.append(lab if lab not in labels else f"{lab} ({d.name})")
    evals = [evaluate(bench, d, judge, seed=seed, truths=truths, draws=draws) for d in dirs]
    if isinstance(reference, int) or str(reference).isdigit():
        ref_i = int(reference)
        if not 0 <= ref_i < len(dirs):
            raise InputError("--reference", f"index {ref_i} out of range (0..{len(dirs) - 1})")
    else:
        matches = [i for i, (lab, d) in enumerate(zip(labels, dirs))
                   if reference in (lab, d.name, str(d)) or lab.split("/")[0] == reference]
        if not matches:
            raise InputError("--reference", f"{reference!r} is none of: {', '.join(labels)}")
        ref_i = matches[0]
    ref = evals[ref_i]
    uids = [t.user_id for t in truths]
    rows = []
    for lab, d, ev in zip(labels, dirs, evals):
        meta = batch_meta(d)
        cross = ev.by_leakage_type.get(CROSS_POST)
        delta = (ev.overall.pes - ref.overall.pes
                 if ev.overall.pes is not None and ref.overall.pes is not None else None)
        rows.append(SystemRow(
            label=lab, path=str(d), system=meta.get("system"), backend=meta.get("backend"),
            pes=ev.overall.pes, pes_ci95=ev.pes_ci95, binary=ev.overall.binary, gran=ev.overall.gran,
            cross_post_pes=cross.pes if cross else None, false_claims=ev.false_claims, claims=ev.total_claims,
            precision=ev.precision.precision, checkable=ev.precision.checkable,
            wrong_value=ev.precision.wrong_value, contradicting=ev.precision.contradicting,
            missing=len(ev.missing), cost=run_cost(d, uids), delta_pes=delta,
            delta_ci95=None if ev is ref or not draws else paired_delta_ci(ev.users, ref.users, draws),
            by_difficulty={k: v.pes for k, v in ev.by_difficulty.items()},
            by_dimension={k: v.pes for k, v in ev.by_dimension.items()},
        ))
        if keep is not None:
            keep[lab] = ev
    return ComparisonTable(bench_dir=str(bench), reference=labels[ref_i], judge=judge.name, seed=seed,
                           resamples=len(draws), n_users=len(truths), rows=rows)


# ---- rendering (terminal + markdown) ----

COLUMNS = ("system", "PES", "95% CI", "Binary", "Gran", "cross-post PES", "precision", "wrong / contra / checkable",
           "false claims", "route units/user",
           "model calls/user", "tokens/user", "s/user", "ΔPES vs ref", "ΔPES 95% CI")


def _f(x: float | None, nd: int = 3) -> str:
    return "-" if x is None else f"{x:.{nd}f}"


def row_cells(r: SystemRow, reference: str) -> list[str]:
    ci = f"[{r.pes_ci95[0]:.3f}, {r.pes_ci95[1]:.3f}]" if r.pes_ci95 else "-"
    is_ref = r.label == reference
    dci = "(reference)" if is_ref else (f"[{r.delta_ci95[0]:+.3f}, {r.delta_ci95[1]:+.3f}]" if r.delta_ci95 else "-")
    return [r.label, _f(r.pes), ci, _f(r.binary), _f(r.gran), _f(r.cross_post_pes), _f(r.precision),
            f"{r.wrong_value} / {r.contradicting} / {r.checkable}", f"{r.false_claims}/{r.claims}",
            _f(r.cost.route_units, 2), _f(r.cost.model_calls, 1), _f(r.cost.tokens, 0), _f(r.cost.seconds, 2),
            "—" if is_ref else ("-" if r.delta_pes is None else f"{r.delta_pes:+.3f}"), dci]


def rich_table(t: ComparisonTable):
    from rich.table import Table
    from rich.text import Text

    tab = Table(title=f"Systems on {t.bench_dir} ({t.n_users} users; judge {t.judge}; "
                      f"ΔPES vs {t.reference}, {t.resamples} paired user resamples, seed {t.seed})",
                title_justify="left")
    for c in COLUMNS:
        tab.add_column(c, justify="left" if c == "system" else "right")
    for r in t.rows:
        tab.add_row(*[Text(c) for c in row_cells(r, t.reference)])
    return tab


def markdown_table(t: ComparisonTable) -> str:
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "|".join("---" for _ in COLUMNS) + "|"]
    for r in t.rows:
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in row_cells(r, t.reference)) + " |")
    return "\n".join(lines) + "\n"
