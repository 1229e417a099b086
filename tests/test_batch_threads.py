"""Batch workers x threads per worker fit the usable cores (core/batch/threads.py)."""
from __future__ import annotations

import multiprocessing as mp
import os
from concurrent.futures import ProcessPoolExecutor

import pytest

from core.batch.threads import THREAD_VARS, threads_per_worker, usable_cores, worker_threads


def _child_view() -> tuple[dict[str, str | None], int | None]:
    """What a spawned worker sees: the thread variables and the OCR engine's thread setting."""
    from tools.ocr import RapidOcrEngine

    return {k: os.environ.get(k) for k in THREAD_VARS}, RapidOcrEngine().threads


def test_threads_per_worker_divides_the_cores():
    assert threads_per_worker(1, cores=2) == 2
    assert threads_per_worker(2, cores=2) == 1
    assert threads_per_worker(3, cores=2) == 1        # never 0
    assert threads_per_worker(2, cores=8) == 4
    assert threads_per_worker(3, cores=8) == 2
    assert 1 <= usable_cores() <= (os.cpu_count() or 1)


def test_spawned_workers_inherit_their_share_and_the_parent_is_restored(monkeypatch):
    for k in THREAD_VARS:
        monkeypatch.delenv(k, raising=False)
    monkeypatch.setenv("MKL_NUM_THREADS", "7")          # a value the user set is kept
    want = max(1, usable_cores() // 2)
    with worker_threads(2) as n:
        assert n == want
        with ProcessPoolExecutor(max_workers=1, mp_context=mp.get_context("spawn")) as pool:
            env, ocr_threads = pool.submit(_child_view).result(timeout=120)
    assert ocr_threads == want
    assert env["ARGUS_OCR_THREADS"] == env["OMP_NUM_THREADS"] == env["ARGUS_EMBED_THREADS"] == str(want)
    assert env["MKL_NUM_THREADS"] == "7"
    assert all(os.environ.get(k) is None for k in THREAD_VARS if k != "MKL_NUM_THREADS")
    assert os.environ["MKL_NUM_THREADS"] == "7"


@pytest.mark.parametrize("workers", [2])
def test_batch_records_threads_per_worker(gen_bench, tmp_path, workers):
    import json

    from core.batch import run_batch

    s = run_batch(gen_bench, tmp_path / "out", system="textllm", workers=workers, limit=2)
    doc = json.loads((tmp_path / "out" / "batch.json").read_text())
    assert s.threads_per_worker == doc["threads_per_worker"] == threads_per_worker(workers)
    assert s.done == 2 and not s.failed


from batch_fixtures import gen_bench  # noqa: E402,F401  (fixture)
