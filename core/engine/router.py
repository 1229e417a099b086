"""Router / Investigator: picks the next route from a deterministic routing table and runs it.

Routing table (family, when, cost from core.engine.budget.ROUTE_COSTS):
- document / ticket / receipt / badge / map / screenshot image with low-confidence OCR
  lines -> zoom_ocr (crop the line's box, adaptive upscale, re-OCR)
- text-bearing image that perception did not read              -> ocr
- place hypothesis missing ancestor levels                     -> gazetteer (offline)
- organisation / product names (only when network is enabled)  -> web_search
- nothing in the table but a model backend is configured       -> backend.route_fallback
Hypotheses are served in order of sensitivity x confidence. A route is never repeated for
the same hypothesis and source, nor re-run for a source already read by another route;
routes that do not fit in the remaining budget are not proposed. None means Stop.
"""
from __future__ import annotations

import re
from typing import Any

from core.engine.budget import NETWORK_FAMILIES, route_cost
from core.engine.context import RunContext
from core.engine.types import EvidenceNode, RouteProposal
from core.schema import load_schema

ZOOM_CARRIERS = {"document", "ticket", "receipt", "badge", "map", "screenshot", "sign", "ocr_text"}
LOW_SCORE = 0.85
MAX_ZOOMS_PER_IMAGE = 2


def source_of(family: str, params: dict[str, Any]) -> str:
    if family in ("ocr", "exif", "deep_visual"):
        return f"{params.get('file')}"
    if family == "zoom_ocr":
        return f"{params.get('file')}#{params.get('box')}"
    if family in ("gazetteer", "map_search"):
        return f"{params.get('name')}"
    if family == "web_search":
        return f"{params.get('query')}"
    if family == "page_fetch":
        return f"{params.get('url')}"
    return repr(sorted(params.items()))


def _priority(n: EvidenceNode) -> tuple[float, str]:
    spec = load_schema().get(n.attribute or "")
    sens = spec.default_sensitivity if spec else 1
    return -(sens * (n.confidence or 0.0)), n.node_id


def _zoom_params(ctx: RunContext, node: EvidenceNode, line: int) -> dict[str, Any] | None:
    lines = node.data.get("lines") or []
    if not (0 <= line < len(lines)) or not lines[line].get("box"):
        return None
    box = lines[line]["box"]
    return {"image_id": node.data.get("image_id"), "file": node.data.get("file"), "box": box, "zoom": "auto",
            "from_node": node.node_id, "line": line, "text": lines[line].get("text", "")}


def _need_to_route(ctx: RunContext, need: str) -> tuple[str, dict[str, Any], str] | None:
    family, _, arg = need.partition(":")
    if family == "gazetteer":
        hint = ", ".join(sorted({n.content for n in ctx.graph.evidence() if n.carrier == "ip_region"}))[:200]
        return "gazetteer", {"name": arg, "hint": hint}, f"ancestor levels of {arg}"
    if family == "zoom_ocr":
        nid, _, line = arg.rpartition(":")
        node = ctx.graph.nodes.get(nid)
        if node is None or not line.isdigit():
            return None
        p = _zoom_params(ctx, node, int(line))
        return ("zoom_ocr", p, f"a clearer reading of {p['text'][:40]!r}") if p else None
    if family == "ocr":
        node = ctx.graph.nodes.get(arg)
        if node is None:
            return None
        return "ocr", {"image_id": node.data.get("image_id"), "file": node.data.get("file")}, "the text in the image"
    if family == "web_search":
        return "web_search", {"query": arg}, f"public pages about {arg}"
    return None


