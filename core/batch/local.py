"""Local executors: in-process (1 worker, straight into OUT_DIR/runs.db) or a process pool
(N workers). Each pool worker writes its own run DB shard (OUT_DIR/shards/worker-<pid>.db,
seeded once with the tool cache of OUT_DIR/runs.db) and the driver merges the shards into
runs.db at the end: the engine holds its write transaction while a route's tool runs, so
workers sharing one DB would wait on each other ("database is locked" under load).

Tasks are submitted through a bounded window (2 x workers in flight, core/batch/window.py), so neither the parent
nor the pool holds more than a handful of users at a time: memory stays flat however large
the benchmark. Each result is handed to `emit` as soon as it arrives (the caller streams it
to OUT_DIR/results.jsonl and the progress bar).

Each pool worker runs its OCR and embedding runtimes with cores // workers threads
(core/batch/threads.py); the in-process worker leaves the runtimes their defaults (all cores)."""
from __future__ import annotations

import multiprocessing as mp
import os
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Callable, Iterable

from core.batch.task import BatchSpec, run_user
from core.batch.threads import worker_threads
from core.batch.window import run_windowed
from core.engine.batch import UserResult
from db.errors import DBError


_SHARD: Path | None = None


def _die_with_parent(parent: int) -> None:
    """A worker must not outlive the batch driver (kill -9 of the driver would leave it
    investigating orphaned users): Linux PR_SET_PDEATHSIG sends it SIGKILL when the driver
    dies; elsewhere a watchdog thread exits when the parent pid changes."""
    import signal
    import sys
    import threading
    import time

    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)      # PR_SET_PDEATHSIG = 1
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:                              # the driver died before prctl
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="argus-parent-watch", daemon=True).start()


def _init_worker(shard_dir: str, main_db: str, parent: int | None = None) -> None:
    if parent is not None:
        _die_with_parent(parent)
    global _SHARD
    from db.store import open_db
    from db.tool_calls import copy_cache

    _SHARD = Path(shard_dir) / f"worker-{os.getpid()}.db"
    db = open_db(_SHARD)
    try:
        copy_cache(db, main_db)
    finally:
        db.conn.close()


def _run_in_shard(spec: BatchSpec, uid: str, udir: str) -> UserResult:
    assert _SHARD is not None
    return run_user(spec, uid, udir, _SHARD)


def _has_run(db_path: Path, spec: BatchSpec, udir: Path) -> bool:
    """Whether the merged run DB already holds a run of this user with the batch's key
    (finished: skipped; unfinished after a kill: resumed there, never restarted in a shard)."""
    from core.engine.batch import _existing_run
    from db.store import open_db

    db = open_db(db_path)
    try:
        return _existing_run(db, udir, spec.key) is not None
    finally:
        db.conn.close()


def run_inprocess(spec: BatchSpec, users: Iterable[tuple[str, Path]], emit: Callable[[UserResult], None]) -> None:
    db_path = Path(spec.out_dir) / "runs.db"
    for uid, udir in users:
        emit(run_user(spec, uid, udir, db_path))


def run_pool(spec: BatchSpec, users: Iterable[tuple[str, Path]], emit: Callable[[UserResult], None],
             workers: int) -> None:
    from db.merge import merge_shards

    db_path = Path(spec.out_dir) / "runs.db"
    shard_dir = Path(spec.out_dir) / "shards"
    merge_shards(Path(spec.out_dir))          # shards left by an interrupted batch
    from db.store import private_dir

    private_dir(shard_dir)
    ctx = mp.get_context("spawn")   # no forked ONNX/SQLite state in children
    it = iter(users)
    window = max(2, 2 * workers)
    try:
        # workers x threads per worker fit the cores (the workers inherit the variables)
        with worker_threads(workers):
            _pool(spec, it, emit, workers, ctx, window, db_path, shard_dir)
    finally:
        merge_shards(Path(spec.out_dir))


def _pool(spec, it, emit, workers, ctx, window, db_path, shard_dir) -> None:
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_init_worker,
                             initargs=(str(shard_dir), str(db_path), os.getpid())) as pool:
        def in_place(uid: str, udir: Path) -> bool:
            if not _has_run(db_path, spec, Path(udir)):
                return False
            # run in an earlier (maybe killed) batch, merged into runs.db: skipped when
            # finished, resumed here when not, so each user keeps exactly one run
            emit(run_user(spec, uid, udir, db_path))
            return True

        def collect(f: Future, uid: str) -> None:
            try:
                emit(f.result())
            except DBError:
                raise                # the disk or DB under OUT_DIR: every user would fail alike
            except Exception as e:  # a worker that died (OOM, signal) fails its user only
                emit(UserResult(user_id=uid, status="failed", error=f"worker: {type(e).__name__}: {e}"))

        run_windowed(it, window, in_place=in_place,
                     submit=lambda uid, udir: pool.submit(_run_in_shard, spec, uid, str(udir)),
                     wait_some=lambda hs: wait(hs, return_when=FIRST_COMPLETED)[0], collect=collect)
