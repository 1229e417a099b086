"""`argus eval` on benchmarks made by the project's own tools (the generator and the PRISM
importer), through the real console script: full oracle 1.0, empty 0.0, coarse oracle equal to
a value recomputed here from the truth files by the spec's rule."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from core.textmatch import normalize
from shared_data import shared_dir

ARGUS = str(Path(sys.executable).with_name("argus"))
PRISM = shared_dir() / "datasets/prism"


def run(*args: str) -> None:
    r = subprocess.run([ARGUS, *args], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr


def coarse_expected(bench: Path) -> float:
    """Coarse oracle = the first level of every hierarchy. By the spec that level is right, and
    so is every deeper level whose value or alias is the same text (Singapore is country, region
    and city); every other kind is predicted in full and scores 1."""
    num = den = 0.0
    for uid in json.loads((bench / "manifest.json").read_text())["users"]:
        truth = json.loads((bench / "users" / uid / "truth.json").read_text(encoding="utf-8"))
        for a in truth["leaked"]:
            g = 1.0
            if a["kind"] == "hierarchy" and a.get("levels"):
                first = normalize(a["levels"][0]["value"])
                depth = max(i + 1 for i, lv in enumerate(a["levels"])
                            if first in {normalize(x) for x in [lv["value"], *lv.get("aliases", [])]})
                g = depth / len(a["levels"])
            num += g * a["sensitivity"]
            den += a["sensitivity"]
    return num / den


def check_oracles(bench: Path, tmp: Path) -> None:
    for mode in ("full", "coarse", "empty"):
        run("bench", "oracle", str(bench), str(tmp / mode), "--mode", mode)
        run("eval", str(bench), str(tmp / mode), "--json", str(tmp / f"{mode}.json"), "--resamples", "50")
    pes = {m: json.loads((tmp / f"{m}.json").read_text())["pes"] for m in ("full", "coarse", "empty")}
    assert pes["full"] == 1.0
    assert pes["empty"] == 0.0
    assert pes["coarse"] == pytest.approx(coarse_expected(bench), abs=1e-4)


def test_generated_benchmark(tmp_path):
    bench = tmp_path / "gen"
    run("bench", "generate", str(bench), "--users", "3", "--seed", "1", "--workers", "1")
    check_oracles(bench, tmp_path)


@pytest.mark.skipif(not (PRISM / "target.json").exists(), reason="PRISM development copy not present")
def test_imported_prism_benchmark(tmp_path):
    bench = tmp_path / "prism"
    run("import", "prism", str(PRISM), str(bench))
    check_oracles(bench, tmp_path)
