"""Reports of an evaluation: rich tables, the metrics JSON, and the per-attribute audit file."""
from __future__ import annotations

import csv
import json
from pathlib import Path

from rich.console import Console, Group
from core.textsafe import escape, json_text, printable  # the output boundary
from rich.table import Table
from rich.text import Text

from core.eval.metrics import Comparison, Evaluation, Precision, Summary, UserResult, precision_of, summarize

METRICS_FORMAT = "argus-eval/1"
AUDIT_FIELDS = ["user", "attribute", "role", "truth", "prediction", "g", "s", "difficulty", "dimension",
                "leakage_type", "reason"]


def _r(x: float | None, nd: int = 4) -> float | None:
    return None if x is None else round(x, nd)


def _ci(ci: tuple[float, float] | None) -> list[float] | None:
    return None if ci is None else [round(ci[0], 4), round(ci[1], 4)]


def _summary_json(s: Summary) -> dict:
    return {"pes": _r(s.pes), "binary": _r(s.binary), "gran": _r(s.gran), "n": s.n, "sum_s": s.sum_s}


def precision_json(p: Precision) -> dict:
    return {"precision": _r(p.precision), "checkable": p.checkable, "right": p.right,
            "wrong_value": p.wrong_value, "contradicting": p.contradicting}


def _user_json(u: UserResult) -> dict:
    s = summarize(u.leaked)
    p = precision_of([*u.leaked, *u.claims])
    return {
        "user_id": u.user_id, "status": u.status, "pes": _r(s.pes), "binary": _r(s.binary),
        "gran": _r(s.gran), "n_leaked": s.n, "sum_s": s.sum_s, "claims": u.total_claims,
        "false_claims": u.false_claims, "hidden_hits": u.hidden_hits,
        "precision": _r(p.precision), "checkable_claims": precision_json(p),
        "ignored_duplicates": u.ignored_duplicates, "unrecognised_attributes": u.unrecognised,
        "worst_misses": [{"attribute": r.attribute, "g": _r(r.g), "s": r.s, "truth": r.truth,
                          "prediction": r.prediction} for r in u.worst_misses()],
    }


def metrics_json(ev: Evaluation) -> dict:
    """The `--json` document. The keys required by cli.md (pes, binary, gran, by_difficulty,
    by_dimension, by_leakage_type, false_claims, pes_ci95) hold plain numbers; `breakdown`
    has the full statistics of every group."""
    groups = {"difficulty": ev.by_difficulty, "dimension": ev.by_dimension, "leakage_type": ev.by_leakage_type}
    return {
        "format": METRICS_FORMAT,
        "benchmark": ev.bench_dir,
        "predictions": ev.pred_dir,
        "judge": ev.judge,
        "gazetteer": ev.gazetteer,
        "pes": _r(ev.overall.pes),
        "binary": _r(ev.overall.binary),
        "gran": _r(ev.overall.gran),
        "pes_ci95": _ci(ev.pes_ci95),
        "by_difficulty": {k: _r(v.pes) for k, v in ev.by_difficulty.items()},
        "by_dimension": {k: _r(v.pes) for k, v in ev.by_dimension.items()},
        "by_leakage_type": {k: _r(v.pes) for k, v in ev.by_leakage_type.items()},
        "false_claims": ev.false_claims,
        "total_claims": ev.total_claims,
        "precision": _r(ev.precision.precision),
        "checkable_claims": precision_json(ev.precision),
        "precision_by_attribute": {a: precision_json(p) for a, p in ev.precision_by_attribute.items()},
        "hidden_hits": sum(u.hidden_hits for u in ev.users),
        "unverifiable_claims": sum(1 for u in ev.users for c in u.claims if c.role == "unverifiable"),
        "n_users": len(ev.users),
        "n_leaked": ev.overall.n,
        "sum_s": ev.overall.sum_s,
        "missing_predictions": ev.missing,
        "n_missing": len(ev.missing),
        "bootstrap": {"resamples": ev.resamples, "seed": ev.seed, "unit": "user", "interval": "percentile 2.5-97.5"},
        "breakdown": {g: {k: _summary_json(v) for k, v in d.items()} for g, d in groups.items()},
        "per_user": [_user_json(u) for u in ev.users],
    }


