"""The run's profile in the store: `profile` (current rows) and `profile_history` (append-only),
written by the loop from the projection (core/engine/projection.py), read back as Predictions."""
from __future__ import annotations

import json

import sqlite_utils

from core.models import PredictedAttribute, Predictions
from core.schema import load_schema
from db.store import dumps


def write_profile(db: sqlite_utils.Database, run_id: str, step: int, attrs: list[PredictedAttribute]) -> bool:
    """Bring the run's profile to `attrs`; returns True when anything changed.

    History is append-only: a changed value gets a new `profile_history` row from this step and
    the old one is closed (cleared_step); a dropped value is closed. The `profile` table holds
    the current rows, each with the step its value took effect."""
    schema = load_schema()
    old = {r[0]: (r[1], r[2], r[3], r[4], r[5]) for r in db.execute(
        "SELECT attribute, value, level, confidence, evidence, hypotheses FROM profile_history"
        " WHERE run_id=? AND cleared_step IS NULL", [run_id]).fetchall()}
    new: dict[str, tuple] = {}
    for a in attrs:
        extra = a.model_extra or {}
        new[a.attribute] = (a.value, extra.get("level"), a.confidence, dumps(a.evidence),
                            dumps(extra.get("hypotheses") or []))
    if old == new:
        return False
    for attr in [k for k in old if old[k] != new.get(k)]:
        db.execute("UPDATE profile_history SET cleared_step=? WHERE run_id=? AND attribute=? AND cleared_step IS NULL",
                       [step, run_id, attr])
        db.execute("DELETE FROM profile WHERE run_id=? AND attribute=?", [run_id, attr])
    for a in attrs:
        if old.get(a.attribute) == new[a.attribute]:
            continue
        spec = schema.get(a.attribute)
        value, level, conf, ev, hyps = new[a.attribute]
        sens = spec.default_sensitivity if spec else None
        # a value set and replaced within one step keeps one row for that step
        db.execute(
            "INSERT INTO profile_history (run_id, attribute, step, value, level, granularity, confidence, sensitivity,"
            " evidence, hypotheses) VALUES (?,?,?,?,?,?,?,?,?,?) ON CONFLICT(run_id, attribute, step) DO UPDATE SET"
            " value=excluded.value, level=excluded.level, confidence=excluded.confidence, evidence=excluded.evidence,"
            " hypotheses=excluded.hypotheses, sensitivity=excluded.sensitivity, cleared_step=NULL",
            [run_id, a.attribute, step, value, level, None, conf, sens, ev, hyps])
        db.execute(
            "INSERT INTO profile (run_id, attribute, value, level, granularity, confidence, sensitivity, evidence,"
            " hypotheses, step) VALUES (?,?,?,?,?,?,?,?,?,?)",
            [run_id, a.attribute, value, level, None, conf, sens, ev, hyps, step])
    return True


def read_profile(db: sqlite_utils.Database, run_id: str, user_id: str, system: str) -> Predictions:
    schema = load_schema()
    order = {n: i for i, n in enumerate(schema.names)}
    rows = db.execute("SELECT attribute, value, confidence, evidence FROM profile WHERE run_id=?", [run_id]).fetchall()
    attrs = [PredictedAttribute(attribute=a, value=v, confidence=c, evidence=json.loads(e or "[]"))
             for a, v, c, e in sorted(rows, key=lambda r: order.get(r[0], 99))]
    return Predictions(user_id=user_id, system=system, attributes=attrs)
