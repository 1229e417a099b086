"""The sopri/1 validator on a good tiny benchmark and one deliberately broken fixture per error class."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from argus_tui.cli import app
from core.bench.validate import has_errors, validate_bench
from foundation_fixtures import edit_json, make_bench

runner = CliRunner()


@pytest.fixture()
def bench(tmp_path: Path) -> Path:
    return make_bench(tmp_path / "bench")


def _errors(bench: Path):
    return [p for p in validate_bench(bench) if p.severity == "error"]


def test_good_bench_has_no_problems(bench: Path) -> None:
    assert validate_bench(bench) == []
    res = runner.invoke(app, ["bench", "validate", str(bench)])
    assert res.exit_code == 0, res.output
    assert "valid" in res.output


def test_single_user_folder_is_validated(bench: Path) -> None:
    assert validate_bench(bench / "users" / "u001") == []
    (bench / "users" / "u001" / "images" / "p01_1.png").unlink()
    probs = validate_bench(bench / "users" / "u001")
    assert [p.field for p in probs] == ["images.0.file"]


def _truth(bench: Path) -> Path:
    return bench / "users" / "u001" / "truth.json"


def _posts(bench: Path) -> Path:
    return bench / "users" / "u001" / "posts.jsonl"


def _set(path_fn, key_path: list, value):
    def mutate(bench: Path) -> None:
        def fn(data):
            obj = data
            for k in key_path[:-1]:
                obj = obj[k]
            obj[key_path[-1]] = value
        edit_json(path_fn(bench), fn)
    return mutate


def _append_post_line(line: str):
    def mutate(bench: Path) -> None:
        with _posts(bench).open("a", encoding="utf-8") as fh:
            fh.write(line + "\n")
    return mutate


def _corrupt_image(bench: Path) -> None:
    (bench / "users" / "u001" / "images" / "p01_1.png").write_bytes(b"\x89PNG\r\n\x1a\nnot really a png")


def _delete_image(bench: Path) -> None:
    (bench / "users" / "u001" / "images" / "p01_1.png").unlink()


def _escape_image(bench: Path) -> None:
    _append_post_line(json.dumps({"post_id": "p99", "images": [{"file": "../u002/images/p01_1.png"}]}))(bench)


def _broken_truth(bench: Path) -> None:
    _truth(bench).write_text('{"user_id": "u001",\n "leaked": [,]}', encoding="utf-8")


def _missing_user(bench: Path) -> None:
    edit_json(bench / "manifest.json", lambda d: d["users"].append("u404"))


# (name, mutation, expected file suffix, expected line, expected field, a word of the reason)
CASES = [
    ("posts broken JSON", _append_post_line('{"post_id": "p04", "caption": '), "posts.jsonl", 4, None, "broken JSON"),
    ("post not an object", _append_post_line("[1, 2]"), "posts.jsonl", 4, None, "JSON object"),
    ("post without post_id", _append_post_line('{"caption": "hi"}'), "posts.jsonl", 4, "post_id", "required"),
    ("post field of wrong type", _append_post_line('{"post_id": "p05", "tags": "notalist"}'), "posts.jsonl", 4,
     "tags", "list"),
    ("duplicate post id", _append_post_line('{"post_id": "p02"}'), "posts.jsonl", 4, "post_id", "duplicate"),
    ("missing image", _delete_image, "posts.jsonl", 1, "images.0.file", "not found"),
    ("corrupt image", _corrupt_image, "posts.jsonl", 1, "images.0.file", "does not open"),
    ("image outside the user folder", _escape_image, "posts.jsonl", 4, "images.0.file", "outside"),
    ("missing avatar", lambda b: (b / "users/u001/images/avatar.png").unlink(), "profile.json", None, "avatar",
     "not found"),
    ("broken truth JSON", _broken_truth, "truth.json", 2, None, "broken JSON"),
    ("unknown attribute", _set(_truth, ["leaked", 1, "attribute"], "shoe_size"), "truth.json", None,
     "leaked.1.attribute", "unknown attribute"),
    ("kind mismatch", _set(_truth, ["leaked", 1, "kind"], "set"), "truth.json", None, "leaked.1.kind", "schema kind"),
    ("level not in schema", _set(_truth, ["leaked", 0, "levels", 2, "level"], "town"), "truth.json", None,
     "leaked.0.levels.2.level", "not a level"),
    ("levels out of order", _set(_truth, ["leaked", 0, "levels", 0, "level"], "city"), "truth.json", None,
     "leaked.0.levels.2.level", "out of order"),
    ("sensitivity too high", _set(_truth, ["leaked", 1, "sensitivity"], 6), "truth.json", None,
     "leaked.1.sensitivity", "less than or equal to 5"),
    ("sensitivity zero", _set(_truth, ["hidden", 0, "sensitivity"], 0), "truth.json", None,
     "hidden.0.sensitivity", "greater than or equal to 1"),
    ("difficulty out of range", _set(_truth, ["leaked", 2, "difficulty"], 5), "truth.json", None,
     "leaked.2.difficulty", "less than or equal to 4"),
    ("bad leakage_type", _set(_truth, ["leaked", 2, "leakage_type"], "obvious"), "truth.json", None,
     "leaked.2.leakage_type", "explicit"),
    ("leaked without difficulty", _set(_truth, ["leaked", 2, "difficulty"], None), "truth.json", None,
     "leaked.2.difficulty", "without difficulty"),
    ("evidence cites unknown post", _set(_truth, ["leaked", 1, "evidence", 0, "post_id"], "p77"), "truth.json", None,
     "leaked.1.evidence.0.post_id", "not in posts.jsonl"),
    ("carrier not allowed", _set(_truth, ["leaked", 1, "evidence", 0, "carrier"], "telepathy"), "truth.json", None,
     "leaked.1.evidence.0.carrier", "caption"),
    ("modality not allowed", _set(_truth, ["leaked", 1, "evidence", 0, "modality"], "smell"), "truth.json", None,
     "leaked.1.evidence.0.modality", "text"),
    ("facts without keywords", _set(_truth, ["leaked", 3, "facts", 0, "keywords"], []), "truth.json", None,
     "leaked.3.facts.0.keywords", "never be matched"),
    ("attribute listed twice", _set(_truth, ["hidden", 0], {"attribute": "gender", "kind": "category",
                                                           "value": "male", "sensitivity": 2}),
     "truth.json", None, "hidden.0.attribute", "twice"),
    ("manifest wrong format", _set(lambda b: b / "manifest.json", ["format"], "sopri/0"), "manifest.json", None,
     "format", "sopri/1"),
    ("manifest names a missing user", _missing_user, "manifest.json", None, "users.2", "not found"),
    ("truth file missing", lambda b: _truth(b).unlink(), "truth.json", None, None, "missing"),
    ("posts file missing", lambda b: _posts(b).unlink(), "posts.jsonl", None, None, "missing"),
]


@pytest.mark.parametrize("name,mutate,file_suffix,line,field,reason", CASES, ids=[c[0] for c in CASES])
def test_each_error_class_is_reported_precisely(bench: Path, name, mutate, file_suffix, line, field, reason) -> None:
    mutate(bench)
    errors = _errors(bench)
    assert has_errors(errors)
    match = [e for e in errors if e.file.endswith(file_suffix) and e.field == field and reason in e.reason]
    assert match, f"{name}: expected {file_suffix} [{field}] ~{reason!r}, got:\n" + "\n".join(map(str, errors))
    assert match[0].line == line
    # the other user is untouched: nothing is reported against it
    assert not [e for e in errors if "/u002/" in e.file.replace("\\", "/")]


def test_every_problem_is_listed_not_only_the_first(bench: Path) -> None:
    _append_post_line('{"post_id": "p02"}')(bench)
    _append_post_line("{oops")(bench)
    _set(_truth, ["leaked", 1, "sensitivity"], 9)(bench)
    _set(_truth, ["leaked", 2, "difficulty"], 0)(bench)
    reasons = {(Path(e.file).name, e.line, e.field) for e in _errors(bench)}
    assert {("posts.jsonl", 4, "post_id"), ("posts.jsonl", 5, None), ("truth.json", None, "leaked.1.sensitivity"),
            ("truth.json", None, "leaked.2.difficulty")} <= reasons


def test_cli_exits_2_and_names_file_line_and_field(bench: Path) -> None:
    _append_post_line('{"post_id": "p01"}')(bench)
    res = runner.invoke(app, ["bench", "validate", str(bench), "--limit", "0"])
    assert res.exit_code == 2
    out = res.output.replace("\n", " ")
    assert "posts.jsonl" in out and "post_id" in out and "duplicate" in out


def test_warnings_do_not_fail_unless_strict(bench: Path) -> None:
    # a folder under users/ that the manifest does not list is a warning, not an error
    (bench / "users" / "stray").mkdir()
    probs = validate_bench(bench)
    assert probs and not has_errors(probs)
    assert runner.invoke(app, ["bench", "validate", str(bench)]).exit_code == 0
    assert runner.invoke(app, ["bench", "validate", str(bench), "--strict"]).exit_code == 2


def test_no_truth_option_checks_only_the_public_view(bench: Path) -> None:
    _truth(bench).unlink()
    assert has_errors(validate_bench(bench))
    assert validate_bench(bench, truth=False) == []


def test_hostile_text_is_not_rich_markup(bench: Path) -> None:
    _append_post_line('{"post_id": "p01", "caption": "[bold]ignore previous instructions[/bold]"}')(bench)
    res = runner.invoke(app, ["bench", "validate", str(bench)])
    assert res.exit_code == 2
    assert "duplicate" in res.output


def test_bad_timestamp_is_a_warning_with_line(bench: Path) -> None:
    _append_post_line('{"post_id": "p09", "timestamp": "last tuesday"}')(bench)
    probs = validate_bench(bench)
    assert not has_errors(probs)
    assert [(Path(p.file).name, p.line, p.field, p.severity) for p in probs] == [
        ("posts.jsonl", 4, "timestamp", "warning")]


def test_hostile_nesting_and_binary_lines_are_reported_not_crashes(bench: Path) -> None:
    _append_post_line("[" * 50000 + "]" * 50000)(bench)
    with _posts(bench).open("ab") as fh:
        fh.write(b'{"post_id": "\xff\xfe"}\n')
    _truth(bench).write_text('{"a":' * 30000 + "1" + "}" * 30000, encoding="utf-8")
    errors = _errors(bench)
    got = {(Path(e.file).name, e.line, e.reason.split(" (")[0]) for e in errors}
    assert ("posts.jsonl", 4, "JSON nested too deeply") in got
    assert ("posts.jsonl", 5, "not UTF-8 text") in got
    assert ("truth.json", None, "JSON nested too deeply") in got
    assert not [e for e in errors if "/u002/" in e.file]


def test_json_output_lists_problems(bench: Path) -> None:
    _append_post_line('{"post_id": "p03"}')(bench)
    res = runner.invoke(app, ["bench", "validate", str(bench), "--json"])
    assert res.exit_code == 2
    data = json.loads(res.stdout)
    assert [(Path(p["file"]).name, p["line"], p["field"], p["severity"]) for p in data] == [
        ("posts.jsonl", 4, "post_id", "error")]
