"""Router / Investigator: proposes the next route by expected evidential gain, and runs it
through the tool registry (tools/registry.py: typed params, cost, network flag, evidence adapter).

Candidates (each with an estimated gain in [0, 1] and the registry's cost):
- an image the skim did not read (full-resolution `ocr`): gain from how text-like it is
  (screenshot-like, dense-edge text tiles, a caption that points at something readable:
  sign, ticket, 小票 ...) times how much it could move a hypothesis citing the same post
  (sensitivity x (1 - confidence) of the strongest one; an image tied to no hypothesis
  keeps an exploration share, since an unread document is likely to hold evidence);
- `zoom_ocr` of a low-confidence or tiny line on a read document-like image, and of a band
  of dense text tiles that no OCR line covers (fine print);
- the needs a hypothesis declares (`gazetteer:<name>` for missing ancestor levels,
  `web_search:<name>` with network on, `ocr:` / `zoom_ocr:` of its own evidence);
- nothing scored but a model backend is configured -> `backend.route_fallback`.
The best gain wins (ties: cheaper, then a stable key). A route is never repeated for the
same hypothesis and source, nor re-run on a source another route already read (or an image
whose bytes were already read under another name); families the registry cannot run in this
run and routes that do not fit the remaining budget are not proposed. None means Stop.
"""
from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel

from core.engine.contract.changes import Change
from core.engine.contract.config import EngineConfig
from core.engine.contract.support import support_posts
from core.engine.contract.view import GraphView
from core.engine.tool_evidence import to_evidence
from core.engine.types import EvidenceNode, RouteProposal
from core.nodes.evidence import ImageSignals, OcrLine
from core.nodes.hypothesis import Need
from core.schema import load_schema
from tools.registry import ToolEnv, offered, route_cost, run_tool

ZOOM_CARRIERS = {"document", "ticket", "receipt", "badge", "map", "screenshot", "sign", "ocr_text"}
LOW_SCORE = 0.85
MAX_ZOOMS_PER_IMAGE = 2
MIN_GAIN = 0.05           # below this no route is worth its cost: Stop
EXPLORE = 0.5             # share of an image's text likelihood kept when no hypothesis cites its post
OCR_SOURCES = ("perception", "ocr")


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


def _zoom_params(node: EvidenceNode, line: int) -> dict[str, Any] | None:
    lines = node.data.lines or []
    if not (0 <= line < len(lines)) or not lines[line].box:
        return None
    box = lines[line].box
    return {"image_id": node.data.image_id, "file": node.data.file, "box": box, "zoom": "auto",
            "from_node": node.node_id, "line": line, "text": lines[line].text}


def _need_to_route(view: GraphView, need: Need) -> tuple[str, dict[str, Any], str] | None:
    arg = need.target
    if need.family == "gazetteer":
        hint = ", ".join(sorted({n.content for n in view.graph.evidence() if n.carrier == "ip_region"}))[:200]
        return "gazetteer", {"name": arg, "hint": hint}, f"ancestor levels of {arg}"
    if need.family == "zoom_ocr":
        node = view.graph.nodes.get(arg)
        if node is None or need.line is None:
            return None
        p = _zoom_params(node, need.line)
        return ("zoom_ocr", p, f"a clearer reading of {p['text'][:40]!r}") if p else None
    if need.family == "ocr":
        node = view.graph.nodes.get(arg)
        if node is None:
            return None
        return "ocr", {"image_id": node.data.image_id, "file": node.data.file}, "the text in the image"
    if need.family == "web_search":
        return "web_search", {"query": arg}, f"public pages about {arg}"
    return None


_READABLE = re.compile(
    r"\b(?:sign|signs|ticket|receipt|badge|notice|menu|label|poster|screenshot|map|boarding|letter|invoice|"
    r"certificate|name\s*tag|plate|banner|board|birthday|cake|card)\b|招牌|路牌|门牌|车票|机票|小票|收据|工牌|胸牌|通知|菜单|截图|地图|"
    r"标牌|证书|快递单|门口|生日|蛋糕|🎂", re.I)   # birthday cakes/cards carry the age


