"""Command: `argus runs datasette RUNS.db`: write Datasette metadata for a run DB (metadata.yml for
Datasette 0.65, datasette.yml for 1.0; db/datasette.py) and serve it on 127.0.0.1 when Datasette
is installed (`pip install 'argus-privacy[datasette]'`). Served safely: the DB as an absolute
resolved path, opened immutable (`--immutable`), in this process with a Host allow-list
(argus_tui/datasette_guard.py: 127.0.0.1 and localhost; anything else 403)."""
from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import sys
from pathlib import Path

import typer
from core.textsafe import escape

from argus_tui.cli_base import console, fail, runs_app
from core.errors import InputError

HOST = "127.0.0.1"   # a run DB holds inferred personal data: never served beyond this machine


def files_home(db_path: Path) -> Path:
    """Argus's own folder for one run DB's Datasette files (never beside the person's DB):
    $XDG_CONFIG_HOME/argus/datasette/<db name>-<hash of its absolute path> (default ~/.config),
    created 0700. The hash keeps two runs.db of different folders apart."""
    import hashlib

    from db.store import private_dir

    base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    real = str(Path(db_path).resolve())
    tag = hashlib.sha256(real.encode("utf-8", "surrogateescape")).hexdigest()[:12]
    safe_stem = "".join(c if c.isalnum() or c in "-_." else "_" for c in Path(real).stem)[:40].lstrip(".-") or "db"
    return private_dir(base / "argus" / "datasette" / f"{safe_stem}-{tag}")


def datasette_version() -> str | None:
    if importlib.util.find_spec("datasette") is None:
        return None
    try:
        return importlib.metadata.version("datasette")
    except importlib.metadata.PackageNotFoundError:
        return None


def serve_args(db_path: Path, metadata: Path, config: Path, port: int, version: str) -> list[str]:
    """The `datasette serve` arguments for this version (1.0 reads queries from -c, 0.65 from -m).
    The DB goes last as the value of `--immutable` (read-only, no locking, never written), as an
    absolute resolved path: a file named `--plugins-dir=plug` cannot be read as an option. (It is
    not also passed as a positional file after `--`: Datasette would attach it twice, once mutable.)"""
    args = ["serve", "--host", HOST, "--port", str(port), "-m", str(metadata)]
    if int(version.split(".")[0]) >= 1:
        args += ["-c", str(config)]
    return args + ["--immutable", str(Path(db_path).resolve())]


def serve(args: list[str]) -> None:
    """Datasette in this process, with the Host allow-list registered as its plugin
    (argus_tui/datasette_guard.py); returns when it stops (Ctrl-C)."""
    import click
    from datasette.cli import cli
    from datasette.plugins import pm

    from argus_tui import datasette_guard

    if not pm.is_registered(datasette_guard):
        pm.register(datasette_guard, name="argus-host-guard")
    try:
        cli.main(args=args, prog_name="datasette", standalone_mode=False)
    except click.ClickException as e:
        fail(f"datasette: {e.format_message()}")


@runs_app.command("datasette")
def datasette_cmd(
    db_path: Path = typer.Argument(..., metavar="RUNS.db", help="a run database"),
    port: int = typer.Option(8001, "--port", help="port on 127.0.0.1"),
    files_dir: Path | None = typer.Option(None, "--dir", metavar="DIR",
                                          help="where metadata.yml and datasette.yml go (default: Argus's own "
                                               "folder, ~/.config/argus/datasette/NAME-HASH; never the DB's folder)"),
    no_serve: bool = typer.Option(False, "--no-serve", help="only write the metadata files"),
) -> None:
    """Open a run DB in Datasette: titles, table and column descriptions, facets and canned queries
    (profile with evidence, routes by cost, why was this hypothesis removed, tool time)."""
    from db.datasette import QUERIES, database_name, write_files
    from db.queries import open_runs_readonly

    if not 0 < port < 65536:
        fail(f"--port: must be 1-65535 (got {port})")
    try:
        open_runs_readonly(db_path).conn.close()   # a missing / non-SQLite / non-run DB exits 2 here
    except InputError as e:
        fail(e.message)
    try:
        meta, conf = write_files(db_path, files_dir or files_home(db_path))
    except InputError as e:
        fail(e.message)
    except OSError as e:
        fail(f"{e.filename or files_dir or '~/.config/argus/datasette'}: cannot write the Datasette files "
             f"({e.strerror or e})")
    console.print(f"wrote {escape(str(meta))} (Datasette 0.65) and {escape(str(conf))} (Datasette 1.0)",
                  highlight=False, soft_wrap=True)
    name = database_name(db_path)
    version = datasette_version()
    if no_serve or version is None:
        if version is None and not no_serve:
            console.print("Datasette is not installed: pip install 'argus-privacy[datasette]'", highlight=False)
        import shlex

        cmd = shlex.join(["datasette", *serve_args(db_path, meta, conf, port, version or "0.65")])
        console.print(f"start it with: {escape(cmd)}   (1.0: add -c {escape(shlex.quote(str(conf)))}; "
                      f"`argus runs datasette` also refuses any Host but 127.0.0.1 and localhost)",
                      highlight=False, soft_wrap=True)
        return
    base = escape(f"http://{HOST}:{port}/{name}")
    console.print(f"serving {base} with Datasette {version} (Ctrl-C stops); canned queries: "
                  + ", ".join(f"{base}/{q}" for q in QUERIES), highlight=False, soft_wrap=True)
    sys.stdout.flush()
    sys.stderr.flush()
    os.umask(0o077)           # anything Datasette may create stays private
    serve(serve_args(db_path, meta, conf, port, version))