def _exploration(ctx: RunContext) -> list[tuple[str, dict[str, Any], str, str]]:
    """Image routes that do not hang off one hypothesis: unread text, small/low-confidence lines."""
    out = []
    for n in sorted(ctx.graph.evidence(), key=lambda n: n.node_id):
        if n.status == "removed":
            continue
        if n.data.get("lines") and n.data.get("ocr_source") == "perception" and n.carrier in ZOOM_CARRIERS:
            k = 0
            for i, ln in enumerate(n.data["lines"]):
                if _needs_zoom(ln) and k < MAX_ZOOMS_PER_IMAGE:
                    p = _zoom_params(ctx, n, i)
                    if p:
                        k += 1
                        out.append(("zoom_ocr", p, f"a clearer reading of {p['text'][:40]!r}",
                                    f"{n.carrier} image line read with low confidence"))
        sig = n.data.get("signals") or {}
        if n.modality == "image" and "image_id" in n.data and sig and n.data.get("ocr_done") and \
                _read_as(ctx, n.data["image_id"]) in ZOOM_CARRIERS - {"ocr_text"}:
            for box in unread_text_regions(ctx, n)[:1]:
                out.append(("zoom_ocr", {"image_id": n.data["image_id"], "file": n.data.get("file"), "box": box,
                                         "zoom": "auto", "text": ""},
                            "fine print the first OCR pass did not read",
                            "dense text-like edges outside every OCR line"))
        if n.modality == "image" and "image_id" in n.data and sig and not n.data.get("ocr_done"):
            if sig.get("text_bearing") or sig.get("screenshot_like"):
                out.append(("ocr", {"image_id": n.data["image_id"], "file": n.data.get("file")},
                            "the text in the image", "text-bearing image not read during perception"))
            elif int(sig.get("text_tiles", 1)) >= 1 and _READABLE.search(_post_text(ctx, n.post_id)):
                out.append(("ocr", {"image_id": n.data["image_id"], "file": n.data.get("file")},
                            "small text in the photo", "the caption points at something readable in the photo"))
    return out


_READABLE = re.compile(
    r"\b(?:sign|signs|ticket|receipt|badge|notice|menu|label|poster|screenshot|map|boarding|letter|invoice|"
    r"certificate|name\s*tag|plate|banner|board)\b|招牌|路牌|门牌|车票|机票|小票|收据|工牌|胸牌|通知|菜单|截图|地图|标牌|证书|快递单|门口", re.I)


def _needs_zoom(line: dict[str, Any]) -> bool:
    """A line worth a closer look: read with low confidence, or tiny on the image."""
    score = float(line.get("score", 1))
    box = line.get("box") or []
    if sum(ch.isalnum() for ch in str(line.get("text", ""))) < 2:
        return False          # a lone glyph is detector noise, not small text
    try:
        height = max(p[1] for p in box) - min(p[1] for p in box)
    except (TypeError, ValueError, IndexError):
        height = 99
    return score < LOW_SCORE or (height < 14 and score < 0.95)


def _post_text(ctx: RunContext, post_id: str | None) -> str:
    return " ".join(n.content for n in ctx.graph.evidence()
                    if n.post_id == post_id and n.modality == "text" and not n.data.get("by_other"))


def _read_as(ctx: RunContext, image_id: str) -> str | None:
    """The carrier the perception OCR gave this image's text (document, receipt, ...)."""
    for n in ctx.graph.evidence():
        if n.data.get("image_id") == image_id and n.data.get("lines"):
            return n.carrier
    return None


