"""Findings a person marked as wrong (`argus audit SRC --reject KEY`). A key is an attribute
("relationship_status": every value of it) or "attribute:value" (that value only; the next
best reading may then be projected). Rejections are kept in the run DB per account folder
(db/rejections.py) and applied to a run as the console's reject (Investigation.hypothesis_action):
each admitted hypothesis they name is removed with the reason, never projected again, and the
profile is projected anew. A rerun of the audit applies them again to its new run. The
console's `w` (mark_wrong) records and applies one the same way."""
from __future__ import annotations

import json

from pydantic import BaseModel

from core.errors import InputError
from core.schema import load_schema

BY = "person:you"
REASON = "marked as wrong in argus audit"
CONSOLE_REASON = "marked as wrong in the console"


class Rejection(BaseModel):
    attribute: str
    value: str = ""             # '' = every value of the attribute

    @property
    def key(self) -> str:
        return f"{self.attribute}:{self.value}" if self.value else self.attribute


def parse_key(key: str) -> Rejection:
    """'attribute' or 'attribute:value' -> Rejection; an unknown attribute is a clear error."""
    attr, _, value = (key or "").strip().partition(":")
    attr, value = attr.strip(), value.strip()
    names = load_schema().names
    if attr not in names:
        raise InputError("--reject", f"unknown attribute {attr!r} in {key!r} (one of: {', '.join(names)})")
    return Rejection(attribute=attr, value=value)


def finding_key(attribute: str, value: str) -> str:
    """The key the report shows for a finding (what --reject takes)."""
    return f"{attribute}:{value}"


def _same(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def _targets(inv, rej: Rejection) -> list[str]:
    """Admitted hypotheses of the run this rejection names."""
    from db.queries import profile_rows

    hyps = [h for h in inv.graph.hypotheses(("admitted",)) if h.attribute == rej.attribute]
    if not rej.value:
        return [h.node_id for h in hyps]
    ids = [h.node_id for h in hyps if _same(h.value or "", rej.value)]
    for row in profile_rows(inv.db, inv.run_id):
        # a projected value written from several hypotheses ("Software, Bachelor's degree")
        if row["attribute"] == rej.attribute and _same(row["value"] or "", rej.value):
            listed = row["hypotheses"] if isinstance(row["hypotheses"], list) else json.loads(row["hypotheses"] or "[]")
            ids += [h for h in listed if h not in ids and any(x.node_id == h for x in hyps)]
    return ids


def apply_rejections(inv, rejections: list[Rejection], by: str = BY, reason: str = REASON) -> dict[str, int]:
    """Remove every admitted hypothesis the rejections name (re-projecting after each); returns
    key -> hypotheses removed. An attribute-wide rejection is applied until no value of the
    attribute is admitted (re-hypothesizing may admit a runner-up)."""
    removed: dict[str, int] = {}
    for rej in rejections:
        n = 0
        for _ in range(20):
            ids = _targets(inv, rej)
            if not ids:
                break
            for hid in ids:
                inv.hypothesis_action(hid, "reject", by=by, reason=f"{reason}: {rej.key}")
                n += 1
            if rej.value:
                break
        removed[rej.key] = n
    return removed


def record(db, user_dir: str, rejections: list[Rejection], by: str = BY, reason: str = REASON) -> None:
    from db.rejections import add_rejection

    for r in rejections:
        add_rejection(db, user_dir, r.attribute, r.value, by, reason)


def mark_wrong(inv, rej: Rejection, by: str = BY, reason: str = CONSOLE_REASON) -> int:
    """The console's "mark as wrong" (`w`): record the rejection for the run's account, as
    `argus audit --reject` does (a rerun of the audit rejects it again), and apply it to this
    run now (removed, re-projected). Returns the number of readings removed."""
    from pathlib import Path

    from db.queries import get_run

    run = get_run(inv.db, inv.run_id) or {}
    user_key = str(Path(run.get("user_dir") or ".").resolve())
    record(inv.db, user_key, [rej], by, reason)
    return apply_rejections(inv, [rej], by, reason)[rej.key]


def recorded(db, user_dir: str) -> list[Rejection]:
    from db.rejections import rejections_of

    try:
        return [Rejection(attribute=r["attribute"], value=r["value"]) for r in rejections_of(db, user_dir)]
    except Exception as e:          # an older DB opened read-only has no table: nothing recorded
        if "no such table" in str(e):
            return []
        raise