def _needs_zoom(line: OcrLine) -> bool:
    """A line worth a closer look: read with low confidence, or tiny on the image."""
    score = 1.0 if line.score is None else line.score
    box = line.box or []
    if sum(ch.isalnum() for ch in line.text) < 2:
        return False          # a lone glyph is detector noise, not small text
    try:
        height = max(p[1] for p in box) - min(p[1] for p in box)
    except (TypeError, ValueError, IndexError):
        height = 99
    return score < LOW_SCORE or (height < 14 and score < 0.95)


def _read_as(view: GraphView, image_id: str) -> str | None:
    """The carrier the perception OCR gave this image's text (document, receipt, ...)."""
    for n in view.graph.of_image(image_id):
        if n.data.lines:
            return n.carrier
    return None


def unread_text_regions(view: GraphView, img_node: EvidenceNode) -> list[list[list[float]]]:
    """Bands of dense-edge tiles that no OCR line of this image covers (small print the
    detector skipped), as 4-point boxes, largest first."""
    sig = img_node.data.signals
    tiles = (sig.text_tile_boxes if sig else None) or []
    if not tiles:
        return []
    image_id = img_node.data.image_id
    covered: list[tuple[float, float, float, float]] = []
    for n in view.graph.of_image(image_id):
        if n.data.lines:
            for ln in n.data.lines:
                b = ln.box or []
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


class Candidate(BaseModel):
    family: str
    params: dict[str, Any]
    gain: float
    hypothesis_id: str | None = None
    post_id: str | None = None        # the post whose image/text the route reads (it bears on that post's hypotheses)
    expected: str = ""
    reason: str = ""


def tried_routes(view: GraphView) -> tuple[set[tuple[str, str, str]], set[tuple[str, str]]]:
    per_h: set[tuple[str, str, str]] = set()
    done: set[tuple[str, str]] = set()
    for hid, fam, params, status in view.decided_routes():
        src = source_of(fam, params)
        per_h.add((hid or "", fam, src))
        if status in ("done", "failed", "edited", "skipped"):
            done.add((fam, src))
    return per_h, done


def _sens(attribute: str | None) -> float:
    spec = load_schema().get(attribute or "")
    return float(spec.default_sensitivity if spec else 1) / 3.0


def _label(h: EvidenceNode) -> str:
    return f"{h.attribute} = {h.value!r} ({h.node_id}, {h.status} {float(h.confidence or 0):.2f})"


def _stake(h: EvidenceNode) -> float:
    """How much new evidence could move this hypothesis: confirm/contradict a weak one, or
    narrow an admitted one."""
    conf = float(h.confidence or 0.0)
    room = (1.0 - conf) if h.status != "admitted" else 0.3 * (1.0 - conf) + 0.1
    return _sens(h.attribute) * room


class _Index:
    """What the router reads from the graph once per proposal."""

    def __init__(self, view: GraphView):
        g = view.graph
        # an alternative reading (aggregators.generic.alternatives) is kept for the record, not investigated:
        # its low confidence would make it the largest stake and draw the budget away from the claims
        self.active = [h for h in g.hypotheses(("candidate", "unresolved", "admitted")) if not h.data.alternative]
        self.by_post: dict[str, list[EvidenceNode]] = {}
        for h in self.active:
            posts = {g.nodes[s].post_id for s in g.supporters(h.node_id) if s in g.nodes and g.nodes[s].post_id}
            for p in posts:
                self.by_post.setdefault(p, []).append(h)
        self.read_images = {n.data.image_id for n in g.evidence()
                            if n.data.lines and n.data.ocr_source in OCR_SOURCES}
        self.text_by_post: dict[str, str] = {}
        for n in g.evidence():
            if n.modality == "text" and not n.data.by_other and n.post_id:
                self.text_by_post[n.post_id] = (self.text_by_post.get(n.post_id, "") + " " + n.content)[:4000]
        self.digest: dict[str, str] = view.image_digests()

    def best_hypothesis(self, post_id: str | None) -> EvidenceNode | None:
        hs = self.by_post.get(post_id or "", [])
        return max(hs, key=lambda h: (_stake(h), h.node_id)) if hs else None


