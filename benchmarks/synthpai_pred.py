"""Argus predictions on an imported SynthPAI bench -> the PRED.jsonl that SynthPAI's score.py reads.

    .venv/bin/python benchmarks/synthpai_pred.py BENCH_DIR PRED_DIR OUT.jsonl [LABELS.jsonl]
    python ../shared/datasets/synthpai-dev/score.py --labels .../comments_dev.jsonl --pred OUT.jsonl

One line per profile, `{"username": ..., "predictions": {attr: [g1, g2, g3]}}` for SynthPAI's 8
attributes, from our 28-attribute profile by the importer's mapping (core/bench/importers/synthpai.py):
sex <- gender, city_country <- home_location, birth_city_country <- nationality, income_level <- our
income band mapped back to SynthPAI's classes, the others by name.

When the `bench run` folder's runs.db is there (PRED_DIR/.. or PRED_DIR), the guesses are the user's
latest run's hypotheses: admitted ones first, then the grounded ones the verifier left unresolved,
each group by the strength of its evidence (rule, several posts, one sentence, one sentence naming a state
of life: synthpai_guesses.json) then most confident first, each written from its levels (occupation -> its role, age -> exact age or the
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
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

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


class GuessRules(BaseModel):
    """benchmarks/synthpai_guesses.json: states of life per attribute, in-progress prototypes."""
    model_config = ConfigDict(extra="ignore")
    schema_: str = Field(alias="schema")
    states: dict[str, list[str]] = {}
    in_progress: dict[str, str] = {}


@lru_cache(maxsize=1)
def guess_rules(path: Path = ROOT / "benchmarks" / "synthpai_guesses.json") -> GuessRules:
    try:
        rules = GuessRules.model_validate_json(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise SystemExit(f"{path}: {str(e).splitlines()[0]}")
    if rules.schema_ != "argus-synthpai-guesses/1":
        raise SystemExit(f"{path}: field schema: expected argus-synthpai-guesses/1, got {rules.schema_!r}")
    return rules


def _support(db: sqlite3.Connection, run_id: str, attr: str, value: str, levels: dict[str, str],
             provenance: str | None) -> tuple[int, set[str]]:
    """(distinct posts whose evidence reads this value, the cue ids that read it) from the hypothesis's
    provenance; a cue whose value is not the hypothesis's is another reading on the same post."""
    try:
        ids = [str(x) for x in json.loads(provenance or "[]")]
    except ValueError:
        ids = []
    if not ids:
        return 0, set()
    names = {value.strip().lower(), *(v.strip().lower() for v in levels.values())}
    posts: set[str] = set()
    cues: set[str] = set()
    q = f"SELECT node_id, post_id, data FROM nodes WHERE run_id=? AND kind='evidence' AND node_id IN ({','.join('?' * len(ids))})"
    for node_id, post_id, data in db.execute(q, [run_id, *ids]):
        try:
            found = [c for c in (json.loads(data or "{}") or {}).get("cues") or [] if c.get("attribute") == attr]
        except (ValueError, AttributeError):
            continue
        mine = [c for c in found if str(c.get("value") or "").strip().lower() in names]
        if mine:
            posts.add(post_id or node_id)
            cues.update(str(c.get("cue") or "") for c in mine)
    return len(posts), cues


def evidence_tier(attr: str, levels: dict[str, str], value: str, semantic: bool, posts: int) -> int:
    """How strong a held hypothesis's evidence is, strongest 0: a rule's reading; several posts'
    agreement; one sentence's similarity reading; and last one sentence's similarity reading of a state
    of life (retired, unemployed, ...), which a turn of phrase ("back in the day") reads as easily as a job."""
    if not semantic:
        return 0
    if posts >= 2:
        return 1
    states = {s.lower() for s in guess_rules().states.get(attr, [])}
    named = {value.split(",")[0].strip().lower(), str(levels.get("role") or "").lower()}
    return 3 if states & named else 2


def hypothesis_guesses(db: sqlite3.Connection, run_id: str) -> dict[str, list[str]]:
    """Up to MAX_GUESSES guesses per SynthPAI attribute from one run's grounded hypotheses: by status
    (admitted, held, contradicted), then by the strength of their evidence (evidence_tier), then by
    confidence."""
    ours = {v: k for k, v in ATTRS.items()}
    rows = db.execute("SELECT attribute, value, confidence, status, data, provenance FROM nodes WHERE run_id=?"
                      " AND kind='hypothesis' AND status IN ('admitted', 'unresolved', 'suspended', 'removed')",
                      [run_id]).fetchall()
    out: dict[str, list[str]] = {}
    keyed = []
    for attr, value, conf, st, data, prov in rows:
        try:
            d = json.loads(data or "{}") or {}
        except ValueError:
            d = {}
        if st == "removed" and not str(d.get("status_reason") or "").startswith("contradicted by"):
            continue    # removed for want of grounded support, or another person's fact: no guess
        levels = {str(k): str(v) for k, v in (d.get("levels") or {}).items()}
        sem = str(d.get("semantic_only")).lower() == "true"
        posts, cues = _support(db, run_id, attr or "", value or "", levels, prov)
        tier = evidence_tier(attr or "", levels, value or "", sem, posts)
        keyed.append(((RANK[st], tier, -(conf or 0.0), value or ""), (attr, value, levels, sem, cues)))
    ranked = [x for _, x in sorted(keyed, key=lambda kx: kx[0])]
    # an education field alone ("Marketing") is read with the best-supported level of another hypothesis
    edu_level = next((lv["level"] for a, _, lv, _, _ in ranked if a == "education" and lv.get("level")), None)
    in_progress = guess_rules().in_progress
    for attr, value, levels, sem, cues in ranked:
        key = ours.get(attr)
        if key is None or not value:
            continue
        if key == "education" and edu_level and "level" not in levels and levels.get("field"):
            levels = {"level": edu_level, **levels}
        g = guess_from_levels(key, str(value), levels, sem)
        # a rule's reading decides over a similarity reading of the same value (a rule read "balancing
        # study & part-time gigs" as in progress where the bank read a degree held in the next post)
        ruled = {c for c in cues if not c.startswith("semantic:")}
        forms = {in_progress.get(c) for c in (ruled or cues)}
        written = [g] if g else []
        if g and cues and len(forms) == 1 and None not in forms:
            # read only as a degree being studied for: in progress first, the degree itself (what the
            # prototype projects to) as the coarser guess of the same reading
            written = [next(iter(forms)).format(level=g), g]
        for w in written:
            if w not in out.setdefault(key, []) and len(out[key]) < MAX_GUESSES:
                out[key].append(w)
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
