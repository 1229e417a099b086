"""Local executors: in-process (1 worker) or a process pool (N workers) over one shared
OUT_DIR/runs.db (SQLite WAL; each worker process opens its own connection).

Tasks are submitted through a bounded window (2 x workers in flight), so neither the parent
nor the pool holds more than a handful of users at a time: memory stays flat however large
the benchmark. Each result is handed to `emit` as soon as it arrives (the caller streams it
to OUT_DIR/results.jsonl and the progress bar)."""
from __future__ import annotations

import multiprocessing as mp
import os
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Callable, Iterable

from core.batch.task import BatchSpec, run_user
from core.engine.batch import UserResult


def _init_worker() -> None:
    # every worker is one CPU's worth of work: keep ONNX Runtime/BLAS from oversubscribing
    os.environ.setdefault("OMP_NUM_THREADS", "1")


def run_inprocess(spec: BatchSpec, users: Iterable[tuple[str, Path]], emit: Callable[[UserResult], None]) -> None:
    db_path = Path(spec.out_dir) / "runs.db"
    for uid, udir in users:
        emit(run_user(spec, uid, udir, db_path))


def run_pool(spec: BatchSpec, users: Iterable[tuple[str, Path]], emit: Callable[[UserResult], None],
             workers: int) -> None:
    db_path = Path(spec.out_dir) / "runs.db"
    ctx = mp.get_context("spawn")   # no forked ONNX/SQLite state in children
    it = iter(users)
    window = max(2, 2 * workers)
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_init_worker) as pool:
        pending: dict[Future, str] = {}

        def fill() -> None:
            while len(pending) < window:
                nxt = next(it, None)
                if nxt is None:
                    return
                uid, udir = nxt
                pending[pool.submit(run_user, spec, uid, str(udir), str(db_path))] = uid

        fill()
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for f in done:
                uid = pending.pop(f)
                try:
                    emit(f.result())
                except Exception as e:  # a worker that died (OOM, signal) fails its user only
                    emit(UserResult(user_id=uid, status="failed", error=f"worker: {type(e).__name__}: {e}"))
            fill()
