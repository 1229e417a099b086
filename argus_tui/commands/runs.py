"""Commands: `argus runs list RUNS.db` and `argus runs show RUNS.db RUN_ID [--step N]` (read-only)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from core.textsafe import escape, json_text
from rich.table import Table
from rich.tree import Tree

from argus_tui.cli_base import console, fail, runs_app
from core.engine.projection import for_people
from core.errors import InputError
from core.textmatch import normalize
from core.nodes.node import EvidenceNode
from db import queries


def _open(path: Path):
    try:
        return queries.open_runs_readonly(path)
    except InputError as e:
        fail(e.message)


DB_HELP = "a run database (also as --db RUNS.db, like investigate and advise)"


def db_and_run(args: list[str], db_opt: Path | None, *, with_run: bool = True) -> tuple[Path, str | None]:
    """`RUNS.db [RUN_ID]` or `--db RUNS.db [RUN_ID]`: the one convention of every command that reads
    a run DB (positional kept for scripts). Exit 2 naming what is missing or extra."""
    args = list(args or [])
    if db_opt is None:
        if not args:
            fail("missing the run database: give RUNS.db or --db RUNS.db")
        db_opt = Path(args.pop(0))
    if len(args) > (1 if with_run else 0):
        fail(f"unexpected extra argument(s): {' '.join(args[1 if with_run else 0:])} "
             f"(one run database per command; RUN_ID after it)")
    return db_opt, (args[0] if args else None)


def resolve_run(db, db_path: Path, run_id: str | None) -> dict[str, Any]:
    """The run named by an id or a unique prefix; without one, the latest run. Exit 2 naming the
    matches when a prefix is ambiguous, or pointing at `runs list` when nothing matches."""
    if run_id is None:
        rows = queries.list_runs(db)
        if not rows:
            fail(f"{db_path}: no runs in this database")
        return queries.get_run(db, rows[-1]["run_id"]) or rows[-1]
    run = queries.find_run(db, run_id)
    if run is not None:
        return run
    matches = [r["run_id"] for r in queries.list_runs(db) if r["run_id"].startswith(run_id)]
    if matches:
        fail(f"{db_path} [run_id]: {run_id!r} matches {len(matches)} runs: {', '.join(matches)} (give more of the id)")
    fail(f"{db_path} [run_id]: no run {run_id!r} (see `argus runs list {db_path}`)")


def _fmt(v: Any, digits: int = 2) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:.{digits}f}"
    return str(v)


def _e(v: Any) -> str:
    return escape(_fmt(v))


@runs_app.command("list")
def list_cmd(
    db_paths: list[Path] = typer.Argument(None, metavar="RUNS.db...",
                                          help="run database(s); a shell glob of several lists each"),
    db_opt: list[Path] = typer.Option([], "--db", metavar="RUNS.db", help="a run database (repeatable)"),
    as_json: bool = typer.Option(False, "--json", help="print JSON instead of a table"),
) -> None:
    """Saved runs: id, user, system, backend, status, steps, budget and profile size (of each
    database given: `runs list /tmp/argus-demo-*/runs.db` works after several demos)."""
    paths = [*(db_opt or []), *(db_paths or [])]
    if not paths:
        fail("missing the run database: give RUNS.db or --db RUNS.db")
    if as_json:
        out = {str(p): queries.list_runs(_open(p)) for p in paths}
        print(json_text(out[str(paths[0])] if len(paths) == 1 else out, indent=1, default=str))
        return
    for db_path in paths:
        _list_one(db_path)


def _list_one(db_path: Path) -> None:
    rows = queries.list_runs(_open(db_path))
    if not rows:
        console.print(f"no runs in {escape(str(db_path))}")
        return
    t = Table(title=escape(f"runs in {db_path}"), header_style="bold")
    for col in ("run_id", "user", "system", "backend", "status", "step", "spent/budget", "attributes", "created"):
        t.add_column(col, overflow="fold")
    for r in rows:
        t.add_row(_e(r["run_id"]), _e(r["user_id"]), _e(r["system"]), _e(r["backend"]), _e(r["status"]),
                  _e(r["step"]), f"{_fmt(r['spent'], 1)}/{_fmt(r['budget'], 1)}", _e(r["n_profile"]),
                  _e(r["created_at"]))
    console.print(t)


def read_by(node: EvidenceNode | None, attribute: str | None, value: str | None = None) -> list[dict[str, str]]:
    """The recognizers (core/engine/rules/registry.py) whose cues of `attribute` an evidence node
    holds: their registry name, the rule that fired and the data entry where one is known; those
    whose value is part of `value` when any is (a rival reading of the same text is not its support)."""
    cues = [c for c in ((node.data.cues or []) if node is not None and attribute else []) if c.attribute == attribute]
    if value:
        same = [c for c in cues if c.value and normalize(c.value) in normalize(value)]
        cues = same or cues
    out: list[dict[str, str]] = []
    for c in cues:
        row = {"recognizer": c.recognizer or "(unnamed)", "rule": c.cue, **({"entry": c.data.entry} if c.data.entry else {})}
        if row not in out:
            out.append(row)
    return out


def _read_by_label(rows: list[dict[str, str]]) -> str:
    return "; ".join(r["recognizer"] + f" ({r['rule']}" + (f", entry {r['entry']}" if r.get("entry") else "") + ")"
                     for r in rows)


def _chain_tree(parent: Tree, c: queries.ChainNode, parent_content: str = "",
                nodes: dict[str, EvidenceNode] | None = None, attribute: str | None = None,
                value: str | None = None) -> None:
    if c.kind == "post":
        label = f"[cyan]post {_e(c.post_id)}[/]"
    elif c.kind == "hypothesis":
        label = f"[magenta]{_e(c.node_id)} hypothesis[/] {_e(c.attribute)}={_e(c.value)} ({_e(c.status)})"
    elif c.kind == "external":
        label = f"[dim]{_e(c.node_id)}[/]"
    else:
        label = f"[green]{_e(c.node_id)}[/] {_e(c.modality)}/{_e(c.carrier)} ({_e(c.status)})"
    # a post quoted in full by the evidence above it is not printed twice
    if c.content and not (c.kind == "post" and parent_content and c.content[:60] in parent_content):
        label += f": {escape(c.content)}"
    if c.via:
        label = f"[dim]{c.via}[/] " + label
    if c.cycle:
        label += " [dim](shown above)[/]"
    if c.kind == "hypothesis":
        attribute, value = c.attribute, c.value
    elif c.kind == "evidence" and nodes is not None:
        by = read_by(nodes.get(c.node_id), attribute, value)
        if by:
            label += f" [dim]read by {escape(_read_by_label(by))}[/]"
    branch = parent.add(label)
    for ch in c.children:
        _chain_tree(branch, ch, c.content, nodes, attribute, value)


_ROUTE_KEYS = ("route_id", "family", "params", "status", "cost", "decided_by", "hypothesis_id")


@runs_app.command("show")
def show_cmd(
    args: list[str] = typer.Argument(None, metavar="RUNS.db [RUN_ID]",
                                     help=f"{DB_HELP}; a run id or a unique prefix of one (default: the latest run)"),
    db_opt: Path | None = typer.Option(None, "--db", metavar="RUNS.db", help="the run database"),
    all_hypotheses: bool = typer.Option(False, "--all", help="list removed hypotheses too"),
    step: int | None = typer.Option(None, "--step", min=0, help="the run as of this step (rebuilt from its history)"),
    as_json: bool = typer.Option(False, "--json", help="print JSON (run, profile with chains, hypotheses, routes)"),
) -> None:
    """One run: its settings, the privacy profile, hypotheses and each value's evidence chain."""
    db_path, run_id = db_and_run(args, db_opt)
    db = _open(db_path)
    run = resolve_run(db, db_path, run_id)
    rid = run["run_id"]
    if step is not None:
        _show_step(db, db_path, run, step, all_hypotheses, as_json)
        return
    profile = queries.profile_rows(db, rid)
    hyps = queries.hypotheses(db, rid)
    if not all_hypotheses:
        hyps = [h for h in hyps if h.status != "removed"]
    chains = {p["attribute"]: [queries.evidence_chain(db, rid, nid) for nid in (p.get("evidence") or [])
                               if isinstance(nid, str)] for p in profile}
    by_id = {n.node_id: n for n in queries.nodes(db, rid)}
    if as_json:
        out = {"run": run, "profile": [{**p, "chains": [c.model_dump() for c in chains[p["attribute"]]],
                                        "read_by": {nid: read_by(by_id.get(nid), p["attribute"], p.get("value"))
                                                    for nid in (p.get("evidence") or []) if isinstance(nid, str)}}
                                       for p in profile], "hypotheses": [_row(h, data=True) for h in hyps],
               "routes": [{k: r.get(k) for k in _ROUTE_KEYS} for r in queries.routes(db, rid)]}
        print(json_text(out, indent=1, default=str))
        return
    info = Table.grid(padding=(0, 2))
    info.add_column(style="bold")
    info.add_column()
    for k in ("run_id", "user_id", "user_dir", "system", "backend", "status", "step", "budget", "spent",
              "created_at", "finished_at", "error"):
        if run.get(k) not in (None, ""):
            info.add_row(k, _e(run[k]))
    if run.get("config"):
        info.add_row("config", escape(json.dumps(run["config"], ensure_ascii=False)))
    console.print(info)
    _print_profile(profile)
    # with the removed ones, why each was removed ("holder: brother", "contradicted by h3 ...")
    _print_hypotheses([_row(h) for h in hyps], all_hypotheses, with_reason=all_hypotheses)
    _print_routes(queries.routes(db, rid))
    for p in profile:
        tree = Tree(f"[bold]{_e(p['attribute'])}[/] = {_e(for_people(p['attribute'], p['value'] or ''))}")
        for c in chains[p["attribute"]]:
            _chain_tree(tree, c, nodes=by_id, attribute=p["attribute"], value=p.get("value"))
        if not chains[p["attribute"]]:
            tree.add("[dim]no evidence recorded[/]")
        console.print(tree)