def unread_text_regions(ctx: RunContext, img_node: EvidenceNode) -> list[list[list[float]]]:
    """Bands of dense-edge tiles that no OCR line of this image covers (small print the
    detector skipped), as 4-point boxes, largest first."""
    sig = img_node.data.get("signals") or {}
    tiles = sig.get("text_tile_boxes") or []
    if not tiles:
        return []
    image_id = img_node.data.get("image_id")
    covered: list[tuple[float, float, float, float]] = []
    for n in ctx.graph.evidence():
        if n.data.get("image_id") == image_id and n.data.get("lines"):
            for ln in n.data["lines"]:
                b = ln.get("box") or []
                try:
                    xs, ys = [p[0] for p in b], [p[1] for p in b]
                    covered.append((min(xs) - 12, min(ys) - 12, max(xs) + 12, max(ys) + 12))
                except (TypeError, ValueError, IndexError):
                    continue
    free = [t for t in tiles if not any(a <= (t[0] + t[2]) / 2 <= c and b <= (t[1] + t[3]) / 2 <= d
                                        for a, b, c, d in covered)]
    if len(free) < 3:
        return []
    # group tiles into horizontal bands (same row of tiles), merge touching rows
    free.sort(key=lambda t: (t[1], t[0]))
    bands: list[list[int]] = []
    for t in free:
        for bd in bands:
            if t[1] <= bd[3] + 2 and t[3] >= bd[1] - 2 and t[0] <= bd[2] + 60 and t[2] >= bd[0] - 60:
                bd[0], bd[1], bd[2], bd[3], bd[4] = min(bd[0], t[0]), min(bd[1], t[1]), max(bd[2], t[2]), max(bd[3], t[3]), bd[4] + 1
                break
        else:
            bands.append([t[0], t[1], t[2], t[3], 1])
    # a line of text is a wide band of several tiles; blobs of texture are not
    bands = [b for b in bands if b[4] >= 6 and (b[2] - b[0]) >= 3 * (b[3] - b[1])]
    bands.sort(key=lambda b: -b[4])
    return [[[b[0], b[1]], [b[2], b[1]], [b[2], b[3]], [b[0], b[3]]] for b in bands]


def tried_routes(ctx: RunContext) -> tuple[set[tuple[str, str, str]], set[tuple[str, str]]]:
    import json

    per_h: set[tuple[str, str, str]] = set()
    done: set[tuple[str, str]] = set()
    for hid, fam, params, status in ctx.db.execute(
        "SELECT hypothesis_id, family, params, status FROM routes WHERE run_id=? AND status != 'proposed'",
        [ctx.run_id],
    ).fetchall():
        src = source_of(fam, json.loads(params or "{}"))
        per_h.add((hid or "", fam, src))
        if status in ("done", "failed", "edited", "skipped"):
            done.add((fam, src))
    return per_h, done


def propose(ctx: RunContext, backend) -> RouteProposal | None:
    per_h, done = tried_routes(ctx)

    def ok(hid: str, fam: str, params: dict[str, Any]) -> bool:
        src = source_of(fam, params)
        if (hid, fam, src) in per_h or (fam, src) in done:
            return False
        if fam in NETWORK_FAMILIES and not ctx.flag("network"):
            return False
        return ctx.budget.affordable(route_cost(fam))

    for fam, params, expected, reason in _exploration(ctx):
        if ok("", fam, params):
            # attach to the strongest hypothesis citing the same post, if any
            hid = _hypothesis_for_image(ctx, params.get("image_id"))
            return RouteProposal(hypothesis_id=hid, family=fam, tool=fam, params=params, cost=route_cost(fam),
                                 expected=expected, reason=reason)
    active = [h for h in ctx.graph.hypotheses(("candidate", "unresolved", "admitted"))]
    for h in sorted(active, key=_priority):
        for need in h.data.get("needs", []) or []:
            r = _need_to_route(ctx, need)
            if r is None:
                continue
            fam, params, expected = r
            if ok(h.node_id, fam, params):
                return RouteProposal(hypothesis_id=h.node_id, family=fam, tool=fam, params=params,
                                     cost=route_cost(fam), expected=expected,
                                     reason=f"{h.attribute} = {h.value!r} needs {expected}")
    for h in sorted(active, key=_priority):
        if h.status == "admitted":
            continue
        tried = {f"{fam}:{src}" for hid, fam, src in per_h if hid == h.node_id}
        prop = backend.route_fallback(ctx, h, tried)
        if prop is not None and ok(h.node_id, prop.family, prop.params):
            prop.hypothesis_id = h.node_id
            prop.cost = route_cost(prop.family)
            return prop
    return None


def _hypothesis_for_image(ctx: RunContext, image_id: str | None) -> str | None:
    if not image_id:
        return None
    post_id = image_id.split("/")[0]
    best = None
    for h in ctx.graph.hypotheses(("candidate", "unresolved", "admitted")):
        sup = ctx.graph.supporters(h.node_id)
        if any((ctx.graph.nodes.get(s) and ctx.graph.nodes[s].post_id == post_id) for s in sup):
            if best is None or _priority(h) < _priority(best):
                best = h
    return best.node_id if best else None


