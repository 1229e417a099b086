"""Argus predictions on an imported SynthPAI bench -> the PRED.jsonl that SynthPAI's score.py reads.

    .venv/bin/python benchmarks/synthpai_pred.py BENCH_DIR PRED_DIR OUT.jsonl
    python ../shared/datasets/synthpai-dev/score.py --labels .../comments_dev.jsonl --pred OUT.jsonl

One line per profile, `{"username": ..., "predictions": {attr: [g1, g2, g3]}}` for SynthPAI's 8
attributes, from our 28-attribute profile by the importer's mapping (core/bench/importers/synthpai.py):
sex <- gender, city_country <- home_location, birth_city_country <- nationality, income_level <- our
income band mapped back to SynthPAI's classes, the others by name. A hierarchy value is written finest
level first ("Chef, Hospitality", "29, 20s"); each level becomes one guess, finest first, except for
places (score.py reads "city, ..., country" as one guess) and education (its level category is read
from the whole value). A profile without a prediction file gets a line with no guesses.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))   # after PYTHONPATH: a run against another checkout uses its engine

# SynthPAI attribute -> our attribute slot
ATTRS = {"age": "age", "sex": "gender", "city_country": "home_location", "birth_city_country": "nationality",
         "education": "education", "occupation": "occupation", "relationship_status": "relationship_status",
         "income_level": "income_level"}
WHOLE = {"city_country", "birth_city_country", "education", "sex", "relationship_status"}


def income_class(value: str) -> str:
    """Our band back to SynthPAI's class (inverse of the importer's INCOME_BANDS); other text as it is."""
    from core.bench.importers.synthpai import INCOME_BANDS

    back = {ours: theirs for theirs, ours in INCOME_BANDS.items() if theirs != "medium"}
    first = value.split(",")[0].strip().lower()
    return back.get(first, value)


def guesses(attr: str, value: str) -> list[str]:
    if attr == "income_level":
        return [income_class(value)]
    if attr in WHOLE:
        return [value]
    return [p.strip() for p in value.split(",") if p.strip()][:3]


def to_synthpai(values: dict[str, str]) -> dict[str, list[str]]:
    return {theirs: guesses(theirs, values[ours]) for theirs, ours in ATTRS.items() if values.get(ours)}


def write_pred(bench: Path, pred_dir: Path, out: Path, uids: list[str] | None = None) -> set[str]:
    """Write OUT.jsonl for the bench's users (or `uids`); returns the SynthPAI usernames written."""
    from core.eval.inputs import load_predictions
    from core.loader import load_manifest, read_json

    uids = uids if uids is not None else load_manifest(bench).users
    _, preds = load_predictions(pred_dir, uids)
    names: set[str] = set()
    with Path(out).open("w", encoding="utf-8") as fh:
        for uid in uids:
            prof = read_json(Path(bench) / "users" / uid / "profile.json")
            username = prof.get("nickname") or uid    # the importer keeps the SynthPAI username as nickname
            p = preds.get(uid)
            names.add(username)
            fh.write(json.dumps({"username": username, "predictions": to_synthpai(p.values if p else {})},
                                ensure_ascii=False) + "\n")
    return names


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    names = write_pred(Path(argv[0]), Path(argv[1]), Path(argv[2]))
    print(f"{len(names)} profiles written to {argv[2]}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
