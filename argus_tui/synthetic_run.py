"""A synthetic saved run written straight into a run DB (rows only, no engine).

Used by the console's tests and by benchmarks/tui_open.py to open large runs without
running an investigation. Every table the console reads gets plausible rows: posts,
images, post/evidence/hypothesis nodes with cite/support edges, hypothesis history,
routes with decisions, budget ledger, tool/model calls, events and a profile.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import sqlite_utils

from db.store import dumps

ATTRS = [
    ("home_location", ["Shenzhen", "Nanshan District", "Guangdong"]),
    ("occupation", ["nurse", "teacher", "software engineer"]),
    ("employer", ["Shenzhen People's Hospital", "Example Tech"]),
    ("education", ["Sun Yat-sen University", "bachelor"]),
    ("age", ["28", "30-35"]),
    ("routine", ["gym on Tuesday evenings", "commutes by metro line 2"]),
]
FAMILIES = ["ocr", "zoom_ocr", "exif", "gazetteer", "map_search", "web_search"]


def synthetic_post(i: int) -> dict:
    pid = f"p{i + 1:04d}"
    return {
        "post_id": pid, "timestamp": f"2026-03-{1 + i % 28:02d}T{8 + i % 12:02d}:15:00+08:00",
        "title": f"Post {i + 1}", "caption": f"Morning walk near the office #{i + 1}",
        "tags": ["commute", "coffee"][: 1 + i % 2], "ip_region": ["Guangdong", "Hong Kong"][i % 2],
        "images": [{"file": f"images/{pid}_1.png", "alt": None}],
        "comments": [{"author": "friend_a", "text": "see you at the gym tuesday"}] if i % 3 == 0 else [],
    }


def write_synthetic_user(user_dir: str | Path, posts: int = 12) -> Path:
    """The sopri/1 folder the synthetic run was made from (profile, posts, small striped PNGs),
    so a synthetic run can be resumed and its images shown."""
    from PIL import Image

    udir = Path(user_dir)
    (udir / "images").mkdir(parents=True, exist_ok=True)
    (udir / "profile.json").write_text(json.dumps({"user_id": "u_synth", "platform": "rednote"}), encoding="utf-8")
    lines = []
    for i in range(posts):
        post = synthetic_post(i)
        lines.append(json.dumps(post, ensure_ascii=False))
        im = Image.new("RGB", (64, 48), (40 + 17 * i % 200, 90, 160))
        for x in range(0, 64, 16):
            im.paste((230, 200 - 10 * (i % 8), 60), (x, 16, x + 8, 32))
        im.save(udir / post["images"][0]["file"])
    (udir / "posts.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return udir


def write_synthetic_run(
    db: sqlite_utils.Database,
    run_id: str = "run-synth",
    *,
    posts: int = 12,
    evidence_per_post: int = 3,
    hypotheses: int = 10,
    steps: int = 8,
    budget: float = 20.0,
    user_dir: str | Path | None = None,
    seed: int = 0,
    pending: bool = False,
) -> str:
    """Write one run; returns its id. `pending` leaves the last route awaiting a decision."""
    rnd = random.Random(seed)
    ts = "2026-01-01T00:00:00.000+00:00"   # fixed: snapshot tests must not see wall-clock time
    db["runs"].insert({
        "run_id": run_id, "user_id": "u_synth", "user_dir": str(user_dir) if user_dir else None,
        "system": "argus", "backend": "offline", "config": "{}", "budget": budget, "spent": 0,
        "status": "paused" if pending else "finished", "step": steps, "error": None,
        "created_at": ts, "updated_at": ts, "finished_at": None if pending else ts,
    }, replace=True)
    post_rows, image_rows, node_rows, edge_rows = [], [], [], []
    evidence_ids: list[str] = []
    for i in range(posts):
        post = synthetic_post(i)
        pid = post["post_id"]
        post_rows.append({"run_id": run_id, "post_id": pid, "idx": i, "timestamp": post["timestamp"],
                          "ip_region": post["ip_region"], "data": dumps(post)})
        image_rows.append({"run_id": run_id, "image_id": f"img_{pid}_1", "post_id": pid,
                           "file": f"images/{pid}_1.png", "sha256": None, "width": 64, "height": 48,
                           "meta": dumps({"exif": {"Model": "Pixel 7", "DateTime": "2026:03:01 08:15:00"},
                                          "ocr": ["NANSHAN METRO"] if i % 2 == 0 else []})})
        node_rows.append(_node(run_id, f"post:{pid}", "post", pid, content=post["caption"], step=0))
        for j in range(evidence_per_post):
            eid = f"e{i + 1:04d}_{j + 1}"
            attr, values = ATTRS[(i + j) % len(ATTRS)]
            step = min(steps, (i * evidence_per_post + j) * steps // max(1, posts * evidence_per_post))
            node_rows.append(_node(
                run_id, eid, "evidence", pid, modality=["text", "image", "metadata"][j % 3],
                carrier=["caption", "ocr_text", "exif"][j % 3], content=f"'{values[j % len(values)]}' in {pid}",
                attribute=attr, value=values[j % len(values)], confidence=round(0.4 + 0.1 * (j % 5), 2),
                status="grounded" if j % 2 == 0 else "raw", provenance=[f"post:{pid}"], step=step,
            ))
            edge_rows.append({"run_id": run_id, "src": eid, "dst": f"post:{pid}", "kind": "cite",
                              "step": step, "data": "{}"})
            evidence_ids.append(eid)
    hist_rows, hyp_ids = [], []
    for h in range(hypotheses):
        attr, values = ATTRS[h % len(ATTRS)]
        hid = f"h{h + 1:04d}"
        step = min(steps, h * steps // max(1, hypotheses))
        support = rnd.sample(evidence_ids, k=min(len(evidence_ids), 2 + h % 3)) if evidence_ids else []
        final = ["candidate", "unresolved", "suspended", "admitted"][h % 4]
        node_rows.append(_node(
            run_id, hid, "hypothesis", None, attribute=attr, value=values[h % len(values)],
            level="city" if attr == "home_location" else None, granularity=round(0.25 * (1 + h % 4), 2),
            confidence=round(0.3 + 0.05 * (h % 10), 2), status=final, provenance=support, step=step,
            derived=final == "admitted",          # as the engine does: admitted hypotheses are evidence
            step_updated=steps,
        ))
        for eid in support:
            edge_rows.append({"run_id": run_id, "src": eid, "dst": hid, "kind": "support", "step": step,
                              "data": "{}"})
        hist_rows.append({"run_id": run_id, "node_id": hid, "step": step, "status": "candidate",
                          "confidence": 0.3, "reason": "proposed"})
        if final != "candidate":
            hist_rows.append({"run_id": run_id, "node_id": hid, "step": min(steps, step + 2), "status": final,
                              "confidence": round(0.3 + 0.05 * (h % 10), 2), "reason": "verified"})
        hyp_ids.append(hid)
    # one derived evidence node: an admitted hypothesis turned evidence
    if hyp_ids:
        node_rows.append(_node(run_id, "d0001", "evidence", None, content="derived: lives in Shenzhen",
                               attribute="home_location", value="Shenzhen", status="derived", derived=True,
                               provenance=[hyp_ids[0]], step=min(steps, 3)))
        edge_rows.append({"run_id": run_id, "src": "d0001", "dst": hyp_ids[0], "kind": "cite",
                          "step": min(steps, 3), "data": "{}"})

    route_rows, ledger_rows, event_rows, tool_rows, model_rows = [], [], [], [], []
    remaining = budget
    for s in range(1, steps + 1):
        family = FAMILIES[s % len(FAMILIES)]
        rid = f"r{s:03d}"
        hid = hyp_ids[s % len(hyp_ids)] if hyp_ids else None
        last_pending = pending and s == steps
        status = "proposed" if last_pending else ["done", "skipped", "done", "done"][s % 4]
        by = None if last_pending else ("person:alice" if s % 2 else "policy:auto")
        cost = 1.0 + s % 3
        route_rows.append({
            "run_id": run_id, "route_id": rid, "step": s, "hypothesis_id": hid, "family": family,
            "tool": family, "params": dumps({"image": f"img_p{s:04d}_1", "zoom": 2} if "ocr" in family
                                             else {"query": f"clue {s}"}),
            "cost": cost, "expected": f"text confirming {hid}", "status": status, "decided_by": by,
            "decision_reason": None, "parent_route_id": None, "result": dumps({"new_evidence": s % 3}),
            "created_at": ts, "decided_at": None if last_pending else ts,
        })
        event_rows.append({"run_id": run_id, "step": s, "kind": "route_proposed",
                           "data": dumps({"route_id": rid, "family": family, "hypothesis_id": hid}),
                           "created_at": ts})
        if last_pending:
            continue
        event_rows.append({"run_id": run_id, "step": s, "kind": "decision",
                           "data": dumps({"route_id": rid, "action": "skip" if status == "skipped" else "approve",
                                          "by": by}), "created_at": ts})
        if status == "done":
            remaining -= cost
            ledger_rows.append({"run_id": run_id, "step": s, "route_id": rid, "family": family, "units": cost,
                                "remaining": remaining, "created_at": ts})
            tool_rows.append({"run_id": run_id, "step": s, "route_id": rid, "tool": family,
                              "inputs": dumps({"route": rid}), "outputs": dumps({"lines": s}), "error": None,
                              "duration_ms": 12.0, "cost": cost, "cache_key": None, "cached": 0,
                              "created_at": ts})
            event_rows.append({"run_id": run_id, "step": s, "kind": "tool_call",
                               "data": dumps({"route_id": rid, "tool": family}), "created_at": ts})
        model_rows.append({"run_id": run_id, "step": s, "role": "hypothesizer", "model": "offline-rules",
                           "base_url": None, "request": "{}", "response": "{}", "parsed": "{}", "error": None,
                           "prompt_tokens": 0, "completion_tokens": 0, "duration_ms": 1.0, "cost": 0,
                           "cache_key": None, "cached": 0, "created_at": ts})
    event_rows[:0] = [{"run_id": run_id, "step": 0, "kind": "run_started", "data": dumps({"budget": budget}),
                       "created_at": ts},
                      {"run_id": run_id, "step": 0, "kind": "perceived", "data": dumps({"nodes": len(node_rows)}),
                       "created_at": ts}]
    if not pending:
        event_rows.append({"run_id": run_id, "step": steps, "kind": "run_finished", "data": "{}",
                           "created_at": ts})
    prof_rows = []
    for k, (attr, values) in enumerate(ATTRS[: max(1, min(len(ATTRS), hypotheses))]):
        prof_rows.append({"run_id": run_id, "attribute": attr, "value": values[0], "level": None,
                          "granularity": 1.0, "confidence": 0.7, "sensitivity": 3,
                          "evidence": dumps(evidence_ids[k:k + 2]), "step": min(steps, 2 + k)})
    db["runs"].update(run_id, {"spent": budget - remaining})
    with db.conn:
        for table, rows in [("posts", post_rows), ("images", image_rows), ("nodes", node_rows),
                            ("edges", edge_rows), ("hypothesis_history", hist_rows), ("routes", route_rows),
                            ("budget_ledger", ledger_rows), ("events", event_rows), ("tool_calls", tool_rows),
                            ("model_calls", model_rows), ("profile", prof_rows),
                            ("profile_history", prof_rows)]:
            if rows:
                db[table].insert_all(rows, batch_size=1000)
    return run_id


def _node(run_id: str, node_id: str, kind: str, post_id: str | None, *, modality: str | None = None,
          carrier: str | None = None, content: str = "", attribute: str | None = None, value: str | None = None,
          level: str | None = None, granularity: float | None = None, confidence: float | None = None,
          status: str | None = None, derived: bool = False, provenance: list[str] | None = None, step: int = 0,
          step_updated: int | None = None) -> dict:
    return {"run_id": run_id, "node_id": node_id, "kind": kind, "post_id": post_id, "modality": modality,
            "carrier": carrier, "content": content, "attribute": attribute, "value": value, "level": level,
            "granularity": granularity, "confidence": confidence, "status": status, "derived": int(derived),
            "provenance": dumps(provenance or []), "data": "{}", "step_created": step,
            "step_updated": step if step_updated is None else step_updated}
