"""The embedder's BLAS threads are capped for the call (tools/blas_threads.py), then restored."""
from __future__ import annotations

import numpy as np
import pytest

from tools import blas_threads, embed


def test_limit_caps_numpys_openblas_during_the_block_and_restores_it() -> None:
    before = blas_threads.current()
    if before is None:
        pytest.skip("numpy is not linked against OpenBLAS here")
    with blas_threads.limit(1):
        assert blas_threads.current() == 1
        a = np.ones((64, 64), dtype=np.float32)
        assert float((a @ a)[0, 0]) == 64.0
    assert blas_threads.current() == before


def test_embed_threads_come_from_the_environment(monkeypatch) -> None:
    monkeypatch.delenv("ARGUS_EMBED_THREADS", raising=False)
    assert embed.embed_threads() == 1
    monkeypatch.setenv("ARGUS_EMBED_THREADS", "3")
    assert embed.embed_threads() == 3
    monkeypatch.setenv("ARGUS_EMBED_THREADS", "many")
    assert embed.embed_threads() == 1


def test_encoding_runs_with_the_capped_count(monkeypatch) -> None:
    seen: list[int | None] = []
    real = embed._model

    class Spy:
        def query(self, texts):
            seen.append(blas_threads.current())
            return real().query(texts)

    monkeypatch.setattr(embed, "_model", lambda: Spy())
    monkeypatch.setenv("ARGUS_EMBED_THREADS", "1")
    v = embed.encode(["I work nights as a nurse on the ward"])
    assert v.shape == (1, embed.DIM)
    if blas_threads.current() is not None:
        assert seen == [1]
