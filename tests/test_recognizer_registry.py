"""The recognizer registry (issue 33): every reader of text declared as data, discovered from the data
files, each cue naming the recognizer that read it, an undeclared extractor or attribute refused."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.engine.rules import data_file, occupation_taxonomy
from core.engine.rules.extract import EXTRACTORS, REGISTRY, extract_cues
from core.engine.rules.registry import RECOGNIZERS_DIR, Declared, RecognizerError, bind, declarations

ROOT = Path(__file__).resolve().parents[1]


def test_every_extractor_and_data_file_is_declared() -> None:
    names = set(REGISTRY.declared)
    # every Python extractor, under its function's name, and the recognizers declared by their data files
    assert {ex.__name__ for ex in EXTRACTORS} <= names
    assert {"occupation_taxonomy", "document_names", "age_arithmetic", "health_context", "workplace_labels",
            "semantic_banks"} <= names
    # the Python extractors in order, then the recognizers declared by data alone ("runner": "patterns")
    runners = [n for n, _ in REGISTRY.runners]
    assert runners[:len(EXTRACTORS)] == [ex.__name__ for ex in EXTRACTORS]
    assert all(REGISTRY.declared[n].spec.runner == "patterns" for n in runners[len(EXTRACTORS):])
    # every data file of the recognizers' folder carries the shared block (or a list of them)
    for p in sorted(RECOGNIZERS_DIR.glob("*.json")):
        raw = json.loads(p.read_text(encoding="utf-8"))
        assert "recognizer" in raw or "recognizers" in raw, p.name
    occ = REGISTRY.declared["occupation_taxonomy"]
    assert occ.where == "core/data/recognizers/occupations.json"
    assert occ.spec.attributes == ["occupation"] and "ja" in occ.spec.languages and "holder" in occ.spec.reads
    assert REGISTRY.declared["age_arithmetic"].where == "core/data/age_milestones.json"
    assert REGISTRY.declared["health_context"].spec.part_of == "health_condition"
    # one model for the block: the taxonomy file validates it with the shared class
    assert occupation_taxonomy.TaxonomyFile.model_fields["recognizer"].annotation is data_file.Recognizer


def test_select_filters_by_attribute_and_language() -> None:
    occ = {d.name for d in REGISTRY.select(attribute="occupation")}
    assert {"occupation", "occupation_taxonomy", "labelled_fields", "semantic_banks"} <= occ
    assert "gender" not in occ
    ja = {d.name for d in REGISTRY.select(attribute="occupation", lang="ja")}
    assert "occupation_taxonomy" in ja and "occupation" not in ja      # the closed role table reads en / zh


def test_cues_name_their_recognizer() -> None:
    cues = extract_cues("As a pharmacy technician I count pills all day. My husband says I work too much.")
    by = {(c.attribute, c.recognizer) for c in cues}
    assert ("occupation", "occupation_taxonomy") in by
    assert ("relationship_status", "relationship_status") in by or ("relationship_status", "reading_cues") in by
    occ = next(c for c in cues if c.recognizer == "occupation_taxonomy")
    assert occ.data.entry == "3213-pharmacy-technician"
    assert all(c.recognizer in REGISTRY.declared for c in cues)


def test_an_undeclared_attribute_is_refused() -> None:
    with pytest.raises(RecognizerError, match="'gender' emitted a 'age' cue"):
        REGISTRY.check("gender", "age")
    with pytest.raises(RecognizerError, match="not declared"):
        REGISTRY.check("no_such_recognizer", "age")

    def sneaky(ctx):  # noqa: ANN001,ANN202  an extractor nobody declared
        return []

    with pytest.raises(RecognizerError, match="sneaky"):
        bind([*EXTRACTORS, sneaky])


def test_extra_folder_joins_and_bad_blocks_name_file_and_field(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pets.json").write_text(json.dumps({"recognizer": {
        "name": "pet_owner", "attributes": ["family_and_relations"], "languages": ["en"], "reads": ["masked"]}}))
    monkeypatch.setenv("ARGUS_DATA_EXTRA", str(tmp_path))
    assert "pet_owner" in {d.name for d in declarations()}
    reg = bind(EXTRACTORS, also=("pet_owner",))
    assert reg.declared["pet_owner"].source == tmp_path / "pets.json"
    # an attribute outside the schema, an unknown read field, two declarations of one name: one line each
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"recognizer": {"name": "x_reader", "attributes": ["shoe_size"], "languages": ["en"],
                                              "reads": ["masked"]}}))
    with pytest.raises(RecognizerError, match=r"bad\.json: entry x_reader: field attributes"):
        bind(EXTRACTORS)
    bad.write_text(json.dumps({"recognizer": {"name": "x_reader", "attributes": ["age"], "languages": ["en"],
                                              "reads": ["mind"]}}))
    with pytest.raises(RecognizerError, match=r"bad\.json: entry x_reader: field reads: unknown field"):
        declarations()
    bad.write_text(json.dumps({"recognizer": {"name": "gender", "attributes": ["gender"], "languages": ["en"],
                                              "reads": ["masked"]}}))
    with pytest.raises(RecognizerError, match="'gender' is already declared"):
        bind(EXTRACTORS)


def test_declared_is_what_is_emitted_on_real_text() -> None:
    """Each recognizer's declaration covers what it reads in a few kinds of real text (the check raises)."""
    texts = ["I'm 34 and a nurse in Leeds, married with two kids.", "我是一名护士，住在上海，今年三十岁。",
             "Name: OSEI, DANIEL\nDepartment: Radiology\nEmployer: Leeds General", "Sat my GCSEs in 2009, feel old"]
    got = {(c.recognizer, c.attribute) for t in texts for c in extract_cues(t, carrier="document" if "Name" in t else None)}
    assert ("document_names", "real_name") in got and ("age_arithmetic", "age") in got
    for name, attr in got:
        assert attr in REGISTRY.declared[name].spec.attributes
    assert isinstance(REGISTRY.declared["document_names"], Declared)
