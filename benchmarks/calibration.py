"""Calibration of the semantic cues on the development sets: reliability tables and thresholds.

    .venv/bin/python benchmarks/calibration.py cues NAME=BENCH [NAME=BENCH ...] [--users N] [--cache DB]
    .venv/bin/python benchmarks/calibration.py claims NAME=RUN_OUT:BENCH [...] [--cap 0.08]

`cues`: every candidate sentence of every user is matched against the prototype banks with no
threshold; each best-per-attribute match that shares a word with its value (the others can only be
hints, core/engine/rules/semantic_anchor.py) is judged against the user's truth (the eval's rules
judge): right (matches the leaked value), wrong (a leaked or hidden value it does not match) or
unknown (the attribute is not in the truth). Prints, per bank, precision by margin over the neutral
statements and the smallest margin whose tail reaches `--precision`; then the reliability of the
stated cue confidence at the shipped thresholds (stated confidence vs observed precision).

`claims`: the projected predictions of `argus bench run` folders, judged the same way: reliability
of the stated confidence of all claims and of semantic-only ones, and the projection threshold on
semantic-only hypotheses (those held below the shipped threshold count as the claims a lower one
would add) that keeps the most right claims with false claims at most `--cap` of all claims.

Benchmarks read truth.json here (this is evaluation, not the engine). Embeddings are cached in
--cache (default /tmp/argus-calibration.db), so a re-run only re-matches.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.engine.rules import semantic  # noqa: E402
from core.engine.rules.semantic_anchor import anchored  # noqa: E402
from core.eval.judge import get_judge  # noqa: E402
from core.loader import load_manifest, load_user, read_json  # noqa: E402
from core.models import Truth, TruthAttribute  # noqa: E402
from core.schema import load_schema  # noqa: E402

MARGINS = [0.0, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.10]
CONF_BINS = [(0.0, 0.2), (0.2, 0.3), (0.3, 0.4), (0.4, 0.5), (0.5, 0.7), (0.7, 0.9), (0.9, 1.01)]


def _truth(bench: Path, uid: str) -> Truth:
    return Truth.model_validate(read_json(bench / "users" / uid / "truth.json"))


def _display(attr: str, levels: dict[str, str], value: str) -> str:
    spec = load_schema().get(attr)
    if spec and spec.kind == "hierarchy" and levels:
        order = [k for k in spec.levels if k in levels]
        return ", ".join(levels[k] for k in reversed(order))
    return value


def judge_value(truth: Truth, attr: str, value: str, judge: Any) -> str:
    """right | miss (a leaked value it does not match) | false (contradicts the hidden profile:
    the eval's false claim) | unknown (attribute not in the truth) for one predicted value."""
    leaked = [t for t in truth.leaked if t.attribute == attr]
    hidden = [t for t in truth.hidden if t.attribute == attr]
    for t in leaked:
        if judge.score(t, value).g > 0:
            return "right"
    if leaked:
        return "miss"
    for t in hidden:
        if judge.score(t, value).g > 0:
            return "right"
    return "false" if hidden else "unknown"


def _wrong(v: str) -> bool:
    return v in ("miss", "false")


def _user_texts(user_dir: Path) -> list[tuple[str, str]]:
    u = load_user(user_dir)
    out = []
    if u.profile.bio:
        out.append(("@profile", str(u.profile.bio)))
    for p in u.posts:
        for t in (p.title, p.caption):
            if t:
                out.append((p.post_id, str(t)))
    return out


def collect_cues(name: str, bench: Path, users: int | None, rec: Any) -> list[dict[str, Any]]:
    from tools.embed import embed

    judge = get_judge("rules")
    banks = semantic.load_banks()
    rows: list[dict[str, Any]] = []
    uids = load_manifest(bench).users[:users] if users else load_manifest(bench).users
    saved = (semantic.MARGIN_DEFAULT, dict(semantic.MARGIN), semantic.SEPARATION)
    semantic.MARGIN_DEFAULT, semantic.SEPARATION = -1.0, -1.0
    semantic.MARGIN.clear()
    try:
        for uid in uids:
            truth = _truth(bench, uid)
            sents = [(pid, t[s:e]) for pid, t in _user_texts(bench / "users" / uid)
                     for s, e in semantic.candidate_sentences(t)][: semantic.MAX_SENTENCES]
            if not sents:
                continue
            vecs = embed(rec, [s for _, s in sents])
            for (pid, s), hits in zip(sents, semantic.match(vecs, banks)):
                for p, sim, margin, _gap in hits:
                    value = _display(p.attribute, dict(p.levels), p.value)
                    rows.append({"set": name, "user": uid, "post": pid, "bank": p.bank, "attribute": p.attribute,
                                 "value": value, "id": p.id, "sim": sim, "margin": margin, "sentence": s,
                                 "anchored": anchored(s, p.bank, p.id),
                                 "verdict": judge_value(truth, p.attribute, value, judge)})
    finally:
        semantic.MARGIN_DEFAULT, semantic.SEPARATION = saved[0], saved[2]
        semantic.MARGIN.update(saved[1])
    return rows


def _prec(rows: list[dict[str, Any]]) -> tuple[int, int, float | None]:
    r = sum(x["verdict"] == "right" for x in rows)
    w = sum(_wrong(x["verdict"]) for x in rows)
    return r, w, (r / (r + w) if r + w else None)


def print_cue_tables(rows: list[dict[str, Any]], target: float) -> dict[str, float]:
    judged = [x for x in rows if x["verdict"] != "unknown"]
    by_bank: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for x in judged:
        by_bank[x["bank"]].append(x)
    print(f"cue precision by margin over neutral (judged cues; right/wrong; sets: "
          f"{', '.join(sorted({x['set'] for x in rows}))})")
    print("bank".ljust(14) + "".join(f"  m>={m:<5}" for m in MARGINS) + "  chosen")
    chosen: dict[str, float] = {}
    for bank in sorted(by_bank):
        cells, pick = [], None
        for m in MARGINS:
            r, w, p = _prec([x for x in by_bank[bank] if x["margin"] >= m])
            cells.append(f"{r:>3}/{w:<3}" + (f"{p:4.2f}" if p is not None else "   -"))
            if pick is None and p is not None and p >= target and r >= 3:
                pick = m
        chosen[bank] = pick if pick is not None else 1.0
        print(bank.ljust(14) + "".join(f"  {c:<10}" for c in cells) + f"  {chosen[bank]}")
    return chosen


def print_reliability(rows: list[tuple[float, str]], title: str) -> None:
    print(title)
    print("stated confidence   n   right   miss  false  observed precision")
    for lo, hi in CONF_BINS:
        b = [v for c, v in rows if lo <= c < hi]
        r = sum(v == "right" for v in b)
        m = sum(v == "miss" for v in b)
        f = sum(v == "false" for v in b)
        obs = f"{r / (r + m + f):.2f}" if r + m + f else "-"
        print(f"[{lo:.1f}, {min(hi, 1.0):.1f})".ljust(18) + f"{len(b):>4} {r:>6} {m:>6} {f:>6}  {obs}")


def cmd_cues(a: argparse.Namespace) -> int:
    from db.store import open_db
    from tools.base import Recorder

    db = open_db(a.cache)
    rec = Recorder(db, run_id="calibration", step=0)
    rows: list[dict[str, Any]] = []
    for spec in a.sets:
        name, path = spec.split("=", 1)
        rows += collect_cues(name, Path(path), a.users, rec)
    # only anchored matches can be firm cues (the others are hints: semantic_anchor.py)
    firm = [x for x in rows if x["anchored"]]
    print(f"{len(firm)} of {len(rows)} best matches share a word with their value (the rest are hints)")
    chosen = print_cue_tables(firm, a.precision)
    print()
    shipped = [(semantic.confidence(_proto(x), x["margin"]), x["verdict"]) for x in firm
               if x["verdict"] != "unknown" and x["margin"] >= semantic.MARGIN.get(x["bank"], semantic.MARGIN_DEFAULT)]
    print_reliability(shipped, "reliability of single semantic cues at the shipped thresholds")
    if a.dump:
        Path(a.dump).write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in rows), encoding="utf-8")
    print("\nsuggested MARGIN =", json.dumps(chosen))
    return 0


