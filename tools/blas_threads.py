"""How many threads numpy's BLAS (OpenBLAS) may use while the embedder runs.

The embedder (tools/e5_numpy.py) is numpy float32 GEMM; OpenBLAS starts one thread per core when
numpy loads, so in a process that also runs OCR threads, or next to other workers, the embedder
oversubscribes the machine (measured: embeddings 3 → 9-11 s per user on 2 loaded cores). The count is
set through OpenBLAS's own C API for the duration of a call, since the usual environment variables
only act before numpy is imported. A numpy built on another BLAS leaves the count as it is.
"""
from __future__ import annotations

import ctypes
import glob
import os
from contextlib import contextmanager
from functools import lru_cache
from typing import Callable, Iterator

_NAMES = (("scipy_openblas_get_num_threads64_", "scipy_openblas_set_num_threads64_"),
          ("openblas_get_num_threads64_", "openblas_set_num_threads64_"),
          ("openblas_get_num_threads", "openblas_set_num_threads"))


@lru_cache(maxsize=1)
def _api() -> tuple[Callable[[], int], Callable[[int], None]] | None:
    import numpy

    libdir = os.path.join(os.path.dirname(os.path.dirname(numpy.__file__)), "numpy.libs")
    for path in sorted(glob.glob(os.path.join(libdir, "*openblas*"))):
        try:
            lib = ctypes.CDLL(path)     # already loaded by numpy: the same library, the same threads
        except OSError:
            continue
        for get, set_ in _NAMES:
            if hasattr(lib, get) and hasattr(lib, set_):
                g, s = getattr(lib, get), getattr(lib, set_)
                g.restype = ctypes.c_int
                s.argtypes = [ctypes.c_int]
                return g, s
    return None


def current() -> int | None:
    """Threads numpy's OpenBLAS uses now (None: not OpenBLAS, or not found)."""
    api = _api()
    return int(api[0]()) if api else None


@contextmanager
def limit(n: int) -> Iterator[None]:
    """Run the block with at most `n` BLAS threads, then restore the previous count."""
    api = _api()
    if api is None or n < 1:
        yield
        return
    before = int(api[0]())
    api[1](min(n, before) if before > 0 else n)
    try:
        yield
    finally:
        api[1](before)
