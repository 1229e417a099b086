"""Reading what the evaluator scores: truth files and a predictions directory.

Predictions: `PRED_DIR/<user_id>.json` for each user of the manifest (or, when PRED_DIR holds
none of them but has a `predictions/` folder, as written by `argus bench run`, that folder).
A missing file is "missing" (every leaked attribute of that user scores 0); a file that is
present but unreadable or malformed is an InputError (exit 2) naming file and field.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from pydantic import ValidationError

from core.errors import InputError
from core.loader import read_json
from core.models import Predictions
from core.schema import load_schema
from core.textmatch import normalize

MAX_VALUE_CHARS = 10_000  # one attribute's value; longer is treated as malformed (hostile input)


def _first_error(e: ValidationError) -> tuple[str, str]:
    err = e.errors()[0]
    return ".".join(str(p) for p in err["loc"]) or "(root)", err["msg"]


@lru_cache(maxsize=4096)
def slot_of(attribute: str) -> str:
    """The attribute slot a name fills: a schema name, or a natural-language name resolved
    through the schema's aliases; names outside the schema keep their normalised text."""
    spec = load_schema().resolve(attribute)
    return spec.name if spec is not None else "?" + normalize(attribute)


def is_schema_slot(slot: str) -> bool:
    return not slot.startswith("?")


@dataclass
class UserPredictions:
    user_id: str
    path: Path
    values: dict[str, str]  # slot -> first predicted value
    names: dict[str, str]  # slot -> attribute name as written in the file
    ignored_duplicates: int = 0
    unrecognised: list[str] = field(default_factory=list)


def _coerce_value(v: object) -> object:
    """Numbers become text ('34'); a list of strings becomes one '; '-joined value."""
    if isinstance(v, bool):
        return v
    if isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, list) and all(isinstance(x, str) for x in v):
        return "; ".join(v)
    return v


def read_predictions(path: Path, user_id: str) -> UserPredictions:
    data = read_json(path)
    if not isinstance(data, dict):
        raise InputError(path, "predictions must be a JSON object")
    attrs = data.get("attributes")
    if isinstance(attrs, list):
        kept = []
        for i, a in enumerate(attrs):
            if not isinstance(a, dict):
                raise InputError(path, "must be an object", field=f"attributes.{i}")
            if "value" in a and (a["value"] is None or (isinstance(a["value"], str) and not a["value"].strip())):
                continue  # an explicit null/empty value is no claim; an absent `value` key is malformed
            if isinstance(a.get("value"), str) and len(a["value"]) > MAX_VALUE_CHARS:
                raise InputError(path, f"value longer than {MAX_VALUE_CHARS} characters", field=f"attributes.{i}.value")
            kept.append({**a, "value": _coerce_value(a["value"])} if "value" in a else a)
        data = {**data, "attributes": kept}
    if data.get("user_id") is None:
        data = {**data, "user_id": user_id}  # an absent user_id is taken from the file name
    try:
        preds = Predictions.model_validate(data)
    except ValidationError as e:
        fld, msg = _first_error(e)
        raise InputError(path, msg, field=fld) from e
    if preds.user_id != user_id:
        raise InputError(path, f"user_id is '{preds.user_id}', expected '{user_id}'", field="user_id")
    values: dict[str, str] = {}
    names: dict[str, str] = {}
    dup = 0
    unrecognised: list[str] = []
    for pa in preds.attributes:
        slot = slot_of(pa.attribute)
        if slot in values:
            dup += 1  # the spec scores the first value listed for an attribute
            continue
        values[slot] = pa.value
        names[slot] = pa.attribute
        if not is_schema_slot(slot):
            unrecognised.append(pa.attribute)
    return UserPredictions(user_id, path, values, names, dup, unrecognised)


def predictions_dir(pred_dir: Path, user_ids: list[str]) -> Path:
    pred_dir = Path(pred_dir)
    if not pred_dir.is_dir():
        raise InputError(pred_dir, "predictions directory not found")
    sub = pred_dir / "predictions"
    if sub.is_dir() and not any((pred_dir / f"{u}.json").exists() for u in user_ids):
        return sub
    return pred_dir


def load_predictions(pred_dir: Path, user_ids: list[str]) -> tuple[Path, dict[str, UserPredictions | None]]:
    """(directory actually read, user_id -> predictions or None when the file is missing)."""
    d = predictions_dir(pred_dir, user_ids)
    out: dict[str, UserPredictions | None] = {}
    for uid in user_ids:
        path = d / f"{uid}.json"
        out[uid] = read_predictions(path, uid) if path.exists() else None
    return d, out


def check_batch_bench(bench_dir: Path, pred_dir: Path) -> None:
    """Predictions written by `bench run` carry OUT_DIR/batch.json naming their benchmark; scoring
    them against another benchmark is refused (InputError naming batch.json and `bench_dir`)."""
    pred_dir = Path(pred_dir)
    for cand in (pred_dir / "batch.json", pred_dir.parent / "batch.json" if pred_dir.name == "predictions" else None):
        if cand is None or not cand.is_file():
            continue
        try:
            recorded = json.loads(cand.read_text(encoding="utf-8")).get("bench_dir")
        except (json.JSONDecodeError, UnicodeDecodeError, AttributeError):
            raise InputError(cand, "not valid JSON") from None
        if not recorded or not Path(recorded).is_dir():
            return  # the recorded benchmark moved or is gone: nothing to compare with
        if not Path(recorded).samefile(bench_dir):
            raise InputError(cand, f"these predictions were made for the benchmark {recorded}, not {bench_dir} "
                                   f"(score them against that benchmark)", field="bench_dir")
        return
