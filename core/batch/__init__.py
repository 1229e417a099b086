"""Batch runs over a sopri/1 benchmark, for any system, on this machine or a Ray cluster.

    run_batch(bench_dir, out_dir, system=..., backend=..., config=..., workers=N, executor="local"|"ray",
              on_result=callback) -> BatchSummary

Results stream to OUT_DIR/results.jsonl as users finish (one JSON line each), predictions to
OUT_DIR/predictions/<user_id>.json, runs to OUT_DIR/runs.db. A user that fails is recorded
and the rest go on; re-running skips users already finished with the same system/backend/
ablation key. OUT_DIR/batch.json records what was run (the comparison reads it).
"""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Callable

from pydantic import BaseModel, Field

from core.batch.task import BatchSpec
from core.batch.threads import threads_per_worker
from core.engine.batch import UserResult
from core.errors import InputError
from core.loader import user_dirs

EXECUTORS = ("local", "ray")
BATCH_FILE = "batch.json"
RESULTS_FILE = "results.jsonl"


class BatchSummary(BaseModel):
    spec: BatchSpec
    executor: str
    workers: int
    threads_per_worker: int = 1     # OCR/embedding threads of each worker (core/batch/threads.py)
    users: int = 0
    done: int = 0
    skipped: int = 0
    failed: list[UserResult] = Field(default_factory=list)
    results: list[UserResult] = Field(default_factory=list)   # small rows; predictions stay on disk
    seconds: float = 0.0

    @property
    def users_per_minute(self) -> float:
        return 60.0 * self.users / self.seconds if self.seconds else 0.0


def _seed_cache(db_path: Path, cache_from: Path | None) -> None:
    """Copy the content-addressed tool/model cache of another run DB (same inputs give the same
    tool outputs, so OCR of a benchmark is done once across systems)."""
    if cache_from is None:
        return
    if not Path(cache_from).is_file():
        raise InputError(cache_from, "run DB to copy the cache from not found", field="--cache-from")
    from db.store import open_db
    from db.tool_calls import copy_cache

    db = open_db(db_path)
    try:
        copy_cache(db, str(Path(cache_from).resolve()), kind="tool")
    finally:
        db.conn.close()


def _recorded_runs(path: Path, key: str) -> set[tuple[str, str | None]]:
    """(user id, run id) of the rows results.jsonl already holds for this batch key."""
    out: set[tuple[str, str | None]] = set()
    if not path.is_file() or path.is_symlink():
        return out
    with path.open(encoding="utf-8", errors="replace") as fh:
        for line in fh:
            try:
                row = json.loads(line)
            except ValueError:        # a line cut by a kill: the user is simply run again
                continue
            if isinstance(row, dict) and row.get("key") == key and row.get("status") != "failed":
                out.add((str(row.get("user_id")), row.get("run_id")))
    return out


def check_account_ids(bench_dir: Path, users: list[tuple[str, Path]], *, allow_duplicates: bool = False) -> None:
    """profile.json's user_id is chosen by the data: two folders claiming the same id, or a
    folder claiming another folder's name, is an InputError naming both folders (before any
    work), unless allow_duplicates (each folder then keeps its own run and predictions file:
    runs are keyed on the folder, not on this id)."""
    from core.loader import account_user_id

    if allow_duplicates:
        return
    folders = {uid: udir for uid, udir in users}
    claimed: dict[str, str] = {}
    for uid, udir in users:
        try:
            acct = account_user_id(udir)
        except (InputError, OSError, ValueError):   # an unreadable profile: that user's run reports it
            continue
        other = claimed.get(acct) or (acct if acct != uid and acct in folders else None)
        if other is not None and other != uid:
            ppath = Path(udir) / "profile.json"
            raise InputError(ppath, f"user_id {acct!r} is also claimed by users/{other} (users/{uid} and "
                             f"users/{other} cannot both be that account; fix one profile.json, or pass "
                             "--allow-duplicate-ids to run both under their folder names)", field="user_id")
        claimed[acct] = uid


