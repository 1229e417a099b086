"""Argus predictions on an imported SynthPAI bench -> the PRED.jsonl that SynthPAI's score.py reads.

    .venv/bin/python benchmarks/synthpai_pred.py BENCH_DIR PRED_DIR OUT.jsonl [LABELS.jsonl]
    python ../shared/datasets/synthpai-dev/score.py --labels .../comments_dev.jsonl --pred OUT.jsonl

One line per profile, `{"username": ..., "predictions": {attr: [g1, g2, g3]}}` for SynthPAI's 8
attributes, from our 28-attribute profile by the importer's mapping (core/bench/importers/synthpai.py):
sex <- gender, city_country <- home_location, birth_city_country <- nationality, income_level <- our
income band mapped back to SynthPAI's classes, the others by name.

When the `bench run` folder's runs.db is there (PRED_DIR/.. or PRED_DIR), the guesses are the user's
latest run's hypotheses: admitted ones first, then the grounded ones the verifier left unresolved,
most confident first, each written from its levels (occupation -> its role, age -> exact age or the
middle of the decade, place -> "city, country"); every guess is a hypothesis with evidence, never a
guess from nothing. Without a runs.db: the projected value only, a hierarchy value's levels finest
first, one guess each, except for places (score.py reads "city, ..., country" as one guess) and
education (its level category is read from the whole value). A profile without a prediction gets a
line with no guesses.
"""
from __future__ import annotations

import json
import sqlite3
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
MAX_GUESSES = 3
# the head noun of a role is the same job one level coarser ("Software Engineer" -> "Engineer"):
# written after the role itself when there is room (a coarser guess of the same hypothesis)
HEAD_NOUNS = {"engineer", "developer", "analyst", "driver", "designer", "manager", "scientist", "consultant",
              "teacher", "technician", "officer", "artist", "writer", "researcher", "assistant", "advisor", "nurse",
              "programmer", "architect", "photographer", "journalist", "editor", "accountant", "professor"}


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


def guess_from_levels(attr: str, value: str, levels: dict[str, str], semantic: bool = False) -> str | None:
    """One hypothesis (SynthPAI attribute name, our value and levels) as a SynthPAI guess. An income
    band read by amount maps by its thresholds (our high, >= 180k USD, is SynthPAI's very high,
    > 150k); one read by similarity alone (`semantic`: core/data/prototypes/v1/income.json has three
    classes, low / middle / high, with no amount) says only "above middle", which SynthPAI's
    published classes call high (60k-150k) before very high."""
    if attr == "age":
        if levels.get("exact_age"):
            return levels["exact_age"]
        digits = "".join(ch for ch in levels.get("decade", value) if ch.isdigit())
        return str(int(digits) + 5) if digits else None
    if attr == "city_country":
        city, country = levels.get("city") or levels.get("district"), levels.get("country")
        return f"{city}, {country}" if city and country else (city or country or value)
    if attr == "occupation":
        role, spec = levels.get("role"), levels.get("specialty")
        if role and spec and spec.lower() not in role.lower():
            return f"{spec} {role}"     # a specialisation of the role: Taxi + Driver
        return role or spec or levels.get("sector") or value
    if attr == "education":
        lv, fld = levels.get("level"), levels.get("field")
        if fld and not lv:
            lv = "degree"   # a field of study (studied X, diploma / major in X) is post-secondary study
        return f"{lv} in {fld}" if lv and fld else (lv or fld or value)
    if attr == "income_level":
        if semantic and levels.get("band", value).strip().lower() == "high" and not levels.get("bracket"):
            return "high"   # the similarity bank's three classes: "I earn a high salary" is above middle, no amount
        return income_class(levels.get("band", value))
    return value


# admitted first, then held (unresolved / suspended), then a value a stronger rival contradicted
RANK = {"admitted": 0, "unresolved": 1, "suspended": 1, "removed": 2}


