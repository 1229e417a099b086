"""Every hypothesis's evidence names the recognizer that read it (issue 33): the cue stored with the
evidence node carries its registry name, `argus runs show` prints it beside the evidence with the rule
and the data entry (the occupation id), on a run of the real engine (offline backend, real SQLite)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from core.engine.rules.extract import REGISTRY
from tests.hard_negatives import Case, check

ROOT = Path(__file__).resolve().parents[1]
CASE = Case("recognizer-named", ["As a pharmacy technician I spend all day counting pills, loving it though",
                                 "Another long shift behind the pharmacy counter, as a pharmacy technician you never sit"],
            present={"occupation": "Pharmacy Technician"})


def _show(db: Path, run_id: str, *extra: str) -> str:
    r = subprocess.run([sys.executable, "-m", "argus_tui.cli", "runs", "show", str(db), run_id, *extra],
                       capture_output=True, text=True, env={**os.environ, "COLUMNS": "200", "PYTHONPATH": str(ROOT)},
                       stdin=subprocess.DEVNULL, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_runs_show_names_the_recognizer_and_entry(tmp_path: Path) -> None:
    inv = check(tmp_path, CASE)
    occ = next(h for h in inv.graph.hypotheses(("admitted",)) if h.attribute == "occupation")
    cues = [c for nid in inv.graph.supporters(occ.node_id) for c in (inv.graph.nodes[nid].data.cues or []) if c.attribute == "occupation"]
    assert cues and all(c.recognizer in REGISTRY.declared for c in cues)
    assert "occupation_taxonomy" in {c.recognizer for c in cues}
    out = _show(tmp_path / "runs.db", inv.run_id)
    line = next(ln for ln in out.splitlines() if "read by" in ln and "occupation_taxonomy" in ln)
    assert "read by occupation_taxonomy (occupation:taxonomy:" in line and "entry 3213-pharmacy-technician" in line
    data = json.loads(_show(tmp_path / "runs.db", inv.run_id, "--json"))
    prof = next(p for p in data["profile"] if p["attribute"] == "occupation")
    rows = [r for rs in prof["read_by"].values() for r in rs]
    assert rows and {r["recognizer"] for r in rows} <= set(REGISTRY.declared)
    assert {"recognizer": "occupation_taxonomy", "rule": "occupation:taxonomy:as_a_clause",
            "entry": "3213-pharmacy-technician"} in rows

    # the console's node detail (argus_tui/screens/detail.py) says the same of the evidence node
    from argus_tui.screens.detail import node_data_text

    nid = next(n for n, rs in prof["read_by"].items() if any(r["recognizer"] == "occupation_taxonomy" for r in rs))
    text = "\n".join(str(t) for t in node_data_text(inv.graph.nodes[nid]))
    assert "read by occupation_taxonomy: occupation:taxonomy:as_a_clause, entry 3213-pharmacy-technician" in text, text
