"""The words of the audit's report and advice exports for people (core/data/audit_report.json):
sentences, sureness, edit instructions and notes, as data; read by core/reports/audit_cards.py and
core/advise/export.py."""
from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any


@lru_cache(maxsize=1)
def words() -> dict[str, Any]:
    return json.loads(resources.files("core").joinpath("data/audit_report.json").read_text(encoding="utf-8"))