def comparison_json(c: Comparison) -> dict:
    out = metrics_json(c.base)
    out["compare"] = {
        "predictions": c.other.pred_dir,
        "pes": _r(c.other.overall.pes),
        "binary": _r(c.other.overall.binary),
        "gran": _r(c.other.overall.gran),
        "pes_ci95": _ci(c.other.pes_ci95),
        "false_claims": c.other.false_claims,
        "precision": _r(c.other.precision.precision),
        "checkable_claims": precision_json(c.other.precision),
        "missing_predictions": c.other.missing,
        "delta_pes": _r(c.delta_pes),
        "delta_pes_ci95": _ci(c.delta_ci95),
        "delta": "PES(predictions) - PES(compare.predictions), paired over the same user resamples",
    }
    return out


def write_json(doc: dict, path: Path) -> None:
    from db.store import write_private   # scores and claims are inferred data: 0600

    write_private(path, json.dumps(doc, ensure_ascii=False, indent=2))


def audit_rows(ev: Evaluation) -> list[dict]:
    """Every leaked attribute (role=leaked: these alone make PES) and every other claim."""
    rows = []
    for u in ev.users:
        for r in [*u.leaked, *u.claims]:
            rows.append(r.model_dump())
    return rows


def write_audit(ev: Evaluation, path: Path) -> None:
    """`.csv` -> CSV with a header; anything else -> JSON Lines."""
    from db.store import write_private

    path = Path(path)
    rows = audit_rows(ev)
    write_private(path, "")           # created (or tightened) 0600: the rows hold predicted values
    if path.suffix.lower() == ".csv":
        with path.open("w", encoding="utf-8", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=AUDIT_FIELDS)
            w.writeheader()
            for row in rows:
                # a CSV is read in a terminal or a spreadsheet: cells pass the output boundary
                w.writerow({k: ("" if row[k] is None else printable(row[k]) if isinstance(row[k], str) else row[k])
                            for k in AUDIT_FIELDS})
    else:
        with path.open("w", encoding="utf-8") as fh:
            for row in rows:
                fh.write(json_text(row) + "\n")


# -- terminal ----------------------------------------------------------------------------------


