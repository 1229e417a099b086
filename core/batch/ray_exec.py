"""The Ray executor: one Ray task per user, each writing its own run DB shard, merged into
OUT_DIR/runs.db at the end (db/merge.py).

`ray.init()` connects to RAY_ADDRESS when it is set (a cluster) and otherwise starts a local
Ray on this machine (what the tests use). A task returns its user's result, its predictions
JSON and its shard's bytes, and the driver writes both under OUT_DIR, so worker nodes need
the benchmark folder at the same path (shared storage) but no access to OUT_DIR. In-flight
tasks are bounded so the driver's memory stays flat over large benchmarks."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any, Callable, Iterable

from core.batch.task import BatchSpec, predictions_path, run_user
from core.batch.window import run_windowed
from core.engine.batch import UserResult
from core.errors import InputError
from db.store import private_dir, write_private


def _ray():
    try:
        import ray
    except ImportError:
        raise InputError("--executor", "ray is not installed (pip install 'argus-privacy[ray]')") from None
    return ray


def _task(spec_json: str, user_id: str, user_dir: str) -> dict[str, Any]:
    from core.batch.threads import thread_env

    # a task holds one Ray CPU (num_cpus=1): its OCR/embedding runtimes get one thread, not every core
    os.environ.update(thread_env(1))
    spec = BatchSpec.model_validate_json(spec_json)
    with tempfile.TemporaryDirectory(prefix="argus-shard-") as tmp:
        shard = Path(tmp) / f"{user_id}.db"
        res = run_user(spec, user_id, user_dir, shard, write_predictions=False)
        pred = None
        if res.status != "failed" and res.run_id:
            from db.profile import read_profile
            from db.store import checkpoint, open_db

            db = open_db(shard)
            try:
                p = read_profile(db, res.run_id, user_id, spec.system)
                p.system = f"{spec.system}-{spec.backend}"
                pred = p.model_dump_json(indent=1, exclude_none=True)
            finally:
                checkpoint(db)
                db.conn.close()
        blob = shard.read_bytes() if shard.exists() else None
    return {"result": res.model_dump(), "predictions": pred, "shard": blob}


def init_ray(workers: int | None = None) -> None:
    ray = _ray()
    if ray.is_initialized():
        return
    address = os.environ.get("RAY_ADDRESS")
    kwargs: dict[str, Any] = {"ignore_reinit_error": True, "include_dashboard": False, "log_to_driver": False}
    if address:
        kwargs["address"] = address
    else:
        kwargs["num_cpus"] = workers or os.cpu_count() or 1
    # the workers import this project from the driver's environment (same venv on a local Ray;
    # the same install on every node of a cluster, see docs/batch.md)
    ray.init(**kwargs)


def run_ray(spec: BatchSpec, users: Iterable[tuple[str, Path]], emit: Callable[[UserResult], None],
            workers: int) -> None:
    from db.merge import merge_shards

    ray = _ray()
    init_ray(workers)
    remote = ray.remote(num_cpus=1, max_retries=1)(_task)
    out = Path(spec.out_dir)
    shard_dir = out / "shards"
    private_dir(shard_dir)
    spec_json = spec.model_dump_json()
    it = iter(users)
    window = max(2, 2 * workers)

    from core.engine.batch import _existing_run
    from db.store import open_db

    main_db = open_db(out / "runs.db")

    def in_place(uid: str, udir: Path) -> bool:
        prev = _existing_run(main_db, udir, spec.key)
        if prev and prev[1] == "finished":    # done in an earlier batch: skipped here, not redone
            emit(run_user(spec, uid, udir, out / "runs.db"))
            return True
        return False

    def collect(ref: Any, uid: str) -> None:
        try:
            doc = ray.get(ref)
        except Exception as e:  # task crashed after its retry
            emit(UserResult(user_id=uid, status="failed", error=f"ray task: {type(e).__name__}: {e}"))
            return
        if doc.get("shard"):
            tmp = shard_dir / f"{uid}.db.part"
            tmp.write_bytes(doc["shard"])
            tmp.replace(shard_dir / f"{uid}.db")
        if doc.get("predictions"):
            pf = predictions_path(spec, uid)
            write_private(pf, doc["predictions"])
        emit(UserResult.model_validate(doc["result"]))

    run_windowed(it, window, in_place=in_place,
                 submit=lambda uid, udir: remote.remote(spec_json, uid, str(Path(udir).resolve())),
                 wait_some=lambda hs: ray.wait(hs, num_returns=1)[0], collect=collect)
    main_db.conn.close()
    merge_shards(out)