def _proto(x: dict[str, Any]) -> semantic.Prototype:
    return semantic.Prototype(x["bank"], x["attribute"], x["id"], x["value"], (), "", "")


def cmd_claims(a: argparse.Namespace) -> int:
    import sqlite3

    judge = get_judge("rules")
    claims: list[dict[str, Any]] = []
    for spec in a.runs:
        name, rest = spec.split("=", 1)
        out, bench = rest.split(":", 1)
        db = sqlite3.connect(f"file:{Path(out) / 'runs.db'}?mode=ro", uri=True)
        ev: dict[tuple[str, str], dict[str, Any]] = {}
        for rid, nid, data in db.execute("SELECT run_id, node_id, data FROM nodes WHERE kind='evidence'"):
            ev[(rid, nid)] = json.loads(data or "{}")
        latest = {u: r for r, u in db.execute("SELECT run_id, user_id FROM runs WHERE status='finished' ORDER BY created_at")}
        for uid, rid in latest.items():
            truth = _truth(Path(bench), uid)
            pf = Path(out) / "predictions" / f"{uid}.json"
            if not pf.is_file():
                continue
            projected = {pa["attribute"] for pa in json.loads(pf.read_text())["attributes"]}
            # semantic-only hypotheses held below the shipped threshold: what a lower threshold would project
            held: dict[str, tuple[float, str]] = {}
            for attr, value, conf, data in db.execute(
                    "SELECT attribute, value, confidence, data FROM nodes WHERE run_id=? AND kind='hypothesis'"
                    " AND status IN ('unresolved', 'suspended')", [rid]):
                d = json.loads(data or "{}")
                if d.get("semantic_only") and d.get("hold") and attr not in projected and value:
                    if conf > held.get(attr, (-1.0, ""))[0]:
                        held[attr] = (conf or 0.0, value)
            for attr, (conf, value) in held.items():
                claims.append({"set": name, "user": uid, "attribute": attr, "conf": conf, "semantic_only": True,
                               "semantic": True, "held": True, "verdict": judge_value(truth, attr, value, judge)})
            for pa in json.loads(pf.read_text())["attributes"]:
                kinds = set()
                for e in pa.get("evidence", []):
                    for c in ev.get((rid, e), {}).get("cues", []):
                        if c.get("attribute") == pa["attribute"]:
                            kinds.add("semantic" if str(c.get("cue", "")).startswith("semantic:") else "rule")
                sem_only = kinds == {"semantic"}
                claims.append({"set": name, "user": uid, "attribute": pa["attribute"], "conf": pa.get("confidence") or 0,
                               "semantic_only": sem_only, "semantic": "semantic" in kinds,
                               "verdict": judge_value(truth, pa["attribute"], pa["value"], judge)})
    for name in sorted({c["set"] for c in claims}):
        cs = [c for c in claims if c["set"] == name]
        shown = [c for c in cs if not c.get("held")]
        print(f"== {name}: {len(shown)} claims, {sum(c['semantic_only'] for c in shown)} semantic-only, "
              f"{len(cs) - len(shown)} semantic-only held below the threshold")
        print_reliability([(c["conf"], c["verdict"]) for c in shown], "projected claims")
        print_reliability([(c["conf"], c["verdict"]) for c in cs if c["semantic_only"]],
                          "semantic-only hypotheses (projected and held)")
        print("threshold on semantic-only claims: claims kept, right, false, false share (cap "
              f"{a.cap:.2f}); right claims stand for PES")
        best = None
        for t in [0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 1.01]:
            kept = [c for c in cs if not c["semantic_only"] or c["conf"] >= t]
            r = sum(c["verdict"] == "right" for c in kept)
            f = sum(c["verdict"] == "false" for c in kept)
            share = f / max(1, len(kept))
            if share <= a.cap and (best is None or r > best[1]):
                best = (t, r)
            print(f"  >= {t:.2f}: {len(kept):>5} {r:>5} {f:>5}  {share:.3f}")
        print(f"  chosen threshold: {best[0] if best else 'none under the cap'}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("cues")
    c.add_argument("sets", nargs="+", help="NAME=BENCH_DIR")
    c.add_argument("--users", type=int, default=None)
    c.add_argument("--precision", type=float, default=0.5, help="target precision of the cues above the margin")
    c.add_argument("--cache", default="/tmp/argus-calibration.db")
    c.add_argument("--dump", default=None, help="write every judged cue here (JSON Lines)")
    k = sub.add_parser("claims")
    k.add_argument("runs", nargs="+", help="NAME=RUN_OUT_DIR:BENCH_DIR")
    k.add_argument("--cap", type=float, default=0.08)
    a = ap.parse_args(argv)
    return cmd_cues(a) if a.cmd == "cues" else cmd_claims(a)


if __name__ == "__main__":
    raise SystemExit(main())
