"""A SupportGraph from a finished run in the run DB (profile rows -> admitted hypotheses ->
`support` edges -> leaf evidence tied to a post, image, OCR box or quoted span).

Graph conventions (core/engine/graph.py): a `support` edge goes from the supporting
evidence (or an admitted hypothesis, i.e. derived evidence) to the hypothesis it supports.
The engine does not record a quorum for aggregated hypotheses, so min_support is 1: a value
stands while any of its grounded supporters stands. Every admitted hypothesis of a profiled
attribute is kept as a fallback value (capped at the projected value's weight): when the
projected one falls, a runner-up may be projected instead, and the prediction must say so.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import sqlite_utils

from core.advise.exposure import ProfileValue
from core.advise.planner import Leaf, SupportGraph
from core.errors import InputError
from core.nodes.evidence import OcrLine
from core.nodes.node import EvidenceNode, NodeData
from core.schema import load_schema
from db import queries

PROFILE_POST = "@profile"       # core.engine.perceiver.PROFILE_POST
# entity types that feed attributes in the hypothesizer (stations -> commute, phones -> contact, places)
_ENTITY_ATTRS = {
    "station": {"commute"}, "phone": {"contact_or_id_number"}, "email": {"contact_or_id_number"},
    "id": {"contact_or_id_number"}, "plate": {"contact_or_id_number"},
    "place": {"home_location", "work_location", "travel_history", "frequent_venues"},
}
_ENTITY_ATTRS["station"] = _ENTITY_ATTRS["station"] | {"home_location", "work_location", "travel_history"}
# cue attributes the hypothesizer pools into another attribute (place observations, routines)
_PLACE_CUES = {"home_location", "work_location", "travel_history"}
_CUE_FEEDS = {"home_location": _PLACE_CUES, "work_location": _PLACE_CUES, "travel_history": _PLACE_CUES,
              "daily_routine": {"hobbies", "frequent_venues", "daily_routine"}}
_TEXT_FIELD = re.compile(r"^(title|caption|location_tag|profile\.bio|profile\.nickname|tags\[\d+\]|"
                         r"comments\[\d+\]\.text|images\[\d+\]\.alt)$")


def latest_finished_run(db: sqlite_utils.Database, user_dir: Path) -> str | None:
    """The newest finished argus run of this user folder (matched by resolved path)."""
    target = str(Path(user_dir).resolve())
    row = db.execute(
        "SELECT run_id FROM runs WHERE user_dir = ? AND status = 'finished' AND system = 'argus'"
        " ORDER BY finished_at DESC, rowid DESC LIMIT 1", [target]).fetchone()
    return row[0] if row else None


def _box_of(points: Any) -> list[float] | None:
    """[[x,y]x4] polygon or [x0,y0,x1,y1] -> [x0,y0,x1,y1]."""
    try:
        if points and isinstance(points[0], (list, tuple)):
            xs, ys = [float(p[0]) for p in points], [float(p[1]) for p in points]
            return [min(xs), min(ys), max(xs), max(ys)]
        if points and len(points) == 4:
            return [float(v) for v in points]
    except (TypeError, ValueError, IndexError):
        return None
    return None


def _union(boxes: list[list[float]]) -> list[float] | None:
    if not boxes:
        return None
    return [min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes)]


def _relevant_spans(data: NodeData, attrs: set[str]) -> tuple[list[tuple[int | None, int | None, str]], set[str]]:
    """(start, end, text) of the cues/entities in a node that feed the attributes it supports,
    and the attributes those spans account for."""
    out: list[tuple[int | None, int | None, str]] = []
    covered: set[str] = set()
    for c in data.cues or []:
        fed = {a for a in attrs if c.attribute in _CUE_FEEDS.get(a, {a})}
        if fed and c.span:
            out.append((c.data.start, c.data.end, c.span))
            covered |= fed
    for e in data.entities or []:
        hit = attrs & _ENTITY_ATTRS.get(e.type, set())
        if hit and e.text:
            out.append((e.start, e.end, e.text))
            covered |= hit
    return out, covered


_SENTENCE_END = ".!?。！？\n"
_CLAUSE_END = _SENTENCE_END + ",;:，；：、"


_ABBREV = re.compile(r"(?:^|\W)(?:[A-Z]|Dr|Mr|Mrs|Ms|Prof|St|Jr|Sr|No|vs|etc|e\.g|i\.e)$")


def _stop(content: str, i: int, stops: str) -> bool:
    """content[i] ends a sentence/clause (a '.' only before a space or the end, and not after
    "Dr", "Mr", an initial...: "Dr. Li", "3.5")."""
    c = content[i]
    if c not in stops:
        return False
    if c in ".:," and i + 1 < len(content) and not content[i + 1].isspace():
        return False
    return not (c == "." and _ABBREV.search(content[max(0, i - 6):i]))


def _unit(content: str, lo: int, hi: int, stops: str) -> str:
    """The whole clause or sentence around content[lo:hi], with one delimiter, so that cutting it
    leaves whole sentences behind (never ". has been a nurse")."""
    s, e = lo, hi
    while s > 0 and not _stop(content, s - 1, stops):
        s -= 1
    while e < len(content) and not _stop(content, e, stops):
        e += 1
    starts_sentence = s == 0 or _stop(content, s - 1, _SENTENCE_END)
    if e < len(content) and (starts_sentence or _stop(content, e, _SENTENCE_END)):
        e += 1                      # "My aunt is a nurse, " / "... she says." takes its own delimiter
    elif s > 0 and not starts_sentence:
        s -= 1                      # "..., my aunt is a nurse" takes the comma before it
    return content[s:e]


def _new_first_person_cue(content: str, phrase: str) -> bool:
    """Would cutting `phrase` make the rules read something new as the user's own (e.g. the
    aunt's job left as "has been a nurse")?"""
    from core.advise.apply import _cut
    from core.engine.rules import extract_cues

    def own(text: str) -> set[tuple[str, str]]:
        return {(c.attribute, c.value.lower()) for c in extract_cues(text) if c.first_person}

    return bool(own(_cut(content, phrase) or "") - own(content))


