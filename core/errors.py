"""Errors that name the file and field at fault (the CLI turns them into exit code 2)."""
from __future__ import annotations

from pathlib import Path


class InputError(Exception):
    def __init__(self, file: str | Path, reason: str, *, field: str | None = None, line: int | None = None,
                 severity: str = "error"):
        self.file = str(file)
        self.severity = severity   # "warning": the input is read (capped, re-decoded, ignored for time cues)
        self.field = field
        self.line = line
        self.reason = reason
        super().__init__(self.message)

    @property
    def message(self) -> str:
        where = self.file + (f":{self.line}" if self.line else "")
        fld = f" [{self.field}]" if self.field else ""
        return f"{where}{fld}: {self.reason}"
