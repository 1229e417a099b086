"""Baselines of the paper, run on the same inputs as Argus (same posts, same images, the same
tools where the system has tools), each recorded in the run DB as a run with system=<name>.

    SYSTEMS: name -> (run function, one-line description)
    run_baseline(system, user_dir, backend, db, config=..., budget=...) -> Predictions

Offline they use the same rules and tools as Argus (honest baselines of the same strength);
with a model backend they call the configured roles through core/backends (see model.py).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, NamedTuple

import sqlite_utils

from core.baselines import holmes, postvlm, selfdisc, singleagent, textllm
from core.baselines.common import BaselineRun
from core.errors import InputError
from core.models import Predictions


class System(NamedTuple):
    run: Callable[[BaselineRun, str], None]
    description: str


SYSTEMS: dict[str, System] = {
    "textllm": System(textllm.run, "all post text in one prompt; no images, no tools"),
    "postvlm": System(postvlm.run, "each post alone (text + images), per-post answers voted"),
    "singleagent": System(singleagent.run, "everything + tools in one context; no verifier/routing/CPeg"),
    "selfdisc": System(selfdisc.run, "explicit self-disclosures per post, aggregated"),
    "holmes": System(holmes.run, "visual extraction then summary; no verifier/routing/CPeg"),
}


def system_names() -> list[str]:
    return ["argus", *SYSTEMS]


def run_baseline(system: str, user_dir: str | Path, backend: str, db: sqlite_utils.Database, *,
                 config: dict[str, Any] | None = None, budget: float = 0.0) -> tuple[str, Predictions]:
    """Run one baseline on one user; returns (run_id, predictions). A failure inside the system
    marks the run failed in the DB and is raised again for the batch to report."""
    spec = SYSTEMS.get(system)
    if spec is None:
        raise InputError("--system", f"unknown system {system!r} (one of {', '.join(system_names())})")
    run = BaselineRun(db, Path(user_dir), system=system, backend=backend, config=config, budget=budget)
    try:
        spec.run(run, backend)
        pred = run.finish()
    except BaseException as e:
        if db.conn.in_transaction:
            db.conn.rollback()
        run.fail(f"{type(e).__name__}: {e}")
        raise
    pred.system = f"{system}-{backend}"
    return run.run_id, pred


__all__ = ["SYSTEMS", "BaselineRun", "run_baseline", "system_names"]