# ---------------------------------------------------------------- execution


def execute(ctx: RunContext, backend, prop: RouteProposal, route_id: str, *, use_cache: bool = True
            ) -> tuple[list[EvidenceNode], dict[str, Any]]:
    """Run one route's tool; returns (evidence drafts, result summary). Tool errors are results."""
    from core.engine.perceiver import ocr_call, ocr_node

    rec = ctx.recorder(route_id)
    rec.use_cache = use_cache
    p = prop.params
    fam = prop.family
    if fam in ("ocr", "zoom_ocr"):
        from tools.userfiles import user_file_digest

        file = str(p.get("file") or "")
        try:   # the user-file guard (tools/userfiles.py), as in perception
            path, digest = user_file_digest(ctx.user.user_dir, file)
        except Exception as e:
            return [], {"error": str(e)}
        lines = ocr_call(ctx, rec, path, digest, p.get("box") if fam == "zoom_ocr" else None,
                         p.get("zoom") if fam == "zoom_ocr" else None)
        if lines is None:
            return [], {"error": f"{file}: OCR failed"}
        if not lines:
            return [], {"lines": 0}
        image_id = str(p.get("image_id") or "")
        post_id = image_id.split("/")[0] if image_id else None
        shot = "screenshot" in str(p.get("carrier", ""))
        node = ocr_node(ctx, post_id or "", image_id, file, lines, shot, source=fam, route_id=route_id)
        if node is None:
            return [], {"lines": 0}
        if fam == "zoom_ocr" and p.get("from_node") in ctx.graph.nodes:
            node.carrier = ctx.graph.nodes[p["from_node"]].carrier   # same image, same carrier
        return [node], {"lines": len(lines), "text": node.content[:200]}
    if fam in ("gazetteer", "map_search"):
        from core.engine.places import resolve_levels

        name = str(p.get("name") or "")
        hint = str(p.get("hint") or "")
        out = rec.call(fam, lambda name, hint: {"name": name, "levels": resolve_levels(name, hint)},
                       {"name": name, "hint": hint})
        if "error" in out:
            return [], out
        levels = out.get("levels") or {}
        if not levels:
            return [], {"levels": {}}
        content = f"{fam}: " + " < ".join(reversed(list(levels.values())))
        node = EvidenceNode(node_id="", modality="metadata", carrier="metadata", content=content,
                            data={"gazetteer": {"name": name, "levels": levels}, "route_id": route_id,
                                  "field": f"{fam}:{name}"})
        return [node], {"levels": levels}
    if fam == "web_search":
        try:
            from tools.websearch import default_websearch  # type: ignore[attr-defined]

            ws = default_websearch(ctx.config)
            out = rec.call("web_search", lambda query: {"results": [r.model_dump() if hasattr(r, "model_dump") else r
                                                                    for r in ws.search(query)]},
                           {"query": str(p.get("query"))})
        except Exception as e:
            out = {"error": f"web search unavailable: {e}"}
        return [], out
    if fam == "deep_visual":
        from tools.userfiles import user_file

        file = str(p.get("file") or "")
        try:
            vpath = user_file(ctx.user.user_dir, file)
        except Exception as e:
            return [], {"error": str(e)}
        res = backend.deep_visual(ctx, str(vpath), str(p.get("question") or ""))
        if not res:
            return [], {"error": "deep visual not available"}
        nodes = []
        image_id = str(p.get("image_id") or "")
        for item in res:
            node = ocr_node(ctx, image_id.split("/")[0], image_id, file,
                            [{"text": item.get("text", ""), "score": 1.0, "box": None}], False,
                            source="deep_visual", route_id=route_id)
            if node is not None:
                nodes.append(node)
        return nodes, {"items": len(res)}
    return [], {"error": f"no executor for route family {fam}"}
