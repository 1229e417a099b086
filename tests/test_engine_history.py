"""History that replays and verdicts that change the graph: a real engine run with real OCR
(routes read the images) is rebuilt at every committed step and compared with the live state
captured right after that step; edge removals, profile values and node versions are kept;
grounding checks the one tool call or post field a node cites."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from engine_user import make_user, render_text_image  # noqa: E402
from test_engine_stages import _add_post, _ctx  # noqa: E402

from core.engine.approval import AutoApprover  # noqa: E402
from core.engine.loop import Investigation  # noqa: E402
from core.engine.perceiver import ocr_node  # noqa: E402
from db.profile import write_profile  # noqa: E402
from core.engine.types import EvidenceNode, Hypothesis  # noqa: E402
from core.engine.verifier import grounded, verify_hypothesis  # noqa: E402
from core.models import PredictedAttribute  # noqa: E402
from db import queries  # noqa: E402

ARGUS = str(Path(sys.executable).parent / "argus")


@pytest.fixture(scope="module")
def routed(tmp_path_factory):
    """A default-budget run where OCR is a route, with the live state captured after every
    committed step (a decision, the proposal recorded at that step, the finish)."""
    root = tmp_path_factory.mktemp("history")
    udir = make_user(root)
    inv = Investigation.start(root / "runs.db", udir, config={"ocr_in_perception": False})
    live = {inv.ctx.step: inv.state()}
    approver = AutoApprover()
    while not inv.finished:
        prop = inv.next_proposal()
        live[inv.ctx.step] = inv.state()       # the step's state plus the proposal recorded at it
        if prop is None:
            break
        inv.decide(approver.decide(prop, inv))
        live[inv.ctx.step] = inv.state()
    return {"root": root, "db": root / "runs.db", "inv": inv, "live": live}


@pytest.mark.slow
def test_state_at_every_step_equals_the_live_state(routed):
    inv, live = routed["inv"], routed["live"]
    steps = sorted(live)
    assert steps == list(range(1, inv.ctx.step + 1)) and len(steps) >= 4
    for step in steps:
        rebuilt = queries.state_at(inv.db, inv.run_id, step)
        assert rebuilt == live[step], f"step {step}"
    # the past differs from the present: what routes added is absent before them
    first, last = live[steps[0]], live[steps[-1]]
    assert first.profile, "the profile projected at step 1 is visible at step 1"
    assert {p.attribute for p in first.profile} < {p.attribute for p in last.profile}
    assert "XC190417" not in json.dumps([p.value for p in first.profile])
    assert "XC190417" in next(p.value for p in last.profile if p.attribute == "contact_or_id_number")
    assert first.budget.spent == 0 and last.budget.spent == pytest.approx(sum(r.cost for r in last.routes
                                                                              if r.status in ("done", "edited", "failed")))
    assert [r.status for r in first.routes] == ["proposed"]
    assert all(r.status != "proposed" for r in last.routes) and last.finished and not first.finished


@pytest.mark.slow
def test_runs_show_step_prints_the_rebuilt_state(routed):
    inv = routed["inv"]
    out = subprocess.run([ARGUS, "runs", "show", str(routed["db"]), inv.run_id, "--step", "2", "--json"],
                         capture_output=True, text=True, check=True).stdout
    data = json.loads(out)
    st = queries.state_at(inv.db, inv.run_id, 2)
    assert data["step"] == 2 and data["budget"] == st.budget.model_dump()
    assert {p["attribute"]: p["value"] for p in data["profile"]} == {p.attribute: p.value for p in st.profile}
    assert [(r["route_id"], r["status"], r["decided_by"]) for r in data["routes"]] == \
        [(r.route_id, r.status, r.decided_by) for r in st.routes]
    assert all("reason" in h and "evidence" in h for h in data["hypotheses"])
    full = json.loads(subprocess.run([ARGUS, "runs", "show", str(routed["db"]), inv.run_id, "--json"],
                                     capture_output=True, text=True, check=True).stdout)
    assert full["routes"] and set(full["routes"][0]) >= {"route_id", "family", "params", "status", "cost", "decided_by"}
    assert [r["route_id"] for r in full["routes"]] == [r.route_id for r in routed["live"][inv.ctx.step].routes]
    text = subprocess.run([ARGUS, "runs", "show", str(routed["db"]), inv.run_id, "--step", "1"],
                          capture_output=True, text=True, check=True).stdout
    assert f"as of step 1 of {inv.ctx.step}" in text and "routes" in text
    bad = subprocess.run([ARGUS, "runs", "show", str(routed["db"]), inv.run_id, "--step", "999"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "--step" in bad.stderr + bad.stdout


@pytest.mark.slow
def test_route_evidence_is_grounded_in_its_route_call(routed):
    inv = routed["inv"]
    ocr = [n for n in inv.graph.evidence() if n.data.ocr_source == "ocr"]
    assert ocr
    used = [n for n in ocr if any(n.node_id in inv.graph.supporters(h.node_id) for h in inv.graph.hypotheses())]
    assert used and all(n.status == "grounded" for n in used)
    assert all("tool call" in n.data.grounding for n in used)
    # the status change is in the node's version for that step, with its reason; before the
    # route's step the node does not exist
    rows = inv.db.execute("SELECT step, status, reason FROM node_versions WHERE run_id=? AND node_id=? ORDER BY step",
                          [inv.run_id, used[0].node_id]).fetchall()
    assert rows[-1][1:] == ("grounded", used[0].data.grounding)
    assert queries.state_at(inv.db, inv.run_id, rows[0][0] - 1).node(used[0].node_id) is None
    assert queries.state_at(inv.db, inv.run_id, rows[0][0]).node(used[0].node_id).status == "grounded"


def test_removed_support_stays_in_history(tmp_path):
    posts = [{"post_id": "p1", "caption": "I love hiking"}]
    ctx = _ctx(tmp_path, posts)
    g = ctx.graph
    g.step = 1
    e = _add_post(ctx, posts[0])
    h, _ = g.put_hypothesis(Hypothesis(attribute="hobbies", value="hiking", confidence=0.6, evidence=[e.node_id]))
    ctx.db.conn.commit()
    g.step = 2
    g.remove_support(e.node_id, h.node_id, f"{e.node_id} rejected: test reason")
    ctx.db.conn.commit()
    g.step = 3
    g.add_edge(e.node_id, h.node_id, "support")
    ctx.db.conn.commit()
    rows = ctx.db.execute("SELECT step, removed_step, removed_reason FROM edges WHERE run_id='r' AND kind='support'"
                          " ORDER BY rowid").fetchall()
    assert rows == [(1, 2, f"{e.node_id} rejected: test reason"), (3, None, None)]
    alive = [queries.state_at(ctx.db, "r", s).supporters(h.node_id) for s in (1, 2, 3)]
    assert alive == [[e.node_id], [], [e.node_id]]
    assert queries.supporters(ctx.db, "r", h.node_id) == [e.node_id]


def test_profile_values_keep_the_step_they_took_effect_and_were_cleared(tmp_path):
    ctx = _ctx(tmp_path, [{"post_id": "p1", "caption": "x"}])
    ctx.graph.step = 1
    ctx.db.execute("INSERT INTO events (run_id, step, kind, data, created_at) VALUES ('r', 1, 'x', '{}', '')")
    seq = {1: [("age", "30"), ("gender", "female")], 2: [("age", "31"), ("gender", "female")], 3: [("age", "31")]}
    for step, vals in seq.items():
        ctx.graph.step = step
        assert write_profile(ctx.db, ctx.run_id, ctx.step, [PredictedAttribute(attribute=a, value=v, confidence=0.5, evidence=["e1"])
                                   for a, v in vals])
        ctx.db.conn.commit()
    assert not write_profile(ctx.db, ctx.run_id, ctx.step, [PredictedAttribute(attribute="age", value="31", confidence=0.5, evidence=["e1"])])
    for step, vals in seq.items():
        st = queries.state_at(ctx.db, "r", step)
        assert sorted((p.attribute, p.value) for p in st.profile) == sorted(vals)
    assert {p.attribute: p.step for p in queries.state_at(ctx.db, "r", 2).profile} == {"age": 2, "gender": 1}
    # the current table keeps the step each value took effect
    assert ctx.db.execute("SELECT attribute, step FROM profile WHERE run_id='r'").fetchall() == [("age", 2)]


def test_grounding_checks_the_cited_tool_call_only(tmp_path):
    posts = [{"post_id": "p1", "caption": "two notices", "images": [{"file": "images/a.png"}, {"file": "images/b.png"}]}]
    ctx = _ctx(tmp_path, posts)
    img = tmp_path / "users" / "u1" / "images"
    img.mkdir()
    render_text_image(img / "a.png", ["Staff ID: XC190417"], size=(600, 120))
    render_text_image(img / "b.png", ["Monthly fee: 380 yuan"], size=(600, 120))
    from tools.registry import run_tool

    nodes = {}
    for name in ("a", "b"):
        res = run_tool(ctx.tool_env(), "ocr", {"image_id": f"p1/img{name}", "file": f"images/{name}.png"})
        node = ocr_node("p1", f"p1/img{name}", f"images/{name}.png", res.output["lines"], False,
                        source="perception")
        node.data.tool_call_id = res.call_id
        nodes[name] = node
    assert "XC190417" in nodes["a"].content
    ok, why = grounded(ctx.view, nodes["a"])
    assert ok and f"tool call {nodes['a'].data.tool_call_id}" in why
    # b's lines cited as if they came from a's call: in the run's outputs, but not in the cited call
    forged = nodes["b"].model_copy(deep=True)
    forged.data.tool_call_id = nodes["a"].data.tool_call_id
    ok, why = grounded(ctx.view, forged)
    assert not ok and "380 yuan" in why and f"tool call {nodes['a'].data.tool_call_id}" in why
    # no cited call at all: rejected, not matched against every output of the run
    orphan = nodes["b"].model_copy(deep=True)
    orphan.data.tool_call_id = None
    assert grounded(ctx.view, orphan) == (False, "cites no recorded tool call")


def test_model_quotes_are_grounded_by_exact_substring_of_the_cited_post(tmp_path):
    posts = [{"post_id": "p1", "caption": "Off to my shift at Shenzhen General, third night in a row"}]
    ctx = _ctx(tmp_path, posts)
    ctx.graph.add_node(EvidenceNode(node_id="post:p1", kind="post", post_id="p1"))

    def quote(text: str) -> EvidenceNode:
        return EvidenceNode(node_id="", post_id="p1", modality="text", carrier="caption", content=text,
                            attribute="workplace", value="Shenzhen General", provenance=["model:perceiver"],
                            data={"field": "model:perceiver", "source": "model:perceiver", "cues": []})

    ok, why = grounded(ctx.view, quote("my shift at Shenzhen General"))
    assert ok and "p1" in why
    ok, why = grounded(ctx.view, quote("my shift at Shenzhen People's Hospital"))
    assert not ok and "not in post p1" in why


def test_rejected_supporter_loses_its_edge_and_the_reason_is_kept(tmp_path):
    posts = [{"post_id": "p1", "caption": "I love hiking"}]
    ctx = _ctx(tmp_path, posts)
    g = ctx.graph
    g.step = 1
    good = _add_post(ctx, posts[0])
    forged = g.add_node(EvidenceNode(node_id="", post_id="p1", modality="text", carrier="caption",
                                     content="I love skiing", data={"field": "caption", "cues": []}))
    inv = Investigation(ctx.db, "r", ctx, __import__("core.engine.backend", fromlist=["x"]).OfflineBackend(), "argus")
    inv._step_events = []
    h, _ = g.put_hypothesis(Hypothesis(attribute="hobbies", value="hiking", confidence=0.7,
                                       evidence=[good.node_id, forged.node_id]))
    lonely, _ = g.put_hypothesis(Hypothesis(attribute="hobbies", value="skiing", confidence=0.7,
                                            evidence=[forged.node_id]))
    inv._verify()
    assert good.status == "grounded" and forged.status == "rejected"
    assert "content differs from post p1 caption" in forged.data.grounding
    assert g.supporters(h.node_id) == [good.node_id] and h.status == "admitted"
    assert lonely.status == "removed" and "content differs" in lonely.data.status_reason
    row = ctx.db.execute("SELECT removed_step, removed_reason FROM edges WHERE run_id='r' AND src=? AND dst=?",
                         [forged.node_id, h.node_id]).fetchone()
    assert row[0] == 1 and forged.node_id in row[1] and "content differs" in row[1]
    # the verifier lowered the confidence for the rejected half of the support
    assert h.confidence == pytest.approx(0.35)
    # proposed again with the rejected supporter: it is not linked again, nothing changes
    _, changed = g.put_hypothesis(Hypothesis(attribute="hobbies", value="hiking", confidence=0.7,
                                             evidence=[good.node_id, forged.node_id]))
    assert not changed and g.supporters(h.node_id) == [good.node_id]
    v = verify_hypothesis(ctx.view, ctx.settings, h)
    assert v.status == "admitted" and v.evidence == [good.node_id]


def test_unresolved_hypotheses_are_suspended_until_their_evidence_changes(tmp_path):
    posts = [{"post_id": "p1", "caption": "I love hiking"}, {"post_id": "p2", "caption": "hiking again"}]
    ctx = _ctx(tmp_path, posts)
    g = ctx.graph
    g.step = 1
    e1 = _add_post(ctx, posts[0])
    inv = Investigation(ctx.db, "r", ctx, __import__("core.engine.backend", fromlist=["x"]).OfflineBackend(), "argus")
    inv._step_events = []
    h, _ = g.put_hypothesis(Hypothesis(attribute="hobbies", value="hiking", confidence=0.1, evidence=[e1.node_id]))
    inv._verify()
    assert h.status == "unresolved" and "below" in h.data.status_reason
    inv._suspend_unresolved("no useful route remains")
    assert h.status == "suspended" and "no useful route remains" in h.data.status_reason
    # unchanged evidence: stays suspended; a new supporter wakes it and it is verified again
    assert not g.put_hypothesis(Hypothesis(attribute="hobbies", value="hiking", confidence=0.1,
                                           evidence=[e1.node_id]))[1]
    assert h.status == "suspended"
    e2 = _add_post(ctx, posts[1])
    g.put_hypothesis(Hypothesis(attribute="hobbies", value="hiking", confidence=0.5, evidence=[e1.node_id, e2.node_id]))
    assert h.status == "candidate"
    inv._verify()
    assert h.status == "admitted"
    hist = [r[0] for r in ctx.db.execute("SELECT status FROM hypothesis_history WHERE node_id=? ORDER BY id",
                                         [h.node_id]).fetchall()]
    assert hist == ["candidate", "unresolved", "suspended", "candidate", "admitted"]


@pytest.mark.slow
def test_person_reject_confirm_note_are_steps_the_engine_honours(routed, tmp_path):
    import sqlite3

    from core.advise.export import export_run
    from core.engine.events import HypothesisAction
    from core.reports.html import Redactor, _person_actions_html

    copy = tmp_path / "runs.db"
    with sqlite3.connect(routed["db"]) as src, sqlite3.connect(copy) as dst:
        src.backup(dst)
    inv = Investigation.resume(copy, routed["inv"].run_id)
    before = {a.attribute: a for a in inv.profile().attributes}
    home = before["home_location"]
    target = next(h for h in inv.graph.hypotheses(("admitted",)) if h.attribute == "home_location"
                  and h.value == home.value)
    step0 = inv.ctx.step
    events = inv.hypothesis_action(target.node_id, "reject", by="alice", reason="that is my office, not my home")
    act = [e for e in events if isinstance(e, HypothesisAction)]
    assert len(act) == 1 and act[0].by == "person:alice" and act[0].status == "removed"
    assert inv.ctx.step == step0 + 1
    assert target.status == "removed" and "rejected by person:alice: that is my office" in target.data.status_reason
    after = {a.attribute: a.value for a in inv.profile().attributes}
    assert after.get("home_location") != home.value
    # the hypothesizer proposes it again at every refresh: it stays removed, never projected
    superseded = next(h for h in inv.graph.hypotheses(("removed",)) if h.data.removed_by == "hypothesizer")
    inv.hypothesis_action(superseded.node_id, "confirm", by="bob", reason="checked on the map")
    assert superseded.status == "admitted" and superseded.derived and superseded.data.confirmed_by == "person:bob"
    prof = {a.attribute: a.value for a in inv.profile().attributes}
    assert prof[superseded.attribute] == superseded.value
    inv.hypothesis_action(target.node_id, "note", by="alice", reason="asked the user")
    assert target.status == "removed" and target.data.notes[-1].text == "asked the user"
    assert prof.get("home_location") != home.value and \
        {a.attribute: a.value for a in inv.profile().attributes}.get("home_location") != home.value
    # the past is intact, and the live state still equals the rebuilt one
    assert queries.state_at(inv.db, inv.run_id, step0).node(target.node_id).status == "admitted"
    assert queries.state_at(inv.db, inv.run_id, inv.ctx.step) == inv.state()
    # timeline, export and report
    kinds = [(e.action, e.node_id) for e in inv.events() if isinstance(e, HypothesisAction)]
    assert kinds == [("reject", target.node_id), ("confirm", superseded.node_id), ("note", target.node_id)]
    exp = export_run(inv.db, inv.run_id)
    assert [a["action"] for a in exp["person_actions"]] == ["reject", "confirm", "note"]
    assert exp["person_actions"][0]["reason"] == "that is my office, not my home"
    assert export_run(inv.db, inv.run_id, redact=True)["person_actions"][0]["reason"] == "[redacted]"
    html = _person_actions_html(inv.db, inv.run_id, Redactor([], False))
    assert "person:alice" in html and "that is my office" in html and "confirm" in html
    with pytest.raises(ValueError, match="not a hypothesis"):
        inv.hypothesis_action("e1", "reject", by="alice", reason="x")


def test_merged_shards_keep_the_history(tmp_path):
    """A run from a batch shard replays the same after db.merge (versions, removed
    edges and profile history are copied with it)."""
    from db.merge import merge_shards

    shard = tmp_path / "shard"
    ctx = _ctx(shard, [{"post_id": "p1", "caption": "I love hiking"}])
    g = ctx.graph
    g.step = 1
    e = _add_post(ctx, {"post_id": "p1", "caption": "I love hiking"})
    h, _ = g.put_hypothesis(Hypothesis(attribute="hobbies", value="hiking", confidence=0.6, evidence=[e.node_id]))
    g.set_status(h, "admitted", "test")
    write_profile(ctx.db, ctx.run_id, ctx.step, [PredictedAttribute(attribute="hobbies", value="hiking", confidence=0.6, evidence=[e.node_id])])
    ctx.db.conn.commit()
    g.step = 2
    g.remove_support(e.node_id, h.node_id, "test removal")
    g.set_status(h, "removed", "no support left", by="verifier")
    write_profile(ctx.db, ctx.run_id, ctx.step, [])
    ctx.db.execute("UPDATE runs SET step=2 WHERE run_id='r'")
    ctx.db.conn.commit()
    before = [queries.state_at(ctx.db, "r", s) for s in (1, 2)]
    ctx.db.conn.close()
    out = tmp_path / "out"
    (out / "shards").mkdir(parents=True)
    (shard / "runs.db").rename(out / "shards" / "r.db")
    assert merge_shards(out) == 1
    from db.store import open_db

    db = open_db(out / "runs.db")
    assert [queries.state_at(db, "r", s) for s in (1, 2)] == before
    assert before[0].profile and not before[1].profile and before[0].supporters(h.node_id) == [e.node_id]


def test_evidence_flagged_hostile_after_grounding_is_rejected(tmp_path):
    posts = [{"post_id": "p1", "caption": "I love hiking"}]
    ctx = _ctx(tmp_path, posts)
    g = ctx.graph
    g.step = 1
    e = _add_post(ctx, posts[0])
    inv = Investigation(ctx.db, "r", ctx, __import__("core.engine.backend", fromlist=["x"]).OfflineBackend(), "argus")
    inv._step_events = []
    h, _ = g.put_hypothesis(Hypothesis(attribute="hobbies", value="hiking", confidence=0.6, evidence=[e.node_id]))
    inv._verify()
    assert e.status == "grounded" and h.status == "admitted"
    g.step = 2
    e.data = e.data.model_copy(update={"hostile": ["I love hiking"]})     # a later pass flags the text
    g.update_node(e)
    g.set_status(h, "candidate", "re-check")
    inv._verify()
    assert e.status == "rejected" and "hostile" in e.data.grounding
    assert h.status == "removed" and g.supporters(h.node_id) == []
    assert queries.state_at(ctx.db, "r", 1).node(e.node_id).status == "grounded"


def test_graph_view_keeps_only_its_nodes_and_their_edges(tmp_path):
    posts = [{"post_id": "p1", "caption": "I love hiking"}]
    ctx = _ctx(tmp_path, posts)
    g = ctx.graph
    e = _add_post(ctx, posts[0])
    h, _ = g.put_hypothesis(Hypothesis(attribute="hobbies", value="hiking", confidence=0.6, evidence=[e.node_id]))
    v = g.view([n for n in g.nodes.values() if n.node_id != e.node_id])
    assert v.supporters(h.node_id) == [] and g.supporters(h.node_id) == [e.node_id]
    assert v.hypothesis_by_key(h.data.key) is h and e.node_id not in v.nodes and v.evidence() == []
    assert g.evidence() == [e]
