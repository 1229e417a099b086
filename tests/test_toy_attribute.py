"""A new attribute from data files alone (issue 33, "a new attribute needs at most 3 files"): a test
folder holds an attribute declaration (attributes.json) and a recognizer file run by the generic data
runner (rules/data_runner.py: patterns, lexicons, context words); ARGUS_DATA_EXTRA points the engine at
it, and the real engine (offline backend, real SQLite) proposes, verifies and projects the attribute.
The schema is read once per process, so the engine runs in a child process with the variable set."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.engine.rules.data_runner import DataRunnerError, load
from core.schema import ATTRIBUTE_NAMES, _extra_attributes

ROOT = Path(__file__).resolve().parents[1]
ATTRS = {"attributes": [{"name": "pet_ownership", "dimension": "lifestyle", "kind": "set", "default_sensitivity": 1,
                         "aliases": ["pets"]}]}
PETS = {"recognizer": {"name": "pet_owner", "attributes": ["pet_ownership"], "languages": ["en"],
                       "reads": ["masked", "holder", "stance", "lexicon"], "runner": "patterns", "scores": {"base": 0.55}},
        "about": "a pet the poster keeps",
        "patterns": [{"id": "my-pet", "lang": "en", "regex": r"\bmy (?:little |old )?(?P<value>dog|cat|hamster)\b"}],
        "lexicons": [{"id": "breeds", "lang": "en", "terms": ["golden retriever"], "value": "dog", "score": 0.4}],
        "context": [{"words": {"en": ["vet", "walkies"]}, "delta": 0.15, "why": "care words: the pet is theirs"}]}
POSTS = ["Took my dog to the vet today, she is fine now", "Long walkies with my dog this morning before work",
         'My sister says: "my hamster is a genius"']

RUN = r"""
import json, sys
from pathlib import Path
from db import queries
from tests.hard_negatives import Case, profile_of
root = Path(sys.argv[1])
prof, inv = profile_of(root, Case("toy", json.loads(sys.argv[2])))
hyps = [{"attribute": h.attribute, "value": h.value, "status": h.status,
         "recognizers": sorted({c.recognizer for s in inv.graph.supporters(h.node_id)
                                for c in (inv.graph.nodes[s].data.cues or []) if c.attribute == h.attribute})}
        for h in inv.graph.hypotheses()]
rows = queries.profile_rows(inv.ctx.db, inv.run_id)
print(json.dumps({"profile": prof, "hypotheses": hyps, "stored": [[r["attribute"], r["value"]] for r in rows]}))
"""


def _engine(root: Path, extra: Path | None) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("ARGUS_DATA_EXTRA", None)
    if extra is not None:
        env["ARGUS_DATA_EXTRA"] = str(extra)
    r = subprocess.run([sys.executable, "-c", RUN, str(root), json.dumps(POSTS)], capture_output=True, text=True,
                       env=env, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_a_toy_attribute_from_two_data_files(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "attributes.json").write_text(json.dumps(ATTRS), encoding="utf-8")
    (data / "pets.json").write_text(json.dumps(PETS), encoding="utf-8")
    out = _engine(tmp_path / "with", data)
    pet = [h for h in out["hypotheses"] if h["attribute"] == "pet_ownership"]
    # proposed (by the generic aggregator), verified (admitted) and projected into the profile
    assert [(h["value"], h["status"]) for h in pet] == [("dog", "admitted")], out["hypotheses"]
    assert pet[0]["recognizers"] == ["pet_owner"]
    assert out["profile"].get("pet_ownership") == "dog"
    assert ["pet_ownership", "dog"] in out["stored"]
    # the sister's hamster is hers (a quote of another person: the shared reading, Ctx.cue), never claimed
    assert not any(h["value"] == "hamster" for h in pet)
    # without the folder the engine knows no such attribute
    plain = _engine(tmp_path / "without", None)
    assert "pet_ownership" not in plain["profile"]
    assert not any(h["attribute"] == "pet_ownership" for h in plain["hypotheses"])


def test_the_28_stay_and_bad_toy_files_name_file_and_field(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert len(ATTRIBUTE_NAMES) == 28 and "pet_ownership" not in ATTRIBUTE_NAMES
    monkeypatch.setenv("ARGUS_DATA_EXTRA", str(tmp_path))
    (tmp_path / "attributes.json").write_text(json.dumps({"attributes": [{**ATTRS["attributes"][0], "name": "age"}]}))
    with pytest.raises(ValueError, match=r"attributes\.json: field attributes\[0\]\.name: 'age' is already an attribute"):
        _extra_attributes(["identity", "lifestyle"], set(ATTRIBUTE_NAMES))
    (tmp_path / "attributes.json").write_text(json.dumps({"attributes": [{**ATTRS["attributes"][0], "dimension": "pets"}]}))
    with pytest.raises(ValueError, match=r"field attributes\[0\]\.dimension"):
        _extra_attributes(["identity", "lifestyle"], set(ATTRIBUTE_NAMES))
    bad = {**PETS, "patterns": [{**PETS["patterns"][0], "regex": "my (dog"}]}
    with pytest.raises(DataRunnerError, match=r"pets\.json: field patterns\.0\.regex: not a regular expression"):
        load(bad, "pets.json")
    bad = {**PETS, "patterns": [{**PETS["patterns"][0], "lang": "fr"}]}
    with pytest.raises(DataRunnerError, match=r"patterns\[0\] \(my-pet\): field lang: 'fr' is not declared"):
        load(bad, "pets.json")
    # lexicons are read through the Document's lexicon hits: a file with lexicons declares that read
    bad = {**PETS, "recognizer": {**PETS["recognizer"], "reads": ["masked", "holder", "stance"]}}
    with pytest.raises(DataRunnerError, match=r"pets\.json: field file: recognizer\.reads: the runner reads 'lexicon'"):
        load(bad, "pets.json")


def test_the_data_runner_scores_patterns_lexicons_and_context() -> None:
    """The generic runner in this process (no schema needed to read): pattern and lexicon hits with their
    scores, context words raising or lowering them, the entry id and the rule on each cue."""
    from core.engine.rules.base import Ctx
    from core.engine.rules.data_runner import runner

    raw = {**PETS, "context": [*PETS["context"], {"words": {"en": ["stuffed", "toy"]}, "delta": -0.3, "why": "a toy"}]}
    run = runner(raw, "pets.json")
    assert run.recognizer == "pet_owner"

    def read(text: str) -> list[tuple[str, float, str, str | None]]:
        ctx = Ctx(text, text, carrier=None, lang=None)
        return [(c.value, c.confidence, c.cue, c.data.entry) for c in run(ctx)]

    assert read("Long walk with my dog today") == [("dog", 0.55, "pet_owner:my-pet", "my-pet")]
    assert read("Took my dog to the vet") == [("dog", 0.7, "pet_owner:my-pet", "my-pet")]
    assert read("my hamster's stuffed toy is chewed") == [("hamster", 0.25, "pet_owner:my-pet", "my-pet")]
    assert read("Our golden retriever loves snow") == [("dog", 0.4, "pet_owner:breeds", "breeds")]
    assert read("no animals here") == []
