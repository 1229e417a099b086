"""`argus` console script: imports every command module (each registers its commands)."""
from __future__ import annotations

import sys

from rich.markup import escape

from argus_tui.cli_base import app, err_console
from argus_tui.commands import (  # noqa: F401  (registration side effects)
    advise,
    batch,
    config,
    engine,
    evaluate,
    generate,
    importers,
    runs,
    tui,
    validate,
)
from core.errors import InputError


def main() -> None:
    try:
        app()
    except InputError as e:
        err_console.print(f"[bold red]error:[/] {escape(e.message)}", highlight=False, soft_wrap=True)
        sys.exit(2)


if __name__ == "__main__":
    main()
