"""The recognizer registry (issue 33): every reader of text declared as data, discovered from the data
files, each cue naming the recognizer that read it, an undeclared extractor or attribute refused."""
from __future__ import annotations

import ast
import json
import sys
import re
from pathlib import Path

import pytest

from core.engine.reading.document import FIELD_OF
from core.engine.rules import data_file, data_runner, documents, extract, occupation_taxonomy
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


def _pets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reads: list[str], extractor) -> None:  # noqa: ANN001
    """Declare a toy recognizer `pet_owner` reading `reads` and run it in extract_cues beside the others."""
    (tmp_path / "pets.json").write_text(json.dumps({"recognizer": {
        "name": "pet_owner", "attributes": ["family_and_relations"], "languages": ["en"], "reads": reads}}))
    monkeypatch.setenv("ARGUS_DATA_EXTRA", str(tmp_path))
    monkeypatch.setattr(extract, "REGISTRY", bind([*EXTRACTORS, extractor], also=("occupation_taxonomy",)))
    documents.clear()


def _pet(ctx, *, places: bool) -> list:  # noqa: ANN001  a toy recognizer: "my cat" / "my dog" in the masked text
    m = re.search(r"(?i)\bmy (cat|dog)\b", ctx.masked)
    if m is None:
        return []
    where = f", {len(ctx.places())} place(s) in the text" if places else ""
    return [ctx.cue("family_and_relations", f"{m.group(1)} (pet{where})", m.start(), m.end(), rule="pet:my")]


def pet_by_text(ctx) -> list:  # noqa: ANN001
    return _pet(ctx, places=False)


def pet_by_places(ctx) -> list:  # noqa: ANN001
    return _pet(ctx, places=True)


pet_by_text.recognizer = pet_by_places.recognizer = "pet_owner"  # type: ignore[attr-defined]


