"""THE support walk (core/engine/contract/support.py) over a real run-store graph: the evidence
ids a projected value lists (first-seen order, each once, 4 levels) and the posts the router
and suspension read (3 levels)."""
from __future__ import annotations

from pathlib import Path

from core.engine.contract.support import support_ids, support_posts, support_walk
from core.engine.graph import Graph
from core.engine.types import EvidenceNode
from db.store import open_db


def _graph(tmp_path: Path) -> Graph:
    g = Graph(open_db(tmp_path / "runs.db"), "r")
    for i in range(1, 6):
        g.add_node(EvidenceNode(node_id=f"h{i}", kind="hypothesis", attribute="hobbies", value=f"v{i}"))
    for i, pid in enumerate(["p1", "p2", "p3", "p4", "p5"], start=1):
        g.add_node(EvidenceNode(node_id=f"e{i}", kind="evidence", post_id=pid, content=f"text {i}"))
    # h1 <- e1, h2, h3 ; h2 <- e2, h3 ; h3 <- e3, h4 ; h4 <- e4, h5 ; h5 <- e5
    for src, dst in [("e1", "h1"), ("h2", "h1"), ("h3", "h1"), ("e2", "h2"), ("h3", "h2"),
                     ("e3", "h3"), ("h4", "h3"), ("e4", "h4"), ("h5", "h4"), ("e5", "h5")]:
        g.add_edge(src, dst, "support")
    return g


def test_the_walk_goes_through_hypotheses_in_id_order_to_its_depth(tmp_path: Path) -> None:
    g = _graph(tmp_path)
    # h3 is reached twice (under h2 and from h1): the walk yields both, the id list once
    assert list(support_walk(g, "h1", 2)) == ["e1", "h2", "e2", "h3", "h3", "e3", "h4"]
    assert support_ids(g, "h1", 2) == ["e1", "h2", "e2", "h3", "e3", "h4"]
    # from h2, projection's 4 levels reach e5 (h2 <- h3 <- h4 <- h5 <- e5) ...
    assert support_ids(g, "h2") == ["e2", "h3", "e3", "h4", "e4", "h5", "e5"]
    # ... the router's 3 levels stop at h5 (its post is not read)
    assert support_posts(g, "h2") == {"p2", "p3", "p4"}
    assert support_posts(g, "h1") == {"p1", "p2", "p3", "p4"}     # e5 is 4 edges below h1, even via h3
    assert support_ids(g, "e1") == [] and support_posts(g, "no-such-node") == set()


def test_a_removed_support_edge_leaves_the_walk(tmp_path: Path) -> None:
    g = _graph(tmp_path)
    g.remove_support("h3", "h1", "test")
    g.remove_support("h3", "h2", "test")
    assert support_ids(g, "h1") == ["e1", "h2", "e2"]
    assert support_posts(g, "h1") == {"p1", "p2"}