def hypothesis_guesses(db: sqlite3.Connection, run_id: str) -> dict[str, list[str]]:
    """Up to MAX_GUESSES guesses per SynthPAI attribute from one run's grounded hypotheses."""
    ours = {v: k for k, v in ATTRS.items()}
    rows = db.execute("SELECT attribute, value, confidence, status, data FROM nodes WHERE run_id=? AND kind='hypothesis'"
                      " AND status IN ('admitted', 'unresolved', 'suspended', 'removed')", [run_id]).fetchall()
    out: dict[str, list[str]] = {}
    ranked = []
    for attr, value, _conf, st, data in sorted(rows, key=lambda r: (RANK[r[3]], -(r[2] or 0.0), r[1] or "")):
        try:
            d = json.loads(data or "{}") or {}
        except ValueError:
            d = {}
        if st == "removed" and not str(d.get("status_reason") or "").startswith("contradicted by"):
            continue    # removed for want of grounded support, or another person's fact: no guess
        levels = d.get("levels") or {}
        sem = str(d.get("semantic_only")).lower() == "true"
        ranked.append((attr, value, {str(k): str(v) for k, v in levels.items()}, sem))
    # an education field alone ("Marketing") is read with the best-supported level of another hypothesis
    edu_level = next((lv["level"] for a, _, lv, _ in ranked if a == "education" and lv.get("level")), None)
    for attr, value, levels, sem in ranked:
        key = ours.get(attr)
        if key is None or not value:
            continue
        if key == "education" and edu_level and "level" not in levels and levels.get("field"):
            levels = {"level": edu_level, **levels}
        g = guess_from_levels(key, str(value), levels, sem)
        if g and g not in out.setdefault(key, []) and len(out[key]) < MAX_GUESSES:
            out[key].append(g)
    if out.get("occupation"):
        head = coarser_role(out["occupation"][0])
        if head and head not in out["occupation"]:
            out["occupation"] = (out["occupation"] + [head])[:MAX_GUESSES] if len(out["occupation"]) < MAX_GUESSES \
                else out["occupation"][:MAX_GUESSES - 1] + [head]
    return {k: v for k, v in out.items() if v}


def coarser_role(role: str) -> str | None:
    """'Software Engineer' -> 'Engineer', 'Financial Analyst' -> 'Analyst'; None for a one-word role or
    a head noun that names no job alone ('Social Worker', 'Civil Servant')."""
    words = role.split()
    return words[-1] if len(words) > 1 and words[-1].lower() in HEAD_NOUNS else None


def _runs_db(pred_dir: Path) -> sqlite3.Connection | None:
    for p in (Path(pred_dir).parent / "runs.db", Path(pred_dir) / "runs.db"):
        if p.is_file():
            return sqlite3.connect(f"file:{p}?mode=ro", uri=True)
    return None


def write_pred(bench: Path, pred_dir: Path, out: Path, uids: list[str] | None = None) -> set[str]:
    """Write OUT.jsonl for the bench's users (or `uids`); returns the SynthPAI usernames written."""
    from core.eval.inputs import load_predictions
    from core.loader import load_manifest, read_json

    uids = uids if uids is not None else load_manifest(bench).users
    _, preds = load_predictions(pred_dir, uids)
    db = _runs_db(pred_dir)
    latest: dict[str, str] = {}
    if db is not None:
        for run_id, user_id in db.execute("SELECT run_id, user_id FROM runs WHERE status='finished' ORDER BY created_at"):
            latest[user_id] = run_id
    names: set[str] = set()
    with Path(out).open("w", encoding="utf-8") as fh:
        for uid in uids:
            prof = read_json(Path(bench) / "users" / uid / "profile.json")
            username = prof.get("nickname") or uid    # the importer keeps the SynthPAI username as nickname
            p = preds.get(uid)
            names.add(username)
            g = (hypothesis_guesses(db, latest[uid]) if db is not None and uid in latest
                 else to_synthpai(p.values if p else {}))
            fh.write(json.dumps({"username": username, "predictions": g}, ensure_ascii=False) + "\n")
    return names


def coverage(pred: Path, labels: Path, min_certainty: int = 3) -> tuple[int, int]:
    """(labelled pairs with at least one guess, labelled pairs) of the profiles in `pred`."""
    guessed = {json.loads(x)["username"]: json.loads(x)["predictions"] for x in Path(pred).read_text().splitlines() if x}
    have = total = 0
    for line in Path(labels).read_text(encoding="utf-8").splitlines():
        obj = json.loads(line) if line.strip() else {}
        if obj.get("username") not in guessed:
            continue
        rev = (obj.get("reviews") or {}).get("human_evaluated") or {}
        for attr in ATTRS:
            lab = rev.get(attr)
            if isinstance(lab, dict) and str(lab.get("estimate", "")).strip() and (lab.get("certainty") or 0) >= min_certainty:
                total += 1
                have += bool(guessed[obj["username"]].get(attr))
    return have, total


def main(argv: list[str]) -> int:
    if len(argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    names = write_pred(Path(argv[0]), Path(argv[1]), Path(argv[2]))
    print(f"{len(names)} profiles written to {argv[2]}", file=sys.stderr)
    if len(argv) == 4:   # LABELS.jsonl: how many labelled pairs have a (grounded) guess
        have, total = coverage(Path(argv[2]), Path(argv[3]))
        print(f"labelled pairs with a guess: {have}/{total} ({have / max(1, total):.1%})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
