"""Shared fixtures of the batch tests: one generated 2-user benchmark per test session (made
once, reused by every test_batch_* module), and Argus's first run over it whose tool cache
(OCR) seeds the other systems' run DBs."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ARGUS = str(Path(sys.executable).with_name("argus"))


def _shared(tmp_path_factory, name: str) -> Path:
    return tmp_path_factory.getbasetemp() / name


@pytest.fixture(scope="session")
def gen_bench(tmp_path_factory) -> Path:
    """`argus bench generate --users 2 --seed 0` (the generator's API when the command is absent)."""
    root = _shared(tmp_path_factory, "batch_bench2")
    if (root / "manifest.json").is_file():
        return root
    r = subprocess.run([ARGUS, "bench", "generate", str(root), "--users", "2", "--seed", "0"],
                       capture_output=True, text=True, timeout=600)
    if r.returncode != 0 or not (root / "manifest.json").is_file():
        from core.bench.generate import generate

        if root.exists():
            shutil.rmtree(root)
        generate(root, users=2, seed=0)
    assert json.loads((root / "manifest.json").read_text())["users"]
    return root


@pytest.fixture(scope="session")
def argus_out(gen_bench, tmp_path_factory) -> Path:
    """Argus (offline) over the generated benchmark, through the CLI."""
    out = _shared(tmp_path_factory, "batch_out_argus")
    if not (out / "batch.json").is_file():
        r = subprocess.run([ARGUS, "bench", "run", str(gen_bench), "--out", str(out)], capture_output=True,
                           text=True, timeout=900)
        assert r.returncode == 0, r.stderr
    return out
