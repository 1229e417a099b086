"""The person at the console is the last approver of the run's approval chain (real engine,
real OCR, real SQLite, driven with Pilot): a config rule that escalates reaches the person in
the console and the auto policy headless, through the same `Investigation.step(chain)`; a rule
that decides does so in the console without the person; the person's answer is recorded as
decided_by=person:<name> with the same decision events as a policy's."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from argus_tui.app import ArgusApp
from core.engine.approval import AskPerson, PersonApprover, console_chain
from core.engine.loop import Investigation
from core.engine.types import Decision
from tui_engine import CONFIG, q, settle, text_user

pytestmark = pytest.mark.slow

SIZE = (120, 40)
WHO = "person:tester"
ESCALATE = {**CONFIG, "approval": [{"families": "*ocr", "action": "escalate", "reason": "image text needs a look"}]}


def _decisions(db_path: Path, run_id: str) -> list[dict]:
    return [json.loads(d) for (d,) in q(db_path, "SELECT data FROM events WHERE run_id=? AND kind='decision'"
                                                 " ORDER BY id", [run_id])]


async def test_an_escalating_rule_reaches_the_person_in_the_console(tmp_path: Path) -> None:
    user = text_user(tmp_path)
    db_path = tmp_path / "runs.db"
    app = ArgusApp(db_path, user_dir=user, who=WHO, config=ESCALATE)
    async with app.run_test(size=SIZE) as pilot:
        screen = await settle(pilot)
        run_id, first = screen.run_id, screen.proposal
        assert first is not None and first.family == "ocr"
        # waiting for the person: proposed, nothing decided or charged yet
        assert q(db_path, "SELECT status, decided_by FROM routes WHERE run_id=? AND route_id=?",
                 [run_id, first.route_id]) == [("proposed", None)]
        assert not _decisions(db_path, run_id)
        await pilot.press("a")
        screen = await settle(pilot)
        status, by, reason = q(db_path, "SELECT status, decided_by, decision_reason FROM routes WHERE run_id=?"
                               " AND route_id=?", [run_id, first.route_id])[0]
        assert status == "done" and by == WHO and reason == "escalated: image text needs a look"
        second = screen.proposal
        assert second is not None and second.route_id != first.route_id
        await pilot.press("x")
        screen = await settle(pilot)
    assert [(d["route_id"], d["action"], d["by"]) for d in _decisions(db_path, run_id)] == [
        (first.route_id, "approve", WHO), (second.route_id, "skip", WHO)]
    # headless, the same rule escalates to the auto policy: same chain code, another last approver
    inv = Investigation.start(tmp_path / "headless.db", user, config=ESCALATE)
    inv.run()
    rows = inv.db.execute("SELECT family, decided_by, decision_reason FROM routes WHERE run_id=? AND family='ocr'",
                          [inv.run_id]).fetchall()
    assert rows and all(by == "policy:auto" and why == "within budget; escalated: image text needs a look"
                        for _, by, why in rows)


async def test_a_deciding_rule_decides_in_the_console_without_the_person(tmp_path: Path) -> None:
    user = text_user(tmp_path)
    db_path = tmp_path / "runs.db"
    cfg = {**CONFIG, "approval": [{"families": "ocr", "action": "skip", "reason": "no OCR in this study"}]}
    app = ArgusApp(db_path, user_dir=user, who=WHO, config=cfg)
    async with app.run_test(size=SIZE) as pilot:
        screen = await settle(pilot)
        run_id = screen.run_id
        assert screen.proposal is None or screen.proposal.family != "ocr"
    rows = q(db_path, "SELECT family, status, decided_by, decision_reason FROM routes WHERE run_id=? AND family='ocr'",
             [run_id])
    assert len(rows) == 3, rows      # one per text-bearing image, none shown to the person
    assert all(r[1:] == ("skipped", "policy:config", "no OCR in this study") for r in rows)
    assert {d["by"] for d in _decisions(db_path, run_id) if d["action"] == "skip"} == {"policy:config"}


def test_the_person_approver_waits_then_answers_once(tmp_path: Path) -> None:
    user = text_user(tmp_path)
    inv = Investigation.start(tmp_path / "runs.db", user, config=ESCALATE)
    person = PersonApprover("ana")
    chain = console_chain(inv.ctx.config, person)
    assert inv.step(chain) == [] and isinstance(inv.asking, AskPerson)
    assert inv.asking.person == "person:ana" and inv.asking.escalated == ["image text needs a look"]
    prop = inv.next_proposal()
    assert inv.step(chain) == [] and inv.next_proposal().route_id == prop.route_id   # still waiting, same route
    person.answer(Decision(action="skip", reason="not this one"))
    events = inv.step(chain)
    assert [e.kind for e in events if e.kind == "decision"] == ["decision"] and inv.asking is None
    assert inv.db.execute("SELECT status, decided_by, decision_reason FROM routes WHERE run_id=? AND route_id=?",
                          [inv.run_id, prop.route_id]).fetchone() == ("skipped", "person:ana", "not this one; escalated: image text needs a look")
    # the answer was used once: the next proposal waits for the person again
    assert inv.step(chain) == [] and inv.asking is not None
    # run() with the console chain stops where the person is asked, deciding nothing
    n = inv.db.execute("SELECT count(*) FROM events WHERE run_id=? AND kind='decision'", [inv.run_id]).fetchone()[0]
    inv.run(chain)
    assert not inv.finished
    assert inv.db.execute("SELECT count(*) FROM events WHERE run_id=? AND kind='decision'",
                          [inv.run_id]).fetchone()[0] == n
