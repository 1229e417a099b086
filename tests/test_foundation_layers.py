"""Import layering: core/, tools/ and db/ never import textual, live-UI rich modules or argus_tui;
only evaluation and benchmark tooling name the truth file."""
from __future__ import annotations

import ast
import json
import subprocess
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEADLESS = ("core", "tools", "db")
BANNED = ("textual", "argus_tui", "rich.live", "rich.progress", "rich.status", "rich.prompt")
TRUTH_ALLOWED = (ROOT / "core" / "eval", ROOT / "core" / "bench")


def _py_files(pkg: str) -> list[Path]:
    return sorted(p for p in (ROOT / pkg).rglob("*.py") if "__pycache__" not in p.parts)


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _banned(name: str) -> bool:
    return any(name == b or name.startswith(b + ".") for b in BANNED)


def test_static_scan_finds_no_ui_imports() -> None:
    offenders: list[str] = []
    for pkg in HEADLESS:
        for path in _py_files(pkg):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for node in ast.walk(tree):  # includes imports inside functions (lazy imports count too)
                names: list[str] = []
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
                elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) in (
                        "import_module", "__import__") and node.args and isinstance(node.args[0], ast.Constant):
                    names = [str(node.args[0].value)]
                for n in names:
                    if _banned(n):
                        offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {n}")
    assert not offenders, "\n".join(offenders)


def test_static_scan_sees_a_violation(tmp_path: Path) -> None:
    """The scanner itself can fail: a planted lazy import is caught."""
    src = "def f():\n    from textual.app import App\n    import argus_tui.cli\n"
    tree = ast.parse(src)
    found = [n for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
             for n in ([a.name for a in node.names] if isinstance(node, ast.Import) else [node.module])
             if _banned(n)]
    assert found == ["textual.app", "argus_tui.cli"]


def test_importing_every_headless_module_loads_no_ui(tmp_path: Path) -> None:
    """Each module of core/, tools/, db/ imported in a fresh interpreter; after each import
    sys.modules is checked, so an offender is named even when it imports the UI indirectly."""
    modules = [_module_name(p) for pkg in HEADLESS for p in _py_files(pkg)]
    code = f"""
import importlib, json, sys
banned = {BANNED!r}
def bad():
    return sorted(m for m in sys.modules if any(m == b or m.startswith(b + ".") for b in banned))
result = {{"errors": {{}}, "offenders": {{}}}}
for name in {modules!r}:
    before = set(bad())
    try:
        importlib.import_module(name)
    except Exception as e:  # a broken module is reported, not hidden
        result["errors"][name] = f"{{type(e).__name__}}: {{e}}"
    new = sorted(set(bad()) - before)
    if new:
        result["offenders"][name] = new
print(json.dumps(result))
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["offenders"] == {}, result["offenders"]
    # A module that fails to import (another area's work in progress) is that area's test failure;
    # the static scan above still covers its source. Most modules must have been checked here.
    if result["errors"]:
        warnings.warn(f"modules not importable, checked statically only: {sorted(result['errors'])}")
    assert len(modules) >= 10 and len(result["errors"]) < len(modules) / 2, result["errors"]


def test_only_eval_and_bench_name_the_truth_file() -> None:
    offenders = []
    for pkg in ("core", "tools", "db", "argus_tui"):
        for path in _py_files(pkg):
            if any(path.is_relative_to(a) for a in TRUTH_ALLOWED):
                continue
            if "truth.json" in path.read_text(encoding="utf-8"):
                offenders.append(str(path.relative_to(ROOT)))
    assert not offenders, offenders
