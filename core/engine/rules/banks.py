"""The prototype banks of the semantic layer (core/data/prototypes/<version>/*.json): their
statements and topic keywords, read once per process. Read by rules/semantic.py (the cues) and
rules/semantic_anchor.py (the anchor words), so neither imports the other for them."""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

BANK_VERSION = "v1"
BANK_DIR = Path(__file__).resolve().parents[2] / "data" / "prototypes" / BANK_VERSION


@dataclass(frozen=True)
class Prototype:
    bank: str
    attribute: str
    id: str
    value: str
    levels: tuple[tuple[str, str], ...]
    text: str
    lang: str


@lru_cache(maxsize=None)
def bank_keywords(bank: str) -> tuple[str, ...]:
    """A bank's optional topic `keywords` (words that put a sentence on its topic at all)."""
    for p in sorted(BANK_DIR.glob("*.json")):
        doc = json.loads(p.read_text(encoding="utf-8"))
        if doc.get("bank") == bank:
            return tuple(str(k) for k in doc.get("keywords", []))
    return ()


@lru_cache(maxsize=1)
def read_banks() -> tuple[Prototype, ...]:
    """Every prototype statement of the banks (read once per process)."""
    out: list[Prototype] = []
    for p in sorted(BANK_DIR.glob("*.json")):
        try:
            doc = json.loads(p.read_text(encoding="utf-8"))
            bank = str(doc["bank"])
            attr = doc.get("attribute") or ""
            for e in doc["entries"]:
                lv = tuple((str(k), str(v)) for k, v in (e.get("levels") or {}).items())
                for lang in ("en", "zh"):
                    for t in e.get(lang, []):
                        out.append(Prototype(bank, attr, str(e["id"]), str(e.get("value", "")), lv, str(t), lang))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{p}: bad prototype bank ({type(exc).__name__}: {exc})") from exc
    return tuple(out)
