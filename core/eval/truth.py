"""The only loader of truth files (evaluation and the benchmark validator use it).

The investigation engine never calls this module: the adversary's view is core.loader.
"""
from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from core.errors import InputError
from core.loader import read_json
from core.models import Truth

TRUTH_FILE = "truth.json"


def truth_path(user_dir: str | Path) -> Path:
    """The truth file of a user folder (a path to the file itself is accepted too)."""
    p = Path(user_dir)
    return p if p.name == TRUTH_FILE else p / TRUTH_FILE


def read_truth_data(user_dir: str | Path) -> object:
    """The raw JSON of a user's truth file (for the validator, which checks it piece by piece)."""
    return read_json(truth_path(user_dir))


def _loc(loc: tuple) -> str:
    return ".".join(str(p) for p in loc) or "(root)"


def load_truth(user_dir: str | Path) -> Truth:
    """A user's ground truth as a validated `Truth`. Raises InputError naming file and field
    (e.g. `leaked.2.sensitivity`) for a missing file, broken JSON or a value of the wrong shape."""
    path = truth_path(user_dir)
    data = read_json(path)
    if not isinstance(data, dict):
        raise InputError(path, "truth must be a JSON object")
    try:
        return Truth.model_validate(data)
    except ValidationError as e:
        err = e.errors()[0]
        raise InputError(path, err["msg"], field=_loc(err["loc"])) from e
