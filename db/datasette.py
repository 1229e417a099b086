"""Metadata that makes a run DB readable in Datasette (`argus runs datasette RUNS.db`): titles,
table and column descriptions, facets, and canned queries ("profile with evidence", "routes by
cost", "why was this hypothesis removed", "posts that reveal the most" with each post's text, ...).
Written into Argus's own folder, never beside the person's DB (argus_tui/commands/datasette.py
`files_home`), as metadata.yml (Datasette 0.65: the
whole metadata, canned queries and table options included) and datasette.yml (Datasette 1.0:
canned queries and table options moved to the configuration file). Each canned query takes an
optional `:run_id` (empty: every run)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

TABLES: dict[str, dict[str, Any]] = {
    "runs": {"description": "One row per investigation of one account (user folder), with its budget and status.",
             "facets": ["status", "system", "backend"], "sort_desc": "created_at",
             "columns": {"run_id": "run id (user id + random suffix)", "user_dir": "the sopri/1 user folder investigated",
                         "budget": "route budget in cost units", "spent": "cost units spent on routes",
                         "status": "created | running | paused | finished | failed",
                         "step": "last committed step (a killed run resumes from here)",
                         "config": "engine configuration (JSON)"}},
    "posts": {"description": "The posts of the account as loaded for the run (the adversary's view).",
              "columns": {"idx": "position in posts.jsonl", "data": "the post as loaded (JSON)"}},
    "images": {"description": "Images of the posts with their EXIF, signals and load errors.",
               "columns": {"meta": "JSON: exif, image signals, load errors", "sha256": "content hash"}},
    "nodes": {"description": "The cross-post evidence graph: post, evidence and hypothesis nodes.",
              "facets": ["kind", "status", "carrier", "attribute"],
              "columns": {"kind": "post | evidence | hypothesis", "carrier": "where the clue was seen (caption, exif, sign, ...)",
                          "content": "the text of the evidence", "attribute": "the attribute a hypothesis is about",
                          "value": "a hypothesis' value", "granularity": "how fine the value is (0-1)",
                          "status": "raw | grounded | derived | candidate | unresolved | suspended | removed | admitted",
                          "provenance": "JSON: the chain of node / tool-call ids it came from",
                          "step_created": "step it was added", "step_updated": "step it last changed"}},
    "edges": {"description": "Cite (evidence -> post) and support (evidence -> hypothesis) edges; never deleted, "
                             "a removal is marked with its step and reason.",
              "facets": ["kind"],
              "columns": {"src": "from node", "dst": "to node", "removed_step": "step it was removed (empty: alive)",
                          "removed_reason": "why it was removed"}},
    "hypothesis_history": {"description": "Every status change of every hypothesis, with the reason.",
                           "facets": ["status"],
                           "columns": {"reason": "why the status changed (verifier, router, person)"}},
    "node_versions": {"description": "One version of a node per step it changed in (the append-only history).",
                      "facets": ["status"]},
    "routes": {"description": "Routes the router proposed (OCR, zoom, EXIF, gazetteer, ...), the decision and the outcome.",
               "facets": ["family", "status", "decided_by"],
               "columns": {"family": "ocr | zoom_ocr | gazetteer | map_search | web_search | page_fetch | deep_visual | stop",
                           "cost": "cost units charged", "expected": "expected evidential gain",
                           "decided_by": "policy:<name> or person:<name>", "result": "JSON summary of the outcome"}},
    "tool_calls": {"description": "Every tool call with inputs, outputs, duration and whether it came from the cache.",
                   "facets": ["tool", "cached"], "columns": {"duration_ms": "wall time in milliseconds"}},
    "model_calls": {"description": "Every model call (role, model, tokens, duration); empty for offline runs.",
                    "facets": ["role", "model", "cached"]},
    "budget_ledger": {"description": "Each charge against the run's budget and what remained."},
    "events": {"description": "The run's event log (run started, steps, routes, errors).", "facets": ["kind"]},
    "profile": {"description": "The privacy profile: one value per attribute at the finest level the evidence supports.",
                "facets": ["attribute", "sensitivity"],
                "columns": {"evidence": "JSON list of evidence node ids", "hypotheses": "JSON list of hypothesis ids",
                            "sensitivity": "1-5 (schema default)", "granularity": "how fine the value is (0-1)"}},
    "profile_history": {"description": "Every profile value with the step it took effect and the step it was cleared."},
    "rejections": {"description": "Findings a person marked as wrong (argus audit --reject, the console's w), per "
                                  "account folder: never projected again, also after a rerun.",
                   "facets": ["attribute", "by"], "columns": {"value": "'' = every value of the attribute"}},
    "cache": {"description": "Content-addressed tool and model cache (large).", "hidden": True},
    "model_capabilities": {"description": "What each model endpoint was found to support.", "hidden": True},
    "_migrations": {"hidden": True}, "run_backfills": {"hidden": True},
}

RUN = "(:run_id = '' OR {t}.run_id = :run_id)"

QUERIES: dict[str, dict[str, Any]] = {
    "profile_with_evidence": {
        "title": "Profile with evidence",
        "description": "Each profile value with every evidence node behind it and the post it cites.",
        "sql": "SELECT p.run_id, p.attribute, p.value, p.confidence, p.sensitivity, e.value AS evidence_id,\n"
               "       n.carrier, n.post_id, n.content AS evidence\n"
               "FROM profile p, json_each(p.evidence) e\n"
               "LEFT JOIN nodes n ON n.run_id = p.run_id AND n.node_id = e.value\n"
               f"WHERE {RUN.format(t='p')}\n"
               "ORDER BY p.run_id, p.sensitivity DESC, p.attribute, evidence_id",
    },
    "routes_by_cost": {
        "title": "Routes by cost",
        "description": "Cost, count and outcome of the routes per family and tool.",
        "sql": "SELECT r.run_id, r.family, r.tool, COUNT(*) AS routes, SUM(r.cost) AS cost,\n"
               "       SUM(r.status = 'done') AS done, SUM(r.status = 'failed') AS failed,\n"
               "       SUM(r.status = 'skipped') AS skipped\n"
               f"FROM routes r WHERE {RUN.format(t='r')}\n"
               "GROUP BY r.run_id, r.family, r.tool ORDER BY cost DESC, routes DESC",
    },
    "why_was_this_hypothesis_removed": {
        "title": "Why was this hypothesis removed",
        "description": "Removed or suspended hypotheses with the reason of each status change (:node_id narrows "
                       "it to one hypothesis).",
        "sql": "SELECT h.run_id, h.node_id, n.attribute, n.value, n.status AS status_now, h.step, h.status,\n"
               "       h.confidence, h.reason\n"
               "FROM hypothesis_history h\n"
               "JOIN nodes n ON n.run_id = h.run_id AND n.node_id = h.node_id\n"
               f"WHERE n.status IN ('removed', 'suspended') AND {RUN.format(t='h')}\n"
               "  AND (:node_id = '' OR h.node_id = :node_id)\n"
               "ORDER BY h.run_id, h.node_id, h.step, h.id",
    },
    "posts_that_reveal_most": {
        "title": "Posts that reveal the most",
        "description": "Each post, with its text, and the admitted hypotheses its evidence supports (the posts "
                       "to edit first).",
        "sql": "SELECT r.run_id, r.post_id,\n"
               "       trim(coalesce(json_extract(p.data, '$.title') || ' | ', '') ||\n"
               "            coalesce(json_extract(p.data, '$.caption'), '')) ||\n"
               "       CASE WHEN r.post_id LIKE '@%' THEN '(the account: nickname, bio)' ELSE '' END AS text,\n"
               "       r.hypotheses, r.attributes\n"
               "FROM (SELECT ev.run_id, ev.post_id, COUNT(DISTINCT h.node_id) AS hypotheses,\n"
               "             group_concat(DISTINCT h.attribute) AS attributes\n"
               "      FROM nodes ev\n"
               "      JOIN edges e ON e.run_id = ev.run_id AND e.src = ev.node_id AND e.kind = 'support'\n"
               "           AND e.removed_step IS NULL\n"
               "      JOIN nodes h ON h.run_id = e.run_id AND h.node_id = e.dst AND h.kind = 'hypothesis'\n"
               "           AND h.status = 'admitted'\n"
               f"      WHERE ev.kind = 'evidence' AND ev.post_id IS NOT NULL AND {RUN.format(t='ev')}\n"
               "      GROUP BY ev.run_id, ev.post_id) r\n"
               "LEFT JOIN posts p ON p.run_id = r.run_id AND p.post_id = r.post_id\n"
               "ORDER BY r.hypotheses DESC, r.post_id",
    },
    "tool_time": {
        "title": "Tool time",
        "description": "Calls, cache hits and wall time per tool.",
        "sql": "SELECT t.run_id, t.tool, COUNT(*) AS calls, SUM(t.cached) AS cached,\n"
               "       ROUND(SUM(t.duration_ms), 1) AS ms, SUM(t.error IS NOT NULL) AS errors\n"
               f"FROM tool_calls t WHERE {RUN.format(t='t')}\n"
               "GROUP BY t.run_id, t.tool ORDER BY ms DESC",
    },
}


def database_name(db_path: str | Path) -> str:
    """The name Datasette gives a database file: its file name without the extension."""
    return Path(db_path).stem


def metadata(db_path: str | Path) -> dict[str, Any]:
    """Datasette 0.65 metadata (titles, descriptions, facets, canned queries)."""
    tables = {}
    for name, t in TABLES.items():
        entry: dict[str, Any] = {}
        for k in ("description", "facets", "sort_desc", "hidden"):
            if k in t:
                entry[k] = t[k]
        if "columns" in t:
            entry["columns"] = t["columns"]
        tables[name] = entry
    return {"title": f"Argus runs: {Path(db_path).name}",
            "description": "An Argus run database: investigations of accounts, their evidence graph, routes, tool "
                           "calls and privacy profiles. It holds inferred personal data: keep it private.",
            "databases": {database_name(db_path): {
                "description": "Runs, evidence graph, routes and profiles (docs/architecture.md).",
                "tables": tables, "queries": QUERIES}}}


def config(db_path: str | Path) -> dict[str, Any]:
    """Datasette 1.0 configuration: canned queries and table options live here in 1.0."""
    tables = {name: {k: t[k] for k in ("facets", "sort_desc", "hidden") if k in t} for name, t in TABLES.items()}
    return {"settings": {"default_page_size": 100},
            "databases": {database_name(db_path): {"tables": {k: v for k, v in tables.items() if v},
                                                   "queries": QUERIES}}}


def dump_yaml(doc: dict[str, Any]) -> str:
    """YAML text (PyYAML when installed, as with Datasette; else JSON, which is valid YAML)."""
    try:
        import yaml
    except ImportError:
        return json.dumps(doc, indent=1) + "\n"
    return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=120)


def write_files(db_path: str | Path, out_dir: str | Path) -> tuple[Path, Path]:
    """Writes metadata.yml and datasette.yml (0600) into out_dir; returns their paths."""
    from db.store import write_private

    out = Path(out_dir)
    m = write_private(out / "metadata.yml", dump_yaml(metadata(db_path)))
    c = write_private(out / "datasette.yml", dump_yaml(config(db_path)))
    return m, c
