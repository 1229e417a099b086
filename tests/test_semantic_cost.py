"""Cost plumbing of the semantic layer: the sentence filter, what the model sees, the process
cache and the lazy model load (a warm re-run never loads the model). Real model, real SQLite."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from core.engine.rules.semantic import read_banks, candidate_sentences
from core.engine.rules.sentence_filter import worth_embedding
from db.store import open_db
from tools import embed as E
from tools.base import Recorder

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("text", [
    "https://example.com/a/b/c/d/e/f",
    "#nurselife #nightshift #tired #coffee #hospital",
    "12:30 - 14:45 / 2024-05-01 99%",
    "😂😂😂 !!! 🙈🙈",
    "@anna @ben #tbt 2019",
])
def test_text_no_prototype_can_match_is_not_embedded(text: str) -> None:
    assert not worth_embedding(text)
    assert candidate_sentences(text) == []


@pytest.mark.parametrize("text", [
    "studied marketing too – now navigating ads & campaigns daily",
    "always hunting those zen corners after work",
    "it's been three years since I moved to Lyon for the job",
    "the night shifts on my ward are killing me",
    "我在医院做护士，三班倒真的累",
])
def test_first_person_statements_are_kept(text: str) -> None:
    assert worth_embedding(text)
    assert candidate_sentences(text) == [(0, len(text))]


def test_the_model_sees_a_cleaned_cut_sentence_and_prototypes_unchanged() -> None:
    long = "I work as a nurse 😂 https://x.io/p " + " ".join(f"w{i}" for i in range(40)) + " and I love it!!!"
    seen = E._clip(long)
    assert "😂" not in seen and "https" not in seen and seen.startswith("I work as a nurse")
    assert len(seen.split()) == E.MAX_WORDS and not seen.endswith("love it!")
    assert E._clip("wow!!! really???") == "wow! really?"
    # prototype vectors (vectors.npz) were embedded from the raw texts: cleaning must not change them
    assert [p.text for p in read_banks() if E._clip(p.text) != p.text.strip()] == []


def test_process_cache_serves_a_new_run_db_without_the_model(tmp_path: Path) -> None:
    texts = ["I teach maths at a secondary school", "周末我一般去爬山"]
    a = E.embed(Recorder(open_db(tmp_path / "a.db"), run_id="a", step=0), texts)
    model, E._MODEL = E._MODEL, None
    try:
        db = open_db(tmp_path / "b.db")
        b = E.embed(Recorder(db, run_id="b", step=0), texts)
        assert E._MODEL is None                     # served by the process cache
        assert np.array_equal(a, b)
        rows = db.execute("SELECT tool, inputs FROM tool_calls WHERE run_id='b'").fetchall()
        assert [json.loads(r[1])["text"] for r in rows] == texts    # still one recorded call per sentence
    finally:
        E._MODEL = E._MODEL or model


_CHILD = """
import json, sys
import numpy as np
from db.store import open_db
from tools import embed as E
from tools.base import Recorder
v = E.embed(Recorder(open_db(sys.argv[1]), run_id=sys.argv[2], step=0), json.loads(sys.argv[3]))
print(json.dumps({"loaded": E._MODEL is not None, "sum": float(np.abs(v.astype(np.float32)).sum())}))
"""


def test_warm_rerun_in_a_new_process_never_loads_the_model(tmp_path: Path) -> None:
    db = str(tmp_path / "runs.db")
    texts = json.dumps(["I moved to Chengdu for a design job", "我每天骑车上班"])

    def child(run: str) -> dict:
        out = subprocess.run([sys.executable, "-c", _CHILD, db, run, texts], capture_output=True, text=True,
                             cwd=ROOT, check=True)
        return json.loads(out.stdout.strip().splitlines()[-1])

    cold, warm = child("cold"), child("warm")
    assert cold["loaded"] and not warm["loaded"]
    assert warm["sum"] == cold["sum"] > 0
