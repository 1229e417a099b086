"""Oracle predictions written from truth files: a sanity check of the scorer and of a benchmark.

- `full`: every leaked attribute predicted with its whole truth value; PES must be 1.0.
- `coarse`: hierarchies predicted with their first (coarsest) level only, other kinds in full;
  each hierarchy then scores 1/n (n = its number of levels).
- `empty`: no attributes at all; PES must be 0.0.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

from core.eval.metrics import load_truths
from core.models import PredictedAttribute, Predictions, Truth, TruthAttribute

OracleMode = Literal["full", "coarse", "empty"]


def oracle_value(ta: TruthAttribute, mode: OracleMode = "full") -> str:
    if ta.kind == "hierarchy":
        if not ta.levels:
            return ta.value or ""
        levels = ta.levels[:1] if mode == "coarse" else ta.levels
        return ", ".join(lv.value for lv in reversed(levels))
    if ta.kind == "category":
        return ta.value or (ta.aliases[0] if ta.aliases else "")
    if ta.kind == "set":
        return "; ".join(i.value for i in ta.items)
    # facts: the fact text plus one member of every keyword group, so each group is present
    parts = []
    for f in ta.facts:
        kws = " ".join(g[0] for g in f.keywords if g)
        parts.append(f"{f.text} ({kws})" if kws else f.text)
    return "; ".join(parts)


def oracle_predictions(truth: Truth, mode: OracleMode = "full") -> Predictions:
    attrs: list[PredictedAttribute] = []
    if mode != "empty":
        for ta in truth.leaked:
            v = oracle_value(ta, mode)
            if v:
                attrs.append(PredictedAttribute(attribute=ta.attribute, value=v, confidence=1.0))
    return Predictions(user_id=truth.user_id, system=f"oracle-{mode}", attributes=attrs)


def write_oracle(bench_dir: Path, out_dir: Path, mode: OracleMode = "full") -> int:
    """Writes OUT_DIR/<user_id>.json for every user; returns how many files were written."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    n = 0
    for truth in load_truths(bench_dir):
        p = oracle_predictions(truth, mode)
        (out_dir / f"{truth.user_id}.json").write_text(
            json.dumps(p.model_dump(exclude_none=True), ensure_ascii=False, indent=1), encoding="utf-8"
        )
        n += 1
    return n
