"""Threads per batch worker, so workers x threads fit the machine's usable cores.

ONNX Runtime (RapidOCR) starts one intra-op thread per core in every process, and its threads
spin while waiting: N workers on N cores each running N threads made 2 workers on 2 cores
slower than one. Each worker process therefore gets max(1, cores // workers) threads, set in
its environment before any runtime loads: `ARGUS_OCR_THREADS` (read by tools/ocr.py for
onnxruntime's intra_op_num_threads), `ARGUS_EMBED_THREADS` and the usual OpenMP/BLAS
variables (the embedder, tools/e5_numpy.py, runs on numpy's BLAS threads). A value the user set explicitly is kept.
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Iterator

THREAD_VARS = ("ARGUS_OCR_THREADS", "ARGUS_EMBED_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS",
               "MKL_NUM_THREADS")


def usable_cores() -> int:
    """Cores this process may run on (CPU affinity, e.g. under taskset or a container's cpuset)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):   # not Linux
        return max(1, os.cpu_count() or 1)


def threads_per_worker(workers: int, cores: int | None = None) -> int:
    return max(1, (cores or usable_cores()) // max(1, workers))


def thread_env(threads: int) -> dict[str, str]:
    """The variables to set for a worker with `threads` threads (those the user set are left out)."""
    return {k: str(threads) for k in THREAD_VARS if not os.environ.get(k, "").strip()}


@contextmanager
def worker_threads(workers: int) -> Iterator[int]:
    """Set the thread variables in this process while worker processes are started from it (they
    inherit the environment, before they import numpy or onnxruntime); restored afterwards."""
    n = threads_per_worker(workers)
    env = thread_env(n)
    os.environ.update(env)
    try:
        yield n
    finally:
        for k in env:
            os.environ.pop(k, None)
