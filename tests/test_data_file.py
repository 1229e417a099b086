"""The one reader of data files (core/data_file.py): a fault is one line naming the file, the entry
and the field; with `key` a list entry is named by that field ("entries[3] (arvo): field strength"),
which regionalisms.json reads through, as tools/data/transit.json does (the tools never import the engine)."""
from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from pydantic import BaseModel

from core.data_file import load_model
from core.engine.rules import regionalisms


class _Item(BaseModel):
    name: str
    size: int


class _File(BaseModel):
    items: list[_Item]


def test_a_keyed_list_entry_is_named_by_its_key(tmp_path: Path) -> None:
    p = tmp_path / "things.json"
    p.write_text(json.dumps({"items": [{"name": "a", "size": 1}, {"name": "lamp", "size": "big"}]}))
    with pytest.raises(ValueError, match=r"things\.json: items\[1\] \(lamp\): field size: "):
        load_model(p, _File, ValueError, key="name")
    with pytest.raises(ValueError, match=r"things\.json: field items\.1\.size: "):
        load_model(p, _File, ValueError)


def test_regionalisms_file_reads_through_the_shared_reader(tmp_path: Path) -> None:
    raw = json.loads(regionalisms.PATH.read_text(encoding="utf-8"))
    raw["entries"][3] = {**raw["entries"][3], "strength": 1.5}
    p = tmp_path / "regionalisms.json"
    p.write_text(json.dumps(raw))
    with pytest.raises(regionalisms.RegionalismError, match=r"regionalisms\.json: entries\[3\] \(.+\): field strength"):
        load_model(p, regionalisms.RegionalFile, regionalisms.RegionalismError, key="term")
    src = regionalisms.__file__
    assert "json.loads" not in Path(src).read_text(encoding="utf-8"), "regionalisms reads through core/data_file.py"


def test_socio_imports_the_taxonomy_at_module_level() -> None:
    tree = ast.parse(Path("core/engine/rules/socio.py").read_text(encoding="utf-8"))
    inner = [n.lineno for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)
             for n in ast.walk(f) if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert inner == []
