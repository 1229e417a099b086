"""One write path and typed events (issue 33): the loop records events as their typed classes
(core/engine/events.py), and changes the run's rows -- the run, its routes, its profile, its
budget -- only through typed changes applied by step.apply_change, where an unknown change
raises and a stage cannot hand over one of the loop's own. Real SQLite, a real small run."""
from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from core.engine.budget import Budget
from core.engine.context import DEFAULT_CONFIG, RunContext
from core.engine.contract.changes import (RUN_CHANGES, AddRoute, DecideRoute, ExtendBudget, ReopenRun, SetRouteParams,
                                          WriteProfile)
from core.engine.events import KINDS, OtherEvent, read_events
from core.engine.graph import Graph
from core.engine.loop import Investigation
from core.engine.step import apply_change
from core.engine.types import Decision, RouteProposal
from core.loader import load_user
from core.models import PredictedAttribute
from db.store import open_db

ROOT = Path(__file__).resolve().parents[1]
LOOP_FILES = [ROOT / "core" / "engine" / f for f in ("loop.py", "suspension.py", "step.py")]
# the writers of the run's rows: only step.apply_change may call them
ROW_WRITERS = {"insert_route", "mark_route", "set_params", "write_profile", "insert_run", "insert_post", "commit_run",
               "reopen_run", "extend"}


def _untyped_writes(tree: ast.AST, *, writer_ok: set[str]) -> list[str]:
    """Events recorded as (kind, dict) instead of a typed event, SQL that writes, and calls of a
    row writer outside the functions in `writer_ok`."""
    out = []
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for n in ast.walk(fn):
            if isinstance(n, ast.Call):
                name = getattr(n.func, "attr", getattr(n.func, "id", ""))
                if name in ("_event", "insert_event") and any(
                        isinstance(a, ast.Dict) or (isinstance(a, ast.Constant) and isinstance(a.value, str))
                        for a in n.args):
                    out.append(f"{fn.name}:{n.lineno} {name} with a kind and a dict")
                if name in ROW_WRITERS and fn.name not in writer_ok:
                    out.append(f"{fn.name}:{n.lineno} writes through {name}")
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value.lstrip().upper().startswith(
                    ("INSERT ", "UPDATE ", "DELETE ")):
                out.append(f"{fn.name}:{n.lineno} writes SQL")
    return out


def test_the_loop_records_typed_events_and_writes_through_changes_alone() -> None:
    offenders = []
    for p in LOOP_FILES:
        ok = {"_apply_run_change"} if p.name == "step.py" else set()
        offenders += [f"{p.name}:{o}" for o in _untyped_writes(ast.parse(p.read_text(encoding="utf-8")), writer_ok=ok)]
    assert not offenders, "\n".join(offenders)


def test_write_scan_sees_a_violation() -> None:
    tree = ast.parse("def f(self):\n    self._event('decision', {'by': 'x'})\n"
                     "    db_routes.mark_route(self.db, 'r', 'r1', 1, 'done', by='x', reason=None, result=None)\n"
                     "    self.db.execute(\"UPDATE runs SET finished_at=NULL WHERE run_id=?\", ['r'])\n"
                     "    self._event(Verified(admitted=[]))\n")
    assert _untyped_writes(tree, writer_ok=set()) == [
        "f:2 _event with a kind and a dict", "f:3 writes through mark_route", "f:4 writes SQL"]


def _ctx(tmp_path: Path) -> RunContext:
    udir = tmp_path / "users" / "u1"
    udir.mkdir(parents=True)
    (udir / "profile.json").write_text(json.dumps({"user_id": "u1"}))
    (udir / "posts.jsonl").write_text(json.dumps({"post_id": "p1", "caption": "hello"}) + "\n")
    db = open_db(tmp_path / "runs.db")
    return RunContext(db=db, run_id="r", user=load_user(udir), graph=Graph(db, "r"),
                      budget=Budget(20, db=db, run_id="r"), config=dict(DEFAULT_CONFIG))


