"""Issue 33 (shrinking the reading): the recognizer data files' one schema. A language is checked once
(the recognizer block declares codes; any other key of a list or map is refused as undeclared), the
base scores of a block and of a family file are one type, and the labels read as they stand are a
data table (labels.json maps.plain), not one Python branch each."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from core.engine.rules import extract_cues, labels
from core.engine.rules.recognizer_data import DIR, Family, RecognizerDataError, family


def _broken(tmp_path: Path, name: str, edit) -> Path:  # noqa: ANN001
    d = json.loads((DIR / f"{name}.json").read_text(encoding="utf-8"))
    edit(d)
    p = tmp_path / f"{name}.json"
    p.write_text(json.dumps(d, ensure_ascii=False), encoding="utf-8")
    return p


def test_a_declared_language_that_is_no_code_is_one_line_naming_file_and_field(tmp_path: Path) -> None:
    p = _broken(tmp_path, "socio", lambda d: d["recognizer"]["languages"].append("english"))
    with pytest.raises(RecognizerDataError) as e:
        Family(p)
    msg = str(e.value)
    assert msg.startswith(f"{p}: field recognizer.languages.") and "\n" not in msg, msg


def test_a_zero_or_too_high_score_names_the_rule_id(tmp_path: Path) -> None:
    for value in (0, 1.5):
        def edit(d, value=value):  # noqa: ANN001,ANN202
            d["scores"]["entries"]["education:level"] = value
        p = _broken(tmp_path, "socio", edit)
        with pytest.raises(RecognizerDataError, match=re.escape(f"{p}: field scores.entries: ") + r".*'education:level'"):
            Family(p)


def test_labels_read_as_they_stand_come_from_the_data_table() -> None:
    plain = family("labels").map("plain")
    assert labels._PLAIN == plain and set(plain) == {"organization", "position", "school", "faculty", "major"}
    text = "Employer: Leeds General\nPosition: Staff Nurse\nSchool: Leeds Beckett\nFaculty: Health\nMajor: Nursing"
    cues = {c.cue: c for c in extract_cues(text, carrier="document")}
    for kind, (attribute, level, offset) in plain.items():
        c = cues[f"label:{kind}"]
        assert (c.attribute, c.confidence) == (attribute, 0.75 + offset) and level in c.data.levels, kind
    # a department label is no workplace (issue 37 item 7), on a document or not
    assert not [c for c in extract_cues("Department: Radiology", carrier="document") if c.attribute == "workplace"]