def _text_likelihood(sig: ImageSignals, caption: str) -> tuple[float, str]:
    """How likely an unread image holds readable text, and why (from the skim's signals).
    Dense-edge text tiles are the strongest sign (glyph strokes); whole-image edge density
    alone is weak (texture), so such images come last."""
    tiles = sig.text_tiles or 0
    readable = _READABLE.search(caption or "")
    if sig.screenshot_like:
        t, why = 0.9, "screenshot-like image"
    elif tiles >= 40:
        t, why = 0.8, f"document-like image ({tiles} text tiles)"
    elif tiles >= 10:
        t, why = 0.7, f"image with a text region ({tiles} text tiles)"
    elif tiles >= 3:
        t, why = 0.5, f"image with small text ({tiles} text tiles)"
    elif tiles >= 1 and readable:
        t, why = 0.35, f"photo with {tiles} text tile(s)"
    elif sig.text_bearing:
        # measured on the generated benches (main e2a2523, 100 users): 52 OCR routes on such photos
        # (all with a caption naming something readable) gave evidence 5 times and changed the
        # graph never, so a caption no longer lifts them over MIN_GAIN
        return 0.03, "edge-dense photo (no text tiles)"
    else:
        return 0.0, ""
    if readable:
        t = min(1.0, t + 0.2)
        why += f", caption mentions {readable.group(0)!r}"
    return t, why


def _image_candidates(view: GraphView, ix: _Index) -> list[Candidate]:
    out: list[Candidate] = []
    read_digests = {ix.digest.get(i) for i in ix.read_images if ix.digest.get(i)}
    for n in sorted(view.graph.evidence(), key=lambda n: n.node_id):
        if n.status == "removed" or n.modality != "image" or n.data.image_id is None or not n.data.signals:
            continue
        image_id = n.data.image_id
        if image_id in ix.read_images or n.data.ocr_done:
            continue
        if ix.digest.get(image_id) and ix.digest[image_id] in read_digests:
            continue                    # the same bytes were read under another name
        t, why = _text_likelihood(n.data.signals, ix.text_by_post.get(n.post_id or "", ""))
        if t <= 0:
            continue
        h = ix.best_hypothesis(n.post_id)
        params = {"image_id": image_id, "file": n.data.file, "carrier": n.carrier}
        if h is not None and _stake(h) > EXPLORE * 0.5:
            gain = t * (EXPLORE + _stake(h))
            out.append(Candidate(family="ocr", params=params, gain=gain, hypothesis_id=h.node_id, post_id=n.post_id,
                                 expected=f"the text in {image_id}, to confirm, narrow or contradict it",
                                 reason=f"{why}, unread"))
        else:
            out.append(Candidate(family="ocr", params=params, gain=t * EXPLORE, hypothesis_id=None, post_id=n.post_id,
                                 expected=f"the text in {image_id}",
                                 reason=f"unread {why} {image_id} is likely to hold evidence"))
    return out


def _zoom_candidates(view: GraphView, ix: _Index) -> list[Candidate]:
    out: list[Candidate] = []
    for n in sorted(view.graph.evidence(), key=lambda n: n.node_id):
        if n.status == "removed" or not n.data.lines or n.data.ocr_source not in OCR_SOURCES:
            continue
        if n.carrier not in ZOOM_CARRIERS:
            continue
        h = ix.best_hypothesis(n.post_id)
        stake = _stake(h) if h is not None else 0.0
        k = 0
        for i, ln in enumerate(n.data.lines):
            if _needs_zoom(ln) and k < MAX_ZOOMS_PER_IMAGE:
                p = _zoom_params(n, i)
                if p:
                    k += 1
                    out.append(Candidate(
                        family="zoom_ocr", params=p, gain=0.3 * (EXPLORE + stake),
                        hypothesis_id=h.node_id if h is not None else None, post_id=n.post_id,
                        expected=f"a clearer reading of {p['text'][:40]!r}",
                        reason=(f"{n.carrier} line {p['text'][:30]!r} of {n.data.image_id} read with low"
                                f" confidence {ln.score or 0:.2f}")))
    for n in sorted(view.graph.evidence(), key=lambda n: n.node_id):
        image_id = n.data.image_id
        if n.modality != "image" or not image_id or not n.data.signals or image_id not in ix.read_images:
            continue
        if _read_as(view, image_id) not in ZOOM_CARRIERS - {"ocr_text"}:
            continue
        h = ix.best_hypothesis(n.post_id)
        for box in unread_text_regions(view, n)[:1]:
            out.append(Candidate(
                family="zoom_ocr", gain=0.25 * (EXPLORE + (_stake(h) if h else 0.0)),
                params={"image_id": image_id, "file": n.data.file, "box": box, "zoom": "auto", "text": ""},
                hypothesis_id=h.node_id if h is not None else None, post_id=n.post_id,
                expected=f"fine print of {image_id} the first OCR pass did not read",
                reason=f"dense text-like edges outside every OCR line of {image_id}"))
    return out


