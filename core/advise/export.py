"""Export of a run's findings, optionally redacted for sharing: attribute names, level,
granularity, sensitivity and evidence locations (post ids, carriers, fields, image files,
OCR boxes) are kept; values, quotes and evidence text are masked."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import sqlite_utils

from core.advise.from_run import build_support_graph, primary_values
from core.audit_words import words
from core.engine.events import HypothesisAction, read_events
from core.errors import InputError
from core.textsafe import json_text, printable
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


# ---- the advice for other tools (a deletion tool, a spreadsheet): one row per edit ----

ADVICE_COLUMNS = ("step", "post_id", "url", "date", "caption_excerpt", "edit", "instruction", "phrase", "image", "box",
                  "attributes_removed", "exposure_after")


def _excerpt(text: str, limit: int = 120) -> str:
    from core.advise.edits import shown

    return shown(text, limit)


def advice_rows(plan: Any, posts: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """The plan's edits with what a person or a tool needs to find the post: its platform URL when
    the export has one, else its date, and a caption excerpt."""
    rows = []
    for i, s in enumerate(plan.steps, 1):
        e = s.edit
        post = posts.get(e.post_id, {})
        url = next((str(post[k]) for k in ("url", "permalink") if isinstance(post.get(k), str)
                    and str(post[k]).startswith("https://")), "")
        text = " ".join(str(x) for x in (post.get("title"), post.get("caption")) if x)
        rows.append({"step": i, "post_id": e.post_id, "url": url, "date": str(post.get("timestamp") or ""),
                     "caption_excerpt": _excerpt(text), "edit": e.kind,
                     "instruction": words()["edits"].get(e.kind, e.kind), "phrase": e.phrase or "",
                     "image": e.image or "", "box": list(e.box or []), "attributes_removed": list(s.removed),
                     "exposure_after": s.exposure_after})
    return rows


def _cell(v: Any) -> str:
    """A CSV cell a spreadsheet shows as text (a leading = + - @ would be read as a formula)."""
    s = printable("; ".join(str(x) for x in v) if isinstance(v, list) else str(v))   # the output boundary
    return "'" + s if s[:1] in ("=", "+", "-", "@", "\t", "\r") else s


CSV_NAME = "advice.csv"
JSON_NAME = "advice-edits.json"


def write_advice_exports(out_dir: str | Path, plan: Any, posts: dict[str, dict[str, Any]]) -> tuple[Path, Path]:
    """advice.csv and advice-edits.json beside the report (0600)."""
    import csv
    import io

    from db.store import write_private

    rows = advice_rows(plan, posts)
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(ADVICE_COLUMNS), lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: _cell(r[k]) for k in ADVICE_COLUMNS})
    out = Path(out_dir)
    csv_path = write_private(out / CSV_NAME, buf.getvalue())
    json_path = write_private(out / JSON_NAME, json_text(
        {"format": "argus-advice/1", "run_id": plan.run_id, "exposure_before": plan.exposure_before,
         "exposure_after": plan.exposure_after, "edits": rows}, indent=1))
    return csv_path, json_path
