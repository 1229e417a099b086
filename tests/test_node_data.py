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


def test_the_console_shows_a_nodes_data_part_by_part() -> None:
    from argus_tui.screens.detail import node_data_text
    from argus_tui.state import EventRow

    ocr = EvidenceNode(node_id="e3", post_id="p1", modality="image", carrier="receipt", content="Cafe Lumen\nTotal 12.50",
                       data={"field": "ocr:p1/img0", "image_id": "p1/img0", "ocr_source": "ocr", "route_id": "r1",
                             "tool_call_id": 4, "lines": [{"text": "Cafe Lumen", "score": 0.97, "box": [[1, 2], [90, 2],
                                                                                                    [90, 20], [1, 20]]}],
                             "cues": [{"attribute": "frequent_venues", "value": "Cafe Lumen", "span": "Cafe Lumen",
                                       "cue": "receipt:merchant", "confidence": 0.45}]})
    text = "\n".join(str(t) for t in node_data_text(ocr))
    for part in ("source", "text read", "image", "tool"):
        assert f"\n{part}" in text, part
    assert "frequent_venues = Cafe Lumen" in text and "0.970  Cafe Lumen  box 1,2-90,20" in text
    h = EvidenceNode(node_id="h1", kind="hypothesis", attribute="home_location", value="Camden",
                     data={"key": "home_location::camden", "needs": ["gazetteer:Camden"],
                           "notes": [{"by": "person:a", "step": 3, "text": "asked"}]})
    shown = "\n".join(str(t) for t in node_data_text(h))
    assert "needs: gazetteer:Camden" in shown and "note by person:a (step 3): asked" in shown
    row = EventRow(7, 2, "tool:ocr", {"route_id": "r1", "inputs": {"file": "a.png"}, "cached": False,
                                      "outputs": {"lines": [{"text": "Hi", "score": 0.5, "box": [0, 0, 4, 4]}, "junk"]}},
                   source="tool")
    assert [(ln.text, ln.box) for ln in row.tool_call().ocr_lines()] == [("Hi", [0, 0, 4, 4])]
    assert EventRow(8, 2, "verified", {"admitted": ["h1"]}).event().admitted == ["h1"]
