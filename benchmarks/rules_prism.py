"""Per-attribute hit rates of the offline rules on the PRISM text development set.

    .venv/bin/python benchmarks/rules_prism.py [--data /work/shared/datasets/prism] [--show ATTR]

For each user the cues of the three posts are aggregated (first-person cues only; the value
with the highest summed confidence wins) and compared with target.json by a simple matcher.
Prints, per attribute: predicted (share of users with a value), precision (right among
predicted) and recall (right among all users). Many target values are not inferable from the
posts at all, so recall has a low ceiling. Nothing here is used by the engine.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.engine.rules import extract_cues  # noqa: E402
from core.engine.types import Cue  # noqa: E402

EDU = {"phd": "PhD", "master's degree": "Master's degree", "bachelor's degree": "Bachelor's degree",
       "associate degree": "Associate degree", "high school": "High school", "primary school": "Primary school",
       "no schooling": "No schooling"}
COUNTRY_ALIASES = {"usa": {"united states", "u.s.a.", "usa", "america", "american"}, "uk": {"united kingdom", "u.k.", "uk", "britain", "england", "british"}}


def best(cues: list[Cue], attr: str) -> tuple[str | None, Cue | None]:
    score: dict[str, float] = defaultdict(float)
    rep: dict[str, Cue] = {}
    for c in cues:
        if c.attribute == attr and c.first_person:
            score[c.value] += c.confidence
            if c.value not in rep or c.confidence > rep[c.value].confidence:
                rep[c.value] = c
    if not score:
        return None, None
    v = max(score, key=score.get)
    return v, rep[v]


def values(cues: list[Cue], attr: str, min_conf: float = 0.3) -> set[str]:
    return {c.value for c in cues if c.attribute == attr and c.first_person and c.confidence >= min_conf}


def country_match(pred: str, truth: str) -> bool:
    p, t = pred.lower(), truth.lower()
    names = COUNTRY_ALIASES.get(t, {t})
    return any(n == p or n in p for n in names)


def income_ok(c: Cue | None, truth: str) -> bool:
    if c is None or "annual" not in c.data:
        return False
    a = c.data["annual"]
    if c.data.get("currency") not in ("USD", None):
        return False
    if truth.startswith("<"):
        return a < float(truth[1:])
    if truth.startswith(">"):
        return a > float(truth[1:])
    lo, hi = (float(x) for x in truth.split("-"))
    return lo <= a <= hi


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="/work/shared/datasets/prism")
    ap.add_argument("--show", default=None, help="print misses/false hits of one attribute")
    args = ap.parse_args()
    posts = json.loads(Path(args.data, "posts.json").read_text(encoding="utf-8"))
    target = json.loads(Path(args.data, "target.json").read_text(encoding="utf-8"))
    stats: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])   # predicted, right, total
    n_posts = 0
    extract_cues("I live in Paris. 我住在深圳。")   # builds the gazetteer once, outside the timing
    cpu = 0.0
    shown = 0
    for uid, u in posts.items():
        tgt = target.get(uid)
        if not tgt:
            continue
        cues: list[Cue] = []
        for text in u["posts"].values():
            c0 = time.process_time()
            cues.extend(extract_cues(text))
            cpu += time.process_time() - c0
            n_posts += 1

        def rec(name: str, predicted: bool, right: bool, detail: str = "") -> None:
            nonlocal shown
            s = stats[name]
            s[0] += predicted
            s[1] += right
            s[2] += 1
            if args.show == name and (predicted and not right) and shown < 25:
                shown += 1
                print(f"[{uid}] {detail}")

        v, c = best(cues, "age")
        rec("age (decade)", v is not None, c is not None and c.data.get("levels", {}).get("decade") == f"{tgt['age'] // 10 * 10}s",
            f"pred={v} truth={tgt['age']} span={c.span if c else ''}")
        v, c = best(cues, "education")
        lvl = c.data.get("levels", {}).get("level") if c else None
        rec("education (level)", lvl is not None, lvl is not None and lvl == EDU.get(tgt["education"].lower()), f"pred={lvl} truth={tgt['education']} span={c.span if c else ''}")
        v, c = best(cues, "gender")
        rec("gender", v is not None, v == tgt["sex"], f"pred={v} truth={tgt['sex']} span={c.span if c else ''}")
        v, c = best(cues, "occupation")
        role = c.data.get("levels", {}).get("role") if c else None
        rec("occupation (role)", role is not None, bool(role) and role.lower() == tgt["occupation"].lower(),
            f"pred={role} truth={tgt['occupation']} span={c.span if c else ''}")
        v, c = best(cues, "income_level")
        rec("income (bracket)", v is not None, income_ok(c, tgt["income"]), f"pred={v} truth={tgt['income']} span={c.span if c else ''}")
        v, c = best(cues, "relationship_status")
        rec("relationship_status", v is not None, v == tgt["relationship state"], f"pred={v} truth={tgt['relationship state']} span={c.span if c else ''}")
        v, c = best(cues, "nationality")
        rec("nationality (birth country)", v is not None, v is not None and (country_match(v, tgt["location"]["place of birth"]) or country_match(str(c.data.get("country")), tgt["location"]["place of birth"])),
            f"pred={v} truth={tgt['location']['place of birth']} span={c.span if c else ''}")
        tv = values(cues, "travel_history")
        truth_tr = tgt["location"]["travel history"]
        hit = sum(1 for t in truth_tr if any(country_match(p, t) or t.lower() in p.lower() for p in tv))
        rec("travel_history (any item)", bool(tv), hit > 0, f"pred={sorted(tv)} truth={truth_tr}")
        stats["travel_history (items)"][0] += len(tv)
        stats["travel_history (items)"][1] += hit
        stats["travel_history (items)"][2] += len(truth_tr)
        hv = values(cues, "hobbies")
        th = set(tgt["hobbies"])
        hit = len(hv & th)
        rec("hobbies (any item)", bool(hv), hit > 0, f"pred={sorted(hv)} truth={sorted(th)}")
        stats["hobbies (items)"][0] += len(hv)
        stats["hobbies (items)"][1] += hit
        stats["hobbies (items)"][2] += len(th)
        hv2 = values(cues, "health_condition")
        hs = tgt["health status"]
        key = {"has diabetes": "diabetes", "asthmatic": "asthma", "high blood pressure": "high blood pressure"}.get(hs)
        rec("health_condition", bool(hv2), bool(key) and any(key in x for x in hv2), f"pred={sorted(hv2)} truth={hs}")
        v, c = best(cues, "religion")
        rb = tgt["religious belief"].lower()
        rec("religion", v is not None, v is not None and v.lower() == rb, f"pred={v} truth={rb} span={c.span if c else ''}")
        av = values(cues, "physical_appearance")
        app = tgt["appearance"]
        ok = any(app["hair color"] in x.lower() or app["height"].split()[0] in x or app["weight"].split()[0] in x or app["eye color"] + " eyes" in x.lower() for x in av)
        rec("physical_appearance", bool(av), ok, f"pred={sorted(av)} truth={app}")
        v, c = best(cues, "consumption_level")
        rec("consumption_level (predicted only)", v is not None, False)
    print(f"{'attribute':36} {'predicted':>9} {'precision':>9} {'recall':>7}")
    for name, (p, r, n) in stats.items():
        if "(items)" in name:
            print(f"{name:36} {p:9d} {r / p if p else 0:9.2f} {r / n if n else 0:7.2f}   (item counts)")
        else:
            print(f"{name:36} {p / n:9.2f} {r / p if p else 0:9.2f} {r / n:7.2f}")
    print(f"{n_posts} posts, extract_cues CPU time {1000 * cpu / max(1, n_posts):.2f} ms/post (gazetteer warm)")


if __name__ == "__main__":
    main()
