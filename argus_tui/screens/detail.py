"""The why on screen: a full view of one timeline row, tool call, route or node — inputs
and outputs whole, OCR lines with their confidences and boxes, verifier reasons and the
status history of a hypothesis. Everything is built from the Snapshot being shown, so in
inspect mode it is the state as of that step."""
from __future__ import annotations

import json
from typing import Any

from argus_tui.widgets.cells import SafeText as Text  # the output boundary (core/textsafe.py)
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from argus_tui.state import EventRow, RouteRow, Snapshot, ToolCallRow, provenance_chain
from argus_tui.widgets.cells import lines
from core.engine.events import Suspension, Verified
from core.nodes.cue import Cue, Entity
from core.nodes.evidence import OcrLine, TextFeatures
from core.nodes.hypothesis import PersonNote
from core.nodes.node import PARTS, EvidenceNode


def pretty(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True, default=str)


def ocr_lines(lines_: list[OcrLine]) -> list[Text]:
    """OCR lines: confidence, text, box (x0,y0-x1,y1 of the line's corners)."""
    out: list[Text] = []
    for ln in lines_:
        box, where = ln.box, ""
        if isinstance(box, list) and box and isinstance(box[0], list):
            xs, ys = [p[0] for p in box], [p[1] for p in box]
            where = f"  box {min(xs):.0f},{min(ys):.0f}-{max(xs):.0f},{max(ys):.0f}"
        elif isinstance(box, list):
            where = f"  box {box}"
        conf = f"{ln.score:.3f}" if ln.score is not None else "  -  "
        out.append(Text.assemble(f"  {conf}  ", (ln.text, "bold"), (where, "dim")))
    return out


def _value(key: str, v: Any) -> list[Text]:
    """One field of a node's data, read as its type."""
    if key == "cues":
        return [Text.assemble("  cue ", (f"{c.attribute} = {c.value}", "bold"),
                              f"  ({f'read by {c.recognizer}: ' if c.recognizer else ''}{c.cue}"
                              + (f", entry {c.data.entry}" if c.data.entry else "") + f", conf {c.confidence:.2f}"
                              + (f", holder {c.holder}" if c.holder != "self" else "")
                              + ")", (f"  «{c.span}»" if c.span else "", "dim")) for c in v if isinstance(c, Cue)]
    if key == "not_used":         # taint by provenance (core/engine/rules/taint.py)
        return [Text(f"  {v}", style="bold yellow")]
    if key == "withheld":
        return [Text.assemble("  claimed, not used: ", (f"{c.attribute} = {c.value}", "bold"),
                              (f"  «{c.span}»" if c.span else "", "dim")) for c in v if isinstance(c, Cue)]
    if key == "entities":
        return [Text.assemble(f"  {e.type} ", (e.text, "bold"), (f"  {e.start}-{e.end}", "dim"))
                for e in v if isinstance(e, Entity)]
    if key == "lines":
        return ocr_lines(v)
    if key == "features" and isinstance(v, TextFeatures):
        set_ = {k: x for k, x in v if x is not None}
        return [Text("  features: " + (", ".join(k if x is True else f"{k} {len(x) if isinstance(x, (list, dict)) else x}"
                                                   for k, x in set_.items()) or "none"))]
    if key == "notes":
        return [Text(f"  note by {n.by} (step {n.step}): {n.text}") for n in v if isinstance(n, PersonNote)]
    if key == "needs":
        return [Text("  needs: " + (", ".join(str(x) for x in v) or "none"))]
    if hasattr(v, "model_dump"):
        return [Text(f"  {key}: " + json.dumps(v.model_dump(mode="json", exclude_none=True), ensure_ascii=False,
                                               sort_keys=True))]
    if isinstance(v, (list, dict)):
        return [Text(f"  {key}: " + json.dumps(v, ensure_ascii=False, sort_keys=True, default=str))]
    return [Text(f"  {key}: {v}")]


def node_data_text(n: EvidenceNode) -> list[Text]:
    """A node's data part by part (core/nodes: where it comes from, what the rules read, the image,
    the metadata, the tool call, the model; a hypothesis's proposal and decisions)."""
    rows: list[Text] = []
    for title, part in PARTS[n.kind]:
        set_ = [(k, getattr(n.data, k)) for k in part.model_fields if getattr(n.data, k) is not None]
        if set_:
            rows.append(section(title))
            for k, v in set_:
                rows += _value(k, v)
    return rows


def section(title: str) -> Text:
    return Text(f"\n{title}", style="bold underline")


def tool_call_text(call: ToolCallRow) -> list[Text]:
    rows = [Text(f"route {call.route_id or '-'}  cost {call.cost}  "
                 f"{call.duration_ms} ms{'  (cached)' if call.cached else ''}")]
    if call.error:
        rows.append(Text(f"error: {call.error}", style="bold red"))
    rows += [section("inputs"), Text(pretty(call.inputs))]
    found = ocr_lines(call.ocr_lines())
    if found:
        rows += [section("OCR lines (confidence, text, box)"), *found]
    rows += [section("outputs"), Text(pretty(call.outputs))]
    return rows


