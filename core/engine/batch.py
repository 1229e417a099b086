"""One user of a batch run (`investigate_user`, used by the executors in core/batch): resumes an
unfinished run of the same system/backend/stages, skips a finished one, writes the
predictions file; `ablation_config` and `run_key` name a run's stage switches."""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from core.engine.context import DEFAULT_CONFIG
from core.engine.loop import Investigation
from core.errors import InputError
from core.loader import user_dirs
from db import runs as db_runs
from db.store import open_db, write_private

ABLATIONS = ("perceiver", "hypothesizer", "investigator", "verifier", "cpeg")


class UserResult(BaseModel):
    user_id: str
    run_id: str | None = None
    status: str                  # finished|resumed|skipped|failed
    seconds: float = 0.0
    attributes: int = 0
    error: str | None = None
    input_errors: int = 0          # recorded (non-fatal) input errors of the run
    first_input_error: str | None = None


def ablation_config(ablate: list[str] | None) -> dict[str, Any]:
    cfg: dict[str, Any] = {}
    for part in ablate or []:
        if part not in ABLATIONS:
            raise InputError("--ablate", f"unknown part {part!r} (one of {', '.join(ABLATIONS)})")
        cfg[part] = False
    return cfg


def run_key(system: str, backend: str, config: dict[str, Any]) -> str:
    flags = sorted(k for k in ("perceiver", "hypothesizer", "investigator", "verifier", "cpeg")
                   if config.get(k, DEFAULT_CONFIG[k]) is False)
    return f"{system}/{backend}" + (f"/-{'-'.join(flags)}" if flags else "")


def _existing_run(db, user_dir: str | Path, key: str) -> tuple[str, str] | None:
    """The latest run of this user folder with this key. Runs are keyed on the folder (its
    resolved path, stored in runs.user_dir), never on profile.json's user_id: the data
    chooses that id, and two folders claiming one id must not share a run."""
    rows = db_runs.runs_of_folder(db, str(Path(user_dir).resolve()))
    for run_id, status, system, backend, cfg in rows:
        if run_key(system, backend, json.loads(cfg or "{}")) == key:
            return run_id, status
    return None


def input_errors(db, run_id: str) -> tuple[int, str | None]:
    """(number of recorded input errors of a run, the first one as "file:line [field]: reason")."""
    rows = db_runs.event_data(db, run_id, "error")
    if not rows:
        return 0, None
    d = json.loads(rows[0] or "{}")
    first = (f"{d.get('where')}" + (f":{d['line']}" if d.get("line") else "")
             + (f" [{d['field']}]" if d.get("field") else "") + f": {d.get('reason')}")
    return len(rows), first


def investigate_user(db_path: Path, user_dir: Path, *, budget: float, backend: str, system: str,
                     config: dict[str, Any], out_file: Path | None) -> UserResult:
    t0 = time.perf_counter()
    uid = user_dir.name
    db = open_db(db_path)
    try:
        key = run_key(system, backend, config)
        prev = _existing_run(db, user_dir, key)
        if prev and prev[1] == "finished":
            inv = Investigation.resume(db, prev[0])
            status = "skipped"
        elif prev:
            inv = Investigation.resume(db, prev[0])
            inv.run()
            status = "resumed"
        else:
            inv = Investigation.start(db, user_dir, budget=budget, backend=backend, system=system, config=config)
            inv.run()
            status = "finished"
        pred = inv.profile()
        if system != "argus" or backend != "offline":
            pred.system = f"{system}-{backend}"
        else:
            pred.system = "argus-offline"
        if out_file is not None:
            write_private(out_file, pred.model_dump_json(indent=1, exclude_none=True))
        n_err, first = input_errors(db, inv.run_id)
        return UserResult(user_id=uid, run_id=inv.run_id, status=status, seconds=round(time.perf_counter() - t0, 3),
                          attributes=len(pred.attributes), input_errors=n_err, first_input_error=first)
    finally:
        db.conn.close()
