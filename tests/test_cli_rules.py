"""`argus rules list [--attribute A] [--lang L]`: the recognizer registry as a table (issue 33)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from argus_tui.cli import app
from core.engine.rules.extract import REGISTRY

ROOT = Path(__file__).resolve().parents[1]


def _argus(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "80"}
    return subprocess.run([sys.executable, "-m", "argus_tui.cli", *args], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=120)


def test_rules_list_prints_the_registry_filtered() -> None:
    r = _argus("rules", "list", "--attribute", "occupation")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].split("\t") == ["name", "attributes", "langs", "reads", "source"]
    # a helper table is printed "name (in recognizer)"
    rows = {ln.split("\t")[0].split(" (in ")[0]: ln.split("\t") for ln in lines[1:] if "\t" in ln}
    assert set(rows) == {d.name for d in REGISTRY.select(attribute="occupation")}
    assert {"occupation_taxonomy", "occupation", "labelled_fields", "semantic_banks"} <= set(rows)
    assert rows["occupation_taxonomy"][4] == "occupations.json" and "ja" in rows["occupation_taxonomy"][2].split()
    assert "holder" in rows["occupation_taxonomy"][3].split()
    assert "gender" not in rows
    # both filters: the closed role table reads English and Chinese only
    ja = _argus("rules", "list", "--attribute", "occupation", "--lang", "ja")
    names = {ln.split("\t")[0] for ln in ja.stdout.splitlines()[1:] if "\t" in ln}
    assert "occupation_taxonomy" in names and "occupation" not in names and "labelled_fields" in names


def test_rules_list_json_and_bad_attribute() -> None:
    r = CliRunner().invoke(app, ["rules", "list", "--lang", "tl", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    # age_arithmetic's Tagalog ages; document_names' Tagalog greeting ("maligayang kaarawan", names.json)
    assert [d["name"] for d in out] == ["document_names", "age_arithmetic"]
    assert out[1]["source"] == "core/data/age_milestones.json" and out[1]["attributes"] == ["age", "birth_date"]
    bad = _argus("rules", "list", "--attribute", "shoe_size")
    assert bad.returncode == 2 and bad.stderr.strip().startswith("error:") and "shoe_size" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1


def test_rules_list_is_a_table_at_80_columns() -> None:
    """On a real terminal of 80 columns: a table (not stacked rows), every line within 80, names whole."""
    import pty
    import re
    from pty_io import readable

    master, slave = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "80", "LINES": "50", "TERM": "xterm"}
    p = subprocess.Popen([sys.executable, "-m", "argus_tui.cli", "rules", "list"], stdout=slave, stderr=slave,
                         env=env, cwd=ROOT)
    os.close(slave)
    buf = b""
    while True:
        if not readable(master, 60):
            break
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        buf += chunk
    p.wait(timeout=60)
    os.close(master)
    out = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", buf.decode("utf-8", "replace")).replace("\r", "")
    lines = out.splitlines()
    assert p.returncode == 0, out
    assert max(len(ln) for ln in lines) <= 80, out
    assert sum("│" in ln for ln in lines) >= len(REGISTRY.declared), out     # one table row (or more) each
    cells = {c.strip() for ln in lines for c in ln.split("│")}
    assert {"contact_or_id_number", "occupation_taxonomy", "semantic_banks", "age_milestones.json"} <= cells, out
