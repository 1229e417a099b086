"""Aggregators are not run again on a board whose inputs did not change (aggregators/memo.py):
counted on a real investigation (the hand-built user of tests/engine_user.py, real OCR and
SQLite), with the same hypotheses as a pass that reuses nothing; the graph's evidence version
moves with every evidence write but a verdict alone."""
from __future__ import annotations

import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from engine_user import make_user  # noqa: E402

import core.engine.backend as backend  # noqa: E402
from core.engine import hypothesizer  # noqa: E402
from core.engine.aggregators import REGISTRY, Registry  # noqa: E402
from core.engine.aggregators.base import GraphFacts  # noqa: E402
from core.engine.contract.config import EngineConfig  # noqa: E402
from core.engine.graph import Graph  # noqa: E402
from core.engine.loop import Investigation  # noqa: E402
from core.engine.types import EvidenceNode  # noqa: E402
from db.store import open_db  # noqa: E402

pytestmark = pytest.mark.slow
REUSABLE = sorted(n for n, d in REGISTRY.memo_deps.items() if d is not None)


def _counting(calls: Counter) -> list:
    """The registry's aggregators, each counting its runs (the real ones run)."""
    def wrap(a):
        def run(board):
            calls[a.name] += 1
            return a.run(board)
        return replace(a, run=run)
    return [wrap(a) for a in REGISTRY.order]


def _dump(hyps) -> list[dict]:
    return [h.model_dump() for h in hyps]


def _unreused(view) -> list[dict]:
    """The hypothesizer's answer with nothing reused (no memo)."""
    nodes = list(view.graph.nodes.values())
    derived = {n.attribute: n for n in nodes if n.kind == "hypothesis" and n.status == "admitted" and n.attribute}
    return _dump(hypothesizer._dedupe(hypothesizer._aggregate(GraphFacts(nodes), derived)))


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    calls: Counter = Counter()
    versions: list[int] = []
    real = backend.offline_hypothesize

    def hypothesize(view, config):
        versions.append(view.graph.evidence_version())
        return real(view, config)

    mp = pytest.MonkeyPatch()
    mp.setattr(REGISTRY, "order", _counting(calls))
    mp.setattr(backend, "offline_hypothesize", hypothesize)
    try:
        root = tmp_path_factory.mktemp("memo")
        inv = Investigation.start(root / "runs.db", make_user(root))
        inv.run()
        yield {"inv": inv, "calls": calls, "versions": versions, "mp": mp}
    finally:
        mp.undo()


def test_a_real_run_reruns_an_aggregator_only_when_the_evidence_changed(run) -> None:
    calls, versions = run["calls"], run["versions"]
    assert REUSABLE and "places" in REUSABLE and "generic" in REUSABLE
    distinct = len(set(versions))
    assert distinct < len(versions), "every refresh saw new evidence: nothing to reuse in this run"
    for name in REUSABLE:
        # present in this user's graph: run once per evidence version at most, never once per refresh
        assert calls[name] <= distinct, (name, calls[name], distinct, len(versions))
    assert calls["places"] > 0 and calls["generic"] > 0
    # aggregators that refine hypotheses of the pass in place (birth) are run on every refresh
    assert calls["birth"] == len(versions)


def test_an_unchanged_board_runs_no_reusable_aggregator_and_answers_the_same(run) -> None:
    inv, calls = run["inv"], run["calls"]
    view, config = inv.ctx.view, EngineConfig()
    before = Counter(calls)
    first = _dump(hypothesizer.hypothesize(view, config))
    second = _dump(hypothesizer.hypothesize(view, config))
    ran = {n: calls[n] - before[n] for n in calls if calls[n] != before[n]}
    assert not set(ran) & set(REUSABLE), ran
    assert ran.get("birth") == 2
    assert first == second == _unreused(view)


def test_new_evidence_runs_them_again(run) -> None:
    inv, calls = run["inv"], run["calls"]
    g = inv.ctx.graph
    pid = next(n.post_id for n in g.evidence() if n.carrier == "caption")
    before, v0 = Counter(calls), g.evidence_version()
    g.add_node(EvidenceNode(node_id="", kind="evidence", post_id=pid, modality="text", carrier="comment",
                            content="Congrats on the new job at Shenzhen Bay Hospital!", data={"by_other": True}))
    assert g.evidence_version() != v0
    got = _dump(hypothesizer.hypothesize(inv.ctx.view, EngineConfig()))
    assert calls["places"] == before["places"] + 1 and calls["generic"] == before["generic"] + 1
    assert got == _unreused(inv.ctx.view)


def test_verdicts_alone_change_no_reusable_aggregator_answer(run) -> None:
    """What the version leaves out (an evidence node's raw / grounded / rejected verdict and its
    reason) is indeed not read: every verdict flipped, the same hypotheses."""
    g = run["inv"].ctx.graph
    nodes = list(g.nodes.values())
    flip = {"raw": "grounded", "grounded": "rejected", "rejected": "raw"}
    flipped = [n.model_copy(update={"status": flip[n.status],
                                    "data": n.data.model_copy(update={"grounding": "flipped by the test"})})
               if n.kind == "evidence" and n.status in flip else n for n in nodes]
    assert sum(a.status != b.status for a, b in zip(nodes, flipped)) > 5
    derived = {n.attribute: n for n in nodes if n.kind == "hypothesis" and n.status == "admitted" and n.attribute}
    outs: list[dict[str, list]] = []
    for ns in (nodes, flipped):
        got: dict[str, list] = {}

        def keep(a):
            def run(board):
                out = a.run(board)
                got[a.name] = [x.model_dump() if hasattr(x, "model_dump") else repr(x) for x in out]
                return out
            return replace(a, run=run)
        Registry([keep(a) for a in REGISTRY.aggregators]).run(GraphFacts(ns), derived)
        outs.append({k: v for k, v in got.items() if k in REUSABLE})
    assert outs[0] == outs[1] and {"places", "generic"} <= set(outs[0])


def test_the_evidence_version_moves_with_every_evidence_write_but_a_verdict(tmp_path) -> None:
    db = open_db(tmp_path / "runs.db")
    g = Graph(db, "r1")
    g.add_node(EvidenceNode(node_id="post:p1", kind="post", post_id="p1"))
    v = g.evidence_version()
    e = g.add_node(EvidenceNode(node_id="", kind="evidence", post_id="p1", modality="text", carrier="caption",
                                content="I live in Leeds"))
    assert g.evidence_version() != v
    v = g.evidence_version()
    g.set_status(e, "grounded", "its post says so")
    g.set_status(e, "rejected", "contradicted")
    assert g.evidence_version() == v and g.node_version(e.node_id) is not None
    e.content = "I live in York"
    g.update_node(e)
    assert g.evidence_version() != v
    v = g.evidence_version()
    g.set_status(e, "removed", "withdrawn")
    assert g.evidence_version() != v
    v = g.evidence_version()
    h = g.add_node(EvidenceNode(node_id="", kind="hypothesis", attribute="home_location", value="York"))
    n0 = g.node_version(h.node_id)
    g.set_status(h, "admitted", "verified")
    assert g.evidence_version() == v and g.node_version(h.node_id) != n0

