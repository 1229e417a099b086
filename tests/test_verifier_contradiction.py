"""The offline verifier removes a hypothesis as *contradicted* when grounded evidence in the
graph states another value of its single-valued attribute (real engine runs, real SQLite):
the reason and the contradicting evidence ids are kept in the append-only history, the
profile keeps the stronger value, and the removed value comes back when its contradictor
stops being admitted (a person's reject); a person's confirmation contradicts the other value."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.engine.loop import Investigation
from core.engine.types import EvidenceNode, Hypothesis
from core.engine.verifier import CONTRA_MARGIN, conflicts, contradiction

NURSE = ["Another long shift at the ward, I work as a nurse and love it.",
         "As a nurse I see a lot of night shifts.",
         "Being a nurse means comfy shoes matter."]
TEACHER = ["Years ago I worked as a teacher in a small school.",
           "I was a teacher once, marking homework all weekend."]


def _user(root: Path, captions: list[str]) -> Path:
    udir = root / "u1"
    udir.mkdir(parents=True)
    (udir / "profile.json").write_text(json.dumps({"user_id": "u1"}))
    posts = [{"post_id": f"p{i + 1}", "timestamp": f"2025-03-0{i + 1}T20:00:00+08:00", "caption": c}
             for i, c in enumerate(captions)]
    (udir / "posts.jsonl").write_text("\n".join(json.dumps(p) for p in posts) + "\n")
    return udir


def _occupation(inv: Investigation, word: str) -> EvidenceNode:
    hs = [h for h in inv.graph.hypotheses() if h.attribute == "occupation" and word in (h.value or "")]
    assert len(hs) == 1, [(h.node_id, h.value) for h in inv.graph.hypotheses()]
    return hs[0]


def _history(inv: Investigation, node_id: str) -> list[tuple[int, str, str]]:
    return [tuple(r) for r in inv.db.execute(
        "SELECT step, status, reason FROM hypothesis_history WHERE run_id=? AND node_id=? ORDER BY id",
        [inv.run_id, node_id]).fetchall()]


@pytest.fixture()
def run(tmp_path):
    inv = Investigation.start(tmp_path / "runs.db", _user(tmp_path, NURSE + TEACHER))
    inv.run()
    return inv


def test_a_weaker_conflicting_value_is_removed_as_contradicted_with_its_evidence(run):
    inv = run
    nurse, teacher = _occupation(inv, "Nurse"), _occupation(inv, "Teacher")
    assert nurse.status == "admitted" and teacher.status == "removed"
    nurse_posts = {inv.graph.nodes[s].post_id for s in inv.graph.supporters(nurse.node_id)}
    assert nurse_posts == {"p1", "p2", "p3"}
    # the node keeps who contradicted it and with which grounded evidence (the nurse's own supporters)
    by = teacher.data.contradicted_by
    assert by[0] == nurse.node_id and set(by[1:]) == set(inv.graph.supporters(nurse.node_id))
    assert all(inv.graph.nodes[e].status == "grounded" for e in by[1:])
    # ... in the append-only history: the hypothesis_history reason and the node's versions
    step, status, reason = _history(inv, teacher.node_id)[-1]
    assert status == "removed" and reason.startswith(f"contradicted by {nurse.node_id}")
    assert all(e in reason for e in by[1:])
    versions = inv.db.execute("SELECT step, status, data FROM node_versions WHERE run_id=? AND node_id=? ORDER BY step",
                              [inv.run_id, teacher.node_id]).fetchall()
    assert versions[-1][1] == "removed"
    assert any(d and json.loads(d).get("contradicted_by") == by for _, _, d in versions)
    ev = [json.loads(d) for (d,) in inv.db.execute(
        "SELECT data FROM events WHERE run_id=? AND kind='verified' ORDER BY id", [inv.run_id]).fetchall()]
    assert any(e.get("contradicted", {}).get(teacher.node_id) == by for e in ev)
    # its own evidence keeps supporting it (outweighed, not ungrounded); it is no longer projected or routed
    assert inv.graph.supporters(teacher.node_id)
    assert {a.attribute: a.value for a in inv.profile().attributes}["occupation"] == nurse.value
    assert not inv.db.execute("SELECT 1 FROM routes WHERE run_id=? AND hypothesis_id=? AND step>?",
                              [inv.run_id, teacher.node_id, step]).fetchone()


def test_the_contradicted_value_returns_when_a_person_rejects_its_contradictor(run):
    inv = run
    nurse, teacher = _occupation(inv, "Nurse"), _occupation(inv, "Teacher")
    inv.hypothesis_action(nurse.node_id, "reject", by="ana", reason="she changed jobs")
    teacher = inv.graph.nodes[teacher.node_id]
    assert teacher.status == "admitted" and teacher.data.contradicted_by is None
    statuses = [s for _, s, _ in _history(inv, teacher.node_id)]
    assert statuses[-3:] == ["removed", "candidate", "admitted"]   # the old removal stays in history
    assert {a.attribute: a.value for a in inv.profile().attributes}["occupation"] == teacher.value


def test_a_persons_confirmation_contradicts_the_stronger_value(run):
    inv = run
    nurse, teacher = _occupation(inv, "Nurse"), _occupation(inv, "Teacher")
    inv.hypothesis_action(teacher.node_id, "confirm", by="ana")
    nurse = inv.graph.nodes[nurse.node_id]
    assert nurse.status == "removed" and nurse.data.contradicted_by[0] == teacher.node_id
    assert "confirmed by a person" in _history(inv, nurse.node_id)[-1][2]
    assert {a.attribute: a.value for a in inv.profile().attributes}["occupation"] == teacher.value


def test_the_stronger_support_wins_whichever_value_it_is(tmp_path):
    # one nurse post against two teacher posts: now the nurse value is the contradicted one
    inv = Investigation.start(tmp_path / "runs.db", _user(tmp_path, NURSE[:1] + TEACHER))
    inv.run()
    nurse, teacher = _occupation(inv, "Nurse"), _occupation(inv, "Teacher")
    assert teacher.status == "admitted" and nurse.status == "removed"
    assert nurse.data.contradicted_by[0] == teacher.node_id
    assert {inv.graph.nodes[e].post_id for e in nurse.data.contradicted_by[1:]} == {"p2", "p3"}


def test_no_contradiction_within_the_margin_or_from_the_same_evidence(run):
    inv = run
    nurse, teacher = _occupation(inv, "Nurse"), _occupation(inv, "Teacher")
    assert contradiction(inv.ctx.view, inv.ctx.settings, teacher, float(nurse.confidence) - CONTRA_MARGIN / 2) is None
    assert contradiction(inv.ctx.view, inv.ctx.settings, teacher, float(nurse.confidence) - 2 * CONTRA_MARGIN) is not None
    # the nurse's own evidence read as another job is ambiguity, not a contradiction of it
    doctor, _ = inv.graph.put_hypothesis(Hypothesis(
        attribute="occupation", value="Doctor, Healthcare", confidence=0.1, levels={"sector": "Healthcare", "role": "Doctor"},
        evidence=inv.graph.supporters(nurse.node_id)))
    assert contradiction(inv.ctx.view, inv.ctx.settings, doctor, 0.1) is None
    inv.db.conn.rollback()


def test_conflicts_needs_a_shared_level_with_another_value():
    def h(value: str, **levels: str) -> EvidenceNode:
        return EvidenceNode(node_id="h", kind="hypothesis", value=value, data={"levels": levels})

    sz = h("Shenzhen, Guangdong, China", country="China", region="Guangdong", city="Shenzhen")
    assert conflicts("hierarchy", sz, h("Chengdu, Sichuan, China", country="China", region="Sichuan", city="Chengdu"))
    assert not conflicts("hierarchy", sz, h("Nanshan District, Shenzhen", city="Shenzhen", district="Nanshan District"))
    assert not conflicts("hierarchy", sz, h("China", country="China"))
    assert not conflicts("hierarchy", h("Bachelor's degree", level="Bachelor's degree"), h("Economics", field="Economics"))
    assert conflicts("category", h("married"), h("single"))
    assert not conflicts("category", h("Christianity"), h("christianity"))


def test_the_contradicted_value_returns_when_its_rival_is_no_longer_clearly_stronger(run):
    inv = run
    nurse, teacher = _occupation(inv, "Nurse"), _occupation(inv, "Teacher")
    g = inv.graph
    inv._begin()                     # one step, as the loop runs it: the rival's support weakens
    low = round(float(teacher.confidence) + CONTRA_MARGIN / 2, 4)
    nurse.confidence, nurse.data = low, nurse.data.model_copy(update={"proposed_confidence": low})
    g.update_node(nurse)
    inv._verify()
    inv._commit()
    teacher = g.nodes[teacher.node_id]
    assert teacher.status == "admitted" and teacher.data.contradicted_by is None
    assert [s for _, s, _ in _history(inv, teacher.node_id)][-3:] == ["removed", "candidate", "admitted"]
    assert "no longer clearly stronger" in _history(inv, teacher.node_id)[-2][2]
