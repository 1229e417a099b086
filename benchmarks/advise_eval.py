"""Exposure-reduction advisor on a generated benchmark: predicted vs observed reduction after
the top-k edits, the PES drop per user (with truth), and how often the re-investigation
disagrees with the advisor's prediction.

    .venv/bin/python benchmarks/advise_eval.py [--users 12] [--seed 11] [--edits 3] [--out DIR]

For every user: an offline investigation of the original account, the advisor's top-k edits
(greedy, target 100 % so exactly k edits are taken when k help), the edits applied to a copy,
and an offline re-investigation of the copy. Exposure = sum of sensitivity x granularity of
the projected profile (the engine's own view, no truth). PES uses core.eval with the rules
judge: the truth file is copied next to the edited copy HERE only (the advisor never reads
truth). Disagreement: an attribute predicted to fall that is still inferred, or predicted to
stay that is gone (share of the original profile's attributes).
"""
from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.advise.advisor import advise, investigate, verify_plan  # noqa: E402
from core.bench.generate import generate  # noqa: E402
from db.profile import read_profile  # noqa: E402
from core.eval.inputs import load_predictions  # noqa: E402
from core.eval.judge import get_judge  # noqa: E402
from core.eval.metrics import score_user  # noqa: E402
from core.eval.truth import load_truth  # noqa: E402
from core.loader import load_manifest  # noqa: E402
from db.store import open_db  # noqa: E402


def _pes(db, run_id: str, user_dir: Path, pred_dir: Path, judge) -> float | None:
    truth = load_truth(user_dir)
    pred = read_profile(db, run_id, truth.user_id, "argus")
    pred_dir.mkdir(parents=True, exist_ok=True)
    (pred_dir / f"{truth.user_id}.json").write_text(pred.model_dump_json(exclude_none=True), encoding="utf-8")
    _, preds = load_predictions(pred_dir, [truth.user_id])
    res = score_user(truth, preds[truth.user_id], judge)
    return res.sum_gs / res.sum_s if res.sum_s else None


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--users", type=int, default=12)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--edits", type=int, default=3)
    ap.add_argument("--out", type=Path, default=Path("/tmp/argus-advise-eval"))
    args = ap.parse_args()
    out: Path = args.out
    if out.exists():
        shutil.rmtree(out)
    t0 = time.time()
    generate(out / "bench", users=args.users, seed=args.seed)
    db_path = out / "runs.db"
    db = open_db(db_path)
    judge = get_judge("rules")
    rows = []
    for uid in load_manifest(out / "bench").users:
        udir = out / "bench" / "users" / uid
        run_id = investigate(db, udir)
        plan = advise(udir, db_path, target=1.0, max_edits=args.edits, run_id=run_id)
        edited = out / "edited" / uid
        v = verify_plan(udir, plan, edited, db_path)
        shutil.copy2(udir / "truth.json", edited / "truth.json")    # evaluation only
        pes_before = _pes(db, run_id, udir, out / "pred_before", judge)
        pes_after = _pes(db, v.run_id, edited, out / "pred_after", judge)
        n_attrs = sum(1 for a in v.attributes if a.before > 0)
        disagree = [a.attribute for a in v.attributes if a.before > 0 and not a.agrees]
        new_attrs = [a.attribute for a in v.attributes if a.before == 0 and a.observed_after > 0]
        rows.append({"user": uid, "edits": [s.description for s in plan.steps], "exposure_before": v.exposure_before,
                     "predicted_after": v.predicted_after, "observed_after": v.observed_after,
                     "predicted_reduction": v.predicted_reduction, "observed_reduction": v.observed_reduction,
                     "pes_before": pes_before, "pes_after": pes_after, "attributes": n_attrs,
                     "disagree": disagree, "new_attributes": new_attrs})
        print(f"{uid}: {len(plan.steps)} edits, exposure {v.exposure_before:g} -> predicted {v.predicted_after:g}"
              f" / observed {v.observed_after:g}; PES {pes_before if pes_before is None else round(pes_before, 3)}"
              f" -> {pes_after if pes_after is None else round(pes_after, 3)}; disagree {disagree} new {new_attrs}",
              flush=True)
    with_exp = [r for r in rows if r["exposure_before"] > 0]
    pes_pairs = [(r["pes_before"], r["pes_after"]) for r in rows if r["pes_before"] is not None]
    n_attr = sum(r["attributes"] for r in rows)
    summary = {
        "users": len(rows), "seed": args.seed, "edits": args.edits,
        "mean_predicted_reduction": round(statistics.mean(r["predicted_reduction"] for r in with_exp), 4),
        "mean_observed_reduction": round(statistics.mean(r["observed_reduction"] for r in with_exp), 4),
        "mean_pes_before": round(statistics.mean(a for a, _ in pes_pairs), 4) if pes_pairs else None,
        "mean_pes_after": round(statistics.mean(b for _, b in pes_pairs), 4) if pes_pairs else None,
        "mean_pes_drop": round(statistics.mean(a - b for a, b in pes_pairs), 4) if pes_pairs else None,
        "users_with_pes_drop": sum(1 for a, b in pes_pairs if b < a),
        "attribute_disagreement_rate": round(sum(len(r["disagree"]) for r in rows) / n_attr, 4) if n_attr else None,
        "users_with_any_disagreement": sum(1 for r in rows if r["disagree"]),
        "new_attributes_after_edits": sum(len(r["new_attributes"]) for r in rows),
        "observed_below_predicted": sum(1 for r in with_exp if r["observed_after"] < r["predicted_after"] - 1e-9),
        "observed_above_predicted": sum(1 for r in with_exp if r["observed_after"] > r["predicted_after"] + 1e-9),
        "seconds": round(time.time() - t0, 1),
    }
    (out / "advise_eval.json").write_text(json.dumps({"summary": summary, "users": rows}, indent=1,
                                                     ensure_ascii=False), encoding="utf-8")
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
