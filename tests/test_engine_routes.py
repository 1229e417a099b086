"""Routes on a hand-built user with real OCR: edits validated before anything is charged and
reaching the tool, evidence naming its tool call, the budget as the ledger after a rolled-back
step, the console API (force_route / extend_budget / stop_reason, reopening a finished run)
and approval chains from the config."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from engine_user import make_user  # noqa: E402

from core.engine.approval import SkipAll, headless_chain, load_rules  # noqa: E402
from core.engine.backend import OfflineBackend  # noqa: E402
from core.engine.loop import Investigation  # noqa: E402
from core.engine.types import Decision  # noqa: E402
from core.errors import InputError  # noqa: E402

pytestmark = pytest.mark.slow
SKIM = {"ocr_in_perception": False}


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    root = tmp_path_factory.mktemp("routes")
    return {"udir": make_user(root), "db": root / "runs.db"}   # one DB: the tool cache is shared by the tests


def _ledger(inv: Investigation) -> tuple[int, float]:
    n, s = inv.db.execute("SELECT COUNT(*), COALESCE(SUM(units), 0) FROM budget_ledger WHERE run_id=?",
                          [inv.run_id]).fetchone()
    return n, s


def _first_ocr(inv: Investigation):
    prop = inv.next_proposal()
    while prop is not None and prop.family != "ocr":
        inv.decide(Decision(action="skip", by="person:t"))
        prop = inv.next_proposal()
    assert prop is not None
    return prop


def test_bad_edit_is_refused_and_a_good_edit_reaches_the_tool(world):
    inv = Investigation.start(world["db"], world["udir"], config=SKIM)
    prop = _first_ocr(inv)
    n_events = len(inv.events())
    for bad, field in (({"box": [1, 2]}, "params.box"), ({"zoom": -1}, "params.zoom"), ({"bx": [0, 0, 5, 5]}, "params.bx")):
        with pytest.raises(InputError) as e:
            inv.decide(Decision(action="edit", by="person:t", params=bad))
        assert e.value.field == field
    assert _ledger(inv) == (0, 0) and len(inv.events()) == n_events
    assert inv.next_proposal().route_id == prop.route_id            # still pending, untouched
    inv.decide(Decision(action="edit", by="person:t", params={"box": [0, 0, 400, 200], "zoom": 2}))
    status, params = inv.db.execute("SELECT status, params FROM routes WHERE run_id=? AND route_id=?",
                                    [inv.run_id, prop.route_id]).fetchone()
    assert status == "edited" and json.loads(params)["box"] == [0, 0, 400, 200]
    calls = [json.loads(r[0]) for r in inv.db.execute(
        "SELECT inputs FROM tool_calls WHERE run_id=? AND route_id=? AND tool='ocr'", [inv.run_id, prop.route_id])]
    assert calls == [{"file": prop.params["file"], "box": [0, 0, 400, 200], "zoom": 2}]
    assert _ledger(inv) == (1, prop.cost)


def test_evidence_names_the_tool_call_that_produced_it(world):
    inv = Investigation.start(world["db"], world["udir"], config=SKIM)
    inv.run()
    rows = inv.db.execute("SELECT node_id, data FROM nodes WHERE run_id=? AND kind='evidence'", [inv.run_id]).fetchall()
    routed = [(nid, json.loads(d)) for nid, d in rows if json.loads(d).get("route_id")]
    assert len(routed) >= 3
    for nid, d in routed:
        call = inv.db.execute("SELECT route_id, tool FROM tool_calls WHERE run_id=? AND id=?",
                              [inv.run_id, d["tool_call_id"]]).fetchone()
        assert call is not None and call[0] == d["route_id"], nid
    # every executed route produced or read something and was charged exactly once
    n_exec = inv.db.execute("SELECT COUNT(*) FROM routes WHERE run_id=? AND status IN ('done','edited','failed')",
                            [inv.run_id]).fetchone()[0]
    assert n_exec >= 3 and _ledger(inv)[0] == n_exec
    assert inv.budget.spent == pytest.approx(_ledger(inv)[1])
    # each proposal says which hypothesis it serves and what it expects, or that it explores
    props = [e.data for e in inv.events() if e.kind == "route_proposed"]
    assert props
    for p in props:
        assert p["expected"] and p["reason"], p
        if p["hypothesis_id"]:
            assert f"({p['hypothesis_id']}," in p["reason"], p
        elif p["family"] == "ocr":
            assert p["reason"].startswith("explore:"), p
    assert inv.stop_reason in ("no useful route remains", "budget spent") or "stable" in inv.stop_reason


class FailingBackend(OfflineBackend):
    """Hypothesizing fails while `broken` is set: the step in flight must roll back whole."""

    broken = False

    def hypothesize(self, view, config, calls):
        if self.broken:
            raise RuntimeError("hypothesizer crashed")
        return super().hypothesize(view, config, calls)


def test_a_rolled_back_step_leaves_no_charge(world):
    be = FailingBackend()
    inv = Investigation.start(world["db"], world["udir"], config=SKIM, backend=be)
    nodes_before = len(inv.graph.nodes)
    prop = inv.next_proposal()
    be.broken = True
    with pytest.raises(RuntimeError):
        inv.decide(Decision(action="approve", by="policy:t"))
    spent_db = inv.db.execute("SELECT spent FROM runs WHERE run_id=?", [inv.run_id]).fetchone()[0]
    assert inv.budget.spent == 0 == spent_db and _ledger(inv) == (0, 0)
    assert len(inv.graph.nodes) == nodes_before == inv.db.execute(
        "SELECT COUNT(*) FROM nodes WHERE run_id=?", [inv.run_id]).fetchone()[0]
    be.broken = False
    inv.decide(Decision(action="approve", by="policy:t"))
    assert inv.budget.spent == pytest.approx(prop.cost) == _ledger(inv)[1]


def test_force_route_and_extend_budget_reopen_a_finished_run(world):
    inv = Investigation.start(world["db"], world["udir"], config=SKIM)
    inv.run(SkipAll())
    assert inv.finished and inv.stop_reason
    with pytest.raises(InputError) as e:
        inv.force_route("ocr", {"file": "images/p06_badge.png", "zoom": 99}, by="person:bob")
    assert e.value.field == "params.zoom" and inv.finished and _ledger(inv) == (0, 0)
    with pytest.raises(ValueError):
        inv.force_route("web_search", {"query": "Example Garden"}, by="person:bob")   # network is off
    events = inv.force_route("ocr", {"image_id": "p06/img0", "file": "images/p06_badge.png"}, by="person:bob",
                             reason="read the badge")
    kinds = [e.kind for e in events]
    assert "reopened" in kinds and "tool_call" in kinds and not inv.finished
    row = inv.db.execute("SELECT status, decided_by, family FROM routes WHERE run_id=? AND decided_by='person:bob'",
                         [inv.run_id]).fetchone()
    assert row == ("done", "person:bob", "ocr")
    assert any("XC190417" in n.content for n in inv.graph.evidence())
    inv.run(SkipAll())
    assert inv.finished
    before = inv.budget.total
    ev = inv.extend_budget(5, by="person:bob")
    assert [e.kind for e in ev][:2] == ["reopened", "budget_extended"] and not inv.finished
    assert inv.budget.total == before + 5
    inv.run(SkipAll())
    assert inv.stop_reason and inv.finished


def test_approval_chain_from_config_and_toml(world, tmp_path):
    cfg = {**SKIM, "approval": [{"families": "zoom_ocr", "action": "skip", "reason": "no zooms"},
                                {"families": "*ocr", "action": "escalate"}]}
    inv = Investigation.start(world["db"], world["udir"], config=cfg)
    inv.run()
    rows = inv.db.execute("SELECT family, status, decided_by FROM routes WHERE run_id=?", [inv.run_id]).fetchall()
    assert any(f == "ocr" and s == "done" and by == "policy:auto" for f, s, by in rows)
    assert all(s == "skipped" and by == "policy:config" for f, s, by in rows if f == "zoom_ocr")
    toml = tmp_path / "argus.toml"
    toml.write_text('[[approval]]\nfamilies = "ocr"\naction = "stop"\n')
    chain = headless_chain({"backend_config": str(toml)})
    inv2 = Investigation.start(world["db"], world["udir"], config=SKIM)
    prop = _first_ocr(inv2)
    assert chain.decide(prop, inv2).action == "stop"
    toml.write_text('[[approval]]\nfamilies = "ocr"\naction = "maybe"\n')
    with pytest.raises(InputError) as e:
        load_rules(toml)
    assert "approval[0].action" in e.value.message and str(toml) in e.value.message