def _show_step(db, db_path: Path, run: dict[str, Any], step: int, all_hypotheses: bool, as_json: bool) -> None:
    """`runs show --step N`: the state rebuilt from the run's append-only history."""
    if step > int(run["step"]):
        fail(f"{db_path} [--step]: run {run['run_id']} has committed steps 0..{run['step']}, not {step}")
    try:
        st = queries.state_at(db, run["run_id"], step)
    except InputError as e:
        fail(e.message)
    hyps = [h for h in st.hypotheses if all_hypotheses or h.status != "removed"]
    if as_json:
        out = {"run": run, "step": step, "finished": st.finished, "budget": st.budget.model_dump(),
               "profile": [p.model_dump() for p in st.profile],
               "hypotheses": [_row(h, st.supporters(h.node_id)) for h in hyps],
               "evidence": [_row(n) for n in st.evidence],
               "edges": [e.model_dump() for e in st.edges],
               "routes": [r.model_dump() for r in st.routes]}
        print(json_text(out, indent=1, default=str))
        return
    console.print(f"[bold]{_e(run['run_id'])}[/] as of step {step} of {_e(run['step'])}"
                  + (" (finished)" if st.finished else ""))
    console.print(f"budget: spent {_fmt(st.budget.spent, 1)} of {_fmt(st.budget.total, 1)},"
                  f" {_fmt(st.budget.remaining, 1)} left")
    _print_profile([p.model_dump() for p in st.profile])
    _print_hypotheses([_row(h, st.supporters(h.node_id)) for h in hyps], all_hypotheses, with_reason=True)
    _print_routes([r.model_dump() for r in st.routes])


