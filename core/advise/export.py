"""Export of a run's findings, optionally redacted for sharing: attribute names, level,
granularity, sensitivity and evidence locations (post ids, carriers, fields, image files,
OCR boxes) are kept; values, quotes and evidence text are masked."""
from __future__ import annotations

from typing import Any

import sqlite_utils

from core.advise.from_run import build_support_graph, primary_values
from core.engine.events import HypothesisAction, read_events
from core.errors import InputError
from db import queries

MASK = "[redacted]"


def export_run(db: sqlite_utils.Database, run_id: str, *, redact: bool = False) -> dict[str, Any]:
    run = queries.get_run(db, run_id)
    if run is None:
        raise InputError("runs.db", f"no run {run_id!r}", field="run_id")
    g = build_support_graph(db, run_id)
    rows = {r["attribute"]: r for r in queries.profile_rows(db, run_id)}
    attrs = []
    for v in primary_values(g):
        row = rows.get(v.attribute, {})
        leaf_ids: list[str] = []
        for e in v.evidence:
            for lid in sorted(g.leaves_under(e)) or ([e] if e in g.leaves else []):
                if lid not in leaf_ids:
                    leaf_ids.append(lid)
        evidence = []
        for lid in leaf_ids:
            leaf = g.leaves[lid]
            node = queries.node(db, run_id, lid)
            item: dict[str, Any] = {"node_id": lid, "post_id": leaf.post_id, "carrier": leaf.carrier,
                                    "modality": node.modality if node else None,
                                    "field": node.data.field if node else None, "image": leaf.image, "box": leaf.box}
            if not redact:
                item["content"] = node.content if node else ""
                item["quote"] = leaf.span
            evidence.append(item)
        attrs.append({
            "attribute": v.attribute,
            "value": MASK if redact else v.value,
            "level": row.get("level"),
            "granularity": round(v.granularity, 3),
            "sensitivity": v.sensitivity,
            "confidence": row.get("confidence"),
            "weight": round(v.weight, 3),
            "evidence": evidence,
        })
    actions = [{"step": e.step, "node_id": e.node_id, "action": e.action, "by": e.by,
                "attribute": e.attribute, "value": MASK if redact else e.value,
                "reason": MASK if redact and e.reason else e.reason}
               for e in read_events(db, run_id) if isinstance(e, HypothesisAction)]
    return {
        "format": "argus-run-export/1",
        "redacted": redact,
        "run": {k: run.get(k) for k in ("run_id", "user_id", "system", "backend", "status", "step", "budget",
                                        "spent", "created_at", "finished_at")},
        "exposure": round(sum(a["weight"] for a in attrs), 3),
        "profile": attrs,
        "person_actions": actions,     # researchers' reject / confirm / note on hypotheses
    }