_NEED_GAIN = {"gazetteer": 0.6, "web_search": 0.5, "zoom_ocr": 0.5, "ocr": 0.7}


def _need_candidates(view: GraphView, ix: _Index) -> list[Candidate]:
    out: list[Candidate] = []
    for h in sorted(ix.active, key=_priority):
        for need in h.data.needs or []:
            r = _need_to_route(view, need)
            if r is None:
                continue
            fam, params, expected = r
            out.append(Candidate(family=fam, params=params, gain=_NEED_GAIN.get(fam, 0.4) * (EXPLORE + _stake(h)),
                                 hypothesis_id=h.node_id, expected=expected,
                                 reason=f"the hypothesis declares the need {str(need)!r}"))
    return out


def _affordable(cost: float, remaining: float) -> bool:
    return cost <= remaining + 1e-9          # as Budget.affordable


def candidates(view: GraphView, config: EngineConfig, remaining: float, backend=None) -> list[Candidate]:
    """Every route that could run now (offered in this run: network, model backend) and fits the
    `remaining` budget units, and has not been tried, best first."""
    per_h, done = tried_routes(view)
    network = config.network
    ix = _Index(view)
    seen: set[tuple[str, str]] = set()
    out = []
    for c in _image_candidates(view, ix) + _zoom_candidates(view, ix) + _need_candidates(view, ix):
        src = source_of(c.family, c.params)
        if (c.hypothesis_id or "", c.family, src) in per_h or (c.family, src) in done or (c.family, src) in seen:
            continue
        if not offered(c.family, network=network, backend=backend) or not _affordable(route_cost(c.family), remaining):
            continue
        seen.add((c.family, src))
        out.append(c)
    out.sort(key=lambda c: (-round(c.gain, 6), route_cost(c.family), c.family, source_of(c.family, c.params)))
    return out


def proposal_reason(view: GraphView, c: Candidate) -> str:
    """Why a route is proposed: the hypothesis it serves (or that it explores, naming the post's
    weaker hypotheses if any), what it is expected to find, and the signal that made it score."""
    h = view.graph.nodes.get(c.hypothesis_id or "")
    if h is not None:
        return f"{_label(h)}: {c.family} is expected to find {c.expected} ({c.reason}; gain {c.gain:.2f})"
    about = explore_about(view, c)
    return f"explore: {c.reason}; {c.family} is expected to find {c.expected} ({about}; gain {c.gain:.2f})"


def explore_about(view: GraphView, c: Candidate) -> str:
    """What a route no hypothesis asked for may bear on: the post's strongest hypothesis, if any."""
    g = view.graph
    if g.nodes.get(c.hypothesis_id or "") is not None:
        return ""
    near = [x for x in g.hypotheses(("candidate", "unresolved", "admitted"))
            if c.post_id and any(g.nodes[s].post_id == c.post_id for s in g.supporters(x.node_id) if s in g.nodes)]
    return (f"it may also bear on {_label(max(near, key=lambda x: (_stake(x), x.node_id)))}" if near
            else f"no hypothesis cites post {c.post_id} yet" if c.post_id else "no hypothesis asked for it")


