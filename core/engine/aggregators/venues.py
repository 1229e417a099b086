"""Venues read off images: a shop sign the user photographed (… Fitness, … Coffee, …咖啡)."""
from __future__ import annotations

from core.engine.aggregators.base import CueRec, GraphFacts
from core.engine.aggregators.registry import aggregator
from core.engine.types import Cue


def sign_venues(f: GraphFacts) -> list[CueRec]:
    """A shop sign the user photographed naming a venue (… Fitness, … Coffee, …咖啡); a sign or
    ticket that only says what kind of place it is ("Swimming Pool", "GYM MEMBER") names none."""
    out = []
    for n in f.nodes.values():
        if (n.kind != "evidence" or n.modality != "image" or not n.data.lines or n.data.hostile
                or n.carrier not in ("sign", "ocr_text") or len(n.data.lines) > 4):
            continue
        marks = f.feat(n.node_id, "line_marks", [])
        for i, ln in enumerate(n.data.lines[:2]):
            t = ln.text.strip()
            mk = marks[i] if i < len(marks) else []
            if 3 <= len(t) <= 40 and "venue" in mk and "not_venue" not in mk and "names_venue" in mk:
                cue = Cue(attribute="frequent_venues", value=t, confidence=0.5, span=t, cue="sign:venue")
                out.append(CueRec(n.node_id, n.post_id or "", n.carrier or "", cue, f.time.get(n.post_id or "")))
                break
    return out


SIGNS = aggregator("sign_venues", lambda b: sign_venues(b.facts), consumes=("lines", "carrier:sign", "carrier:ocr_text", "feature:line_marks"),
                   produces=("found:frequent_venues",), doc=sign_venues.__doc__)
