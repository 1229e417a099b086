"""Whether a sentence is about health (core/data/recognizers/health_context.json): a condition word
in a sentence with no such word, in a text that speaks of nobody, is no disclosure (sensitive.py).
Validated at load: a bad file is one clear error naming the file and the field."""
from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ValidationError, field_validator

PATH = Path(__file__).resolve().parents[2] / "data" / "recognizers" / "health_context.json"


class HealthContext(BaseModel):
    schema_: str
    words: dict[str, list[str]]          # language -> words (Latin: word prefixes)

    @field_validator("words")
    @classmethod
    def _nonempty(cls, v: dict[str, list[str]]) -> dict[str, list[str]]:
        for lang, ws in v.items():
            if not ws or any(not w.strip() for w in ws):
                raise ValueError(f"{lang}: an empty word list or an empty word")
        return v


@lru_cache(maxsize=1)
def _pattern() -> re.Pattern[str]:
    try:
        raw = json.loads(PATH.read_text(encoding="utf-8"))
        doc = HealthContext.model_validate({**raw, "schema_": raw.get("schema")})
    except ValidationError as e:
        loc = ".".join(str(x) for x in e.errors()[0]["loc"]).replace("schema_", "schema")
        raise ValueError(f"{PATH}: field {loc}: {e.errors()[0]['msg']}") from e
    except (OSError, ValueError) as e:
        raise ValueError(f"{PATH}: {e}") from e
    latin = sorted({w.lower() for lang, ws in doc.words.items() for w in ws if w.isascii()}, key=len, reverse=True)
    other = sorted({w for lang, ws in doc.words.items() for w in ws if not w.isascii()}, key=len, reverse=True)
    parts = [r"\b(?:" + "|".join(map(re.escape, latin)) + ")"] if latin else []
    parts += [re.escape(w) for w in other]
    return re.compile("|".join(parts), re.I)


def health_context(sentence: str) -> bool:
    return bool(_pattern().search(sentence))
