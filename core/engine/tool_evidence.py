"""Tool output -> evidence drafts: one adapter per route family of the tool registry
(tools/registry.py), so the tools stay leaves that know nothing of the engine. Each draft
carries `data["route_id"]` and `data["tool_call_id"]`, the `tool_calls` row that produced it.
An adapter reads the run through its GraphView and returns errors as changes.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from core.engine import rules
from core.engine.contract.changes import Change, RecordError, UpdateNode
from core.engine.contract.config import EngineConfig
from core.engine.contract.view import GraphView
from core.engine.perceiver import exif_node, ocr_node, text_evidence
from core.engine.rules.hostile import taint_after_injection
from core.engine.rules.taint import post_tainted, taint_node
from core.engine.types import EvidenceNode
from tools.base import Recorder
from tools.registry import (DeepVisualInput, ExifInput, GazetteerInput, MapSearchInput, OcrInput, PageFetchInput,
                            ToolResult, WebSearchInput, ZoomOcrInput)


@dataclass
class _Adapt:
    """What an adapter works with: the run's view and config, the route, the Recorder (semantic
    injection checks embed through it) and the changes it returns."""

    view: GraphView
    config: EngineConfig
    rec: Recorder
    route_id: str
    changes: list[Change] = field(default_factory=list)


def _routed_ocr(a: _Adapt, node: EvidenceNode) -> EvidenceNode:
    """Routed OCR of a post that carries an injection elsewhere is governed by it too."""
    node.data.route_id = a.route_id
    others = a.view.graph.of_post(node.post_id)
    post_hostile = any(n.data.hostile_post for n in others)
    taint_after_injection([node], tainted=post_hostile)
    if a.config.semantic:
        a.changes += rules.semantic_injections(a.rec, [node])
    if post_tainted(others + [node]):
        # taint by provenance (rules/taint.py): this image's text and the post's earlier texts alike
        why = "this post addresses an automated reader"
        taint_node(node, why)
        for n in others:
            if n.kind == "evidence" and n.data.cues is not None:
                copy = n.model_copy(deep=True)
                if taint_node(copy, why):
                    a.changes.append(UpdateNode(node_id=n.node_id, data=copy.data))
    return node


def _ev_ocr(a: _Adapt, inp: OcrInput, out: dict[str, Any]) -> list[EvidenceNode]:
    lines = [ln for ln in out.get("lines", []) if str(ln.get("text", "")).strip()]
    if not lines:
        return []
    post_id = inp.image_id.rsplit("/", 1)[0] if inp.image_id else ""
    node = ocr_node(post_id, inp.image_id, inp.file, lines, "screenshot" in str(inp.carrier or ""),
                    source="zoom_ocr" if isinstance(inp, ZoomOcrInput) else "ocr")
    if node is None:
        return []
    _routed_ocr(a, node)
    g = a.view.graph
    if isinstance(inp, ZoomOcrInput) and inp.from_node in g.nodes:
        node.carrier = g.nodes[inp.from_node].carrier       # same image, same carrier
    if inp.box is not None:
        node.data.box = inp.box
    return [node]


def _ev_exif(a: _Adapt, inp: ExifInput, out: dict[str, Any]) -> list[EvidenceNode]:
    if not out.get("has_exif"):
        return []
    pid = inp.image_id.rsplit("/", 1)[0] if inp.image_id else ""
    return [exif_node(pid, inp.image_id, out, lambda where, why: a.changes.append(RecordError(where=where, reason=why)))]


def _ev_gazetteer(a: _Adapt, inp: GazetteerInput, out: dict[str, Any]) -> list[EvidenceNode]:
    levels = out.get("levels") or {}
    if not levels:
        return []
    return [EvidenceNode(node_id="", modality="metadata", carrier="metadata",
                         content="gazetteer: " + " < ".join(reversed(list(levels.values()))),
                         data={"gazetteer": {"name": inp.name, "levels": levels}, "field": f"gazetteer:{inp.name}"})]


def _ev_map_search(a: _Adapt, inp: MapSearchInput, out: dict[str, Any]) -> list[EvidenceNode]:
    res = out.get("results") or []
    if not res:
        return []
    top = res[0]
    chain = [c for c in top.get("chain") or [] if c]
    return [EvidenceNode(node_id="", modality="metadata", carrier="metadata",
                         content=f"map_search {inp.query!r}: " + (" < ".join(reversed(chain)) or top.get("name", "")),
                         data={"map_search": {"query": inp.query, "results": res[:inp.k]},
                               "field": f"map_search:{inp.query}"})]


def _web_text_node(field: str, text: str, extra: dict[str, Any]) -> EvidenceNode:
    node = text_evidence("", "web", field, text, extra=extra)
    node.post_id = None                     # a web page is not one of the user's posts
    node.data.cites = None
    return node


def _ev_web_search(a: _Adapt, inp: WebSearchInput, out: dict[str, Any]) -> list[EvidenceNode]:
    nodes = []
    for i, r in enumerate(out.get("results") or []):
        text = " — ".join(x for x in (str(r.get("title") or ""), str(r.get("snippet") or "")) if x)
        if text.strip():
            nodes.append(_web_text_node(f"web_search:{inp.query}#{i}", text, {"url": r.get("url")}))
    return nodes


def _ev_page_fetch(a: _Adapt, inp: PageFetchInput, out: dict[str, Any]) -> list[EvidenceNode]:
    text = "\n".join(x for x in (str(out.get("title") or ""), str(out.get("text") or "")) if x)
    if not text.strip():
        return []
    return [_web_text_node(f"page_fetch:{inp.url}", text, {"url": out.get("final_url") or inp.url})]


def _ev_deep_visual(a: _Adapt, inp: DeepVisualInput, out: dict[str, Any]) -> list[EvidenceNode]:
    post_id = inp.image_id.rsplit("/", 1)[0] if inp.image_id else ""
    nodes = []
    for item in out.get("items") or []:
        node = ocr_node(post_id, inp.image_id, inp.file, [{"text": item.get("text", ""), "score": 1.0, "box": None}],
                        False, source="deep_visual")
        if node is not None:
            nodes.append(_routed_ocr(a, node))
    return nodes

Adapter = Callable[[_Adapt, Any, dict[str, Any]], list[EvidenceNode]]
ADAPTERS: dict[str, Adapter] = {
    "ocr": _ev_ocr, "zoom_ocr": _ev_ocr, "exif": _ev_exif, "gazetteer": _ev_gazetteer,
    "map_search": _ev_map_search, "web_search": _ev_web_search, "page_fetch": _ev_page_fetch,
    "deep_visual": _ev_deep_visual,
}


def to_evidence(view: GraphView, config: EngineConfig, rec: Recorder, res: ToolResult,
                route_id: str) -> tuple[list[EvidenceNode], list[Change]]:
    """Evidence drafts of a successful result, each naming its route and tool call, and the
    changes to store with them (errors)."""
    if res.output is None:
        return [], []
    a = _Adapt(view, config, rec, route_id)
    nodes = ADAPTERS[res.family](a, res.inputs, res.output)
    for n in nodes:
        n.data.route_id = route_id
        n.data.tool_call_id = res.call_id
    return nodes, a.changes
