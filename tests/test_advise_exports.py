"""The advice for other tools, written beside the report by a real audit of a Reddit export:
advice.csv (a spreadsheet, a deletion tool) and advice-edits.json, one row per edit with the post
id, its platform URL (else its date), a caption excerpt, the edit and the attributes it removes;
cells a spreadsheet would read as formulas are quoted."""
from __future__ import annotations

import csv
import json
import stat
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import export_fixtures as fx  # noqa: E402

from core.advise.export import ADVICE_COLUMNS, _cell  # noqa: E402
from core.audit import run_audit  # noqa: E402


def test_audit_writes_the_advice_as_csv_and_json(tmp_path: Path) -> None:
    res = run_audit(fx.zip_dir(fx.reddit(tmp_path / "e"), tmp_path / "r.zip"), tmp_path / "a")
    plan = json.loads(Path(res.advice).read_text())["plan"]
    assert plan["steps"]
    with open(tmp_path / "a" / "advice.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    doc = json.loads((tmp_path / "a" / "advice-edits.json").read_text(encoding="utf-8"))
    assert tuple(rows[0]) == ADVICE_COLUMNS
    assert len(rows) == len(doc["edits"]) == len(plan["steps"])
    for row, js, step in zip(rows, doc["edits"], plan["steps"]):
        assert row["post_id"] == js["post_id"] == step["edit"]["post_id"]
        assert row["edit"] == js["edit"] == step["edit"]["kind"]
        assert js["attributes_removed"] == step["removed"]
        assert row["attributes_removed"] == "; ".join(step["removed"])
        assert row["url"].startswith("https://www.reddit.com/r/") or row["date"]
    cut = next(j for j in doc["edits"] if j["edit"] == "cut_phrase")
    # the comment "My wife and I live near the Red Line, it's fine": its URL, date, excerpt and the whole phrase
    assert cut["url"] == "https://www.reddit.com/r/boston/comments/t1/x/c1/"
    assert cut["date"].startswith("2026-03-02")
    assert cut["phrase"] == "My wife and I live near the Red Line, it's fine" == cut["caption_excerpt"]
    assert cut["attributes_removed"]
    for p in ("advice.csv", "advice-edits.json"):
        assert stat.S_IMODE((tmp_path / "a" / p).stat().st_mode) == 0o600


def test_formula_like_cells_are_quoted() -> None:
    assert _cell("=HYPERLINK(\"x\")") == "'=HYPERLINK(\"x\")"
    assert _cell(["@a", "b"]) == "'@a; b" and _cell("plain") == "plain"