def _phrase(content: str, spans: list[tuple[int | None, int | None, str]]) -> str:
    """What to cut: the clause holding every relevant span, else its sentence, else the whole
    text — the first whose cut leaves no new first-person cue behind; the whole text when no
    span can be located (e.g. a birthday post read as a whole)."""
    lo, hi = None, None
    for start, end, text in spans:
        if isinstance(start, int) and isinstance(end, int) and content[start:end] == text:
            s, e = start, end
        else:
            s = content.find(text)
            if s < 0:
                continue
            e = s + len(text)
        lo = s if lo is None else min(lo, s)
        hi = e if hi is None else max(hi, e)
    if lo is None or hi is None:
        return content
    for stops in (_CLAUSE_END, _SENTENCE_END):
        cut = _unit(content, lo, hi, stops)
        if cut.strip() and not _new_first_person_cue(content, cut):
            return cut
    return content


def _line_boxes(content: str, lines: list[OcrLine], spans: list[tuple[int | None, int | None, str]]
                ) -> list[list[float]]:
    """Boxes of the OCR lines a span falls on (a span may cross lines: the text is the lines
    joined with newlines, and cue offsets index that text)."""
    ranges, pos = [], 0
    for ln in lines:
        t = ln.text
        ranges.append((pos, pos + len(t)))
        pos += len(t) + 1
    out: list[list[float]] = []
    for start, end, text in spans:
        if not (isinstance(start, int) and isinstance(end, int) and content[start:end] == text):
            start = content.find(text)
            if start < 0:
                continue
            end = start + len(text)
        for (a, b), ln in zip(ranges, lines):
            box = _box_of(ln.box)
            if box and a < end and start < b and box not in out:
                out.append(box)
    return out


def _leaf(row: EvidenceNode, attrs: set[str], image_files: dict[str, str]) -> Leaf:
    data = row.data
    content = row.content
    image_id = data.image_id
    image = data.file or (image_files.get(image_id) if image_id else None)
    leaf = Leaf(node_id=row.node_id, post_id=row.post_id, carrier=row.carrier, modality=row.modality, image=image)
    spans, covered = _relevant_spans(data, attrs)
    if attrs - covered or "birth_date" in attrs:
        # some attribute is read from this text as a whole: no span accounts for it (a birthday
        # post is dated by "happy birthday to me" anywhere in it), so the whole text (every OCR
        # line) has to go
        spans = []
    lines = data.lines or []
    if lines:
        # OCR evidence: blur the lines that carry the relevant text (all lines when none is known)
        leaf.box = _union(_line_boxes(content, lines, spans)) or _union(
            [b for ln in lines if (b := _box_of(ln.box))])
    elif content and _TEXT_FIELD.match(data.field or ""):
        leaf.span = _phrase(content, spans)
        leaf.modality = "text"     # a cuttable text field (location tags and alt text included)
    return leaf


