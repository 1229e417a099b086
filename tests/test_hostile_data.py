"""Taint by provenance reads its pointer words, positions, ordinals, vouching and assignments from
core/data/recognizers/hostile.json through the shared recognizer loader (issue 33: they had a file and
a loader of their own): a fault there is one error naming the file, the entry and the field."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import pytest

from core.engine.rules import taint
from core.engine.rules.recognizer_data import DIR, Family, RecognizerDataError


def _copy(tmp_path: Path, edit: Callable[[dict[str, Any]], None]) -> Path:
    raw = json.loads((DIR / "hostile.json").read_text(encoding="utf-8"))
    edit(raw)
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
    return path


def test_a_pointer_pattern_that_is_no_regex_names_the_file_and_the_field(tmp_path):
    path = _copy(tmp_path, lambda raw: raw["patterns"]["neighbour"]["parts"][0]["words"].append("(unclosed"))
    with pytest.raises(RecognizerDataError, match=r"hostile\.json: field patterns\.neighbour: not a regex"):
        Family(path).pattern("neighbour")


def test_an_assignment_list_without_its_reason_is_refused_at_load(tmp_path):
    path = _copy(tmp_path, lambda raw: raw["words"]["assignments"].pop("reason"))
    with pytest.raises(RecognizerDataError, match=r"hostile\.json: field words\.assignments\.reason"):
        Family(path)


def test_positions_and_ordinals_come_from_the_data():
    order = [f"p{i}" for i in range(1, 13)]
    # "third" (en ordinal), 第十二条 (zh: 十 + 二), "post #2" (digits): the n-th from either end
    assert taint.pointed_posts("my third post is accurate", "p5", order) == {"p3", "p10"}
    assert taint.pointed_posts("第十二条是真的", "p5", order) == {"p12", "p1"}
    assert taint.pointed_posts("post #2 is true", "p5", order) == {"p2", "p11"}
