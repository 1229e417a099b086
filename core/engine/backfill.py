"""Resume-time backfills: data the perceiver now attaches to evidence, computed for runs
perceived by an engine that did not (in the manner of db/migrations: named, ordered, each in
one transaction with its `run_backfills` row, applied once per run).

A backfill changes nodes through the graph, so every change is a node version (reason
"backfill: ...") at the step the resumed run continues with: the run's past stays as it was
(`state_at` of an earlier step shows the node without it) and the next step reads it.
"""
from __future__ import annotations

from typing import Callable

import sqlite_utils

from core.engine.graph import Graph
from core.engine.rules.features import attach_features
from db import runs as db_runs
from db.transaction import immediate

Backfill = Callable[[Graph], int]
BACKFILLS: list[tuple[str, Backfill]] = []


def backfill(fn: Backfill) -> Backfill:
    BACKFILLS.append((fn.__name__, fn))
    return fn


@backfill
def b001_text_features(g: Graph) -> int:
    """Text features (rules/features.py, the `feature:<key>` inputs of the aggregators) of
    perceived text evidence that has none: runs perceived before the perceiver attached them
    aggregated without them. Returns how many nodes got them."""
    n = 0
    for node in g.evidence():
        # a text node of the perceiver (text_evidence always writes cues); features={} is a
        # deliberate empty set (hostile text), not a missing one
        if isinstance(node.data.cues, list) and node.data.features is None:
            attach_features(node)
            g.update_node(node, reason="backfill: text features")
            n += 1
    return n


def apply_backfills(db: sqlite_utils.Database, g: Graph, step: int) -> dict[str, int]:
    """Apply the backfills not yet recorded for this run, each in one transaction with its
    `run_backfills` row (all or nothing), versions written at `step`; returns name -> nodes.
    On failure the transaction is rolled back and the caller's graph must be reloaded."""
    done = db_runs.backfills_done(db, g.run_id)
    applied: dict[str, int] = {}
    keep = g.step
    for name, fn in BACKFILLS:
        if name in done:
            continue
        try:
            with immediate(db):
                g.step = step
                n = fn(g)
                db_runs.record_backfill(db, g.run_id, name, step, n)
        finally:
            g.step = keep
        applied[name] = n
    return applied
