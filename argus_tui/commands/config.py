"""Commands: config (`argus config show`, `argus config check`, `argus config usage`)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer
from rich.table import Table

from argus_tui.cli_base import app, console, fail

config_app = typer.Typer(help="Model-backend configuration (argus.toml + environment) and model usage.",
                         no_args_is_help=True)
app.add_typer(config_app, name="config")


@config_app.command("show")
def show(
    config: Optional[Path] = typer.Option(None, "--config", help="TOML file (default: ./argus.toml if present)"),
    as_json: bool = typer.Option(False, "--json", help="print the effective config as JSON"),
) -> None:
    """The effective model-backend config, keys masked; roles without a model use the offline rules."""
    from core.backends.config import ROLES, load_config
    from core.errors import InputError

    try:
        cfg = load_config(config)
    except InputError as e:
        fail(e.message)
    data = cfg.masked()
    if as_json:
        console.print_json(json.dumps(data))
        return
    console.print(f"config file: {data['source'] or '(none; defaults + environment)'}")
    b = data["backend"]
    console.print(f"base_url: {b['base_url'] or '(OpenAI default)'}   api_key: {b['api_key'] or '(unset)'}")
    console.print(f"timeout {b['timeout']}s, retries {b['max_retries']}, concurrency {b['concurrency']}/base URL, "
                  f"response_format {b['response_format']}, parse_retries {b['parse_retries']}, "
                  f"max_image_side {b['max_image_side']}, cache {b['cache'] or '(run DB only)'}")
    t = Table("role", "model", "base_url", "api_key", "max_tokens", "served by")
    for r in ROLES:
        rc = data["roles"][r]
        t.add_row(r, rc["model"] or "-", rc["base_url"] or "-", rc["api_key"] or "-", str(rc["max_tokens"]),
                  "model" if rc["model"] else "offline rules")
    console.print(t)
    if data["prices"]:
        console.print("prices (USD per 1M tokens): " + ", ".join(
            f"{m}: in {p['input']} / out {p['output']}" for m, p in data["prices"].items()))


@config_app.command("check")
def check(
    config: Optional[Path] = typer.Option(None, "--config", help="TOML file (default: ./argus.toml if present)"),
    as_json: bool = typer.Option(False, "--json", help="print the capabilities as JSON"),
) -> None:
    """Probe each configured role's endpoint once: reachable, JSON mode, vision, context length.

    Exits 1 when a configured role is unusable (unreachable, or no JSON response format works)."""
    from core.backends.capabilities import IMAGE_ROLES, capabilities_for
    from core.backends.config import ROLES, load_config
    from core.errors import InputError

    try:
        cfg = load_config(config)
    except InputError as e:
        fail(e.message)
    rows = []
    for r in ROLES:
        rc = cfg.role(r)
        if not rc.model:
            rows.append({"role": r, "model": None, "status": "offline rules"})
            continue
        caps, _ = capabilities_for(cfg, r)
        vision = ("n/a" if r not in IMAGE_ROLES and rc.vision is None else
                  "yes" if caps.vision else "text-only")
        rows.append({"role": r, "model": rc.model, "base_url": rc.base_url, "reachable": caps.reachable,
                     "json_mode": caps.json_mode, "vision": vision, "context_length": caps.context_length,
                     "context_from": caps.detail.get("context_length"),
                     "status": "ok" if caps.usable else f"UNUSABLE: {caps.problem()}"})
    bad = [x for x in rows if x["status"].startswith("UNUSABLE")]
    if as_json:
        console.print_json(json.dumps(rows))
    else:
        t = Table("role", "model", "base_url", "reachable", "json mode", "vision", "context", "status")
        for x in rows:
            if x["model"] is None:
                t.add_row(x["role"], "-", "-", "-", "-", "-", "-", x["status"])
                continue
            t.add_row(x["role"], x["model"], x["base_url"] or "(OpenAI default)", "yes" if x["reachable"] else "no",
                      x["json_mode"] or "-", x["vision"], str(x["context_length"] or "-"), x["status"])
        console.print(t)
    if bad:
        raise typer.Exit(1)


@config_app.command("usage")
def usage(
    db_path: Path = typer.Argument(..., help="a runs.db"),
    run: Optional[str] = typer.Option(None, "--run", help="one run id"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Model calls, failures, tokens, latency and cost per run (user) and role."""
    from core.backends.client import usage_summary
    from db.store import open_db

    if not db_path.is_file():
        fail(f"{db_path}: run database not found")
    try:
        db = open_db(db_path, readonly=True)
        rows = usage_summary(db, run)
        users = dict(db.execute("SELECT run_id, user_id FROM runs").fetchall())
    except Exception as e:
        fail(f"{db_path}: not a readable run database ({e})")
    for r in rows:
        r["user_id"] = users.get(r["run_id"])
    if as_json:
        console.print_json(json.dumps(rows))
        return
    if not rows:
        console.print("no model calls recorded")
        return
    t = Table("run", "user", "role", "model", "calls", "failed", "cached", "prompt tok", "compl tok", "ms", "cost $")
    for r in rows:
        t.add_row(r["run_id"], r["user_id"] or "-", r["role"], r["model"] or "-", str(r["calls"]), str(r["failed"]),
                  str(r["cached"]), str(r["prompt_tokens"]), str(r["completion_tokens"]),
                  f"{r['duration_ms']:.0f}", f"{r['cost']:.4f}")
    console.print(t)
