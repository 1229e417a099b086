"""Verifier: admits evidence only when grounded, then admits, suspends or removes hypotheses.

Grounded means the evidence text really occurs where it claims to come from: a post field
(re-read from the run's `posts` rows), the account profile, or a recorded tool output
(`tool_calls.outputs`), and every cue span really occurs in that text. Text flagged as
hostile (addressed to an AI, "for the report") never supports a value. A hypothesis is
admitted when grounded support remains, it is relevant (first-person, or the attribute
allows others' words) and unambiguous (no close competitor); a close tie is kept
unresolved (suspended until its evidence changes); no grounded support removes it.
"""
from __future__ import annotations

import json
from typing import Any

from core.engine.backend import Verdict
from core.engine.context import RunContext
from core.engine.types import EvidenceNode

ADMIT_MIN_CONF = 0.2


def _post_field(ctx: RunContext, post_id: str | None, field: str) -> str | None:
    """The source text a node claims to quote (None when the field does not exist)."""
    if post_id == "@profile" or field.startswith("profile."):
        return getattr(ctx.user.profile, field.split(".", 1)[1], None)
    post = _post_data(ctx, post_id)
    if post is None:
        return None
    cur: Any = post
    for part in field.replace("]", "").replace("[", ".").split("."):
        if cur is None:
            return None
        if part.isdigit():
            i = int(part)
            cur = cur[i] if isinstance(cur, list) and i < len(cur) else None
        else:
            cur = cur.get(part) if isinstance(cur, dict) else None
    return cur if isinstance(cur, str) else None


def _post_data(ctx: RunContext, post_id: str | None) -> dict[str, Any] | None:
    cache = ctx.__dict__.setdefault("_post_cache", {})
    if post_id not in cache:
        row = ctx.db.execute("SELECT data FROM posts WHERE run_id=? AND post_id=?", [ctx.run_id, post_id]).fetchone()
        cache[post_id] = json.loads(row[0]) if row else None
    return cache[post_id]


def _tool_outputs_contain(ctx: RunContext, node: EvidenceNode) -> bool:
    lines = [str(ln.get("text", "")) for ln in node.data.get("lines", [])]
    if node.data.get("gazetteer"):
        lines = [str(v) for v in node.data["gazetteer"].get("levels", {}).values()]
    if not lines:
        return False
    rows = ctx.db.execute(
        "SELECT outputs FROM tool_calls WHERE run_id=? AND tool IN ('ocr','gazetteer','map_search') AND outputs IS NOT NULL",
        [ctx.run_id],
    ).fetchall()
    blob = "\n".join(r[0] for r in rows)
    return all(json.dumps(ln, ensure_ascii=False)[1:-1] in blob for ln in lines)


def grounded(ctx: RunContext, node: EvidenceNode) -> tuple[bool, str]:
    """Is this evidence node's content where it says it is, and are its cue spans in it?"""
    if node.kind == "hypothesis":
        return node.status == "admitted", "derived evidence" if node.status == "admitted" else "hypothesis not admitted"
    if node.status == "removed":
        return False, "evidence removed"
    if node.data.get("hostile") and node.data.get("hostile_scope", "all") == "all":
        return False, "hostile text (addressed to an AI / 'for the report')"
    for c in (node.data.get("cues", []) or []) if node.data.get("hostile") else []:
        span = c.get("span") or ""
        if span and any(span in h or h in span for h in node.data["hostile"]):
            return False, f"cue {span[:40]!r} is part of hostile text"
    field = str(node.data.get("field", ""))
    if node.data.get("lines") or node.data.get("gazetteer"):
        if not _tool_outputs_contain(ctx, node):
            return False, "not in any recorded tool output"
    elif field and not field.startswith("exif:"):
        src = _post_field(ctx, node.post_id, field)
        if src is None:
            return False, f"no field {field} in post {node.post_id}"
        if node.carrier != "timestamp" and (not node.content or src[: len(node.content)] != node.content):
            return False, f"content differs from post {node.post_id} {field}"
    for c in node.data.get("cues", []) or []:
        span = c.get("span") or ""
        if span and span not in node.content:
            return False, f"cue span {span[:40]!r} not in the text"
    return True, "grounded"


def verify_hypothesis(ctx: RunContext, hyp: EvidenceNode) -> Verdict:
    if not ctx.flag("verifier"):
        return Verdict(status="admitted", reason="verifier off (ablation): admitted as proposed")
    g = ctx.graph
    keep: list[str] = []
    why: list[str] = []
    for sid in g.supporters(hyp.node_id):
        node = g.nodes.get(sid)
        if node is None:
            continue
        ok, reason = grounded(ctx, node)
        if ok:
            keep.append(sid)
        else:
            why.append(f"{sid}: {reason}")
    if not keep:
        return Verdict(status="removed", reason="no grounded support" + (f" ({'; '.join(why[:3])})" if why else ""),
                       evidence=[])
    # only metadata (e.g. IP region alone) can support no more than coarse place levels
    if hyp.data.get("ambiguous"):
        return Verdict(status="unresolved", reason="a competing value has almost the same support", evidence=keep)
    conf = hyp.confidence or 0.0
    if len(keep) < len(g.supporters(hyp.node_id)):
        conf = round(conf * len(keep) / max(1, len(g.supporters(hyp.node_id))), 4)
    if conf < ADMIT_MIN_CONF:
        return Verdict(status="unresolved", reason=f"confidence {conf:.2f} below {ADMIT_MIN_CONF}", evidence=keep,
                       confidence=conf)
    return Verdict(status="admitted", reason=f"{len(keep)} grounded supporter(s)" + (f"; dropped {'; '.join(why[:2])}" if why else ""),
                   evidence=keep, confidence=conf)