def test_an_unknown_change_raises_and_a_stage_cannot_hand_over_the_loops_own(tmp_path: Path) -> None:
    ctx = _ctx(tmp_path)
    with pytest.raises(TypeError, match="no writer for Decision"):
        apply_change(ctx, Decision(action="stop"))          # a model, but no change
    for c in (ReopenRun(), WriteProfile(attributes=[]), ExtendBudget(units=1, by="person:a")):
        with pytest.raises(TypeError, match="loop's own change"):
            ctx.queue([c])
    assert ctx.pending == []
    assert len(RUN_CHANGES) == 8


def test_route_profile_and_budget_changes_write_their_rows(tmp_path: Path) -> None:
    ctx = _ctx(tmp_path)
    ctx.db.execute("INSERT INTO runs (run_id, user_id, budget, created_at, updated_at) VALUES ('r','u1',20,'t','t')")
    prop = RouteProposal(route_id="r1", family="ocr", params={"image_id": "p1/img0"}, cost=1.0)
    apply_change(ctx, AddRoute(route=prop, status="proposed"))
    apply_change(ctx, SetRouteParams(route_id="r1", params={"image_id": "p1/img1"}))
    apply_change(ctx, DecideRoute(route_id="r1", status="skipped", by="person:a", reason="no"))
    row = ctx.db.execute("SELECT status, decided_by, params FROM routes WHERE run_id='r'").fetchone()
    assert (row[0], row[1], json.loads(row[2])) == ("skipped", "person:a", {"image_id": "p1/img1"})
    attrs = [PredictedAttribute(attribute="age", value="30s", confidence=0.5, evidence=["e1"])]
    assert apply_change(ctx, WriteProfile(attributes=attrs)) is True
    assert apply_change(ctx, WriteProfile(attributes=attrs)) is False       # nothing changed
    assert apply_change(ctx, ExtendBudget(units=5, by="person:a")) == 25.0


def test_a_run_stores_every_event_as_its_typed_class(tmp_path: Path) -> None:
    udir = tmp_path / "users" / "u1"
    udir.mkdir(parents=True)
    (udir / "profile.json").write_text(json.dumps({"user_id": "u1"}))
    posts = [{"post_id": "p1", "caption": "Just got my nursing licence! Working nights at the hospital in Shenzhen.",
              "timestamp": "2024-03-01T09:00:00+08:00"},
             {"post_id": "p2", "caption": "Back home in Shenzhen after a long shift", "timestamp": "2024-03-02T08:00:00+08:00"}]
    (udir / "posts.jsonl").write_text("\n".join(json.dumps(p) for p in posts) + "\n")
    inv = Investigation.start(tmp_path / "runs.db", udir, budget=5, run_id="r")
    inv.extend_budget(2, by="person:a")
    inv.run()
    events = inv.events()
    kinds = [e.kind for e in events]
    assert {"run_started", "perceived", "budget_extended", "run_finished"} <= set(kinds)
    assert all(e.kind in KINDS and not isinstance(e, OtherEvent) for e in events), kinds
    stored = {r[0]: json.loads(r[1]) for r in inv.db.execute("SELECT kind, data FROM events WHERE run_id='r'")}
    # a typed writer stores what it set: the extension's four fields, no more
    assert stored["budget_extended"] == {"units": 2.0, "by": "person:a", "budget": 7.0, "remaining": 7.0}
    assert read_events(inv.db, "r")[-1].kind == "run_finished"
    # a finished run reopened by a forced decision path: its finished_at cleared by ReopenRun
    assert inv.db.execute("SELECT finished_at FROM runs WHERE run_id='r'").fetchone()[0] is not None
    last = events[-1].id or 0
    inv.extend_budget(1, by="person:b")
    assert inv.db.execute("SELECT finished_at FROM runs WHERE run_id='r'").fetchone()[0] is None
    later = [e.kind for e in inv.events(since_id=last)]
    assert later[:2] == ["reopened", "budget_extended"], later
