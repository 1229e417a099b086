"""Schema loading, round-trips of every sopri/1 model, the public loader and the truth loader."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from core.engine.types import Cue, Decision, EvidenceNode, Event, Hypothesis, RouteProposal
from core.errors import InputError
from core.eval.truth import load_truth
from core.loader import iter_posts, load_manifest, load_user, user_dirs
from core.models import (
    AccountProfile, Comment, EvidenceRef, Fact, ImageRef, Item, Level, Manifest, Post, PredictedAttribute,
    Predictions, Truth, TruthAttribute,
)
from core.schema import ATTRIBUTE_NAMES, load_schema
from foundation_fixtures import POSTS, PROFILE, TRUTH, make_bench

SPEC = Path(__file__).resolve().parents[1] / "docs" / "attributes.json"  # the spec's copy in the repository


def test_schema_has_28_attributes_in_4_dimensions() -> None:
    s = load_schema()
    assert len(s.attributes) == 28 and len(set(ATTRIBUTE_NAMES)) == 28
    assert s.dimensions == ["identity", "socioeconomic", "lifestyle", "sensitive"]
    assert all(a.dimension in s.dimensions for a in s.attributes)
    assert all(1 <= a.default_sensitivity <= 5 for a in s.attributes)
    for a in s.attributes:  # levels exist exactly for hierarchies
        assert bool(a.levels) == (a.kind == "hierarchy"), a.name
    assert s.get("home_location").levels == ["country", "region", "city", "district", "address"]
    assert s.get("age").levels == ["decade", "exact_age"]


def test_packaged_schema_equals_the_spec_copy() -> None:
    spec = json.loads(SPEC.read_text(encoding="utf-8"))
    s = load_schema()
    assert [a["name"] for a in spec["attributes"]] == s.names
    assert [a.model_dump(exclude_defaults=True) for a in s.attributes] == [
        {k: v for k, v in a.items() if v != []} for a in spec["attributes"]]


def test_schema_resolves_natural_language_names() -> None:
    s = load_schema()
    assert s.resolve("Home Location").name == "home_location"
    assert s.resolve("sex").name == "gender"
    assert s.resolve("religious belief").name == "religion"
    assert s.resolve("shoe size") is None


ROUND_TRIP = [
    Manifest(name="x", users=["u1", "u2"], extra_field={"kept": True}),
    AccountProfile(**PROFILE),
    ImageRef(file="images/a.jpg", alt="a cat"),
    Comment(author="a", text="hi"),
    *[Post(**p) for p in POSTS],
    Level(level="city", value="Shenzhen", aliases=["深圳"]),
    Item(value="Kyoto"),
    Fact(text="gym on tuesdays", keywords=[["gym"], ["tuesday", "周二"]]),
    EvidenceRef(post_id="p1", modality="image", carrier="receipt", clue="total"),
    *[TruthAttribute(**a) for a in TRUTH["leaked"] + TRUTH["hidden"]],
    Truth(**TRUTH),
    PredictedAttribute(attribute="age", value="30s", confidence=0.4, evidence=["e1"]),
    Predictions(user_id="u1", system="argus", attributes=[PredictedAttribute(attribute="gender", value="f")]),
    Cue(attribute="age", value="34", level="exact_age", span="I'm 34"),
    EvidenceNode(node_id="e1", post_id="p1", modality="text", carrier="caption", content="x", data={"field": "caption", "cues": []}),
    Hypothesis(attribute="age", value="30s", evidence=["e1"]),
    RouteProposal(family="ocr", params={"image": "img_p01_1"}, cost=1.0),
    Decision(action="approve", by="person:alice"),
    Event(run_id="r", step=1, kind="decision", data={"a": 1}),
]


@pytest.mark.parametrize("obj", ROUND_TRIP, ids=lambda o: type(o).__name__)
def test_every_model_round_trips_through_json(obj) -> None:
    cls = type(obj)
    again = cls.model_validate_json(obj.model_dump_json())
    assert again == obj
    assert again.model_dump() == obj.model_dump()


def test_extra_fields_of_input_records_are_kept() -> None:
    p = Post.model_validate({"post_id": "p1", "likes": 12, "location_tag": "Nanshan"})
    assert p.model_dump()["likes"] == 12
    assert p.text_fields() == []
    assert Post(**POSTS[1]).text_fields() == [("caption", "周末"), ("caption", "Back from Kyoto, nursing shift tomorrow"),
                                              ("caption", "welcome back!")]


def test_truth_display_values() -> None:
    t = Truth(**TRUTH)
    assert t.leaked[0].display_value() == "Nanshan District, Shenzhen, Guangdong, China"
    assert t.leaked[2].display_value() == "Kyoto"


def test_load_user_is_the_public_view(tmp_path: Path) -> None:
    bench = make_bench(tmp_path / "b")
    assert load_manifest(bench).users == ["u001", "u002"]
    assert [u for u, _ in user_dirs(bench)] == ["u001", "u002"]
    view = load_user(bench / "users" / "u001")
    assert view.profile.nickname == "小鹿" and [p.post_id for p in view.posts] == ["p01", "p02", "p03"]
    assert "leaked" not in view.model_dump_json()
    assert view.image_path(view.posts[0].images[0]).is_file()


def test_loader_never_opens_truth_files(tmp_path: Path) -> None:
    """An audit hook records every file the loader opens, in a fresh interpreter."""
    bench = make_bench(tmp_path / "b")
    code = textwrap.dedent(f"""
        import sys
        opened = []
        sys.addaudithook(lambda ev, args: opened.append(str(args[0])) if ev == "open" and args else None)
        from core.loader import load_user, user_dirs
        for _, d in user_dirs({str(bench)!r}):
            load_user(d)
        print("\\n".join(opened))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120).stdout
    assert "posts.jsonl" in out  # the hook sees the loader's reads
    assert "truth" not in out.replace(str(bench), "")