def build_support_graph(db: sqlite_utils.Database, run_id: str) -> SupportGraph:
    """The run's profile and the support chains below it, as the planner's SupportGraph."""
    if queries.get_run(db, run_id) is None:
        raise InputError("runs.db", f"no run {run_id!r}", field="run_id")
    schema = load_schema()
    by_id = {r.node_id: r for r in queries.nodes(db, run_id)}
    sup: dict[str, list[str]] = {}
    for e in queries.edges(db, run_id):
        if e["kind"] == "support":
            sup.setdefault(e["dst"], []).append(e["src"])
    image_files = {r[0]: r[1] for r in db.execute("SELECT image_id, file FROM images WHERE run_id=?", [run_id])}
    admitted = [r for r in by_id.values() if r.kind == "hypothesis" and r.status == "admitted"]

    g = SupportGraph()
    # attributes each evidence node feeds (to pick the spans/boxes that matter)
    feeds: dict[str, set[str]] = {}

    def usable(nid: str) -> bool:
        r = by_id.get(nid)
        if r is None:
            return False
        if r.kind == "hypothesis":
            return r.status == "admitted"
        # tool evidence with no post (gazetteer) only refines levels of a place someone mentioned
        return r.status != "removed" and not r.data.hostile and bool(r.post_id)

    for h in admitted:
        keep = [s for s in sup.get(h.node_id, []) if usable(s)]
        g.supporters[h.node_id] = keep
        for s in keep:
            feeds.setdefault(s, set()).add(h.attribute)
    # a derived hypothesis feeds what its dependants feed too
    for nid, attrs in list(feeds.items()):
        if by_id[nid].kind == "evidence":
            g.leaves[nid] = _leaf(by_id[nid], attrs, image_files)

    for row in queries.profile_rows(db, run_id):
        attr, value = row["attribute"], row["value"] or ""
        spec = schema.get(attr)
        sens = row.get("sensitivity") if row.get("sensitivity") is not None else (spec.default_sensitivity if spec else 3)
        mine = [h for h in admitted if h.attribute == attr]
        if spec is not None and spec.kind in ("set", "facts"):
            # items are joined with "; " (and an item may itself contain "; ")
            primary = [h for h in mine if h.value and h.value in value]
        else:
            primary = [h for h in mine if (h.value or "") == value]
        if not primary:
            # projection rows always come from admitted hypotheses; fall back to the row's evidence
            g.profile.append(ProfileValue(attribute=attr, value=value, granularity=row.get("granularity") or 1.0,
                                          sensitivity=sens, evidence=list(row.get("evidence") or [])))
            continue
        gran = max(_gran(h) for h in primary)
        quoted = _quoted_in(value, by_id, {s for h in primary for s in g.supporters.get(h.node_id, [])})
        for r in quoted:
            if r.node_id not in g.leaves:
                g.leaves[r.node_id] = _leaf(r, {attr}, image_files)
        g.profile.append(ProfileValue(attribute=attr, value=value, granularity=gran, sensitivity=sens,
                                      evidence=[h.node_id for h in primary] + [r.node_id for r in quoted]))
        for h in mine:
            if h in primary:
                continue
            g.profile.append(ProfileValue(attribute=attr, value=h.value or "", granularity=min(gran, _gran(h)),
                                          sensitivity=sens, evidence=[h.node_id]))
    _latent_ip_home(g, by_id, image_files)
    return g


def _quoted_in(value: str, by_id: dict[str, EvidenceNode], known: set[str]) -> list[EvidenceNode]:
    """Post text the projected value quotes but that is not on a support edge (some aggregators
    quote every post they read): the value still stands while any of it does."""
    # quoted fragments: “a | b”
    fragments = [f.strip() for q in re.findall(r"“([^”]*)”", value) for f in q.split(" | ")]
    fragments = [f for f in fragments if len(f) >= 4 or (len(f) >= 2 and not f.isascii())]
    out = []
    for r in by_id.values():
        content = r.content.strip()
        if r.kind != "evidence" or r.node_id in known or not r.post_id or r.status == "removed":
            continue
        if r.data.hostile or not (_TEXT_FIELD.match(r.data.field or "") or r.data.lines):
            continue
        if (len(content) >= 6 or (len(content) >= 2 and not content.isascii())) and content in value:
            out.append(r)
        elif any(f in content for f in fragments):
            out.append(r)
    return out


def _latent_ip_home(g: SupportGraph, by_id: dict[str, EvidenceNode], image_files: dict[str, str]) -> None:
    """The hypothesizer scores IP regions as home observations: when a finer home value falls,
    the region label still gives a coarse one. Model that as a fallback home value backed by
    every IP-region node (so only hiding the region label removes it)."""
    homes = [v for v in g.profile if v.attribute == "home_location"]
    ips = [r for r in by_id.values() if r.kind == "evidence" and r.carrier == "ip_region"
           and r.status != "removed" and r.post_id and r.content.strip()]
    if not homes or not ips:
        return
    from collections import Counter

    from core.engine.places import resolve_levels

    region = Counter(r.content.strip() for r in ips).most_common(1)[0][0]
    spec = load_schema().get("home_location")
    levels = resolve_levels(region)
    order = list(spec.levels) if spec and spec.levels else []
    depth = max((order.index(k) + 1 for k in levels if k in order), default=1)
    gran = min(homes[0].granularity, depth / max(1, len(order) or 1))
    for r in ips:
        if r.node_id not in g.leaves:
            g.leaves[r.node_id] = _leaf(r, {"home_location"}, image_files)
    g.supporters["latent:ip-home"] = [r.node_id for r in ips]
    g.profile.append(ProfileValue(attribute="home_location", value=region, granularity=gran,
                                  sensitivity=homes[0].sensitivity, evidence=["latent:ip-home"]))


def _gran(h: EvidenceNode) -> float:
    g = h.granularity
    return float(g) if g is not None else 1.0


def primary_values(g: SupportGraph) -> list[ProfileValue]:
    """The projected value of each attribute (the first ProfileValue listed per attribute)."""
    seen: set[str] = set()
    out = []
    for v in g.profile:
        if v.attribute not in seen:
            seen.add(v.attribute)
            out.append(v)
    return out
