"""The language of a sentence (issue 33): py3langid (a maintained fork of langid.py: a naive Bayes
model over byte n-grams, 97 languages, the model shipped inside its wheel -- offline, no download
at run time) with a normalised confidence. A short or mixed sentence gets a low confidence; the
language packs (reading/lang.py) then fall back to their own words."""
from __future__ import annotations

import lzma
import os
import shutil
import tempfile
import zipfile
from functools import lru_cache
from importlib.metadata import version
from pathlib import Path
from typing import Any

# a sentence this short says too little for a byte n-gram model ("lol same" reads as Tagalog)
MIN_LETTERS = 12


def cache_dir() -> Path:
    """Where the unpacked model is kept between runs: $XDG_CACHE_HOME/argus (default ~/.cache/argus)."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "argus"


def _unpacked(packed: Path) -> Path | None:
    """The wheel's model (an .npz inside LZMA: 4.6 MB that unpack to 68 MB, 1.5-4 s of LZMA per process,
    which py3langid pays on every load) unpacked once into the cache folder, named by py3langid's
    version and the packed file's size so a new wheel unpacks anew. The bytes are the very npz
    py3langid reads, so the identifier is the same. None where the folder cannot be written."""
    st = packed.stat()
    path = cache_dir() / f"py3langid-{version('py3langid')}-{st.st_size}.npz"
    if path.is_file():
        return path
    part: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".part", delete=False) as tmp:
            part = tmp.name
            with lzma.open(packed) as src:
                shutil.copyfileobj(src, tmp, length=1 << 20)
        os.chmod(part, 0o644)             # a cache like any other: readable by the machine's other users
        os.replace(part, path)            # atomic: a parallel worker reads a whole file or none
    except OSError:
        if part is not None:
            Path(part).unlink(missing_ok=True)
        return None
    return path


@lru_cache(maxsize=1)
def _identifier() -> Any:
    # deferred: only a run whose texts name a language pack needs the model
    import numpy as np
    from py3langid.langid import MODEL_DIR, MODEL_FILE, LanguageIdentifier
    from py3langid.modelio import _to_array

    path = _unpacked(MODEL_DIR / MODEL_FILE)
    if path is None:
        return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    try:   # as py3langid.modelio.load_model reads the npz it unpacks, and LanguageIdentifier.from_model_file
        with np.load(path, allow_pickle=False) as data:
            return LanguageIdentifier(np.asarray(data["ptc"]), np.asarray(data["pc"]), data["classes"].tolist(),
                                      _to_array(data["nextmove"]), data["out_feat"].tolist(), norm_probs=True,
                                      tk_row=_to_array(data["nextmove_row"]))
    except (OSError, ValueError, KeyError, zipfile.BadZipFile):     # a damaged cache file: the wheel's model
        return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


@lru_cache(maxsize=16384)
def identify(sentence: str) -> tuple[str, float]:
    """(ISO 639-1 code, confidence 0..1) of one sentence; ("", 0.0) when it has too few letters."""
    if sum(c.isalpha() for c in sentence) < MIN_LETTERS:
        return "", 0.0
    code, p = _identifier().classify(sentence)
    return str(code), round(float(p), 3)