def test_a_recognizer_reading_an_undeclared_field_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The registry hands each recognizer a view of the Document holding the fields it declares in `reads`
    (as the aggregators' Board holds what they consume): a read of any other field raises, naming the
    recognizer, the field and the file that declares it."""
    _pets(tmp_path, monkeypatch, ["masked"], pet_by_places)
    with pytest.raises(RecognizerError, match=r"recognizer 'pet_owner' reads the Document field 'places' \(places\), "
                                              r"which it does not declare in reads \(.*pets\.json\)"):
        extract.extract_cues("My cat and I moved to Leeds last spring.")
    # the same recognizer declaring the field reads it, and its cue names it
    _pets(tmp_path, monkeypatch, ["masked", "places"], pet_by_places)
    cues = [c for c in extract.extract_cues("My cat and I moved to Leeds last spring.") if c.recognizer == "pet_owner"]
    assert [(c.value, c.span) for c in cues] == [("cat (pet, 1 place(s) in the text)", "My cat")]


def test_a_recognizer_reading_only_what_it_declares_passes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _pets(tmp_path, monkeypatch, ["masked"], pet_by_text)
    cues = extract.extract_cues("My dog wakes me at six.")
    assert [(c.value, c.span) for c in cues if c.recognizer == "pet_owner"] == [("dog (pet)", "My dog")]
    # a view holds the Document's fields only: its private state, a write and another field's method are refused too
    view = extract.REGISTRY.view("pet_owner", documents.document("My dog wakes me at six."))
    with pytest.raises(RecognizerError, match=r"'pet_owner' reads '_places', which is no Document field"):
        view._places  # noqa: B018
    with pytest.raises(RecognizerError, match=r"'pet_owner' writes 'masked'"):
        view.masked = ""
    with pytest.raises(RecognizerError, match=r"'pet_owner' reads the Document field 'holder' \(speaker\)"):
        view.speaker(0, "pet:my")
    assert not hasattr(view, "no_such_thing") and view.masked == "My dog wakes me at six."


def _reads_in_code(qualname: str, arg: int | str, funcs: dict, imports: dict, seen: set) -> set[str]:
    """The attributes a function reads of its argument `arg` (position or name), through every function of
    core/engine/rules and reading it hands that argument to."""
    if (qualname, arg) in seen or qualname not in funcs:
        return set()
    seen.add((qualname, arg))
    node, mod = funcs[qualname]
    params = [a.arg for a in node.args.args]
    name = params[arg] if isinstance(arg, int) else arg
    if isinstance(arg, int) and arg >= len(params):
        return set()

    def callee(f: ast.expr) -> str | None:
        if isinstance(f, ast.Name):
            return f"{mod}.{f.id}" if f"{mod}.{f.id}" in funcs else imports[mod].get(f.id)
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in imports[mod]:
            return f"{imports[mod][f.value.id]}.{f.attr}"
        return None

    out: set[str] = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == name:
            out.add(n.attr)
        elif isinstance(n, ast.Call):
            f = n.func      # a family's declared rules (`_R.run(ctx, "step")`): what they read and their checks
            rules = getattr(sys.modules[mod], f.value.id, None) if isinstance(f, ast.Attribute) \
                and isinstance(f.value, ast.Name) and mod in sys.modules else None
            if isinstance(rules, data_runner.Rules) and f.attr == "run" and getattr(n.args[0], "id", "") == name:
                attrs, checks = rules.reads(n.args[1].value)
                out |= attrs
                for fn in checks:
                    out |= _reads_in_code(f"{fn.__module__}.{fn.__name__}", 0, funcs, imports, seen)
            passed = [(i, a) for i, a in enumerate(n.args)] + [(k.arg, k.value) for k in n.keywords]
            for at, a in passed:
                if isinstance(a, ast.Name) and a.id == name:
                    out |= _reads_in_code(callee(n.func) or "?", at, funcs, imports, seen)
    return out


def test_each_recognizer_s_code_reads_only_the_fields_it_declares() -> None:
    """Read statically (every function of rules/ and reading/ the Document is handed to): a recognizer
    whose code reads a field its declaration lacks fails here, before a text that takes that path raises."""
    funcs: dict[str, tuple[ast.FunctionDef, str]] = {}
    imports: dict[str, dict[str, str]] = {}
    for p in sorted((ROOT / "core/engine/rules").glob("*.py")) + sorted((ROOT / "core/engine/reading").glob("*.py")):
        mod = ".".join(p.relative_to(ROOT).with_suffix("").parts)
        tree = ast.parse(p.read_text(encoding="utf-8"))
        imports[mod] = {a.asname or a.name: f"{n.module}.{a.name}" for n in ast.walk(tree)
                        if isinstance(n, ast.ImportFrom) and n.module for a in n.names}
        for n in ast.walk(tree):
            if isinstance(n, ast.FunctionDef):
                funcs.setdefault(f"{mod}.{n.name}", (n, mod))
    runs = {name: f"{ex.__module__}.{ex.__name__}" for name, ex in REGISTRY.runners if ex.__module__ != data_runner.__name__}
    runs["occupation_taxonomy"] = "core.engine.rules.occupation_taxonomy.merge"
    assert len(runs) >= 34
    bad = {}
    for name, qualname in runs.items():
        read = _reads_in_code(qualname, 0, funcs, imports, set())
        assert "masked" in read or "text" in read, name          # the reading is followed at all
        view = REGISTRY.views[name]
        missing = sorted({f"{FIELD_OF[a]} ({a})" for a in read if a in FIELD_OF and a not in vars(view)})
        if missing:
            bad[name] = missing
    assert bad == {}, f"recognizers reading fields they do not declare: {bad}"


def test_a_view_is_one_slot_reading_through_and_its_cue_builder_names_the_recognizer() -> None:
    """Handing a recognizer its view of a text costs one small object (issue 33's time per user,
    benchmarks/recognizer_views.py): no per-view dict of cached reads, the Document's attributes read
    through, and a cue built through the view carries its recognizer's name from the start (no second
    validation when extract_cues would assign it)."""
    doc = documents.document("I'm 34 and my dog wakes me at six.")
    view = REGISTRY.view("age", doc)
    assert not hasattr(view, "__dict__")
    assert view.masked is doc.masked and view.lower is doc.lower
    other = REGISTRY.view("age", documents.document("A second text."))
    assert other.masked == "A second text." and view.masked is doc.masked      # each view its own Document
    c = view.cue("age", "34", 4, 6, rule="age:test")
    assert c.recognizer == "age" and c.span == "34"
    assert doc.cue("age", "34", 4, 6, rule="age:test").recognizer == ""       # the Document's own builder names none
    assert all(c.recognizer for c in extract_cues("I'm 34 and my dog wakes me at six."))
