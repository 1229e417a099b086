"""Support chains and node-id order over the run store's edges: THE support chain of a node
down to the posts (the graph, the run store queries and the console all call it). It lives
in db/ because the run store reads chains without the engine; the engine re-exports it."""
from __future__ import annotations

from typing import Any, Callable, Iterable

from pydantic import BaseModel, Field


class ChainNode(BaseModel):
    """One node of a support chain: a hypothesis/evidence/post node and what supports or is cited by it."""

    node_id: str
    kind: str                      # post | evidence | hypothesis | external (cited, not a node)
    via: str | None = None         # the edge kind that led here from the parent (support | cite)
    status: str | None = None
    attribute: str | None = None
    value: str | None = None
    level: str | None = None
    confidence: float | None = None
    modality: str | None = None
    carrier: str | None = None
    post_id: str | None = None
    content: str = ""
    cycle: bool = False            # already shown higher up this chain (not expanded again)
    children: list["ChainNode"] = Field(default_factory=list)


def support_chain(node_id: str, info: Callable[[str], dict[str, Any] | None],
                  supporters: Callable[[str], Iterable[str]], cites: Callable[[str], Iterable[str]], *,
                  max_depth: int = 8, content_chars: int = 240,
                  post_content: Callable[[str], str] | None = None) -> ChainNode:
    """THE support chain of a node down to the posts: support edges into it, cite edges out of
    it, recursively (the graph, the run store queries and the console all call this). An
    evidence node that cites no node of its own post (none at all, or only a tool output) ends at
    that post too. `info(id)` gives a node's
    fields (None: not a node), `post_content(post_id)` the text shown for a post."""

    def make(nid: str, via: str | None, path: frozenset[str], depth: int) -> ChainNode:
        r = info(nid)
        if r is None:
            pid = nid.split(":", 1)[1] if nid.startswith("post:") else None
            content = post_content(pid) if (pid and post_content) else ""
            return ChainNode(node_id=nid, kind="post" if pid else "external", via=via, post_id=pid,
                             content=content[:content_chars])
        cn = ChainNode(node_id=nid, kind=r["kind"], via=via, status=r.get("status"), attribute=r.get("attribute"),
                       value=r.get("value"), level=r.get("level"), confidence=r.get("confidence"),
                       modality=r.get("modality"), carrier=r.get("carrier"), post_id=r.get("post_id"),
                       content=(r.get("content") or "")[:content_chars])
        if r["kind"] == "post" and not cn.content and cn.post_id and post_content:
            cn.content = post_content(cn.post_id)[:content_chars]
        if nid in path:
            cn.cycle = True
            return cn
        if depth >= max_depth:
            return cn
        inner = path | {nid}
        for s in supporters(nid):
            cn.children.append(make(s, "support", inner, depth + 1))
        for d in cites(nid):
            cn.children.append(make(d, "cite", inner, depth + 1))
        own = f"post:{cn.post_id}"
        if r["kind"] == "evidence" and cn.post_id and all(ch.node_id != own for ch in cn.children):
            cn.children.append(make(own, "cite", inner, depth + 1))
        return cn

    return make(node_id, None, frozenset(), 0)


def chain_dict(c: ChainNode) -> dict[str, Any]:
    """The compact dict form of a chain (Investigation.chain): support children, cited ids."""
    out: dict[str, Any] = {"node_id": c.node_id, "kind": c.kind, "carrier": c.carrier, "post_id": c.post_id,
                           "content": c.content, "status": c.status}
    sup = [chain_dict(ch) for ch in c.children if ch.via == "support"]
    if sup:
        out["support"] = sup
    cit = [ch.node_id for ch in c.children if ch.via == "cite"]
    if cit:
        out["cites"] = cit
    return out


def id_order(node_id: str) -> tuple[str, int]:
    head = node_id.rstrip("0123456789")
    tail = node_id[len(head):]
    return head, int(tail) if tail else -1