def run_batch(bench_dir: Path, out_dir: Path, *, system: str = "argus", backend: str = "offline",
              config: dict[str, Any] | None = None, budget: float = 20.0, workers: int = 1,
              executor: str = "local", on_result: Callable[[UserResult], None] | None = None,
              on_start: Callable[[int], None] | None = None, cache_from: Path | None = None,
              limit: int | None = None, allow_duplicate_ids: bool = False) -> BatchSummary:
    from core.baselines import system_names

    if system not in system_names():
        raise InputError("--system", f"unknown system {system!r} (one of {', '.join(system_names())})")
    if executor not in EXECUTORS:
        raise InputError("--executor", f"unknown executor {executor!r} (one of {', '.join(EXECUTORS)})")
    if workers < 1:
        raise InputError("--workers", f"must be >= 1 (got {workers})")
    if backend != "offline":
        from core.engine.backend import available_backends

        if backend not in available_backends():
            raise InputError("--backend", f"unknown backend {backend!r} (known: {', '.join(available_backends())})")
    users = user_dirs(Path(bench_dir))
    if limit:
        users = users[:limit]
    check_account_ids(Path(bench_dir), users, allow_duplicates=allow_duplicate_ids)
    out_dir = Path(out_dir)
    from db.store import private_dir

    private_dir(out_dir)
    spec = BatchSpec(bench_dir=str(Path(bench_dir).resolve()), out_dir=str(out_dir.resolve()), system=system,
                     backend=backend, budget=budget, config=dict(config or {}))
    from db.store import open_append_private, open_db, write_private

    open_db(out_dir / "runs.db").conn.close()     # create + migrate once before workers start
    from db.runlock import claim_batch

    claim_batch(out_dir / "runs.db")               # a second batch on this OUT_DIR: a clear error
    _seed_cache(out_dir / "runs.db", cache_from)
    if executor == "ray":
        from db.merge import merge_shards

        merge_shards(out_dir)                      # shards left by an interrupted run
    # a Ray task holds one CPU; local workers share the cores (the in-process one has them all)
    threads = 1 if executor == "ray" else threads_per_worker(workers)
    write_private(out_dir / BATCH_FILE, json.dumps({"format": "argus-batch/1", **spec.model_dump(), "key": spec.key,
                                                    "executor": executor, "workers": workers,
                                                    "threads_per_worker": threads}, indent=1))
    summary = BatchSummary(spec=spec, executor=executor, workers=workers, threads_per_worker=threads,
                           users=len(users))
    if on_start:
        on_start(len(users))
    t0 = time.perf_counter()
    recorded = _recorded_runs(out_dir / RESULTS_FILE, spec.key)
    with open_append_private(out_dir / RESULTS_FILE) as fh:
        def emit(r: UserResult) -> None:
            # a user skipped as finished in an earlier batch already has its row: one row per run
            if not (r.status == "skipped" and (r.user_id, r.run_id) in recorded):
                fh.write(json.dumps({"key": spec.key, **r.model_dump()}, ensure_ascii=False) + "\n")
                fh.flush()
                recorded.add((r.user_id, r.run_id))
            summary.results.append(r)
            if r.status == "failed":
                summary.failed.append(r)
            elif r.status == "skipped":
                summary.skipped += 1
            else:
                summary.done += 1
            if on_result:
                on_result(r)

        if executor == "ray":
            from core.batch.ray_exec import run_ray

            run_ray(spec, users, emit, workers)
        elif workers == 1:
            from core.batch.local import run_inprocess

            run_inprocess(spec, users, emit)
        else:
            from core.batch.local import run_pool

            run_pool(spec, users, emit, workers)
    summary.seconds = round(time.perf_counter() - t0, 3)
    return summary


__all__ = ["BatchSpec", "BatchSummary", "EXECUTORS", "run_batch"]
