"""`argus` console script: imports every command module (each registers its commands)."""
from __future__ import annotations

import os
import signal
import sys


def _interrupted(signum: int, frame: object) -> None:
    """Ctrl-C while the modules load: one line, exit 130, no traceback."""
    os.write(2, b"error: aborted\n")
    os._exit(130)


# the command line itself (not a test importing this module): quiet Ctrl-C until main() runs
_STANDALONE = __name__ == "__main__" or os.path.basename(sys.argv[0] or "") == "argus"
if _STANDALONE:
    signal.signal(signal.SIGINT, _interrupted)

import sqlite3  # noqa: E402  (after the handler: it loads datetime, math ... where a Ctrl-C can land)

import typer  # noqa: E402

try:  # noqa: E402  typer >= 0.20 vendors click as typer._click; older typer uses click itself
    from typer._click import exceptions as cx
except ImportError:  # pragma: no cover
    from click import exceptions as cx  # type: ignore[no-redef]
from core.textsafe import escape, printable

from argus_tui.cli_base import app, err_console
from argus_tui.commands import (  # noqa: F401  (registration side effects)
    advise,
    audit,
    batch,
    config,
    datasette,
    engine,
    evaluate,
    generate,
    importers,
    rules,
    runs,
    tui,
    validate,
)
from core.errors import InputError


def _error(message: str) -> None:
    err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)


def _usage_message(e: cx.UsageError) -> str:
    """click's message on one line, with the command it belongs to and where to get help."""
    msg = " ".join(e.format_message().split())
    ctx = e.ctx
    path = ctx.command_path if ctx is not None else "argus"
    return f"{msg} (see `{path} --help`)"


def _safe_excepthook(kind: type[BaseException], value: BaseException, tb: object) -> None:
    """An unexpected error's traceback can quote input (a caption in a message): it reaches
    stderr through the output boundary like everything else (core/textsafe.py)."""
    import traceback

    sys.stderr.write(printable("".join(traceback.format_exception(kind, value, tb)), lines=True))  # type: ignore[arg-type]
    sys.stderr.flush()


def _terminated(signum: int, frame: object) -> None:
    """SIGTERM unwinds like an exception: a step in flight rolls back, the run DB is closed
    with its WAL checkpointed (db.store.close_all at exit), so the .db alone is the run."""
    raise SystemExit(128 + signum)


def main(argv: list[str] | None = None) -> None:
    """Run the CLI; usage errors and bad input are one `error: …` line on stderr, exit 2."""
    import signal

    sys.excepthook = _safe_excepthook
    try:
        signal.signal(signal.SIGTERM, _terminated)
        if _STANDALONE:       # a command unwinds on Ctrl-C (a half-written import is removed) ...
            signal.signal(signal.SIGINT, signal.default_int_handler)
    except ValueError:      # not the main thread (an embedding test runner): keep its handler
        pass
    try:
        _run(argv)
    finally:
        if _STANDALONE:       # ... and once it is done, a Ctrl-C while the process exits changes nothing
            signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run(argv: list[str] | None) -> None:
    try:
        rv = typer.main.get_command(app).main(args=argv, prog_name="argus", standalone_mode=False)
    except InputError as e:
        _error(e.message)
        sys.exit(2)
    except getattr(cx, "NoArgsIsHelpError", ()) as e:  # `argus bench` alone: its help, as before
        print(e.ctx.get_help())
        sys.exit(2)
    except cx.UsageError as e:
        _error(_usage_message(e))
        sys.exit(2)
    except (typer.Abort, KeyboardInterrupt):
        _error("aborted")
        sys.exit(130)
    except typer.Exit as e:
        sys.exit(e.exit_code)
    except cx.ClickException as e:  # e.g. a file option that cannot be opened
        _error(" ".join(e.format_message().split()))
        sys.exit(e.exit_code)
    except (sqlite3.Error, OSError) as e:  # the DB / disk boundary (db/errors.py): one line, exit 2
        from db.errors import describe, is_db_fault
        from db.store import last_db

        if not is_db_fault(e):
            raise
        _error(describe(e, last_db() or "runs.db").message)
        sys.exit(2)
    if rv == 130:          # typer turns Ctrl-C inside a command into Exit(130), silently
        _error("aborted")
    sys.exit(rv if isinstance(rv, int) else 0)


if __name__ == "__main__":
    main()
