"""The advisor: a plan of edits from a finished run (`advise`) and its verification on an
edited copy of the account (`verify_plan`: apply, re-investigate, compare).

The advisor reads only the run DB and the public view of the account (never truth files).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import sqlite_utils
from pydantic import BaseModel, Field

from core.advise.apply import apply_plan
from core.advise.edits import Edit
from core.advise.exposure import by_attribute, exposure, reduction
from core.advise.from_run import build_support_graph, latest_finished_run, primary_values
from core.advise.planner import SupportGraph, greedy_plan
from core.errors import InputError
from core.loader import load_user
from db import queries
from db.store import open_db


class AttributeExposure(BaseModel):
    attribute: str
    value: str
    sensitivity: int | None = None
    granularity: float = 1.0
    weight: float
    evidence: list[dict[str, Any]] = Field(default_factory=list)   # where it comes from (post, carrier, quote)


class PlannedEdit(BaseModel):
    edit: Edit
    description: str
    exposure_after: float           # predicted, after this and every earlier edit
    removed: list[str]              # attributes predicted to fall with this edit


class AdvicePlan(BaseModel):
    user_id: str
    user_dir: str
    run_id: str
    db: str
    target: float
    max_edits: int
    exposure_before: float
    exposure_after: float           # predicted
    predicted_reduction: float
    attributes: list[AttributeExposure]
    steps: list[PlannedEdit]
    predicted_remaining: dict[str, float]   # attribute -> weight still standing (prediction)

    @property
    def edits(self) -> list[Edit]:
        return [s.edit for s in self.steps]


class AttributeOutcome(BaseModel):
    attribute: str
    before: float
    predicted_after: float
    observed_after: float
    value_after: str | None = None
    still_from: list[dict[str, Any]] = Field(default_factory=list)   # evidence of the value still inferable
    agrees: bool


class Verification(BaseModel):
    user_id: str
    edited_dir: str
    run_id: str                     # the re-investigation's run
    edits: int
    exposure_before: float
    predicted_after: float
    observed_after: float
    predicted_reduction: float
    observed_reduction: float
    attributes: list[AttributeOutcome]


def _db(db_path: str | Path | None) -> tuple[sqlite_utils.Database, Path]:
    path = Path(db_path) if db_path is not None else Path.cwd() / "runs.db"
    return open_db(path), path


def investigate(db: sqlite_utils.Database, user_dir: Path, budget: float | None = None) -> str:
    """A full offline investigation of user_dir (policy approver); returns its run id."""
    from core.engine.budget import DEFAULT_BUDGET
    from core.engine.loop import Investigation

    inv = Investigation.start(db, user_dir, budget=budget or DEFAULT_BUDGET, backend="offline")
    inv.run()
    return inv.run_id


def _evidence_of(db: sqlite_utils.Database, run_id: str, g: SupportGraph, hyp_ids: list[str],
                 limit: int = 6) -> list[dict[str, Any]]:
    leaves: list[str] = []
    for h in hyp_ids:
        for lid in sorted(g.leaves_under(h)):
            if lid not in leaves:
                leaves.append(lid)
    out = []
    for lid in leaves[:limit]:
        leaf = g.leaves[lid]
        r = queries.node(db, run_id, lid)
        out.append({"node_id": lid, "post_id": leaf.post_id, "carrier": leaf.carrier, "image": leaf.image,
                    "box": leaf.box, "quote": (leaf.span or (r.content if r else "") or "")[:160]})
    return out


def plan_from_graph(g: SupportGraph, *, target: float, max_edits: int, worst_first: bool = False
                    ) -> tuple[list[PlannedEdit], float, dict[str, float]]:
    plan = greedy_plan(g, target=target, max_edits=max_edits, worst_first=worst_first)
    steps = [PlannedEdit(edit=s.edit, description=s.edit.describe(), exposure_after=round(s.exposure_after, 4),
                         removed=s.removed) for s in plan.steps]
    broken: set[str] = set()
    for s in plan.steps:
        broken |= set(s.edit.breaks)
    remaining = by_attribute(g.standing(broken))
    return steps, plan.exposure_after, remaining


DEFAULT_TARGET = 0.5


def advise(user_dir: str | Path, db_path: str | Path | None = None, *, target: float | None = None, max_edits: int = 5,
           run_id: str | None = None) -> AdvicePlan:
    """Rank edits for a user's newest finished run (investigating first when there is none).
    Without a target the plan aims at DEFAULT_TARGET and covers every sensitivity-5 leak it can
    first (planner.greedy_plan worst_first); a target the person asks for is followed as given."""
    worst_first = target is None
    target = DEFAULT_TARGET if target is None else target
    if not 0 < target <= 1:
        raise InputError("--target", f"must be in (0, 1], got {target}")
    if max_edits < 1:
        raise InputError("--max-edits", f"must be at least 1, got {max_edits}")
    user_dir = Path(user_dir)
    user = load_user(user_dir)          # InputError for a missing/broken account
    db, path = _db(db_path)
    if run_id is None:
        run_id = latest_finished_run(db, user_dir) or investigate(db, user_dir)
    elif queries.get_run(db, run_id) is None:
        raise InputError(path, f"no run {run_id!r}", field="run_id")
    g = build_support_graph(db, run_id)
    steps, after, remaining = plan_from_graph(g, target=target, max_edits=max_edits, worst_first=worst_first)
    before = exposure(g.profile)
    attrs = [AttributeExposure(attribute=v.attribute, value=v.value, sensitivity=v.sensitivity,
                               granularity=round(v.granularity, 3), weight=round(v.weight, 4),
                               evidence=_evidence_of(db, run_id, g, v.evidence))
             for v in primary_values(g)]
    return AdvicePlan(user_id=user.profile.user_id, user_dir=str(user_dir.resolve()), run_id=run_id, db=str(path),
                      target=target, max_edits=max_edits, exposure_before=round(before, 4),
                      exposure_after=round(after, 4), predicted_reduction=round(reduction(before, after), 4),
                      attributes=attrs, steps=steps, predicted_remaining={k: round(v, 4) for k, v in remaining.items()})


def verify_plan(user_dir: str | Path, plan: AdvicePlan, out_dir: str | Path, db_path: str | Path | None = None,
                *, edits: list[Edit] | None = None) -> Verification:
    """Apply the plan (or the given prefix of its edits) to a copy, re-investigate the copy and
    compare per attribute: exposure before, predicted after, observed after."""
    db, _ = _db(db_path if db_path is not None else plan.db)
    chosen = plan.edits if edits is None else edits
    out = apply_plan(Path(user_dir), chosen, Path(out_dir))
    new_run = investigate(db, out)
    g_old = build_support_graph(db, plan.run_id)
    g_new = build_support_graph(db, new_run)
    before = by_attribute(g_old.profile)
    broken: set[str] = set()
    for e in chosen:
        broken |= set(e.breaks)
    predicted = by_attribute(g_old.standing(broken))
    observed = by_attribute(primary_values(g_new))
    new_values = {v.attribute: v for v in primary_values(g_new)}
    outcomes = []
    for attr in list(before) + [a for a in observed if a not in before]:
        p, o = predicted.get(attr, 0.0), observed.get(attr, 0.0)
        v = new_values.get(attr)
        outcomes.append(AttributeOutcome(
            attribute=attr, before=round(before.get(attr, 0.0), 4), predicted_after=round(p, 4),
            observed_after=round(o, 4), value_after=v.value if v else None,
            still_from=_evidence_of(db, new_run, g_new, v.evidence) if v else [],
            # agreement: the attribute is gone in both, or still there in both
            agrees=(p > 0) == (o > 0)))
    b, pa, oa = exposure(g_old.profile), sum(predicted.values()), sum(observed.values())
    return Verification(user_id=plan.user_id, edited_dir=str(out), run_id=new_run, edits=len(chosen),
                        exposure_before=round(b, 4), predicted_after=round(pa, 4), observed_after=round(oa, 4),
                        predicted_reduction=round(reduction(b, pa), 4), observed_reduction=round(reduction(b, oa), 4),
                        attributes=outcomes)