def _f(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def _group_table(title: str, groups: dict[str, Summary]) -> Table:
    t = Table(title=title, title_justify="left")
    for col in ("group", "PES", "Binary", "Gran", "n", "Σs"):
        t.add_column(col, justify="left" if col == "group" else "right")
    for k, s in groups.items():
        t.add_row(Text(k), _f(s.pes), _f(s.binary), _f(s.gran), str(s.n), str(s.sum_s))
    return t


def overall_table(ev: Evaluation) -> Table:
    t = Table(title=f"PES — {escape(ev.pred_dir)}", title_justify="left", show_header=False)
    t.add_column("metric")
    t.add_column("value", justify="right")
    ci = f"[{ev.pes_ci95[0]:.3f}, {ev.pes_ci95[1]:.3f}]" if ev.pes_ci95 else "-"
    t.add_row("PES", _f(ev.overall.pes))
    t.add_row(f"PES 95% CI ({ev.resamples} user resamples, seed {ev.seed})", ci)
    t.add_row("Binary", _f(ev.overall.binary))
    t.add_row("Gran", _f(ev.overall.gran))
    t.add_row("users / leaked attributes", f"{len(ev.users)} / {ev.overall.n}")
    t.add_row("claims / false claims", f"{ev.total_claims} / {ev.false_claims}")
    p = ev.precision
    t.add_row("checkable claims: right / wrong value / contradicting",
              f"{p.checkable}: {p.right} / {p.wrong_value} / {p.contradicting}")
    t.add_row("precision (right / checkable)", _f(p.precision))
    t.add_row("missing prediction files", Text(str(len(ev.missing)) + (f" ({', '.join(ev.missing[:8])}"
              + (", …" if len(ev.missing) > 8 else "") + ")" if ev.missing else "")))
    t.add_row("judge / gazetteer", f"{ev.judge} / {ev.gazetteer}")
    return t


def precision_table(ev: Evaluation) -> Table:
    t = Table(title="Precision by attribute (checkable claims; right = g > 0)", title_justify="left")
    for col in ("attribute", "precision", "checkable", "right", "wrong value", "contradicting"):
        t.add_column(col, justify="left" if col == "attribute" else "right")
    for a, p in ev.precision_by_attribute.items():
        t.add_row(Text(a), _f(p.precision), str(p.checkable), str(p.right), str(p.wrong_value), str(p.contradicting))
    return t


def users_table(ev: Evaluation, limit: int | None = None) -> Table:
    t = Table(title="Per user (worst misses: most sensitivity-weighted score lost)", title_justify="left")
    for col in ("user", "PES", "Binary", "leaked", "claims", "false", "prec", "worst misses"):
        t.add_column(col, justify="left" if col in ("user", "worst misses") else "right")
    users = ev.users if limit is None else ev.users[:limit]
    for u in users:
        s = summarize(u.leaked)
        misses = ", ".join(f"{r.attribute} ({r.g:.2f}·{r.s})" for r in u.worst_misses())
        name = u.user_id + (" [missing]" if u.status == "missing" else "")
        prec = precision_of([*u.leaked, *u.claims]).precision
        t.add_row(Text(name), _f(s.pes), _f(s.binary), str(s.n), str(u.total_claims), str(u.false_claims),
                  _f(prec), Text(misses or "-"))
    return t


def render(ev: Evaluation, console: Console, *, user_limit: int | None = None) -> None:
    console.print(Group(
        overall_table(ev),
        _group_table("By difficulty (D4 = cross-post)", ev.by_difficulty),
        _group_table("By dimension", ev.by_dimension),
        _group_table("By leakage type", ev.by_leakage_type),
        precision_table(ev),
        users_table(ev, user_limit),
    ))
    if user_limit is not None and len(ev.users) > user_limit:
        console.print(f"... {len(ev.users) - user_limit} more user(s) (use --users 0 to show all)", highlight=False)
    console.print(LEGEND, highlight=False)


#: every metric the tables name, explained once (docs/scoring.md, "Metrics")
LEGEND = ("PES: privacy exposure score, Σ g·s / Σ s (g: judged score 0-1 of a leaked attribute, s: its "
          "sensitivity); Binary: share of leaked attributes with g > 0; Gran: mean g (granularity reached); "
          "n: leaked attributes; Σs: their summed sensitivity; prec: right / checkable claims")


def render_comparison(c: Comparison, console: Console) -> None:
    t = Table(title="Paired comparison", title_justify="left")
    for col in ("predictions", "PES", "95% CI", "Binary", "Gran", "precision", "false claims"):
        t.add_column(col, justify="left" if col == "predictions" else "right")
    for ev in (c.base, c.other):
        ci = f"[{ev.pes_ci95[0]:.3f}, {ev.pes_ci95[1]:.3f}]" if ev.pes_ci95 else "-"
        t.add_row(Text(ev.pred_dir), _f(ev.overall.pes), ci, _f(ev.overall.binary), _f(ev.overall.gran),
                  _f(ev.precision.precision), str(ev.false_claims))
    dci = f"[{c.delta_ci95[0]:+.3f}, {c.delta_ci95[1]:+.3f}]" if c.delta_ci95 else "-"
    delta = "-" if c.delta_pes is None else f"{c.delta_pes:+.3f}"
    t.add_row(Text("ΔPES (first − second), paired"), delta, dci, "", "", "", "")
    console.print(t)