def test_broken_posts_line_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "posts.jsonl"
    path.write_text('{"post_id": "p1"}\n\n{"post_id": "p2", \n{"caption": "no id"}\n', encoding="utf-8")
    with pytest.raises(InputError) as ei:
        list(iter_posts(path))
    assert ei.value.line == 3 and ei.value.file == str(path) and "broken JSON" in ei.value.reason
    errors: list[InputError] = []
    posts = list(iter_posts(path, strict=False, errors=errors))
    assert [p.post_id for p in posts] == ["p1"]  # the good line is not lost
    assert [(e.line, e.field) for e in errors] == [(3, None), (4, "post_id")]
    assert f"{path}:4 [post_id]" in errors[1].message


def test_loader_errors_for_missing_and_broken_files(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="user folder not found"):
        load_user(tmp_path / "nobody")
    udir = tmp_path / "u"
    udir.mkdir()
    (udir / "profile.json").write_text('{"user_id": 5}', encoding="utf-8")
    (udir / "posts.jsonl").write_text("", encoding="utf-8")
    with pytest.raises(InputError) as ei:
        load_user(udir, strict=True)
    assert ei.value.field == "user_id" and ei.value.file.endswith("profile.json")
    # not strict (the engine): the bad field is reported and the folder name stands in
    errors: list[InputError] = []
    assert load_user(udir, errors=errors).profile.user_id == "u"
    assert [(e.field, e.file.endswith("profile.json")) for e in errors] == [("user_id", True)]
    (udir / "profile.json").write_bytes(b"\x80\x81 not utf8")
    with pytest.raises(InputError, match="UTF-8"):
        load_user(udir, strict=True)
    with pytest.raises(InputError, match="manifest.json"):
        load_manifest(tmp_path)


def test_load_truth(tmp_path: Path) -> None:
    bench = make_bench(tmp_path / "b")
    udir = bench / "users" / "u001"
    t = load_truth(udir)
    assert t.user_id == "u001" and [a.attribute for a in t.leaked][:2] == ["home_location", "gender"]
    assert load_truth(udir / "truth.json") == t
    data = json.loads((udir / "truth.json").read_text(encoding="utf-8"))
    data["leaked"][2]["sensitivity"] = 7
    (udir / "truth.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InputError) as ei:
        load_truth(udir)
    assert ei.value.field == "leaked.2.sensitivity" and ei.value.file.endswith("truth.json")
    (udir / "truth.json").write_text('{"user_id": "u001",\n"leaked": [}', encoding="utf-8")
    with pytest.raises(InputError) as ei:
        load_truth(udir)
    assert ei.value.line == 2
    (udir / "truth.json").unlink()
    with pytest.raises(InputError, match="not found"):
        load_truth(udir)
