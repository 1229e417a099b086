"""Set-up (issue 37): `make demo` installs only what the demo needs, with pip's progress on screen;
the test extras stay in `make test`; `license` is an SPDX expression (PEP 639); the files Argus
never loads are removed after install (core/venv_trim.py). The venv size is measured, not asserted
(it takes a fresh install from the package index): benchmarks/demo_setup.py (README "On a fresh
machine")."""
from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEST_ONLY = ("pytest", "ray", "av", "datasette", "pillow-heif", "pytest-asyncio", "pytest-textual-snapshot")


def _name(req: str) -> str:
    return re.split(r"[<>=!~\[; ]", req.strip(), maxsplit=1)[0].lower()


def _recipe(target: str) -> str:
    mk = (ROOT / "Makefile").read_text(encoding="utf-8")
    m = re.search(rf"^{re.escape(target)}:[^\n]*\n((?:\t[^\n]*\n)*)", mk, re.M)
    assert m, target
    return m.group(0)


def _make_plan(target: str) -> str:
    """What `make TARGET` would run on a fresh checkout (make -n: nothing is executed)."""
    r = subprocess.run(["make", "-n", "-B", target, "VENV=/nonexistent-venv", "PY=python3.11"], cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_demo_installs_no_test_extra_and_shows_progress() -> None:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    base = {_name(d) for d in meta["dependencies"]}
    assert not base & set(TEST_ONLY), base & set(TEST_ONLY)
    assert {"pytest", "ray", "av", "datasette"} <= {_name(d) for d in meta["optional-dependencies"]["test"]}
    demo = _make_plan("demo")
    installs = [ln for ln in demo.splitlines() if "pip install" in ln and "--upgrade pip" not in ln]
    assert installs and all("[test]" not in ln and " -q" not in ln for ln in installs), installs
    assert "argus demo" in demo
    # lean: pip compiles nothing ahead (Python compiles what a command imports, ~12 of ~75 MB), and
    # the venv's setuptools goes (nothing imports it; builds run in pip's isolated environment)
    assert all("--no-compile" in ln for ln in installs if " -e ." in ln), installs
    assert any(re.search(r"pip uninstall -y setuptools$", ln) for ln in demo.splitlines()), demo
    # pip upgrades itself without compiling, and the files Argus never loads go after each install
    # of Argus's dependencies (core/venv_trim.py, tests/test_venv_trim.py)
    lines = demo.splitlines()
    upgrades = [ln for ln in lines if "--upgrade pip" in ln]
    assert upgrades and all("--no-compile" in ln for ln in upgrades), upgrades
    pips = [ln for ln in lines if "/bin/pip " in ln]
    assert pips and all(ln.startswith("PYTHONDONTWRITEBYTECODE=1 ") for ln in pips), pips
    at = next(i for i, ln in enumerate(lines) if "pip install" in ln and " -e ." in ln)
    assert any(re.search(r"/bin/python -m core\.venv_trim$", ln) for ln in lines[at + 1:]), demo
    assert demo.index("-m core.venv_trim") < demo.index("argus demo"), demo
    test = _make_plan("test")
    assert any("'.[test]'" in ln and " -q " not in ln for ln in test.splitlines() if "pip install" in ln), test


def test_license_is_an_spdx_expression_and_setuptools_reads_it() -> None:
    doc = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert doc["project"]["license"] == "MIT"
    req = next(r for r in doc["build-system"]["requires"] if _name(r) == "setuptools")
    assert int(re.search(r">=\s*(\d+)", req).group(1)) >= 77    # PEP 639 license strings: setuptools 77+
