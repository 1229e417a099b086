"""The field labels that name an employer or a department on a badge or form, read from
core/data/recognizers/workplace_labels.json (knowledge is data). A department label's value is
never a workplace on its own (issue 37 item 7): labels.py keeps it as the unit of the organisation
named on the same document."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel

from core.engine.rules.data_file import Recognizer, load_model

DATA = Path(__file__).resolve().parents[2] / "data" / "recognizers" / "workplace_labels.json"


class WorkplaceLabels(BaseModel):
    recognizer: Recognizer            # the registry's block (rules/registry.py)
    name: str
    about: str
    organization_labels: dict[str, list[str]]
    unit_labels: dict[str, list[str]]


class WorkplaceLabelsError(ValueError):
    """workplace_labels.json does not follow its schema: one line naming the file and the field."""


def load(path: Path = DATA) -> WorkplaceLabels:
    return load_model(path, WorkplaceLabels, WorkplaceLabelsError)


def _alternation(by_lang: dict[str, list[str]]) -> str:
    words = sorted({w.strip() for ws in by_lang.values() for w in ws if w.strip()}, key=len, reverse=True)
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in words)


@lru_cache(maxsize=1)
def patterns() -> tuple[str, str]:
    """(organisation label alternation, unit label alternation) for a regex."""
    d = load()
    return _alternation(d.organization_labels), _alternation(d.unit_labels)
