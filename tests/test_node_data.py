"""A node's data is typed (core/nodes): unknown keys are refused when the engine writes them, a
part of another kind of node is refused, needs are typed routes stored in their short form, the
stored JSON keeps no nulls, and a run an older engine wrote (keys this one does not know) still
opens: in the graph, in `db.queries.state_at` and in `argus runs show --step`."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

sys.path.insert(0, str(Path(__file__).parent))
from test_engine_stages import _add_post, _ctx  # noqa: E402

from core.engine.graph import Graph  # noqa: E402
from core.engine.types import Cue, EvidenceNode, Hypothesis  # noqa: E402
from core.nodes.hypothesis import Need  # noqa: E402
from core.nodes.node import NodeData, node_data  # noqa: E402
from db import queries  # noqa: E402

ARGUS = str(Path(sys.executable).parent / "argus")


def test_unknown_keys_and_wrong_types_are_refused() -> None:
    with pytest.raises(ValidationError, match="cuez"):
        NodeData.model_validate({"field": "caption", "cuez": []})
    with pytest.raises(ValidationError, match="cues"):
        EvidenceNode(node_id="e1", data={"cues": [{"attribute": "age"}]})       # a cue without its value
    with pytest.raises(ValidationError, match="hostile_scope"):
        NodeData(hostile_scope="some")
    d = NodeData(field="caption")
    with pytest.raises(ValidationError):
        d.lines = [{"text": "x", "colour": "red"}]                             # assignments are validated too
    with pytest.raises(ValidationError, match="mood"):
        Cue(attribute="age", value="30", data={"mood": "happy"})


def test_a_part_of_another_kind_of_node_is_refused_when_stored(tmp_path: Path) -> None:
    ctx = _ctx(tmp_path, [{"post_id": "p1", "caption": "I love hiking"}])
    post = EvidenceNode(node_id="post:px", kind="post", post_id="px", data={"idx": 0, "cues": []})
    with pytest.raises(ValueError, match=r"post node post:px: data fields of another kind of node: \['cues'\]"):
        ctx.graph.add_node(post)


def test_needs_are_typed_routes_stored_in_their_short_form(tmp_path: Path) -> None:
    n = Need.model_validate("zoom_ocr:e12:3")
    assert (n.family, n.target, n.line, str(n)) == ("zoom_ocr", "e12", 3, "zoom_ocr:e12:3")
    assert Need.model_validate("gazetteer:Foo: Bar").target == "Foo: Bar"
    with pytest.raises(ValidationError):
        Need.model_validate("teleport:Mars")
    ctx = _ctx(tmp_path, [{"post_id": "p1", "caption": "Home in Nanshan District"}])
    e = _add_post(ctx, {"post_id": "p1", "caption": "Home in Nanshan District"})
    h, _ = ctx.graph.put_hypothesis(Hypothesis(attribute="home_location", value="Nanshan District",
                                               evidence=[e.node_id], needs=["gazetteer:Nanshan District"]))
    ctx.db.conn.commit()
    stored = json.loads(ctx.db.execute("SELECT data FROM nodes WHERE node_id=?", [h.node_id]).fetchone()[0])
    assert stored["needs"] == ["gazetteer:Nanshan District"] and None not in stored.values()
    again = Graph(ctx.db, ctx.run_id).nodes[h.node_id]
    assert again.data.needs == [Need(family="gazetteer", target="Nanshan District")] and again == h


def test_a_hold_set_to_none_clears_the_stale_hold(tmp_path: Path) -> None:
    ctx = _ctx(tmp_path, [{"post_id": "p1", "caption": "I am a nurse"}])
    e = _add_post(ctx, {"post_id": "p1", "caption": "I am a nurse"})
    held = Hypothesis(attribute="occupation", value="Nurse", confidence=0.2, evidence=[e.node_id],
                      data={"hold": "semantic support only", "semantic_only": True})
    h, _ = ctx.graph.put_hypothesis(held)
    assert h.data.hold == "semantic support only"
    h, changed = ctx.graph.put_hypothesis(Hypothesis(attribute="occupation", value="Nurse", confidence=0.6,
                                                     evidence=[e.node_id], data={"hold": None, "semantic_only": False}))
    assert changed and h.data.hold is None and h.data.semantic_only is False
    h, _ = ctx.graph.put_hypothesis(Hypothesis(attribute="occupation", value="Nurse", confidence=0.7,
                                               evidence=[e.node_id]))
    assert h.data.semantic_only is False          # a field it does not set keeps the node's value


def test_a_run_written_by_an_older_engine_still_opens(tmp_path: Path) -> None:
    """Keys an older engine wrote and this one does not know are dropped (counted) when read back."""
    ctx = _ctx(tmp_path, [{"post_id": "p1", "caption": "I love hiking"}])
    e = _add_post(ctx, {"post_id": "p1", "caption": "I love hiking"}, cues=[Cue(attribute="hobbies", value="hiking",
                                                                                  span="hiking", confidence=0.7)])
    ctx.graph.put_hypothesis(Hypothesis(attribute="hobbies", value="hiking", evidence=[e.node_id], confidence=0.7))
    ctx.db.execute("UPDATE runs SET step=1 WHERE run_id=?", [ctx.run_id])
    ctx.db.conn.commit()
    for table in ("nodes", "node_versions"):
        (data,) = ctx.db.execute(f"SELECT data FROM {table} WHERE node_id=?", [e.node_id]).fetchone()
        old = json.loads(data)
        old["legacy_score"] = 3
        old["cues"][0]["data"]["old_hint"] = True
        ctx.db.execute(f"UPDATE {table} SET data=? WHERE node_id=?", [json.dumps(old), e.node_id])
    ctx.db.conn.commit()
    dropped: dict[str, int] = {}
    raw = json.loads(ctx.db.execute("SELECT data FROM node_versions WHERE node_id=?", [e.node_id]).fetchone()[0])
    assert node_data(raw, dropped).cues[0].value == "hiking"
    assert dropped == {"NodeData.legacy_score": 1, "CueData.old_hint": 1}
    assert Graph(ctx.db, ctx.run_id).nodes[e.node_id].data.cues[0].span == "hiking"
    st = queries.state_at(ctx.db, ctx.run_id, 1)
    assert st.node(e.node_id).data.cues[0].attribute == "hobbies" and st.hypotheses
    db_path = ctx.db.conn.execute("PRAGMA database_list").fetchone()[2]
    res = subprocess.run([ARGUS, "runs", "show", db_path, ctx.run_id, "--step", "1", "--json"],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    shown = json.loads(res.stdout)
    assert [h["value"] for h in shown["hypotheses"]] == ["hiking"] and shown["hypotheses"][0]["evidence"] == [e.node_id]
