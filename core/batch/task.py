"""One user of a batch, for any system: argus (the engine, with ablations) or a baseline.

A task opens the run DB it is given (the shared OUT_DIR/runs.db for local workers, a private
shard for Ray tasks), skips a user whose run with the same key already finished (writing its
predictions again), and writes OUT_DIR/predictions/<user_id>.json. It returns a small
UserResult; nothing big crosses process boundaries.
"""
from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from core.engine.batch import UserResult, _existing_run, input_errors, investigate_user, run_key
from core.errors import InputError
from db.errors import DBError, describe, is_db_fault


class BatchSpec(BaseModel):
    """Everything a worker needs to run one user (picklable, JSON-able)."""

    bench_dir: str
    out_dir: str
    system: str = "argus"
    backend: str = "offline"
    budget: float = 20.0
    config: dict[str, Any] = Field(default_factory=dict)

    @property
    def key(self) -> str:
        return run_key(self.system, self.backend, self.config)


def predictions_path(spec: BatchSpec, user_id: str) -> Path:
    return Path(spec.out_dir) / "predictions" / f"{user_id}.json"


def run_user(spec: BatchSpec, user_id: str, user_dir: str | Path, db_path: str | Path,
             *, write_predictions: bool = True) -> UserResult:
    """Run one user; never raises for a user-level problem (the result says failed)."""
    t0 = time.perf_counter()
    out_file = predictions_path(spec, user_id) if write_predictions else None
    try:
        if spec.system == "argus":
            return investigate_user(Path(db_path), Path(user_dir), budget=spec.budget, backend=spec.backend,
                                    system="argus", config=dict(spec.config), out_file=out_file)
        return _baseline_user(spec, user_id, Path(user_dir), Path(db_path), out_file, t0)
    except DBError:
        raise                       # the run DB or the disk under OUT_DIR: every user would fail alike
    except (sqlite3.Error, OSError) as e:
        if is_db_fault(e):
            raise describe(e, db_path) from e
        return UserResult(user_id=user_id, status="failed", error=f"{type(e).__name__}: {e}",
                          seconds=round(time.perf_counter() - t0, 3))
    except InputError as e:
        return UserResult(user_id=user_id, status="failed", error=e.message,
                          seconds=round(time.perf_counter() - t0, 3))
    except Exception as e:  # one broken user must not stop the benchmark
        return UserResult(user_id=user_id, status="failed", error=f"{type(e).__name__}: {e}",
                          seconds=round(time.perf_counter() - t0, 3))


def _baseline_user(spec: BatchSpec, user_id: str, user_dir: Path, db_path: Path, out_file: Path | None,
                   t0: float) -> UserResult:
    from core.baselines import run_baseline
    from db.profile import read_profile
    from db.store import open_db, write_private

    db = open_db(db_path)
    try:
        prev = _existing_run(db, user_dir, spec.key)        # keyed on the folder, not profile.json's id
        if prev and prev[1] == "finished":
            run_id, status = prev[0], "skipped"
            pred = read_profile(db, run_id, user_id, spec.system)
            pred.system = f"{spec.system}-{spec.backend}"
        else:
            run_id, pred = run_baseline(spec.system, user_dir, spec.backend, db, config=dict(spec.config),
                                        budget=0.0)
            status = "finished"
        if out_file is not None:
            write_private(out_file, pred.model_dump_json(indent=1, exclude_none=True))
        n_err, first = input_errors(db, run_id)
        return UserResult(user_id=user_id, run_id=run_id, status=status,
                          seconds=round(time.perf_counter() - t0, 3), attributes=len(pred.attributes),
                          input_errors=n_err, first_input_error=first)
    finally:
        db.conn.close()