def unserved(view: GraphView, cands: list[Candidate], remaining: float, min_gain: float = MIN_GAIN) -> dict[str, str]:
    """The unresolved hypotheses no route helps (node id -> why): no untried, affordable route
    with gain >= min_gain serves them or reads one of the posts their evidence comes from. The
    loop suspends them until their evidence neighbourhood changes."""
    g = view.graph
    out: dict[str, str] = {}
    for h in g.hypotheses(("unresolved",)):
        posts = support_posts(g, h.node_id)
        mine = [c for c in cands if c.hypothesis_id == h.node_id or (c.post_id and c.post_id in posts)]
        if any(c.gain >= min_gain for c in mine):
            continue
        if mine:
            best = max(mine, key=lambda c: c.gain)
            out[h.node_id] = (f"no route helps it: the best untried one ({best.family} for {best.expected}) has"
                              f" expected gain {best.gain:.2f} < {min_gain:g}")
        elif remaining < 1:
            out[h.node_id] = f"no route helps it: budget spent ({remaining:g} units left)"
        else:
            where = ", ".join(sorted(posts)[:4]) or "no post"
            out[h.node_id] = f"no route helps it: every route on its evidence ({where}) was tried or none applies"
    return out


def propose(view: GraphView, config: EngineConfig, remaining: float, backend, calls=None,
            min_gain: float = MIN_GAIN, cands: list[Candidate] | None = None,
            gave_up: dict[str, str] | None = None) -> RouteProposal | None:
    """The best route (or the model router's for a hypothesis no routing-table route serves), None
    = Stop. `cands`: candidates() already computed for this state; `gave_up` collects the
    unresolved hypotheses the model router declined (the loop suspends them); `calls`: the model
    calls recorder handed to the backend's router."""
    cands = [c for c in (candidates(view, config, remaining, backend) if cands is None else cands)
             if c.gain >= min_gain]
    if cands:
        c = cands[0]
        return RouteProposal(hypothesis_id=c.hypothesis_id, family=c.family, tool=c.family, params=c.params,
                             cost=route_cost(c.family), expected=c.expected, reason=proposal_reason(view, c),
                             signal=c.reason, gain=round(c.gain, 6), about=explore_about(view, c))
    if min_gain > MIN_GAIN:
        return None
    per_h, done = tried_routes(view)
    for h in sorted(view.graph.hypotheses(("candidate", "unresolved")), key=_priority):
        tried = {f"{fam}:{src}" for hid, fam, src in per_h if hid == h.node_id}
        prop = backend.route_fallback(view, config, h, tried, remaining, calls)
        src = source_of(prop.family, prop.params) if prop is not None else ""
        if prop is None or prop.family == "stop" or (h.node_id, prop.family, src) in per_h \
                or (prop.family, src) in done:
            if gave_up is not None and h.status == "unresolved":
                gave_up[h.node_id] = "the model router returned Stop for it" if prop is None or prop.family == "stop" \
                    else f"the model router only proposed {prop.family} on {src}, already tried"
            continue
        if offered(prop.family, network=config.network, backend=backend) and \
                _affordable(route_cost(prop.family), remaining):
            prop.hypothesis_id = h.node_id
            prop.cost = route_cost(prop.family)
            prop.signal = prop.signal or prop.reason
            prop.reason = f"{_label(h)}: {prop.family} is expected to find {prop.expected or 'evidence'} ({prop.reason})"
            return prop
    return None


# ---------------------------------------------------------------- execution


def execute(view: GraphView, config: EngineConfig, env: ToolEnv, prop: RouteProposal, route_id: str
            ) -> tuple[list[EvidenceNode], dict[str, Any], list[Change]]:
    """Run one route through the registry with the ToolEnv the loop hands over (its Recorder at
    this step and route); returns (evidence drafts, result summary, changes). Tool errors are
    results; bad params raise InputError (callers validate before charging)."""
    res = run_tool(env, prop.family, prop.params)
    if res.error is not None:
        return [], {"error": res.error, "tool_call_id": res.call_id}, []
    nodes, changes = to_evidence(view, config, env.recorder, res, route_id)
    return nodes, {"tool_call_id": res.call_id, **_summary(res.output or {})}, changes


def _summary(out: dict[str, Any]) -> dict[str, Any]:
    """A short result for the routes row (the full output is in tool_calls)."""
    if "lines" in out:
        return {"lines": len(out["lines"]), "text": " / ".join(str(ln.get("text", "")) for ln in out["lines"])[:200]}
    if "levels" in out:
        return {"levels": out["levels"]}
    if "results" in out:
        return {"results": len(out["results"])}
    if "items" in out:
        return {"items": len(out["items"])}
    if "text" in out:
        return {"chars": len(str(out["text"]))}
    return {k: v for k, v in out.items() if isinstance(v, (str, int, float, bool)) or v is None}
