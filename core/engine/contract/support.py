"""THE support walk of the engine: the nodes behind a node, through supporting hypotheses.

Projection lists a value's evidence ids with it (4 levels: a derived hypothesis contributes
its own evidence), the router and suspension ask which posts a hypothesis rests on (3
levels). Both read this one walk; the console's tree (db/chain.support_chain) renders the
same edges with cites and cycles marked, for display.
"""
from __future__ import annotations

from typing import Any, Iterator, Mapping, Protocol


class SupportGraph(Protocol):
    nodes: Mapping[str, Any]

    def supporters(self, node_id: str) -> list[str]: ...


def support_walk(g: SupportGraph, node_id: str, levels: int) -> Iterator[str]:
    """The ids behind `node_id`, depth first in supporter order (graph.supporters: id order),
    `levels` edges deep at most; only hypotheses are walked through (evidence is a leaf).
    A node reached twice is yielded twice (callers dedup or collect a set)."""
    for s in g.supporters(node_id):
        n = g.nodes.get(s)
        if n is None:
            continue
        yield s
        if n.kind == "hypothesis" and levels > 1:
            yield from support_walk(g, s, levels - 1)


def support_ids(g: SupportGraph, node_id: str, levels: int = 4) -> list[str]:
    """The walk's ids in first-seen order, each once (the evidence ids a projected value lists)."""
    return list(dict.fromkeys(support_walk(g, node_id, levels)))


def support_posts(g: SupportGraph, node_id: str, levels: int = 3) -> set[str]:
    """The posts the walk's nodes come from."""
    return {g.nodes[s].post_id for s in support_walk(g, node_id, levels) if g.nodes[s].post_id}
