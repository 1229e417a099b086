"""Same seed -> byte-identical benchmark (whatever the number of rendering processes); another
seed -> a different one. Fonts missing -> a clear error naming the package to install."""
from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from core.bench.generate import generate
from core.bench.generate import images as gen_images
from core.errors import InputError


def _digest(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(root.rglob("*")) if p.is_file()}


def test_same_seed_gives_identical_files(tmp_path):
    a = generate(tmp_path / "a", users=2, seed=11, workers=1)
    b = generate(tmp_path / "b", users=2, seed=11, workers=2)
    da, db = _digest(tmp_path / "a"), _digest(tmp_path / "b")
    assert a.images == b.images and len(da) > 20
    assert da == db
    c = generate(tmp_path / "c", users=2, seed=12, workers=2)
    dc = _digest(tmp_path / "c")
    assert c.users == 2
    changed = [k for k in da if k.endswith(".jsonl") and da.get(k) != dc.get(k)]
    assert changed, "a different seed should give different posts"


def test_force_replaces_only_a_generated_benchmark(tmp_path):
    out = tmp_path / "g"
    generate(out, users=1, seed=3, workers=1)
    with pytest.raises(InputError):
        generate(out, users=1, seed=3, workers=1)
    generate(out, users=1, seed=4, workers=1, force=True)
    assert (out / "manifest.json").is_file()


def test_missing_font_names_the_package(tmp_path, monkeypatch):
    missing = tmp_path / "nofont" / "wqy-microhei.ttc"
    monkeypatch.setitem(gen_images.FONT_PACKAGES, missing, "fonts-wqy-microhei")
    with pytest.raises(InputError) as e:
        generate(tmp_path / "out", users=1, seed=0)
    assert "fonts-wqy-microhei" in e.value.message and "apt-get install" in e.value.message
    assert not (tmp_path / "out").exists()