def event_detail(snap: Snapshot, ev: EventRow) -> Text:
    rows = [Text.assemble((f"{ev.kind}", "bold"), f"  step {ev.step}  ({ev.source} #{ev.id})")]
    if ev.source == "tool":
        rows += tool_call_text(ev.tool_call())
        return lines(*rows)
    event = ev.event()
    if isinstance(event, Verified):
        for status, ids in (("admitted", event.admitted), ("removed", event.removed), ("unresolved", event.unresolved)):
            for hid in ids:
                why = [h for h in snap.history.get(hid, []) if h[0] == ev.step]
                reason = why[-1][3] if why else ""
                n = snap.nodes.get(hid)
                what = f"{n.attribute}={n.value}" if n is not None else ""
                rows.append(Text.assemble(f"  {status:10} ", (f"{hid} {what}", "bold"), f"  {reason or ''}"))
    if isinstance(event, Suspension):
        for status, whys in (("suspended", event.suspended), ("woken", event.woken)):
            for hid, why in whys.items():
                n = snap.nodes.get(hid)
                what = f"{n.attribute}={n.value}" if n is not None else ""
                rows.append(Text.assemble(f"  {status:10} ", (f"{hid} {what}", "bold"), f"  {why}"))
    rows += [section("data"), Text(pretty(event.data if event is not None else ev.data))]
    return lines(*rows)


def route_detail(snap: Snapshot, r: RouteRow, reason: str = "") -> Text:
    rows = [Text.assemble((f"route {r.route_id}", "bold"), f"  {r.family} ({r.tool or '-'})  step {r.step}  "
                          f"status {r.status}  cost {r.cost:g}")]
    if r.hypothesis_id:
        n = snap.nodes.get(r.hypothesis_id)
        rows.append(Text(f"for {r.hypothesis_id}" + (f" {n.attribute} = {n.value} ({n.status})" if n else "")))
    if reason:
        rows.append(Text(f"why: {reason}"))
    if r.expected:
        rows.append(Text(f"expects: {r.expected}"))
    if r.decided_by:
        rows.append(Text(f"decided: {r.status} by {r.decided_by}" + (f": {r.decision_reason}" if r.decision_reason
                                                                     else "")))
    if r.parent_route_id:
        rows.append(Text(f"rerun of {r.parent_route_id}"))
    rows += [section("parameters"), Text(pretty(r.params))]
    if r.result is not None:
        rows += [section("result"), Text(pretty(r.result))]
    for ev in snap.timeline:
        if ev.source == "tool" and ev.tool_call().route_id == r.route_id:
            rows += [section(f"tool call {ev.kind} (step {ev.step})"), *tool_call_text(ev.tool_call())]
    return lines(*rows)


def node_full_detail(snap: Snapshot, n: EvidenceNode) -> Text:
    rows = [Text.assemble((n.node_id, "bold"), f"  {n.kind}  status {n.status or '-'}",
                          ("  DERIVED" if n.derived else "", "yellow"), f"  created step {n.created_step}")]
    if n.attribute:
        rows.append(Text(f"{n.attribute} = {n.value or ''}" + (f"  level {n.level}" if n.level else "")
                         + (f"  confidence {n.confidence:.3f}" if n.confidence is not None else "")
                         + (f"  granularity {n.granularity:.2f}" if n.granularity is not None else "")))
    if n.reason:
        rows.append(Text.assemble(("why: ", "bold"), n.reason))
    if n.content:
        rows += [section("content"), Text(n.content)]
    hist = snap.history.get(n.node_id)
    if hist:
        rows.append(section("status history"))
        for step, status, conf, reason in hist:
            c = f"{conf:.3f}" if conf is not None else "-"
            rows.append(Text.assemble(f"  step {step:>3}  ", (f"{status:11}", "bold"), f" conf {c}  ", reason or ""))
    chain = provenance_chain(snap, n.node_id)[1:]
    if chain:
        rows.append(section("rests on"))
        for c in chain:
            rows.append(Text(f"  {c.node_id} [{c.kind}] " + (c.content or f"{c.attribute}={c.value}")))
    rows += node_data_text(n)
    return lines(*rows)


class DetailScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    DetailScreen { align: center middle; }
    DetailScreen > VerticalScroll { width: 96%; height: 92%; border: thick $primary; background: $surface;
                                    padding: 0 1; }
    """
    BINDINGS = [Binding("escape,d", "close", "Close")]

    def __init__(self, title: str, body: Text) -> None:
        super().__init__()
        self.title_text = title
        self.body = body

    def compose(self) -> ComposeResult:
        scroll = VerticalScroll(id="detail-scroll")
        scroll.border_title = Text(self.title_text)   # SafeText: a post id is data, not markup
        scroll.border_subtitle = "escape closes"
        with scroll:
            yield Static(self.body, id="detail-body")

    def on_mount(self) -> None:
        self.query_one("#detail-scroll").focus()

    def action_close(self) -> None:
        self.dismiss(None)