def _row(n: EvidenceNode, supporters: list[str] | None = None, *, data: bool = False) -> dict[str, Any]:
    """A node as `runs show` prints it: its fields, why it has its status, (a hypothesis as of a
    step) the supporters alive then, and with data=True its data as the run store keeps it."""
    return {**n.model_dump(exclude={"data"}), "reason": n.reason,
            **({"evidence": supporters} if supporters is not None else {}),
            **({"data": n.stored_data()} if data else {})}


def _print_profile(profile: list[dict[str, Any]]) -> None:
    pt = Table(title="privacy profile", header_style="bold")
    for col in ("attribute", "value", "level", "confidence", "sensitivity", "evidence"):
        pt.add_column(col, overflow="fold")
    for p in profile:
        pt.add_row(_e(p["attribute"]), _e(for_people(p["attribute"], p["value"] or "")), _e(p.get("level")), _e(p.get("confidence")),
                   _e(p.get("sensitivity")), escape(", ".join(map(str, p.get("evidence") or []))))
    console.print(pt if profile else "[dim]no profile rows[/]")


def _print_hypotheses(hyps: list[dict[str, Any]], all_hypotheses: bool, with_reason: bool = False) -> None:
    ht = Table(title="hypotheses" + (" (all)" if all_hypotheses else " (not removed)"), header_style="bold")
    cols = ["node", "attribute", "value", "level", "confidence", "status"] + (["evidence", "reason"] if with_reason else [])
    for col in cols:
        ht.add_column(col, overflow="fold")
    for h in hyps:
        row = [_e(h["node_id"]), _e(h.get("attribute")), _e(h.get("value")), _e(h.get("level")),
               _e(h.get("confidence")), _e(h.get("status"))]
        if with_reason:
            row += [escape(", ".join(h.get("evidence") or h.get("provenance") or [])), _e(h.get("reason"))]
        ht.add_row(*row)
    console.print(ht if hyps else "[dim]no hypotheses[/]")


def _print_routes(routes: list[dict[str, Any]]) -> None:
    if not routes:
        console.print("[dim]no routes[/]")
        return
    rt = Table(title="routes", header_style="bold")
    for col in ("route", "family", "hypothesis", "params", "status", "cost", "decided by"):
        rt.add_column(col, overflow="fold")
    for r in routes:
        params = {k: v for k, v in (r.get("params") or {}).items() if k not in ("box", "text")} \
            if isinstance(r.get("params"), dict) else r.get("params")
        rt.add_row(_e(r["route_id"]), _e(r["family"]), _e(r.get("hypothesis_id")),
                   escape(json.dumps(params, ensure_ascii=False)), _e(r["status"]), _e(r.get("cost")),
                   _e(r.get("decided_by")))
    console.print(rt)
