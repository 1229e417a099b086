"""Issue 33 (time per user): py3langid's model is unpacked from its LZMA once into the cache folder and
read from there by every later process (LZMA cost 1.5-4 s per process), with the very same identifier."""
from __future__ import annotations

import pytest
from py3langid.langid import MODEL_FILE, LanguageIdentifier

from core.engine.reading import language_id

SENTENCES = ["Je suis allé au marché avec ma mère hier soir.", "Mi hermana vive en Madrid con su marido.",
             "I grew up near the sea and still miss it every day.", "Suami saya bekerja di Jakarta sebagai dokter."]


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    language_id._identifier.cache_clear()
    yield tmp_path
    language_id._identifier.cache_clear()


def test_the_model_is_unpacked_once_into_the_cache_and_reads_the_same(fresh_cache):
    first = language_id._identifier()
    unpacked = list((fresh_cache / "argus").glob("py3langid-*.npz"))
    assert len(unpacked) == 1 and unpacked[0].stat().st_size > 10_000_000     # the npz, not the 4.6 MB LZMA
    stamp = unpacked[0].stat().st_mtime_ns
    language_id._identifier.cache_clear()
    second = language_id._identifier()                                        # a later process: read, not unpacked
    assert unpacked[0].stat().st_mtime_ns == stamp
    wheel = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    for s in SENTENCES:
        assert first.classify(s) == second.classify(s) == wheel.classify(s)
        assert second.rank(s)[:5] == wheel.rank(s)[:5]


def test_a_damaged_cache_file_falls_back_to_the_wheel(fresh_cache):
    ident = language_id._identifier()
    for p in (fresh_cache / "argus").glob("py3langid-*.npz"):
        p.write_bytes(b"not a zip")
    language_id._identifier.cache_clear()
    assert language_id._identifier().classify(SENTENCES[0]) == ident.classify(SENTENCES[0])
